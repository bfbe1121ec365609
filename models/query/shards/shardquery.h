// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Queries of the shard panels (see shardload.h for what they compute) and their CSV
// rows, called by their descriptors (query/panels/shardhistogrampanel.cpp,
// shardtablepanel.cpp).
//
// Both read the panel's selectors as shard-load series (pg.shard.load{set, shard});
// a matched histogram series, or one of the ops metric, is no load series. The table
// takes each shard's ops from the series of the same source and labels whose metric
// is the panel option "opsMetric" (default pg.shard.ops.rate).
//
// Panel options (checked when a dashboard file is read):
//   overloadedPercent  a load above it is "overloaded" (both types); default the
//                      panel's thresholds.warning when set, else 60
//   top                shardtable: rows shown, the first after sorting (default 10)
//   columns            shardtable: names from shardColumnNames(), in display order
//   opsMetric          shardtable: see above
// (document/panels/shardhistogramoptions.h, shardtableoptions.h check them).
#pragma once

#include "query/panelquery.h"

namespace Headroom {

inline constexpr int DefaultShardTableTop = 10;

// options.overloadedPercent, else thresholds.warning, else DefaultOverloadedPercent.
double shardOverloadedPercent(const DashboardPanel &panel);

// A ShardLoadHistogram payload (over time in 3/5 of `columns`, the grid's share of the panel's
// width; columns <= 0: a column per sample time), and one series: the overloaded
// count per column, metric
// "shard.load.overloaded" (unit "shards", labels {set = the set, or "*" for several}).
PanelData queryShardHistogramPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                                   const SeriesStore &store, qint64 fromMs, qint64 toMs,
                                   int columns);
// A ShardTableData payload; no series (its rows are the view).
PanelData queryShardTablePanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                               const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns);

// CSV rows of the two views, appended by csvRows() after the series rows (empty for
// panels of another type). Same columns as every CSV row (time, panel, source, metric, labels,
// value, unit):
//  - shardhistogram: per column with samples (its newest sample time) and per bucket,
//    metric "shard.load.bucket", labels {bucket=10-20%, set=...}, the shard count,
//    unit "shards" (zeros included: an empty bucket is information). The overloaded
//    series comes before them as an ordinary series.
//  - shardtable: the rows the table shows by default (busiest first, the first `top`),
//    for each the numeric columns shown, in the panel's column order, labels {rank=1,
//    set, shard}: load as the load series (pg.shard.load, its unit, at the newest
//    sample time), ops as the ops series (pg.shard.ops.rate) at that time, previous as
//    the load series at the previous sample's time, share as "shard.ops.share" (%),
//    change as "shard.load.change" (unit "points"). A value that is not known (no ops
//    series, no previous sample) gives no row. Set and shard are in the labels.
QString shardHistogramCsvRows(const PanelData &data);
QString shardTableCsvRows(const PanelData &data);

} // namespace Headroom
