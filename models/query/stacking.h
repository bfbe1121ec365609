// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Stacks the lines of a composition (CPU by mode, sessions by wait class) into bands
// for an area chart. GUI-free so the arithmetic is tested without drawing.
#pragma once

#include "query/panelquery.h"

#include <vector>

namespace Headroom {

struct StackedBand
{
    std::vector<Sample> lower; // the band below's upper edge (zero for the first)
    std::vector<Sample> upper; // lower + this series' value
};

// One band per series, in order, all on the union of the series' timestamps. Where a
// series has no point of its own it is interpolated between its neighbours inside one
// of its segments (PanelSeriesData::segmentStarts) and counts as 0 in a gap or outside
// its data: a stopped source adds nothing rather than its last value forever. Values
// that are not finite count as 0.
std::vector<StackedBand> stackSeries(const QList<PanelSeriesData> &series);

} // namespace Headroom
