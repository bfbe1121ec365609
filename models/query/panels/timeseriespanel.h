// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The timeseries panel ("type": "timeseries"): a time chart of its series, with alert
// spans and compare mode. Its series are its whole view, so it has no CSV rows of its own.
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

// The lines of a time chart over the range: each matched value series split at gaps and
// reduced to `columns` (min and max per column; a mean per column when options.stacked,
// so that stacked bands share their timestamps), each histogram series as its percentile
// lines (panel.percentiles, else the defaults; percentilelines.h). Also what
// addComparison() reads for the earlier range.
PanelData queryTimeSeries(const DashboardPanel &panel, const SeriesRegistry &registry,
                          const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns);

} // namespace Headroom
