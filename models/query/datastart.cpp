// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/datastart.h"

namespace Headroom {

qint64 earliestPointMs(const QList<PanelData> &results)
{
    qint64 earliest = 0;
    for (const PanelData &result : results) {
        for (const PanelSeriesData &series : result.series) {
            if (!series.points.empty() && (earliest == 0 || series.points.front().tsMs < earliest))
                earliest = series.points.front().tsMs;
        }
    }
    return earliest;
}

qint64 dashboardDataStartMs(const QList<DashboardPanel> &panels, const SeriesRegistry &registry,
                            const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    QList<PanelData> results;
    for (const DashboardPanel &panel : panels) {
        if (panel.type == PanelType::TimeSeries && panel.query.isEmpty())
            results.append(queryPanel(panel, registry, store, fromMs, toMs, columns));
    }
    return earliestPointMs(results);
}

} // namespace Headroom
