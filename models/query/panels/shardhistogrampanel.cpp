// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shard load histogram panel ("type": "shardhistogram"): how many shards are how
// loaded, now and over time, plus the overloaded count as a series
// (query/shards/shardquery.h, which also writes its CSV rows); options checked by
// document/panels/shardhistogramoptions.h.
#include "query/panels/paneldescriptor.h"
#include "query/shards/shardquery.h"

namespace Headroom {

template<> const PanelDescriptor &panelDescriptorOf<PanelType::ShardHistogram>()
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
