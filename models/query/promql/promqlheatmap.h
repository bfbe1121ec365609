// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A heatmap panel with a PromQL `query`: the histograms its expression gives (classic
// `le` bound series or native histograms, promqlhistograms.h) over the panel's range,
// summed into one HeatmapGrid as the local heatmap sums its series. The expression must
// give rates (events per second), as rate() or increase()/range does:
//   "sum by (le) (rate(http_request_duration_seconds_bucket[1m]))"
//   "sum(rate(http_request_duration_seconds[1m]))"  (native)
// Bounds are in the panel's option "bucketUnit", else its "unit" when that is a time
// unit, else seconds (the Prometheus convention).
//
// The range is read as a timeseries panel's (fetchPromqlRange: chunks, cache, 10 s
// deadline). The step is the timeseries one for the requested columns; the grid has one
// column per whole step (fewer than requested when the step had to be rounded up), so
// every column holds a step's point; CSV exports get PromqlCsvPoints steps, at most
// HeatmapMaxExportColumns columns. PanelData::series names each histogram (info only).
#pragma once

#include "query/panelquery.h"

namespace Headroom {

class PromqlEngines;

PanelData queryPromqlHeatmap(const DashboardPanel &panel, const PromqlEngines *engines,
                             qint64 fromMs, qint64 toMs, int columns, qint64 nowMs);

} // namespace Headroom
