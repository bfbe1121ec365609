// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

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

#include "core/histogram.h"
#include "engine/cache/rollup.h"

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace Headroom {

struct RollupRow
{
    RollupTier tier;
    int seriesId;
    qint64 startMs;
    int firstSlot; // the row covers slots [firstSlot, slots): earlier ones are not known
    int slots;
    QByteArray data;
};

// One merged histogram of a histogram series for one slot (finished slots only).
struct RollupHistogramRow
{
    RollupTier tier;
    int seriesId;
    qint64 startMs;
    QByteArray data; // LogHistogram::serialize()
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
    // Whether the series has stored blocks overlapping [from, to).
    using HasBlocks = std::function<bool(int seriesId, qint64 fromMs, qint64 toMs)>;

    // A histogram series' stored histograms in [from, to): its polls (tier nullopt) or
    // the given tier's slots.
    using ReadHistograms
        = std::function<bool(int seriesId, std::optional<RollupTier> tier, qint64 fromMs,
                             qint64 toMs, std::vector<TimedHistogram> *out)>;

    RollupBuilder(ReadSamples readSamples, ReadMinutes readMinutes, HasBlocks hasBlocks,
                  ReadHistograms readHistograms);

    // Samples of one sealed block, sorted by time.
    void add(int seriesId, std::span<const Sample> sorted);
    // One poll of a histogram series: merged into its minute and hour, whose rows are
    // written once a later poll starts the next minute or hour, and at stop as they are
    // (replaced when the slot finishes; a restart in the same slot rebuilds it from the
    // polls). A slot without a row (a crash) is read from the polls.
    void addHistogram(int seriesId, qint64 tsMs, const LogHistogram &histogram);
    // Rows so far for every series whose hour ended before newestMs (gone quiet: its
    // state is then dropped, and rebuilt from what is stored should it come back), or
    // for every series when newestMs is nullopt (stopping).
    void writeUnfinished(std::optional<qint64> newestMs);

    const std::vector<RollupRow> &pendingRows() const { return m_pending; }
    const std::vector<RollupHistogramRow> &pendingHistogramRows() const
    {
        return m_pendingHistograms;
    }
    void clearPending()
    {
        m_pending.clear();
        m_pendingHistograms.clear();
    }
    qint64 lateSamples() const { return m_late; }

private:
    struct SeriesRollup
    {
        qint64 hourStart = 0;
        qint64 dayStart = 0;
        std::array<Aggregate, 60> minutes {};
        std::array<Aggregate, 24> hours {}; // the finished hours of the day
        // Slots before these are not known: stored blocks that could not be read, or
        // hours of the day with blocks but no minute row (written before schema 6, or
        // lost in a crash). Rows cover from there; readers take the rest from blocks.
        int firstKnownMinute = 0;
        int firstKnownHour = 0;
        bool unwritten = false; // minutes or hours not yet in a pending row
    };

    struct HistogramRollup
    {
        qint64 minuteStart = 0;
        qint64 hourStart = 0;
        LogHistogram minute;
        LogHistogram hour; // the finished minutes of the hour
    };

    SeriesRollup &start(int seriesId, qint64 firstTs);
    HistogramRollup &startHistogram(int seriesId, qint64 firstTs);
    void emitHistogramRows(int seriesId, const HistogramRollup &h, bool withHour);
    void finishHour(int seriesId, SeriesRollup &s);
    void finishDay(int seriesId, SeriesRollup &s);
    void emitMinuteRow(int seriesId, const SeriesRollup &s, bool complete);
    void emitHourRow(int seriesId, const SeriesRollup &s, const Aggregate *unfinishedHour,
                     bool complete);

    ReadSamples m_readSamples;
    ReadMinutes m_readMinutes;
    HasBlocks m_hasBlocks;
    ReadHistograms m_readHistograms;
    std::unordered_map<int, SeriesRollup> m_series;
    std::unordered_map<int, HistogramRollup> m_histograms;
    std::vector<RollupRow> m_pending;
    std::vector<RollupHistogramRow> m_pendingHistograms;
    qint64 m_late = 0;
};

} // namespace Headroom
