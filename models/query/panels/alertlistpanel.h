// The alert list panel ("type": "alerts"): the dashboard's alert events in the range
// (PanelData::alerts). It reads no series, and its events are in the alert CSV
// (query/alerts/alertcsv.h), not the panel CSV.
#pragma once

#include "query/panels/paneldescriptor.h"

namespace Headroom {

const PanelDescriptor &alertListPanel();

} // namespace Headroom
