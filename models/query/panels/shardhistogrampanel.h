// The shard load histogram panel ("type": "shardhistogram"): how many shards are how
// loaded, now and over time, plus the overloaded count as a series
// (query/shards/shardquery.h, which also writes its CSV rows); options checked by
// document/panels/shardhistogramoptions.h.
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &shardHistogramPanel();

} // namespace Headroom
