// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How long the cache keeps what it collects: raw samples, and the minute and hour rollup
// tiers (engine/cache/rollup.h). For one run --retention, --minute-retention and
// --hour-retention; else the user's setting (Settings ▸ Keep History…, stored in
// headroom.conf); else 30, 90 and 400 days. Whole days from 1 to 400. GUI-free so the
// rules can be tested.
#pragma once

#include "engine/cache/samplecache.h"

#include <QString>
#include <optional>

namespace Headroom {

struct RetentionDays
{
    int raw = 0; // 0: not chosen (the setting, else the default)
    int minute = 0;
    int hour = 0;
    friend bool operator==(const RetentionDays &, const RetentionDays &) = default;
};

// "30d", "8w", "400d": whole days within the bounds; nullopt with *error otherwise.
std::optional<int> parseRetention(const QString &text, QString *error);

// The stored setting, each clamped to the bounds; the default where none is stored.
RetentionDays retentionSetting();
void saveRetentionSetting(const RetentionDays &days);
// What a run uses: each of `chosen` that is set, else the setting.
RetentionDays effectiveRetention(const RetentionDays &chosen);
// Cache options with effectiveRetention(chosen).
CacheOptions cacheOptionsWithRetention(const RetentionDays &chosen);

} // namespace Headroom
