// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The read side panels use: recent samples from the live buffers, older ones from the
// cache, stitched without overlap. Thread-safe; meant to be called from the query pool.
#pragma once

#include "core/sample.h"
#include "engine/cache/rollup.h"
#include "engine/runtime/alertevent.h"

#include <optional>
#include <span>
#include <vector>

namespace Headroom {

class AlertEventLog;
class LiveBuffers;
class PromqlEngines;
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
    // (SampleCache::readSummarized), or from the rollup tiers where a column spans a
    // tier's step (readAggregates(), each aggregate as its minimum and maximum);
    // shorter ones are read() as they are.
    std::vector<Sample> readForColumns(int seriesId, qint64 fromMs, qint64 toMs, int columns) const;
    // Whether a range drawn `columns` wide is read from the rollup tiers: longer than a
    // day, and a column spans at least a minute.
    static bool readsTiers(qint64 fromMs, qint64 toMs, int columns);
    // The range as aggregates for `columns` columns (readsTiers() ranges): the coarsest
    // tier whose step fits a column where its rows cover the range, finer tiers and then
    // the blocks (summarized where they fit a column) for the rest, the live ring's
    // samples as aggregates of one. Sorted by start; true sums and counts throughout,
    // so means over weeks are true means.
    std::vector<Aggregate> readAggregates(int seriesId, qint64 fromMs, qint64 toMs,
                                          int columns) const;
    // As read(), for a range the analysis averages into bins of binMs: where a bin spans
    // a minute or more, cache blocks spanning at most two bins come from their
    // summaries (their min and max), which is all a bin mean needs at that scale.
    std::vector<Sample> readForBins(int seriesId, qint64 fromMs, qint64 toMs, qint64 binMs) const;
    // Histograms of a histogram series with from <= ts <= to, oldest first.
    std::vector<TimedHistogram> readHistograms(int seriesId, qint64 fromMs, qint64 toMs) const;
    // As readHistograms(), for a range drawn `columns` wide: where readsTiers(), one
    // merged histogram per tier slot (the coarsest whose step fits a column), stamped at
    // the slot's middle, from the rollup tiers where they cover the range (percentiles
    // over a month from a few thousand merged histograms instead of millions of polls).
    std::vector<TimedHistogram> readHistogramsForColumns(int seriesId, qint64 fromMs, qint64 toMs,
                                                         int columns) const;

    // Alert events with from <= ts <= to, oldest first: the cache's (every run), with
    // the engine's newest that the cache has not committed yet.
    QList<AlertEvent> readAlertEvents(qint64 fromMs, qint64 toMs) const;

    // The engines PromQL panels read from (promqlengines.h); null: none (a store built
    // for a test or a recording's own reads).
    const PromqlEngines *promqlEngines() const { return m_promql; }
    void setPromqlEngines(const PromqlEngines *engines) { m_promql = engines; }

private:
    template<typename Timed, typename ReadLive, typename ReadCache>
    std::vector<Timed> stitch(qint64 fromMs, qint64 toMs, ReadLive readLive,
                              ReadCache readCache) const;

    const LiveBuffers *m_live;
    const SampleCache *m_cache; // may be null: live data only
    const AlertEventLog *m_alertLog; // may be null: no alert engine
    const PromqlEngines *m_promql = nullptr;
};

} // namespace Headroom
