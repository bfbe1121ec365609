// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Exposition families into Headroom series, one scrape at a time, GUI-free:
// - gauges, untyped, info and stateset samples stay as they are (metric = the name);
// - counters become per-second rates, reset-safe (CounterRate): metric "<name>:rate"
//   (the Prometheus recording-rule spelling of rate(<name>));
// - histograms become histogram series (heatmaps and percentile lines work on them):
//   each scrape's bucket increments go into a LogHistogram at the bucket's geometric
//   middle (the +Inf bucket at its lower bound); *_seconds histograms are in ms;
// - summaries keep their quantiles as gauges; their _sum and _count become rates;
// - OpenMetrics _created samples are timestamps, not values, and are left out;
// - declared shard sets: a gauge whose label names the shard becomes shard.load{set,
//   shard} (%, Utilization) for the shard panels.
// What it keeps between scrapes (counter baselines, previous buckets) is forgotten for
// series the exporter stopped sending and capped in number (SeriesStateMap), so an
// exporter inventing label sets cannot grow it without bound.
#pragma once

#include "collector/counterrate.h"
#include "collector/seriesstatemap.h"
#include "core/sample.h"
#include "expositionparser.h"

#include <QMap>

namespace Headroom {

struct PrometheusShardSet
{
    QString name; // the set's name in shard.load{set=...}
    QString metric; // a gauge family
    QString shardLabel; // the label whose value names the shard
};

class ExpositionConverter
{
public:
    explicit ExpositionConverter(QList<PrometheusShardSet> shardSets = {});

    // Adds the scrape's series to batch (batch.source and batch.tsMs are used).
    void convert(const Exposition &exposition, SampleBatch *batch);

    // "B" for *_bytes, "s" for *_seconds, "%" for *_percent, "" otherwise.
    static QString unitOf(const QString &name);

private:
    void addHistograms(const ExpositionFamily &family, SampleBatch *batch);

    QList<PrometheusShardSet> m_shardSets;
    CounterRate m_rates;
    // Histogram series key -> cumulative count per upper bound at the previous scrape.
    SeriesStateMap<QMap<double, double>> m_previousBuckets;
};

} // namespace Headroom
