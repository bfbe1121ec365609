// The read side panels use: recent samples from the live buffers, older ones from the
// cache, stitched without overlap. Thread-safe; meant to be called from the query pool.
#pragma once

#include "core/sample.h"
#include "engine/runtime/alertevent.h"

#include <vector>

namespace Headroom {

class AlertEventLog;
class LiveBuffers;
class SampleCache;

class SeriesStore
{
public:
    SeriesStore(const LiveBuffers *live, const SampleCache *cache,
                const AlertEventLog *alertLog = nullptr)
        : m_live(live)
        , m_cache(cache)
        , m_alertLog(alertLog)
    {
    }

    // Samples of a value series with from <= ts <= to, oldest first.
    std::vector<Sample> read(int seriesId, qint64 fromMs, qint64 toMs) const;
    // As read(), for a range that is to be reduced to `columns` pixel columns: ranges
    // longer than a day take the cache's older blocks from their summaries
    // (SampleCache::readSummarized), shorter ones are read() as they are.
    std::vector<Sample> readForColumns(int seriesId, qint64 fromMs, qint64 toMs, int columns) const;
    // As read(), for a range the analysis averages into bins of binMs: where a bin spans
    // a minute or more, cache blocks spanning at most two bins come from their
    // summaries (their min and max), which is all a bin mean needs at that scale.
    std::vector<Sample> readForBins(int seriesId, qint64 fromMs, qint64 toMs, qint64 binMs) const;
    // Histograms of a histogram series with from <= ts <= to, oldest first.
    std::vector<TimedHistogram> readHistograms(int seriesId, qint64 fromMs, qint64 toMs) const;

    // Alert events with from <= ts <= to, oldest first: the cache's (every run), with
    // the engine's newest that the cache has not committed yet.
    QList<AlertEvent> readAlertEvents(qint64 fromMs, qint64 toMs) const;

private:
    template<typename Timed, typename ReadLive, typename ReadCache>
    std::vector<Timed> stitch(qint64 fromMs, qint64 toMs, ReadLive readLive,
                              ReadCache readCache) const;

    const LiveBuffers *m_live;
    const SampleCache *m_cache; // may be null: live data only
    const AlertEventLog *m_alertLog; // may be null: no alert engine
};

} // namespace Headroom
