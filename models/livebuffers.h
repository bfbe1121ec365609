// Ring buffers of the recent window per series, so panels following "now" never
// touch the cache. Written from collector threads (through the bus), read from the GUI
// thread and the query pool; one lock per buffer set is plenty at these rates.
#pragma once

#include "samplebus.h"

#include <QHash>
#include <QReadWriteLock>
#include <vector>

namespace Headroom {

class LiveBuffers : public SampleSink
{
public:
    explicit LiveBuffers(int capacityPerSeries = 3600);

    void consume(const ResolvedBatch &batch) override;
    void append(int seriesId, Sample sample);

    // Samples of seriesId with from <= ts <= to, oldest first.
    std::vector<Sample> read(int seriesId, qint64 fromMs, qint64 toMs) const;
    // Oldest timestamp held for seriesId, or -1: what is older must come from the cache.
    qint64 oldest(int seriesId) const;
    QList<int> seriesIds() const;
    int capacity() const { return m_capacity; }

private:
    struct Ring
    {
        std::vector<Sample> data;
        size_t start = 0; // index of the oldest sample once full
        bool full = false;
    };
    const int m_capacity;
    mutable QReadWriteLock m_lock;
    QHash<int, Ring> m_rings;
};

} // namespace Headroom
