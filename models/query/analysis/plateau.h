// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A shelf: a throughput or utilization series that runs flat at its highest level for a
// while after moving to it, the shape of a hidden limit (a rate limiter, a 1 Gbit uplink
// behind a virtual NIC that reports 10,000 Mbit/s or no speed at all). Independent of
// any link speed: only the series' own shape counts.
//
// Found on the running median of 5 bins: the longest run of at least minBins bins whose
// values stay within maxSpread (relative) of the run's median, where that median is at
// least nearTop of the highest smoothed value from the run's start on, and the run
// starts with a move of at least minStep (relative) from the level just before it (so a
// series that has always been flat is not a shelf), and, in %, is at least
// minPercentLevel. A flat line alone is also what a
// steady healthy load draws: findings.cpp only raises a shelf when a saturation or
// error signal of the same resource or host rises with it.
#pragma once

#include "query/analysis/seriestrack.h"

#include <optional>

namespace Headroom::Analysis {

struct PlateauOptions
{
    int minBins = 15;
    double maxSpread = 0.08;
    double nearTop = 0.9;
    double minStep = 0.3;
    int leadBins = 5; // bins before the run that give the level it moved from
    // A percentage flat below this is no limit anyone runs into: on a quiet machine it
    // is the step of a tick counter (CPU steal at 0.5 % of two CPUs is one tick a
    // second). A NIC capped far below its reported speed shelves in its bytes.
    double minPercentLevel = 5;
};

struct Plateau
{
    qint64 fromMs = 0; // first and last bin of the flat run
    qint64 toMs = 0;
    size_t firstIndex = 0, lastIndex = 0;
    double level = 0; // median of the run
    double before = 0; // median of the lead bins
    double spread = 0; // robust sigma of the run / level
};

std::optional<Plateau> detectPlateau(const SeriesTrack &track, const PlateauOptions &options = {});

// Whether a track is one a shelf is looked for on: throughput or utilization.
bool mayShelve(const SeriesInfo &info);

} // namespace Headroom::Analysis
