// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Ring buffers of the recent window per series, so panels following "now" never
// touch the cache: plain samples for value series, whole histograms for histogram
// series. Written from collector threads (through the bus), read from the GUI thread
// and the query pool; one lock per buffer set is plenty at these rates.
#pragma once

#include "core/timering.h"
#include "engine/runtime/samplebus.h"

#include <QHash>
#include <QReadWriteLock>
#include <optional>
#include <vector>

namespace Headroom {

class LiveBuffers : public SampleSink
{
public:
    // Every series, of either kind, keeps its newest capacityPerSeries polls.
    explicit LiveBuffers(int capacityPerSeries = 3600);

    void consume(const ResolvedBatch &batch) override;
    void append(int seriesId, Sample sample);
    void appendHistogram(int seriesId, qint64 tsMs, const LogHistogram &histogram);

    // Samples of seriesId with from <= ts <= to, oldest first.
    std::vector<Sample> read(int seriesId, qint64 fromMs, qint64 toMs) const;
    // Histograms of a histogram series with from <= ts <= to, oldest first. Copies are
    // cheap: LogHistogram's buckets are implicitly shared.
    std::vector<TimedHistogram> readHistograms(int seriesId, qint64 fromMs, qint64 toMs) const;
    // The newest sample of a value series (the one pushed last), or nullopt.
    std::optional<Sample> newest(int seriesId) const;
    // Oldest timestamp held for seriesId (either kind), or -1: what is older must come
    // from the cache.
    qint64 oldest(int seriesId) const;
    // read() / readHistograms() and the oldest timestamp held, under one lock: a ring
    // that moves on between two calls would let the cache and the ring both return
    // the evicted item.
    std::pair<std::vector<Sample>, qint64> readWithOldest(int seriesId, qint64 fromMs,
                                                          qint64 toMs) const;
    std::pair<std::vector<TimedHistogram>, qint64>
    readHistogramsWithOldest(int seriesId, qint64 fromMs, qint64 toMs) const;
    // Every series held, value and histogram series alike.
    QList<int> seriesIds() const;
    int capacity() const { return m_capacity; }

private:
    const int m_capacity;
    mutable QReadWriteLock m_lock;
    // Series ids are unique across both kinds (one registry), so a series is in one map.
    QHash<int, TimeRing<Sample>> m_values;
    QHash<int, TimeRing<TimedHistogram>> m_histograms;
};

} // namespace Headroom
