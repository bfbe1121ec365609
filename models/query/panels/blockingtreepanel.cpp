#include "query/panels/blockingtreepanel.h"

#include "query/locks/blockingtreequery.h"

namespace Headroom {

static_assert(std::is_same_v<PanelPayloadOf<PanelType::BlockingTree>, BlockingTreeData>);

const PanelDescriptor &blockingTreePanel()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::BlockingTree,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = true,
        .query =
            [](const PanelQueryRequest &r) {
                return queryBlockingTreePanel(r.panel, r.registry, r.store, r.fromMs, r.toMs);
            },
        .csvRows = blockingTreeCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
