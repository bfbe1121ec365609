// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The alert list panel ("type": "alerts"): the dashboard's alert events in the range
// (PanelData::alerts). It reads no series, and its events are in the alert CSV
// (query/alerts/alertcsv.h), not the panel CSV.
#include "query/panels/paneldescriptor.h"

namespace Headroom {

template<> const PanelDescriptor &panelDescriptorOf<PanelType::Alerts>()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::Alerts,
        .showsAlerts = true, // they are its view
        .supportsCompare = false,
        .readsSeries = false,
        .query =
            [](const PanelQueryRequest &) {
                PanelData data;
                data.payload = AlertListPayload {};
                return data;
            },
        .csvRows = nullptr,
    };
    return descriptor;
}

} // namespace Headroom
