// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One series as the analysis sees it: its samples averaged into equal time bins over
// the analysed range, empty bins left out. Every detector works on these, so a day at
// 1 s (86,400 samples) costs the same as 1,000 bins, and a series polled every 10 s
// and one polled every second are compared bin for bin.
#pragma once

#include "core/sample.h"
#include "core/series.h"

#include <vector>

namespace Headroom::Analysis {

struct SeriesTrack
{
    int seriesId = 0;
    SeriesInfo info;
    qint64 fromMs = 0; // the range analysed
    qint64 toMs = 0;
    qint64 binMs = 1000;
    // Bins that hold at least one sample, oldest first: the bin's start time and the
    // mean of its samples (NaN samples are skipped).
    std::vector<qint64> times;
    std::vector<double> values;
    // values through a running median of 5 (robuststats.h), which every detector starts
    // from; filled by fillTrack, or computed on demand (smoothedValues) when empty.
    std::vector<double> smoothed;

    bool isEmpty() const { return values.empty(); }
    qint64 binEnd(size_t i) const { return times[i] + binMs; }
};

// The most bins a track holds: fillTrack leaves a track over more of them empty.
constexpr quint64 MaxTrackBins = 1 << 20;

// The bin width for a range: whole seconds, at least minBinMs, at most maxBins bins;
// any two timestamps make a range (their difference need not fit in a qint64).
qint64 binWidthFor(qint64 fromMs, qint64 toMs, qint64 minBinMs = 1000, int maxBins = 1000);

// Averages samples (any order inside the range is accepted; out-of-range ones dropped)
// into track's bins, none when the range holds more than MaxTrackBins. A cumulative
// counter (never falling, rising from most samples to the next, and not in a unit of
// gauges or rates: s, ms, B, %, B/s, 1/s, ms/s) is turned into its per-second rate
// first, so counters and rates read alike.
void fillTrack(SeriesTrack *track, const std::vector<Sample> &samples);

// The mean of the track's bins that start in [fromMs, untilMs) (NaN ones left out);
// `none` when no bin lies there.
double meanIn(const SeriesTrack &track, qint64 fromMs, qint64 untilMs, double none = 0);

// track.smoothed, or the running median of track.values when it was not filled.
std::vector<double> smoothedValues(const SeriesTrack &track);

} // namespace Headroom::Analysis
