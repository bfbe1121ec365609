// The blocking tree panel ("type": "blockingtree"): who blocks whom at the newest poll
// of the range, each root blocker with the sessions waiting on it below it
// (query/locks/blockingtreequery.h, which also writes its CSV rows). No options.
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &blockingTreePanel();

} // namespace Headroom
