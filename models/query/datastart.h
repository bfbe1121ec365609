// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where a dashboard's data starts within a range: a range longer than the data present
// starts there (app/rangecontroller.h), so that a short collection fills the charts
// instead of sitting at their right edge.
#pragma once

#include "document/dashboard.h"
#include "query/panelquery.h"

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

// The earliest point of any line of the results (0: none has a point).
qint64 earliestPointMs(const QList<PanelData> &results);

// The earliest point the time series panels read from the store (not from a PromQL
// engine, whose history is its own) draw in [fromMs, toMs], reduced to `columns`
// pixel columns; 0 when they draw none.
qint64 dashboardDataStartMs(const QList<DashboardPanel> &panels, const SeriesRegistry &registry,
                            const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns);

} // namespace Headroom
