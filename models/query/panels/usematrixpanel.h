// The USE matrix panel ("type": "usematrix"): one row per resource, built from its series
// (query/use/usematrixquery.h), cells raised by firing alerts (query/use/alertusematrix.h);
// options checked by document/panels/usematrixoptions.h.
//
// CSV rows: one per cell showing a current figure (stale and unmeasured cells have none),
// rows in the matrix's order, columns U, S, E. time = the headline sample's time; source,
// metric, unit and value = the headline series'; labels = its labels plus
// use=<utilization|saturation|errors> and resource=<resource> (e.g.
// {device=sda,resource=disk:sda,use=saturation}), which tell the cell apart.
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &useMatrixPanel();

} // namespace Headroom
