#include "engine/seriesstore.h"

#include "engine/alerts/alerteventlog.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/livebuffers.h"

#include <algorithm>
#include <iterator>

namespace Headroom {

// The one stitching rule for both kinds of series: readLive(from, to) gives the ring's
// items in range and its oldest timestamp (read together, under one lock), and
// readCache(from, to) reads the same series from the cache.
template<typename Timed, typename ReadLive, typename ReadCache>
std::vector<Timed> SeriesStore::stitch(qint64 fromMs, qint64 toMs, ReadLive readLive,
                                       ReadCache readCache) const
{
    auto [live, liveOldest]
        = m_live ? readLive(fromMs, toMs) : std::pair<std::vector<Timed>, qint64> { {}, -1 };
    // Everything the live ring still holds is newer than liveOldest; the cache only
    // has to supply what is older than that (and never past the range's end: the ring
    // may start after it).
    if (!m_cache || (liveOldest >= 0 && liveOldest <= fromMs))
        return std::move(live);
    const qint64 cacheTo = liveOldest >= 0 ? std::min(toMs, liveOldest - 1) : toMs;
    std::vector<Timed> out = readCache(fromMs, cacheTo);
    out.insert(out.end(), std::make_move_iterator(live.begin()),
               std::make_move_iterator(live.end()));
    return out;
}

std::vector<Sample> SeriesStore::read(int seriesId, qint64 fromMs, qint64 toMs) const
{
    return stitch<Sample>(
        fromMs, toMs,
        [&](qint64 from, qint64 to) { return m_live->readWithOldest(seriesId, from, to); },
        [&](qint64 from, qint64 to) { return m_cache->read(seriesId, from, to); });
}

std::vector<Sample> SeriesStore::readForColumns(int seriesId, qint64 fromMs, qint64 toMs,
                                                int columns) const
{
    constexpr qint64 Day = 86'400'000;
    if (columns <= 0 || toMs - fromMs <= Day || !m_cache)
        return read(seriesId, fromMs, toMs);
    // A block may be summarized when it spans at most a column: its two points then
    // land in one or two neighbouring columns, where the reduction puts them anyway.
    const qint64 columnMs = (toMs - fromMs) / columns;
    return stitch<Sample>(
        fromMs, toMs,
        [&](qint64 from, qint64 to) { return m_live->readWithOldest(seriesId, from, to); },
        [&](qint64 from, qint64 to) {
            return m_cache->readSummarized(seriesId, from, to, columnMs);
        });
}

std::vector<Sample> SeriesStore::readForBins(int seriesId, qint64 fromMs, qint64 toMs,
                                             qint64 binMs) const
{
    constexpr qint64 SummarizedFromBinMs = 60'000;
    if (binMs < SummarizedFromBinMs || !m_cache)
        return read(seriesId, fromMs, toMs);
    return stitch<Sample>(
        fromMs, toMs,
        [&](qint64 from, qint64 to) { return m_live->readWithOldest(seriesId, from, to); },
        [&](qint64 from, qint64 to) {
            return m_cache->readSummarized(seriesId, from, to, 2 * binMs);
        });
}

std::vector<TimedHistogram> SeriesStore::readHistograms(int seriesId, qint64 fromMs,
                                                        qint64 toMs) const
{
    return stitch<TimedHistogram>(
        fromMs, toMs,
        [&](qint64 from, qint64 to) {
            return m_live->readHistogramsWithOldest(seriesId, from, to);
        },
        [&](qint64 from, qint64 to) { return m_cache->readHistograms(seriesId, from, to); });
}

QList<AlertEvent> SeriesStore::readAlertEvents(qint64 fromMs, qint64 toMs) const
{
    QList<AlertEvent> events;
    if (m_cache)
        events = m_cache->readAlertEvents(fromMs, toMs);
    if (!m_alertLog)
        return events;
    const QList<AlertEvent> recent = m_alertLog->read(fromMs, toMs);
    bool added = false;
    for (const AlertEvent &event : recent) {
        // Events are few; a linear look from the newest end finds a stored one fast.
        const bool stored = std::any_of(events.crbegin(), events.crend(), [&](const AlertEvent &e) {
            return sameAlertEvent(e, event);
        });
        if (!stored) {
            events.append(event);
            added = true;
        }
    }
    if (added)
        std::stable_sort(events.begin(), events.end(),
                         [](const AlertEvent &a, const AlertEvent &b) { return a.tsMs < b.tsMs; });
    return events;
}

} // namespace Headroom
