// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Durations as documents spell them ("30s", "15m", "1h"): the dashboard's time range,
// alert rule windows, the command line's --range. In core because readers in several
// layers share the one spelling.
#pragma once

#include <QString>
#include <optional>

namespace Headroom {

// "15m" -> 900000. Units ms, s, m, h, d, w; nullopt when malformed or not positive.
// formatDuration uses the largest unit that divides exactly (90000 -> "90s"), so
// parseDuration(formatDuration(ms)) == ms for every positive ms.
std::optional<qint64> parseDuration(const QString &text);
QString formatDuration(qint64 ms);

} // namespace Headroom
