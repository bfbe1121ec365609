// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What `--serve-metrics` serves: every series the session collects, its newest value,
// as an OpenMetrics 1.0 (or Prometheus 0.0.4) text exposition, so that a Prometheus or
// VictoriaMetrics scrape job can collect from Headroom (docs/fleet.md, "Serving metrics").
//
// Names: openmetricsnames.h; every sample gets a `source` label (the dashboard's source
// id). Value series are gauges holding their newest sample, left out once it is older
// than the stale limit (a source that stopped answering must not look flat). Samples
// carry no timestamp: the engine stamps them at its scrape, as for any exporter.
// Histogram series are true Prometheus histograms: the per-poll histograms Headroom
// collects are summed since the exposition started, so `_bucket`, `_count` and `_sum`
// only grow and `histogram_quantile(0.99, rate(..._bucket[5m]))` works. Their `le`
// bounds are every 35th bound of LogHistogram (factors of 1.02^35, about 2), so each
// cumulative count is exact, not interpolated.
#pragma once

#include "core/histogram.h"

#include <QByteArray>
#include <QHash>

namespace Headroom {

class LiveBuffers;
class SeriesRegistry;

class MetricsExposition
{
public:
    enum class Format
    {
        OpenMetrics, // application/openmetrics-text; version=1.0.0 (ends with "# EOF")
        PrometheusText // text/plain; version=0.0.4
    };
    static constexpr qint64 DefaultStaleMs = 5 * 60'000;
    static constexpr int BoundStep = 35; // LogHistogram buckets per `le` bound

    explicit MetricsExposition(qint64 staleAfterMs = DefaultStaleMs);

    // The exposition of every series of registry whose newest sample in live is no older
    // than the stale limit at nowMs. Not thread-safe (it keeps the histogram sums): call
    // from one thread.
    QByteArray render(const SeriesRegistry &registry, const LiveBuffers &live, qint64 nowMs,
                      Format format);
    static QByteArray contentType(Format format);

    struct Stats
    {
        int families = 0;
        int series = 0; // samples of gauges plus histogram series
        int histograms = 0;
    };
    // What the last render() wrote.
    Stats lastStats() const { return m_stats; }

private:
    struct RunningHistogram
    {
        LogHistogram total;
        qint64 lastMs = -1; // the newest poll summed in
    };
    const qint64 m_staleMs;
    QHash<int, RunningHistogram> m_histograms;
    Stats m_stats;
};

} // namespace Headroom
