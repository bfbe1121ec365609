// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Many samples of one series at once, oldest first: how an import writes into a cache
// (SampleCache::writeRuns). A collector's batch holds one time and many series; a file
// read column by column has the opposite shape, and a run costs one series lookup for
// all its samples instead of one per sample.
#pragma once

#include "core/sample.h"
#include "core/series.h"

#include <vector>

namespace Headroom {

struct SeriesRun
{
    int seriesId = 0; // the cache's registry id
    SeriesInfo info;
    std::vector<Sample> samples; // sorted by time, no time twice
};

} // namespace Headroom
