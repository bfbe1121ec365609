// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Percentile lines: a histogram series selected by a timeseries panel draws as one line
// per percentile (p50, p95, p99 and max unless the panel says otherwise). Each point
// comes from the histograms merged over one pixel column; merging adds bucket counts,
// so it is exact and every point keeps LogHistogram's relative error of at most 1 %.
#pragma once

#include "query/panelquery.h"

#include <span>

namespace Headroom {

// p50, p95, p99 and max: what a panel without "percentiles" draws.
QList<double> defaultPercentiles();

// The histograms of each pixel column of [fromMs, toMs] merged into one, stamped with
// the time of the newest merged histogram (the end of the interval it covers). With
// columns <= 0, or an empty range, the histograms unchanged.
std::vector<TimedHistogram> mergePerColumn(std::span<const TimedHistogram> sorted, qint64 fromMs,
                                           qint64 toMs, int columns);

// One line per percentile for the histogram series seriesId, from its histograms in
// [fromMs, toMs] (oldest first). Each line's info is the series' with the label
// {"percentile": percentileLabel(p, PercentileLabelStyle::Line)} added, so legends and CSV rows
// tell them apart. Gaps split lines as they split value series; empty histograms (polls that saw no
// event) give no point.
QList<PanelSeriesData> percentileLines(int seriesId, const SeriesInfo &info,
                                       std::span<const TimedHistogram> sorted,
                                       const QList<double> &percentiles, qint64 fromMs, qint64 toMs,
                                       int columns);

// The APDEX line of the histogram series seriesId with T = tMs (core/apdex.h), a point
// per pixel column from the histograms merged over it, so that a zoomed-out chart
// scores every request of the column, not an average of scores. Its info is the
// series' with unit "" and the label {"apdex": "T=50ms"} added.
PanelSeriesData apdexLine(int seriesId, const SeriesInfo &info,
                          std::span<const TimedHistogram> sorted, qint64 tMs, qint64 fromMs,
                          qint64 toMs, int columns);

} // namespace Headroom
