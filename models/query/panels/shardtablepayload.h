// The payload of the shardtable panel: the table's rows (shardquery.h).
#pragma once

#include "query/panels/panelpayloadfor.h"
#include "query/shards/shardload.h"

namespace Headroom {

template<> struct PanelPayloadFor<PanelType::ShardTable>
{
    using type = ShardTableData;
};

} // namespace Headroom
