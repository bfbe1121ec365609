// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// "What changed": every series ranked by how differently it behaved in a window than
// in the baseline just before it, as Netdata's metric correlations do: the baseline is
// the 4x longer span before the window, and the difference is the two-sample
// Kolmogorov-Smirnov statistic D of their bin values (0: same distribution, 1: no
// overlap). D ignores scale, so a series of bytes and one of percentages rank alike;
// the medians are kept to say which way it went.
#pragma once

#include "query/analysis/seriestrack.h"

#include <QString>
#include <span>
#include <vector>

namespace Headroom::Analysis {

struct ChangeRank
{
    int seriesId = 0;
    SeriesInfo info;
    QString resource; // display name of the resource (resourceDisplayName)
    double ks = 0; // 0..1
    double baselineMedian = 0;
    double windowMedian = 0;
    int baselineBins = 0;
    int windowBins = 0;
};

inline constexpr int BaselineFactor = 4;
inline constexpr int MinBinsPerSide = 4;

// D of two samples (copied and sorted); 0 when either is empty.
double ksStatistic(std::span<const double> a, std::span<const double> b);

// Tracks must cover [windowFrom - BaselineFactor x (windowTo - windowFrom), windowTo].
// Series with fewer than MinBinsPerSide bins on either side, or constant and equal on
// both, are left out. Sorted by D (largest first), then by resource and series id.
std::vector<ChangeRank> rankChanges(std::span<const SeriesTrack> tracks, qint64 windowFromMs,
                                    qint64 windowToMs);

} // namespace Headroom::Analysis
