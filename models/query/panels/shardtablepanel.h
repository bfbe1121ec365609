// The top-shards table panel ("type": "shardtable"): the shards' current load and ops,
// busiest first (query/shards/shardquery.h, which also writes its CSV rows); options
// checked by document/panels/shardtableoptions.h.
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &shardTablePanel();

} // namespace Headroom
