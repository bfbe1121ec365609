// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the timeseries panel: none, its series are its view.
#pragma once

#include "query/panels/panelpayloadfor.h"

namespace Headroom {

struct TimeSeriesPayload
{
};

template<> struct PanelPayloadFor<PanelType::TimeSeries>
{
    using type = TimeSeriesPayload;
};

} // namespace Headroom
