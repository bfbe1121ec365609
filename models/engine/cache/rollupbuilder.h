// Makes the rollup tiers (rollup.h) on the cache writer's thread, from the samples of
// each block as it seals: a sum, count, min and max per series and minute, folded into
// hours. A finished hour gives a minute-tier row, a finished day an hour-tier row; at
// stop (and for a series that went quiet) rows cover what there is so far and are
// replaced once their span completes.
//
// After a restart the series' unfinished hour is rebuilt from its stored blocks (and its
// unfinished day from the minute rows) the first time one of its blocks seals, so a
// crash costs the tiers nothing the blocks still hold. A sample older than the hour
// being built (a late poll after a newer one sealed) stays out of the tiers.
#pragma once

#include "engine/cache/rollup.h"

#include <array>
#include <functional>
#include <span>
#include <unordered_map>
#include <vector>

namespace Headroom {

struct RollupRow
{
    RollupTier tier;
    int seriesId;
    qint64 startMs;
    int slots; // how many of the row's slots it covers, from its start
    QByteArray data;
};

class RollupBuilder
{
public:
    // The series' raw samples in [from, to) from stored blocks, and its minute-tier
    // slots in [from, to); false when they cannot be read (the tiers then start over
    // from the next sample, and say so in the log).
    using ReadSamples
        = std::function<bool(int seriesId, qint64 fromMs, qint64 toMs, std::vector<Sample> *out)>;
    using ReadMinutes = std::function<bool(int seriesId, qint64 fromMs, qint64 toMs,
                                           std::vector<Aggregate> *out)>;

    RollupBuilder(ReadSamples readSamples, ReadMinutes readMinutes);

    // Samples of one sealed block, sorted by time.
    void add(int seriesId, std::span<const Sample> sorted);
    // Rows so far for every series whose hour ended before newestMs (gone quiet), or for
    // every series when newestMs is nullopt (stopping).
    void writeUnfinished(std::optional<qint64> newestMs);

    const std::vector<RollupRow> &pendingRows() const { return m_pending; }
    void clearPending() { m_pending.clear(); }
    qint64 lateSamples() const { return m_late; }

private:
    struct SeriesRollup
    {
        qint64 hourStart = 0;
        qint64 dayStart = 0;
        std::array<Aggregate, 60> minutes {};
        std::array<Aggregate, 24> hours {}; // the finished hours of the day
        bool unwritten = false; // minutes or hours not yet in a pending row
    };

    SeriesRollup &start(int seriesId, qint64 firstTs);
    void finishHour(int seriesId, SeriesRollup &s);
    void finishDay(int seriesId, SeriesRollup &s);
    void emitMinuteRow(int seriesId, const SeriesRollup &s, bool complete);
    void emitHourRow(int seriesId, const SeriesRollup &s, const Aggregate *unfinishedHour,
                     bool complete);

    ReadSamples m_readSamples;
    ReadMinutes m_readMinutes;
    std::unordered_map<int, SeriesRollup> m_series;
    std::vector<RollupRow> m_pending;
    qint64 m_late = 0;
};

} // namespace Headroom
