#include "query/panels/tablepanel.h"

#include "engine/seriesstore.h"
#include "query/promql/promqltable.h"

#include <QDateTime>

namespace Headroom {

static_assert(std::is_same_v<PanelPayloadOf<PanelType::Table>, PromqlTableData>);

const PanelDescriptor &tablePanel()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::Table,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = false, // it reads its query
        .query =
            [](const PanelQueryRequest &r) {
                return queryPromqlTable(r.panel, r.store.promqlEngines(), r.toMs,
                                        QDateTime::currentMSecsSinceEpoch());
            },
        .csvRows = promqlTableCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
