// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A series past its USE bounds without a step to find: a condition that already holds
// when the data starts (a CPU saturated before Headroom looked) has no level before it,
// so no onset, yet the USE matrix shows its cell raised. Judged on the track's bins by
// the bounds the USE matrix uses for the series' column, unit and resource
// (defaultUseThresholds), and past them, not at them, as the onsets are (a run queue of
// exactly 1 per CPU is every CPU busy and none waiting):
// - the stretch: consecutive bins past the warning bound (bins at most MaxGapBins apart:
//   a poll without a sample does not end it) around the series' worst bin (the largest,
//   the latest among equals), as the USE matrix finds a cell's; or, when the first bin
//   is past the warning bound, the stretch from the first bin (the condition the data
//   starts in), which the worst may lie beyond;
// - its level: its worst bin's (1 warning, 2 critical).
// (findings.cpp raises a stretch past its critical bound; one past the warning bound
// only may be the resource's usual level.)
// Time-left and backlog series (timeleft.h) have their own judgement; series of other
// kinds (throughput, latency, info) and series without bounds have none.
#pragma once

#include "query/analysis/seriestrack.h"

#include <optional>

namespace Headroom::Analysis {

struct BoundStretch
{
    qint64 fromMs = 0; // the first bin past the warning bound
    qint64 untilMs = 0; // the end of the last bin
    double worst = 0; // the largest bin in it
    int level = 0; // 1 warning, 2 critical
    double warning = 0; // the bounds that judged it
    double critical = 0;
    bool fromFirstBin = false; // it starts at the track's first bin
};

// The stretch from the first bin when that bin is past the warning bound, else the one
// around the worst bin; nullopt when no bin is past the warning bound (or the series
// has no bounds).
std::optional<BoundStretch> boundStretch(const SeriesTrack &track);

} // namespace Headroom::Analysis
