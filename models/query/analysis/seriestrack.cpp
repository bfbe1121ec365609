// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/seriestrack.h"

#include "query/analysis/robuststats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Headroom::Analysis {

qint64 binWidthFor(qint64 fromMs, qint64 toMs, qint64 minBinMs, int maxBins)
{
    // Unsigned: the span of any two timestamps fits, where toMs - fromMs may overflow.
    const quint64 span = toMs > fromMs ? quint64(toMs) - quint64(fromMs) : 1;
    const quint64 bins = quint64(std::max(1, maxBins));
    const quint64 ms = span / bins + (span % bins != 0 ? 1 : 0);
    const quint64 seconds = ms / 1000 + (ms % 1000 != 0 ? 1 : 0);
    constexpr quint64 MaxSeconds = quint64(std::numeric_limits<qint64>::max() / 1000);
    const qint64 bin
        = seconds > MaxSeconds ? std::numeric_limits<qint64>::max() : qint64(seconds * 1000);
    return std::max(bin, std::max<qint64>(1, minBinMs));
}

namespace {

// A cumulative counter: at least 8 finite samples, none falling, and rising from most
// samples to the next. A gauge that stepped up once (0 errors, then 50) never falls
// either, but rises only once.
bool looksCumulative(const std::vector<Sample> &samples)
{
    int finite = 0, rises = 0;
    double previous = -INFINITY;
    for (const Sample &s : samples) {
        if (!std::isfinite(s.value))
            continue;
        if (s.value < previous)
            return false;
        if (finite > 0 && s.value > previous)
            ++rises;
        previous = s.value;
        ++finite;
    }
    return finite >= 8 && rises * 2 >= finite - 1;
}

} // namespace

// Units of gauges and rates: a series in one of these that only rises (a transaction's
// age, memory used in a leak, a backlog) is what it says, not a counter.
bool isGaugeUnit(const QString &unit)
{
    static const QStringList units { QStringLiteral("s"),   QStringLiteral("ms"),
                                     QStringLiteral("B"),   QStringLiteral("%"),
                                     QStringLiteral("B/s"), QStringLiteral("1/s"),
                                     QStringLiteral("ms/s") };
    return units.contains(unit);
}

void fillTrack(SeriesTrack *track, const std::vector<Sample> &input)
{
    track->times.clear();
    track->values.clear();
    track->smoothed.clear();
    if (track->binMs <= 0 || track->toMs < track->fromMs)
        return;
    const std::vector<Sample> *samples = &input;
    std::vector<Sample> rates;
    if (!isGaugeUnit(track->info.unit) && looksCumulative(input)) {
        const Sample *previous = nullptr;
        for (const Sample &s : input) {
            if (!std::isfinite(s.value))
                continue;
            if (previous && s.tsMs > previous->tsMs)
                rates.push_back({ s.tsMs,
                                  (s.value - previous->value) * 1000.0
                                      / (double(s.tsMs) - double(previous->tsMs)) });
            previous = &s;
        }
        samples = &rates;
    }
    // In unsigned arithmetic, which holds the span of any range; a range of more bins
    // than any caller asks for (binWidthFor keeps to maxBins) is refused, not allocated.
    const quint64 lastBin = (quint64(track->toMs) - quint64(track->fromMs)) / quint64(track->binMs);
    if (lastBin >= MaxTrackBins)
        return;
    const size_t bins = size_t(lastBin) + 1;
    std::vector<double> sums(bins, 0.0);
    std::vector<int> counts(bins, 0);
    for (const Sample &s : *samples) {
        if (s.tsMs < track->fromMs || s.tsMs > track->toMs || !std::isfinite(s.value))
            continue;
        const size_t bin
            = size_t((quint64(s.tsMs) - quint64(track->fromMs)) / quint64(track->binMs));
        sums[bin] += s.value;
        ++counts[bin];
    }
    for (size_t b = 0; b < bins; ++b) {
        if (counts[b] == 0)
            continue;
        // Within [fromMs, toMs]: the unsigned sum wraps to exactly that.
        track->times.push_back(qint64(quint64(track->fromMs) + quint64(b) * quint64(track->binMs)));
        track->values.push_back(sums[b] / counts[b]);
    }
    track->smoothed = runningMedian(track->values, 5);
}

double meanIn(const SeriesTrack &track, qint64 fromMs, qint64 untilMs, double none)
{
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < track.values.size(); ++i) {
        if (track.times[i] >= fromMs && track.times[i] < untilMs && !qIsNaN(track.values[i])) {
            sum += track.values[i];
            ++n;
        }
    }
    return n > 0 ? sum / n : none;
}

std::vector<double> smoothedValues(const SeriesTrack &track)
{
    if (track.smoothed.size() == track.values.size())
        return track.smoothed;
    return runningMedian(track.values, 5);
}

} // namespace Headroom::Analysis
