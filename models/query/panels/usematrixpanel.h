// The USE matrix panel ("type": "usematrix"): one row per source and resource, built
// from its series (query/use/usematrixquery.h), cells raised by firing alerts
// (query/use/alertusematrix.h); options checked by document/panels/usematrixoptions.h.
//
// CSV rows: one per cell showing a figure (unmeasured cells and those without a sample
// in the range have none), rows in the matrix's order, columns U, S, E. time and value
// = the worst sample of the headline series in the range; source, metric and unit =
// the headline series'; labels = its labels plus use=<utilization|saturation|errors>
// and resource=<resource>, which tell the cell apart (the source column the row), and
// for a raised cell level=<warning|critical>, since=<ISO 8601 UTC> and, when the
// stretch ended before the range end, until=<ISO 8601 UTC>; stale=true for a stale
// cell. E.g. {device=sda,level=warning,resource=disk:sda,since=2023-11-14T22:13:20.000Z,
// use=saturation}.
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &useMatrixPanel();

} // namespace Headroom
