// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// "Since when": the change points of a series in the analysed range.
//
// The track is first smoothed by a running median of 5 bins, so a single spike or the
// 0-dips of PostgreSQL's once-a-second statistics flush move nothing. The split that
// best separates the smoothed values into two constant levels (least squares over all
// splits, O(n) with prefix sums) is found for the range, then for each side of it
// (binary segmentation, two levels). Each of these boundaries is judged against its
// neighbouring boundaries only, so an incident that ended inside the range is a rise
// until its end; the levels are the medians of the raw bins either side. A boundary
// counts as a change when the step is large against the
// series' own noise (effect = |after - before| / robust sigma of the residuals, at
// least minEffect), large against the level (at least minRelative of the larger
// level), and held (most bins after it stay past the midpoint). The onset is then moved
// back to the first bin of the run that crossed the midpoint, so a ramp's onset is
// where it got half way, and a step's is the step.
#pragma once

#include "query/analysis/seriestrack.h"

#include <optional>

namespace Headroom::Analysis {

struct OnsetOptions
{
    double minEffect = 6;
    double minRelative = 0.2;
    int minBinsAfter = 3;
    int minBinsBefore = 5;
    double minHeld = 0.7; // share of the bins after the onset past the midpoint
};

struct Onset
{
    qint64 tsMs = 0; // start of the first changed bin
    size_t index = 0; // into track.values
    qint64 untilMs = 0; // where the next onset starts (none: toMs + 1)
    size_t untilIndex = 0;
    double before = 0; // median level before and after
    double after = 0;
    double noise = 0; // robust sigma of the residuals
    double effect = 0; // |after - before| / noise (capped at 1000)
    double relative = 0; // |after - before| / max(|before|, |after|)
    double held = 0; // share of the bins after it past the midpoint
    // 0..1 from the effect, the relative size and how well it held.
    double confidence = 0;
    bool rising() const { return after > before; }
};

// Every change point that counts, oldest first (at most three).
std::vector<Onset> detectOnsets(const SeriesTrack &track, const OnsetOptions &options = {});
// The clearest of them (largest effect x relative size).
std::optional<Onset> detectOnset(const SeriesTrack &track, const OnsetOptions &options = {});

} // namespace Headroom::Analysis
