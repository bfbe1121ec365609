// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Histograms read from a Prometheus-compatible engine, for the heatmap and the
// percentile lines of a panel with a PromQL query. Two shapes of answer hold one:
//  - a classic histogram: one series per bucket bound, told apart by the label `le`
//    ("0.005", "+Inf"), cumulative (events <= le), e.g.
//    sum by (le) (rate(http_request_duration_seconds_bucket[1m]));
//  - a native histogram: one series whose values are histograms ("histograms" in the
//    answer), e.g. sum(rate(http_request_duration_seconds[1m])).
// Both become PromqlHistogram: buckets per time, so what follows does not care which.
#pragma once

#include "collector/promql/promqlresponse.h"

namespace Headroom {

struct PromqlHistogram
{
    // The series' labels without `le` (a classic histogram's bound series share them),
    // __name__ without its "_bucket" suffix.
    Labels labels;
    // Oldest first. A classic histogram has a point only at times every one of its
    // bounds has a sample (a failed scrape of one bound is no time of the histogram).
    std::vector<PromqlHistogramPoint> points;
    // False for a classic histogram without an le="+Inf" bound: how many events lie
    // above its largest bound is unknown, so it has no percentiles (as in PromQL).
    bool hasInfBucket = true;
    bool native = false;
};

struct PromqlHistogramSplit
{
    QList<PromqlHistogram> histograms; // classic ones by their labels, then native ones
    QList<PromqlSeries> plain; // every other series, as it came
};

PromqlHistogramSplit splitPromqlHistograms(QList<PromqlSeries> series);

enum class HistogramForm
{
    Classic, // le bound series
    Native
};

// The q-quantile (q in [0, 1]) of a histogram's buckets (sorted by upper bound), as
// PromQL 2.53's histogram_quantile: the rank is q × the point's count (the engine's own,
// not the buckets' sum: where the rank falls on a bucket's edge, the two differ in the
// last bit and would pick different buckets), linear within the bucket it falls in (the
// first bucket of a classic histogram starts at 0), the largest finite bound when it
// falls in the +Inf bucket; NaN without events, -Inf and +Inf for q below 0 and above 1.
// A native histogram is walked as PromQL walks it: from the top for q >= 0.5 (rank
// (1 - q) × count), and its zero bucket starts at 0 when it has no negative buckets.
double histogramQuantile(double q, const PromqlHistogramPoint &point,
                         HistogramForm form = HistogramForm::Classic);

// The histogram as cumulative bound series (heatmapFromCumulativeBuckets' input): one
// per upper bound any point has, ascending, with each point's events at or below it.
// A native histogram's buckets are sparse (an absent bucket is an empty one), so every
// bound gets a sample at every point.
QList<std::pair<double, std::vector<Sample>>>
cumulativeBoundSeries(const PromqlHistogram &histogram);

} // namespace Headroom
