#include "query/panels/shardhistogrampanel.h"

#include "query/shards/shardquery.h"

namespace Headroom {

static_assert(std::is_same_v<PanelPayloadOf<PanelType::ShardHistogram>, ShardLoadHistogram>);

const PanelDescriptor &shardHistogramPanel()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::ShardHistogram,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = true,
        .query =
            [](const PanelQueryRequest &r) {
                return queryShardHistogramPanel(r.panel, r.registry, r.store, r.fromMs, r.toMs,
                                                r.columns);
            },
        .csvRows = shardHistogramCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
