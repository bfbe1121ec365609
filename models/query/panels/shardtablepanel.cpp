#include "query/panels/shardtablepanel.h"

#include "query/shards/shardquery.h"

namespace Headroom {

static_assert(std::is_same_v<PanelPayloadOf<PanelType::ShardTable>, ShardTableData>);

const PanelDescriptor &shardTablePanel()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::ShardTable,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = true,
        .query =
            [](const PanelQueryRequest &r) {
                return queryShardTablePanel(r.panel, r.registry, r.store, r.fromMs, r.toMs,
                                            r.columns);
            },
        .csvRows = shardTableCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
