// The column names a shardtable panel's "columns" option may list, in display order.
// Here, not in query/shards/, because the dashboard reader checks the option when a
// file opens; the table that draws them is query/shards/shardload.h.
#pragma once

#include <QStringList>

namespace Headroom {

// "set", "shard", "load", "ops", "previous", "share", "change" (index = ShardColumn).
QStringList shardColumnNames();

} // namespace Headroom
