// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The top-shards table panel ("type": "shardtable"): the shards' current load and ops,
// busiest first (query/shards/shardquery.h, which also writes its CSV rows); options
// checked by document/panels/shardtableoptions.h.
#include "query/panels/paneldescriptor.h"
#include "query/shards/shardquery.h"

namespace Headroom {

template<> const PanelDescriptor &panelDescriptorOf<PanelType::ShardTable>()
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
