// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "dashboardcsv.h"

#include "query/csvexport.h"

namespace Headroom {

QList<PanelData> queryDashboardForCsv(const QList<DashboardPanel> &panels,
                                      const SeriesRegistry &registry, const SeriesStore &store,
                                      qint64 fromMs, qint64 toMs)
{
    QList<PanelData> rows;
    rows.reserve(panels.size());
    for (const DashboardPanel &panel : panels)
        rows.append(queryPanel(panel, registry, store, fromMs, toMs, 0)); // 0: every sample
    return rows;
}

bool writeDashboardCsv(const QList<DashboardPanel> &panels, const SeriesRegistry &registry,
                       const SeriesStore &store, qint64 fromMs, qint64 toMs, const QString &path,
                       QString *error, QStringList *panelMessages)
{
    const QList<PanelData> data = queryDashboardForCsv(panels, registry, store, fromMs, toMs);
    for (const PanelData &panel : data) {
        if (panelMessages && !panel.message.isEmpty())
            panelMessages->append(QStringLiteral("panel %1: %2").arg(panel.panelId, panel.message));
    }
    return writeCsvFile(data, path, error);
}

} // namespace Headroom
