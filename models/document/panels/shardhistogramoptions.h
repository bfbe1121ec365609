// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A shardhistogram panel's options (query/shards/shardquery.h reads them), checked when
// a dashboard file is read:
//   overloadedPercent  a load above it is "overloaded"; a number of at least 0
// Unknown keys are refused: these panel types are new, so a typo is more likely than a
// file from another version.
#pragma once

#include "document/dashboard.h"

namespace Headroom {

class JsonReader;

// path: the panel's ("panels[2]"); a refusal names the option below it.
bool checkShardHistogramPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path);

// "overloadedPercent" of a shard panel's options (at optionsPath), shared with the
// shardtable panel (shardtableoptions.h): absent, or a finite number of at least 0.
bool checkShardOverloadedPercent(JsonReader &reader, const QJsonObject &options,
                                 const QString &optionsPath);

// "unknown option (a <type> panel takes: <keys>)" for a key not in `keys`.
bool checkShardOptionKeys(JsonReader &reader, const DashboardPanel &panel,
                          const QString &optionsPath, const QStringList &keys);

} // namespace Headroom
