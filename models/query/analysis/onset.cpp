#include "query/analysis/onset.h"

#include "query/analysis/robuststats.h"

#include <algorithm>
#include <cmath>

namespace Headroom::Analysis {

std::optional<Onset> detectOnset(const SeriesTrack &track, const OnsetOptions &options)
{
    const size_t n = track.values.size();
    const size_t minBefore = size_t(std::max(2, options.minBinsBefore));
    const size_t minAfter = size_t(std::max(1, options.minBinsAfter));
    if (n < minBefore + minAfter)
        return std::nullopt;
    const std::vector<double> smooth = runningMedian(track.values, 5);

    // Best two-level split of the smoothed values: maximise k (n - k) / n (mL - mR)^2.
    std::vector<double> prefix(n + 1, 0.0);
    for (size_t i = 0; i < n; ++i)
        prefix[i + 1] = prefix[i] + smooth[i];
    const double total = prefix[n];
    size_t split = 0;
    double best = -1;
    for (size_t k = minBefore; k + minAfter <= n; ++k) {
        const double left = prefix[k] / double(k);
        const double right = (total - prefix[k]) / double(n - k);
        const double gain = double(k) * double(n - k) / double(n) * (left - right) * (left - right);
        if (gain > best) {
            best = gain;
            split = k;
        }
    }
    if (split == 0)
        return std::nullopt;

    const std::span<const double> raw(track.values);
    Onset onset;
    onset.before = median(raw.first(split));
    onset.after = median(raw.subspan(split));
    const double step = std::abs(onset.after - onset.before);
    const double scale = std::max(std::abs(onset.before), std::abs(onset.after));
    if (!(step > 0) || !(scale > 0))
        return std::nullopt;
    onset.relative = step / scale;

    // Noise: the residuals of the smoothed values around their level, both sides
    // pooled. A perfectly flat series has none; a floor of 1e-6 of the level keeps the
    // effect finite (and large) for a clean step.
    std::vector<double> residuals;
    residuals.reserve(n);
    for (size_t i = 0; i < n; ++i)
        residuals.push_back(smooth[i] - (i < split ? onset.before : onset.after));
    // A series of small integers (a run queue of 0, 1, 2) has a median absolute
    // deviation of 0 though it is anything but still: the mean absolute deviation
    // (x 1.2533, sigma for normal noise) is the floor then.
    double meanAbs = 0;
    for (double r : residuals)
        meanAbs += std::abs(r);
    meanAbs /= double(n);
    onset.noise = std::max({ robustSigma(residuals, 0.0), 1.2533 * meanAbs, 1e-6 * scale });
    onset.effect = std::min(1000.0, step / onset.noise);

    // Where it crossed the midpoint, walking back from the split through the bins that
    // are already past it.
    const double mid = (onset.before + onset.after) / 2;
    const bool up = onset.after > onset.before;
    const auto past = [&](double v) { return up ? v > mid : v < mid; };
    size_t first = split;
    while (first > 1 && past(smooth[first - 1]))
        --first;
    while (first < n && !past(smooth[first]))
        ++first;
    if (first >= n)
        return std::nullopt;
    size_t heldCount = 0;
    for (size_t i = first; i < n; ++i)
        heldCount += past(smooth[i]) ? 1 : 0; // smoothed: 0-dips do not count against it
    onset.held = double(heldCount) / double(n - first);
    onset.index = first;
    onset.tsMs = track.times[first];

    if (onset.effect < options.minEffect || onset.relative < options.minRelative
        || onset.held < options.minHeld || n - first < minAfter)
        return std::nullopt;
    const double byEffect = std::min(1.0, (onset.effect - options.minEffect) / 30.0);
    onset.confidence = std::clamp(
        0.4 + 0.3 * byEffect + 0.2 * std::min(1.0, onset.relative) + 0.1 * onset.held, 0.0, 1.0);
    return onset;
}

} // namespace Headroom::Analysis
