// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/promql/promqlhistograms.h"

#include "query/heatmap/heatmapquery.h" // parseLeBound

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// The labels a histogram is known by: without le, and the bound series' name without
// "_bucket" (rate() drops the name; a raw read keeps it).
Labels histogramLabels(Labels labels)
{
    labels.remove(u"le"_s);
    const auto name = labels.find(u"__name__"_s);
    if (name != labels.end() && name.value().endsWith(u"_bucket"_s))
        name.value().chop(7);
    return labels;
}

// One classic histogram's bound series made buckets per time.
PromqlHistogram classicHistogram(const Labels &labels,
                                 const std::vector<std::pair<double, const PromqlSeries *>> &bounds)
{
    PromqlHistogram histogram;
    histogram.labels = labels;
    histogram.hasInfBucket = !bounds.empty() && std::isinf(bounds.back().first);
    // Per time, the cumulative count of every bound (NaN where a bound has no sample).
    std::map<qint64, std::vector<double>> byTime;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (size_t i = 0; i < bounds.size(); ++i) {
        for (const Sample &sample : bounds[i].second->points) {
            std::vector<double> &counts = byTime[sample.tsMs];
            if (counts.empty())
                counts.assign(bounds.size(), nan);
            counts[i] = sample.value;
        }
    }
    for (const auto &[tsMs, counts] : byTime) {
        if (std::any_of(counts.begin(), counts.end(), [](double c) { return std::isnan(c); }))
            continue;
        PromqlHistogramPoint point;
        point.tsMs = tsMs;
        double previousBound = 0;
        double previousCount = 0;
        for (size_t i = 0; i < bounds.size(); ++i) {
            const double bound = bounds[i].first;
            // Bound series are rated apart, so one can come out a hair below the one
            // under it: jitter, not negative events.
            const double cumulative = std::max(counts[i], previousCount);
            HistogramBucket bucket;
            bucket.lower = i == 0 ? std::min(0.0, bound) : previousBound;
            bucket.upper = bound;
            bucket.count = cumulative - previousCount;
            point.buckets.push_back(bucket);
            previousBound = bound;
            previousCount = cumulative;
        }
        point.count = previousCount;
        histogram.points.push_back(std::move(point));
    }
    return histogram;
}

} // namespace

PromqlHistogramSplit splitPromqlHistograms(QList<PromqlSeries> series)
{
    PromqlHistogramSplit split;
    // Classic bound series by the labels of their histogram (a stable order).
    std::map<QString, std::pair<Labels, std::vector<std::pair<double, const PromqlSeries *>>>>
        classic;
    QList<PromqlHistogram> native;
    for (const PromqlSeries &one : std::as_const(series)) {
        if (!one.histograms.empty()) {
            PromqlHistogram histogram;
            histogram.labels = histogramLabels(one.labels);
            histogram.points = one.histograms;
            histogram.native = true;
            native.append(std::move(histogram));
            continue;
        }
        const auto le = one.labels.constFind(u"le"_s);
        const std::optional<double> bound
            = le == one.labels.cend() ? std::nullopt : parseLeBound(le.value());
        if (!bound) {
            split.plain.append(one);
            continue;
        }
        const Labels labels = histogramLabels(one.labels);
        auto &group = classic[labelsToString(labels)];
        group.first = labels;
        group.second.emplace_back(*bound, &one);
    }
    for (auto &[key, group] : classic) {
        auto &bounds = group.second;
        std::stable_sort(bounds.begin(), bounds.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        split.histograms.append(classicHistogram(group.first, bounds));
    }
    split.histograms.append(native);
    return split;
}

double histogramQuantile(double q, const PromqlHistogramPoint &point, HistogramForm form)
{
    const std::vector<HistogramBucket> &buckets = point.buckets;
    double inBuckets = 0;
    for (const HistogramBucket &bucket : buckets)
        inBuckets += bucket.count;
    const double total = point.count > 0 ? point.count : inBuckets;
    if (std::isnan(q) || !(inBuckets > 0) || !(total > 0))
        return std::numeric_limits<double>::quiet_NaN();
    if (q < 0)
        return -std::numeric_limits<double>::infinity();
    if (q > 1)
        return std::numeric_limits<double>::infinity();
    // PromQL walks a native histogram from the top for q >= 0.5 (unless NaN was
    // observed, which its sum tells): on a rank that ends a bucket followed by empty
    // ones, that answers the empty stretch's upper end where the walk from the bottom
    // answers its lower end.
    const bool fromTheTop = form == HistogramForm::Native && q >= 0.5 && !std::isnan(point.sum);
    const double rank = fromTheTop ? (1 - q) * total : q * total;
    double counted = 0;
    const HistogramBucket *at = nullptr;
    const auto visit = [&](const HistogramBucket &bucket) {
        if (!(bucket.count > 0))
            return false;
        at = &bucket;
        counted += bucket.count;
        return counted >= rank;
    };
    if (fromTheTop) {
        for (auto it = buckets.rbegin(); it != buckets.rend() && !visit(*it); ++it) { }
    } else {
        for (auto it = buckets.begin(); it != buckets.end() && !visit(*it); ++it) { }
    }
    counted = std::min(counted, total);
    if (counted < rank) // above the events in buckets (a count a hair above their sum)
        return std::isinf(at->upper) ? at->lower : at->upper;
    if (std::isinf(at->upper)) // a classic histogram's +Inf bucket
        return at->lower;
    double lower = at->lower, upper = at->upper;
    if (form == HistogramForm::Native && lower < 0 && upper > 0) {
        // The zero bucket: its own side when the histogram has only the other.
        const bool negative = std::any_of(buckets.begin(), buckets.end(),
                                          [](const auto &b) { return b.upper <= 0; });
        const bool positive = std::any_of(buckets.begin(), buckets.end(),
                                          [](const auto &b) { return b.lower >= 0; });
        if (positive && !negative)
            lower = 0;
        else if (negative && !positive)
            upper = 0;
    }
    const double into = fromTheTop ? counted - rank : rank - (counted - at->count);
    return lower + (upper - lower) * (into / at->count);
}

QList<std::pair<double, std::vector<Sample>>>
cumulativeBoundSeries(const PromqlHistogram &histogram)
{
    std::set<double> bounds;
    for (const PromqlHistogramPoint &point : histogram.points) {
        for (const HistogramBucket &bucket : point.buckets)
            bounds.insert(bucket.upper);
    }
    QList<std::pair<double, std::vector<Sample>>> series;
    for (const double bound : bounds)
        series.append(std::pair<double, std::vector<Sample>> { bound, {} });
    for (const PromqlHistogramPoint &point : histogram.points) {
        // Buckets are sorted by upper bound: walk them beside the bounds.
        double cumulative = 0;
        size_t next = 0;
        for (auto &[bound, samples] : series) {
            while (next < point.buckets.size() && point.buckets[next].upper <= bound)
                cumulative += point.buckets[next++].count;
            samples.push_back({ point.tsMs, cumulative });
        }
    }
    return series;
}

} // namespace Headroom
