// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The payload of the heatmap panel: its series summed into one latency grid (heatmapquery.h).
#pragma once

#include "query/heatmap/latencyheatmap.h"
#include "query/panels/panelpayloadfor.h"

namespace Headroom {

template<> struct PanelPayloadFor<PanelType::Heatmap>
{
    using type = HeatmapGrid;
};

} // namespace Headroom
