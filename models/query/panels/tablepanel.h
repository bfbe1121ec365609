// The table panel ("type": "table"): an engine's instant query, one row per series
// (query/promql/promqltable.h, which also describes its CSV rows; options checked by
// document/panels/tableoptions.h).
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &tablePanel();

} // namespace Headroom
