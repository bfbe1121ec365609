// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

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
