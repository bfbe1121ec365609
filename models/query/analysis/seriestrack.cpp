#include "query/analysis/seriestrack.h"

#include "query/analysis/robuststats.h"

#include <algorithm>
#include <cmath>

namespace Headroom::Analysis {

qint64 binWidthFor(qint64 fromMs, qint64 toMs, qint64 minBinMs, int maxBins)
{
    const qint64 span = std::max<qint64>(1, toMs - fromMs);
    qint64 bin = (span + maxBins - 1) / std::max(1, maxBins);
    bin = (bin + 999) / 1000 * 1000;
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
                rates.push_back(
                    { s.tsMs,
                      (s.value - previous->value) * 1000.0 / double(s.tsMs - previous->tsMs) });
            previous = &s;
        }
        samples = &rates;
    }
    const qint64 bins = (track->toMs - track->fromMs) / track->binMs + 1;
    std::vector<double> sums(size_t(bins), 0.0);
    std::vector<int> counts(size_t(bins), 0);
    for (const Sample &s : *samples) {
        if (s.tsMs < track->fromMs || s.tsMs > track->toMs || !std::isfinite(s.value))
            continue;
        const size_t bin = size_t((s.tsMs - track->fromMs) / track->binMs);
        sums[bin] += s.value;
        ++counts[bin];
    }
    for (size_t b = 0; b < size_t(bins); ++b) {
        if (counts[b] == 0)
            continue;
        track->times.push_back(track->fromMs + qint64(b) * track->binMs);
        track->values.push_back(sums[b] / counts[b]);
    }
    track->smoothed = runningMedian(track->values, 5);
}

std::vector<double> smoothedValues(const SeriesTrack &track)
{
    if (track.smoothed.size() == track.values.size())
        return track.smoothed;
    return runningMedian(track.values, 5);
}

} // namespace Headroom::Analysis
