// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The query of a "heatmap" panel: its matched latency series turned into one
// HeatmapGrid (latencyheatmap.h) over the panel's range. Two kinds of series fit:
//  - histogram series (SeriesInfo::histogram, latencies in ms), e.g. pg.latency.probe;
//  - Prometheus-style bucket series: one counter-rate series per bound, told apart by
//    the label `le` ("0.005", "+Inf"), cumulative ("events <= le" per second).
// Every other matched series is ignored: it has no latency distribution to draw.
#pragma once

#include "query/panelquery.h"

#include <optional>

namespace Headroom {

// Columns of a heatmap are never narrower than this many source intervals (the typical
// spacing of a series' samples): with one column per interval, timer jitter puts two
// polls in one column and none in the next, which draws as stripes of empty columns.
inline constexpr int HeatmapIntervalsPerColumn = 2;
// columns <= 0 (the CSV export) gets one column per source interval, at most this many.
inline constexpr int HeatmapMaxExportColumns = 3600;

// Every matched series of the panel into one HeatmapGrid, the PanelData's payload
// (query/panels/heatmappanel.cpp is the type's descriptor); PanelData::series lists
// the series that went into it (info only, no points: the heatmap is their view), so
// the CSV can name source and metric.
//
// Histogram series: each series' grid is heatmapFromHistograms, rescaled so a cell is
// the events of the polls in its column divided by the time those polls cover (polls ×
// interval) rather than by the column's width: a column that caught one poll more than
// its neighbour (phase drift against the range) does not look busier. Bucket series are
// grouped by their key without `le` (one histogram per group), converted with
// heatmapFromCumulativeBuckets (already a mean of per-second rates); the bounds' unit
// is the series' unit ("s", "ms", "us"/"µs"; anything else is taken as seconds, the
// Prometheus convention), overridden by the panel option "bucketUnit". Several series
// or groups are summed into one grid (sumHeatmapGrids).
//
// columns > 0 is the pixel width; it is lowered to at most range / (2 × interval).
// columns <= 0 (CSV export) uses range / interval columns, capped at
// HeatmapMaxExportColumns, with the interval defaulting to 1 s when no series has two
// samples.
PanelData queryHeatmapPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                            const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns);

// Cell-wise sum of grids over the same range and columns (other grids are skipped).
// Rows are aligned by bound: row exponent e of every grid lands in the result's row e;
// every row 0 (the catch-all) lands in row 0, and so do the fastest rows when the union
// would exceed MaxHeatmapRows, exactly as when the grids had been built as one.
HeatmapGrid sumHeatmapGrids(const QList<HeatmapGrid> &grids);

// ms per unit of an `le` bound: "s" 1000, "ms" 1, "us" and "µs" 0.001; nullopt for any
// other unit.
std::optional<double> msPerBucketUnit(const QString &unit);
// A bound as Prometheus writes it: "0.005", "1e-3", "+Inf"; nullopt when unreadable.
std::optional<double> parseLeBound(const QString &text);

} // namespace Headroom
