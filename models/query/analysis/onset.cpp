// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/onset.h"

#include "query/analysis/robuststats.h"

#include <algorithm>
#include <cmath>

namespace Headroom::Analysis {

namespace {

struct Smoothed
{
    std::vector<double> values;
    std::vector<double> prefix; // prefix[i] = sum of values[0, i)
};

// The split of [from, to) into two constant levels with the least squared error:
// argmax over k of (k - from)(to - k) / (to - from) x (meanLeft - meanRight)^2. 0: none.
size_t bestSplit(const Smoothed &s, size_t from, size_t to, size_t minBefore, size_t minAfter)
{
    if (to < from + minBefore + minAfter)
        return 0;
    const double total = s.prefix[to] - s.prefix[from];
    const double n = double(to - from);
    size_t split = 0;
    double best = -1;
    for (size_t k = from + minBefore; k + minAfter <= to; ++k) {
        const double left = (s.prefix[k] - s.prefix[from]) / double(k - from);
        const double right = (total - (s.prefix[k] - s.prefix[from])) / double(to - k);
        const double gain = double(k - from) * double(to - k) / n * (left - right) * (left - right);
        if (gain > best) {
            best = gain;
            split = k;
        }
    }
    return split;
}

// The step at split, judged on [from, to) alone.
std::optional<Onset> evaluate(const SeriesTrack &track, const Smoothed &s, size_t from,
                              size_t split, size_t to, const OnsetOptions &options)
{
    const std::span<const double> raw(track.values);
    Onset onset;
    onset.before = median(raw.subspan(from, split - from));
    onset.after = median(raw.subspan(split, to - split));
    const double step = std::abs(onset.after - onset.before);
    const double scale = std::max(std::abs(onset.before), std::abs(onset.after));
    if (!(step > 0) || !(scale > 0))
        return std::nullopt;
    onset.relative = step / scale;

    // Noise: the residuals of the smoothed values around their level, both sides
    // pooled. A series of small integers (a run queue of 0, 1, 2) has a median absolute
    // deviation of 0 though it is anything but still: the mean absolute deviation
    // (x 1.2533, sigma for normal noise) is the floor then, and 1e-6 of the level keeps
    // the effect finite (and large) for a clean step.
    std::vector<double> residuals;
    residuals.reserve(to - from);
    double meanAbs = 0;
    for (size_t i = from; i < to; ++i) {
        residuals.push_back(s.values[i] - (i < split ? onset.before : onset.after));
        meanAbs += std::abs(residuals.back());
    }
    meanAbs /= double(to - from);
    onset.noise = std::max({ robustSigma(residuals, 0.0), 1.2533 * meanAbs, 1e-6 * scale });
    onset.effect = std::min(1000.0, step / onset.noise);

    // Where it crossed the midpoint, walking back from the split through the bins that
    // are already past it.
    const double mid = (onset.before + onset.after) / 2;
    const bool up = onset.after > onset.before;
    const auto past = [&](double v) { return up ? v > mid : v < mid; };
    size_t first = split;
    while (first > from + 1 && past(s.values[first - 1]))
        --first;
    while (first < to && !past(s.values[first]))
        ++first;
    if (first >= to)
        return std::nullopt;
    size_t heldCount = 0;
    for (size_t i = first; i < to; ++i)
        heldCount += past(s.values[i]) ? 1 : 0; // smoothed: 0-dips do not count against it
    onset.held = double(heldCount) / double(to - first);
    onset.index = first;
    onset.tsMs = track.times[first];
    onset.untilIndex = to;
    onset.untilMs = to < track.times.size() ? track.times[to] : track.toMs + 1;

    if (onset.effect < options.minEffect || onset.relative < options.minRelative
        || onset.held < options.minHeld || to - first < size_t(std::max(1, options.minBinsAfter)))
        return std::nullopt;
    const double byEffect = std::min(1.0, (onset.effect - options.minEffect) / 30.0);
    onset.confidence = std::clamp(
        0.4 + 0.3 * byEffect + 0.2 * std::min(1.0, onset.relative) + 0.1 * onset.held, 0.0, 1.0);
    return onset;
}

} // namespace

std::vector<Onset> detectOnsets(const SeriesTrack &track, const OnsetOptions &options)
{
    const size_t n = track.values.size();
    const size_t minBefore = size_t(std::max(2, options.minBinsBefore));
    const size_t minAfter = size_t(std::max(1, options.minBinsAfter));
    if (n < minBefore + minAfter)
        return {};
    Smoothed s;
    s.values = smoothedValues(track);
    s.prefix.assign(n + 1, 0.0);
    for (size_t i = 0; i < n; ++i)
        s.prefix[i + 1] = s.prefix[i] + s.values[i];

    // Binary segmentation, two levels deep: the best split of the range, then the best
    // split of each side. Each boundary is then judged against its neighbours only, so
    // an incident that ended inside the range (up at a, down at b) is the rise at a
    // until b, not a step the rest of the range dilutes.
    const size_t k = bestSplit(s, 0, n, minBefore, minAfter);
    if (k == 0)
        return {};
    std::vector<size_t> bounds { 0, k, n };
    if (const size_t left = bestSplit(s, 0, k, minBefore, minAfter))
        bounds.push_back(left);
    if (const size_t right = bestSplit(s, k, n, minBefore, minAfter))
        bounds.push_back(right);
    std::sort(bounds.begin(), bounds.end());
    std::vector<Onset> onsets;
    for (size_t b = 1; b + 1 < bounds.size(); ++b) {
        auto onset = evaluate(track, s, bounds[b - 1], bounds[b], bounds[b + 1], options);
        if (!onset)
            continue;
        // Two boundaries of one step (its edges a bin or two apart) are one onset.
        if (!onsets.empty() && onset->index <= onsets.back().index + 2
            && onset->rising() == onsets.back().rising()) {
            if (onset->effect > onsets.back().effect)
                onsets.back() = *onset;
            continue;
        }
        onsets.push_back(*onset);
    }
    // A boundary's onset may walk back past the previous one's (opposite directions do
    // not merge above): keep them in time order, the clearer of two that overlap.
    std::sort(onsets.begin(), onsets.end(),
              [](const Onset &a, const Onset &b) { return a.index < b.index; });
    for (size_t i = 1; i < onsets.size();) {
        if (onsets[i].index <= onsets[i - 1].index + 1) {
            if (onsets[i].effect > onsets[i - 1].effect)
                onsets[i - 1] = onsets[i];
            onsets.erase(onsets.begin() + std::ptrdiff_t(i));
        } else {
            ++i;
        }
    }
    // Judged between its neighbouring boundaries, but it lasts until the next change
    // that counts (a boundary that did not count changed nothing).
    for (size_t i = 0; i + 1 < onsets.size(); ++i) {
        onsets[i].untilIndex = onsets[i + 1].index;
        onsets[i].untilMs = onsets[i + 1].tsMs;
    }
    if (!onsets.empty()) {
        onsets.back().untilIndex = n;
        onsets.back().untilMs = track.toMs + 1;
    }
    return onsets;
}

std::optional<Onset> detectOnset(const SeriesTrack &track, const OnsetOptions &options)
{
    const std::vector<Onset> onsets = detectOnsets(track, options);
    if (onsets.empty())
        return std::nullopt;
    return *std::max_element(onsets.begin(), onsets.end(), [](const Onset &a, const Onset &b) {
        return a.effect * std::min(1.0, a.relative) < b.effect * std::min(1.0, b.relative);
    });
}

} // namespace Headroom::Analysis
