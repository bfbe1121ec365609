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
                       QString *error)
{
    return writeCsvFile(queryDashboardForCsv(panels, registry, store, fromMs, toMs), path, error);
}

} // namespace Headroom
