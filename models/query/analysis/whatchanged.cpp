// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/whatchanged.h"

#include "query/analysis/resourcename.h"
#include "query/analysis/robuststats.h"

#include <algorithm>

namespace Headroom::Analysis {

double ksStatistic(std::span<const double> aIn, std::span<const double> bIn)
{
    if (aIn.empty() || bIn.empty())
        return 0;
    std::vector<double> a(aIn.begin(), aIn.end()), b(bIn.begin(), bIn.end());
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    size_t i = 0, j = 0;
    double d = 0;
    while (i < a.size() && j < b.size()) {
        const double x = std::min(a[i], b[j]);
        while (i < a.size() && a[i] <= x)
            ++i;
        while (j < b.size() && b[j] <= x)
            ++j;
        d = std::max(d, std::abs(double(i) / double(a.size()) - double(j) / double(b.size())));
    }
    return d;
}

std::vector<ChangeRank> rankChanges(std::span<const SeriesTrack> tracks, qint64 windowFromMs,
                                    qint64 windowToMs)
{
    const qint64 baselineFrom = windowFromMs - BaselineFactor * (windowToMs - windowFromMs);
    std::vector<ChangeRank> ranks;
    std::vector<double> baseline, window;
    for (const SeriesTrack &track : tracks) {
        baseline.clear();
        window.clear();
        for (size_t i = 0; i < track.values.size(); ++i) {
            const qint64 t = track.times[i];
            if (t >= windowFromMs && t <= windowToMs)
                window.push_back(track.values[i]);
            else if (t >= baselineFrom && t < windowFromMs)
                baseline.push_back(track.values[i]);
        }
        if (int(baseline.size()) < MinBinsPerSide || int(window.size()) < MinBinsPerSide)
            continue;
        const auto [bMin, bMax] = std::minmax_element(baseline.begin(), baseline.end());
        const auto [wMin, wMax] = std::minmax_element(window.begin(), window.end());
        if (*bMin == *bMax && *wMin == *wMax && *bMin == *wMin)
            continue;
        ChangeRank rank;
        rank.seriesId = track.seriesId;
        rank.info = track.info;
        rank.resource = resourceDisplayName(track.info);
        rank.ks = ksStatistic(baseline, window);
        rank.baselineMedian = median(baseline);
        rank.windowMedian = median(window);
        rank.baselineBins = int(baseline.size());
        rank.windowBins = int(window.size());
        ranks.push_back(std::move(rank));
    }
    std::sort(ranks.begin(), ranks.end(), [](const ChangeRank &a, const ChangeRank &b) {
        if (a.ks != b.ks)
            return a.ks > b.ks;
        if (a.resource != b.resource)
            return a.resource < b.resource;
        return a.seriesId < b.seriesId;
    });
    return ranks;
}

} // namespace Headroom::Analysis
