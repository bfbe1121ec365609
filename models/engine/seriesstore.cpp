// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/seriesstore.h"

#include "engine/alerts/alerteventlog.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/livebuffers.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <span>

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

bool SeriesStore::readsTiers(qint64 fromMs, qint64 toMs, int columns)
{
    constexpr qint64 Day = 86'400'000;
    return columns > 0 && toMs - fromMs > Day && (toMs - fromMs) / columns >= MinuteMs;
}

std::vector<Sample> SeriesStore::readForColumns(int seriesId, qint64 fromMs, qint64 toMs,
                                                int columns) const
{
    constexpr qint64 Day = 86'400'000;
    if (columns <= 0 || toMs - fromMs <= Day || !m_cache)
        return read(seriesId, fromMs, toMs);
    if (readsTiers(fromMs, toMs, columns))
        return aggregatePoints(readAggregates(seriesId, fromMs, toMs, columns));
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

namespace {

// Where each part of a range is read from, first choice first, for columns columnMs
// wide: the tiers whose step fits a column (coarsest first), the raw data (nullopt),
// then the tiers kept longer than the raw data (finest first) for what expired from it.
std::vector<std::optional<RollupTier>> sourcesFor(qint64 columnMs)
{
    std::vector<std::optional<RollupTier>> sources;
    if (columnMs >= HourMs)
        sources.emplace_back(RollupTier::Hour);
    if (columnMs >= MinuteMs)
        sources.emplace_back(RollupTier::Minute);
    sources.emplace_back(std::nullopt);
    if (columnMs < MinuteMs)
        sources.emplace_back(RollupTier::Minute);
    if (columnMs < HourMs)
        sources.emplace_back(RollupTier::Hour);
    return sources;
}

// [from, to] from the first source, the parts it does not cover from the next ones.
// readTier(tier, from, to) gives .slots and .covered; readRaw(from, to) the raw items,
// which expire oldest first, so what they miss is before the first. Not sorted.
template<typename Item, typename ReadTier, typename ReadRaw, typename TimeOf>
std::vector<Item>
readFromSources(qint64 fromMs, qint64 toMs, std::span<const std::optional<RollupTier>> sources,
                const ReadTier &readTier, const ReadRaw &readRaw, const TimeOf &timeOf)
{
    if (fromMs > toMs || sources.empty())
        return {};
    std::vector<Item> out;
    const auto next = [&](qint64 from, qint64 to) {
        std::vector<Item> part
            = readFromSources<Item>(from, to, sources.subspan(1), readTier, readRaw, timeOf);
        out.insert(out.end(), std::make_move_iterator(part.begin()),
                   std::make_move_iterator(part.end()));
    };
    if (!sources.front()) {
        out = readRaw(fromMs, toMs);
        const qint64 first = out.empty() ? toMs + 1 : timeOf(out.front());
        if (first > fromMs)
            next(fromMs, first - 1);
        return out;
    }
    auto tier = readTier(*sources.front(), fromMs, toMs);
    qint64 cursor = fromMs; // everything before it is read
    for (const auto &[coveredFrom, coveredTo] : tier.covered) {
        if (coveredFrom > cursor)
            next(cursor, std::min(coveredFrom - 1, toMs));
        cursor = std::max(cursor, coveredTo);
    }
    if (cursor <= toMs)
        next(cursor, toMs);
    out.insert(out.end(), std::make_move_iterator(tier.slots.begin()),
               std::make_move_iterator(tier.slots.end()));
    return out;
}

qint64 columnWidth(qint64 fromMs, qint64 toMs, int columns)
{
    return columns > 0 ? std::max<qint64>(1, (toMs - fromMs) / columns) : 1;
}

} // namespace

std::vector<Aggregate> SeriesStore::readAggregates(int seriesId, qint64 fromMs, qint64 toMs,
                                                   int columns) const
{
    const qint64 columnMs = columnWidth(fromMs, toMs, columns);
    return stitch<Aggregate>(
        fromMs, toMs,
        [&](qint64 from, qint64 to) {
            auto [samples, oldest] = m_live->readWithOldest(seriesId, from, to);
            std::vector<Aggregate> live;
            live.reserve(samples.size());
            for (const Sample &s : samples) {
                if (!std::isnan(s.value))
                    live.push_back(Aggregate::of(s));
            }
            return std::pair { std::move(live), oldest };
        },
        [&](qint64 from, qint64 to) {
            std::vector<Aggregate> out = readFromSources<Aggregate>(
                from, to, sourcesFor(columnMs),
                [&](RollupTier tier, qint64 a, qint64 b) {
                    return m_cache->readRollup(seriesId, tier, a, b);
                },
                [&](qint64 a, qint64 b) {
                    return m_cache->readBlockAggregates(seriesId, a, b, columnMs);
                },
                [](const Aggregate &a) { return a.startMs; });
            std::sort(out.begin(), out.end(),
                      [](const Aggregate &x, const Aggregate &y) { return x.startMs < y.startMs; });
            return out;
        });
}

std::vector<TimedHistogram> SeriesStore::readHistogramsForColumns(int seriesId, qint64 fromMs,
                                                                  qint64 toMs, int columns) const
{
    if (!readsTiers(fromMs, toMs, columns) || !m_cache)
        return readHistograms(seriesId, fromMs, toMs);
    const qint64 columnMs = columnWidth(fromMs, toMs, columns);
    return stitch<TimedHistogram>(
        fromMs, toMs,
        [&](qint64 from, qint64 to) {
            return m_live->readHistogramsWithOldest(seriesId, from, to);
        },
        [&](qint64 from, qint64 to) {
            std::vector<TimedHistogram> out = readFromSources<TimedHistogram>(
                from, to, sourcesFor(columnMs),
                [&](RollupTier tier, qint64 a, qint64 b) {
                    return m_cache->readHistogramRollup(seriesId, tier, a, b);
                },
                [&](qint64 a, qint64 b) { return m_cache->readHistograms(seriesId, a, b); },
                [](const TimedHistogram &h) { return h.first; });
            std::stable_sort(
                out.begin(), out.end(),
                [](const TimedHistogram &a, const TimedHistogram &b) { return a.first < b.first; });
            return out;
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
