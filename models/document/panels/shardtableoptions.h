// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A shardtable panel's options (query/shards/shardquery.h reads them; shardload.h is
// the table that draws the columns), checked when a dashboard file is read:
//   overloadedPercent  as for shardhistogram (shardhistogramoptions.h)
//   top                rows shown, a non-negative integer (0: all)
//   columns            names from shardColumnNames(), each once, in display order
//   opsMetric          the metric of the shards' ops series, a non-empty string
// Unknown keys are refused.
#pragma once

#include "document/dashboard.h"

#include <QStringList>

namespace Headroom {

class JsonReader;

// "set", "shard", "load", "ops", "previous", "share", "change" (index = ShardColumn).
QStringList shardColumnNames();

// path: the panel's ("panels[2]"); a refusal names the option below it.
bool checkShardTablePanel(JsonReader &reader, const DashboardPanel &panel, const QString &path);

} // namespace Headroom
