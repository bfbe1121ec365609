// The payload of the alerts panel: none, PanelData::alerts is its view.
#pragma once

#include "query/panels/panelpayloadfor.h"

namespace Headroom {

struct AlertListPayload
{
};

template<> struct PanelPayloadFor<PanelType::Alerts>
{
    using type = AlertListPayload;
};

} // namespace Headroom
