// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/plateau.h"

#include "query/analysis/robuststats.h"

#include <algorithm>
#include <cmath>

namespace Headroom::Analysis {

using namespace Qt::StringLiterals;

bool mayShelve(const SeriesInfo &info)
{
    return !info.histogram
        && (info.kind == UseKind::Throughput || info.kind == UseKind::Utilization);
}

std::optional<Plateau> detectPlateau(const SeriesTrack &track, const PlateauOptions &options)
{
    const size_t n = track.values.size();
    const size_t minBins = size_t(std::max(3, options.minBins));
    const size_t lead = size_t(std::max(1, options.leadBins));
    if (n < minBins + lead)
        return std::nullopt;
    const bool percent = track.info.unit == "%"_L1;
    const std::vector<double> smooth = smoothedValues(track);
    // The highest smoothed value from each bin on.
    std::vector<double> topFrom(n);
    topFrom[n - 1] = smooth[n - 1];
    for (size_t i = n - 1; i-- > 0;)
        topFrom[i] = std::max(smooth[i], topFrom[i + 1]);

    std::optional<Plateau> best;
    size_t start = lead;
    while (start + minBins <= n) {
        // Grow a run from start while every value stays within the spread of its first
        // minBins bins' median (a run whose own start is not flat moves on by one).
        const double level = median(std::span<const double>(smooth).subspan(start, minBins));
        const double band = std::abs(level) * options.maxSpread;
        if (!(level > 0) || (percent && level < options.minPercentLevel)) {
            ++start;
            continue;
        }
        size_t end = start;
        while (end < n && std::abs(smooth[end] - level) <= band)
            ++end;
        if (end - start < minBins) {
            ++start;
            continue;
        }
        const double before = median(std::span<const double>(smooth).subspan(start - lead, lead));
        const bool moved = std::abs(level - before) >= options.minStep * level;
        const bool atTop = level >= options.nearTop * topFrom[start];
        if (moved && atTop && (!best || end - start > best->lastIndex + 1 - best->firstIndex)) {
            Plateau p;
            p.firstIndex = start;
            p.lastIndex = end - 1;
            p.fromMs = track.times[start];
            p.toMs = track.binEnd(end - 1);
            p.level = level;
            p.before = before;
            const auto run = std::span<const double>(track.values).subspan(start, end - start);
            p.spread = robustSigma(run, median(run)) / level;
            best = p;
        }
        start = end;
    }
    return best;
}

} // namespace Headroom::Analysis
