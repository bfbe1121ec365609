// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/rollupbuilder.h"

#include "cachelogging.h"
#include "engine/cache/cacheschema.h"

#include <optional>

namespace Headroom {

using CacheSchema::DayMs;

namespace {

// The non-empty slots of a row's aggregates, stamped from rowStartMs on.
std::vector<Aggregate> filledSlots(std::span<const Aggregate> slots, qint64 rowStartMs,
                                   qint64 stepMs, int *covered)
{
    std::vector<Aggregate> out;
    *covered = 0;
    for (size_t i = 0; i < slots.size(); ++i) {
        if (slots[i].count == 0)
            continue;
        Aggregate a = slots[i];
        a.startMs = rowStartMs + qint64(i) * stepMs;
        a.endMs = a.startMs + stepMs - 1;
        out.push_back(a);
        *covered = int(i) + 1;
    }
    return out;
}

Aggregate mergedOf(std::span<const Aggregate> slots)
{
    Aggregate total;
    for (const Aggregate &a : slots)
        total.merge(a);
    return total;
}

} // namespace

RollupBuilder::RollupBuilder(ReadSamples readSamples, ReadMinutes readMinutes, HasBlocks hasBlocks,
                             ReadHistograms readHistograms)
    : m_readSamples(std::move(readSamples))
    , m_readMinutes(std::move(readMinutes))
    , m_hasBlocks(std::move(hasBlocks))
    , m_readHistograms(std::move(readHistograms))
{
}

RollupBuilder::HistogramRollup &RollupBuilder::startHistogram(int seriesId, qint64 firstTs)
{
    auto [it, inserted] = m_histograms.try_emplace(seriesId);
    HistogramRollup &h = it->second;
    if (!inserted)
        return h;
    h.minuteStart = floorTo(firstTs, MinuteMs);
    h.hourStart = floorTo(firstTs, HourMs);
    // What earlier runs stored of this hour, from the polls themselves (a minute row
    // may be missing after a crash; histogram series are few, an hour of polls cheap).
    std::vector<TimedHistogram> earlier;
    if (m_readHistograms(seriesId, std::nullopt, h.hourStart, firstTs, &earlier)) {
        for (const auto &[ts, histogram] : earlier) {
            if (ts >= h.minuteStart)
                h.minute.merge(histogram);
            else if (ts >= h.hourStart)
                h.hour.merge(histogram);
        }
    }
    return h;
}

void RollupBuilder::addHistogram(int seriesId, qint64 tsMs, const LogHistogram &histogram)
{
    HistogramRollup &h = startHistogram(seriesId, tsMs);
    const qint64 minute = floorTo(tsMs, MinuteMs);
    if (minute < h.minuteStart) {
        ++m_late;
        return;
    }
    if (minute > h.minuteStart) {
        const qint64 hour = floorTo(tsMs, HourMs);
        emitHistogramRows(seriesId, h, hour > h.hourStart);
        h.hour.merge(h.minute);
        h.minute.clear();
        h.minuteStart = minute;
        if (hour > h.hourStart) {
            h.hour.clear();
            h.hourStart = hour;
        }
    }
    h.minute.merge(histogram);
}

void RollupBuilder::emitHistogramRows(int seriesId, const HistogramRollup &h, bool withHour)
{
    if (!h.minute.isEmpty())
        m_pendingHistograms.push_back(
            { RollupTier::Minute, seriesId, h.minuteStart, h.minute.serialize() });
    if (!withHour)
        return;
    LogHistogram hour = h.hour;
    hour.merge(h.minute);
    if (!hour.isEmpty())
        m_pendingHistograms.push_back(
            { RollupTier::Hour, seriesId, h.hourStart, hour.serialize() });
}

RollupBuilder::SeriesRollup &RollupBuilder::start(int seriesId, qint64 firstTs)
{
    auto [it, inserted] = m_series.try_emplace(seriesId);
    SeriesRollup &s = it->second;
    if (!inserted)
        return s;
    s.hourStart = floorTo(firstTs, HourMs);
    s.dayStart = floorTo(firstTs, DayMs);
    // What earlier runs stored of this hour and day: the tiers go on from there.
    std::vector<Sample> earlier;
    if (m_readSamples(seriesId, s.hourStart, firstTs, &earlier)) {
        for (const Sample &sample : earlier) {
            if (sample.tsMs >= s.hourStart && sample.tsMs < firstTs)
                s.minutes[size_t((sample.tsMs - s.hourStart) / MinuteMs)].add(sample.value);
        }
    } else {
        s.firstKnownMinute = int((firstTs - s.hourStart) / MinuteMs);
        qCWarning(lcCache) << "cache: rollup of series" << seriesId
                           << "starts at the current sample: its earlier blocks are unreadable";
    }
    const int hourIndex = int((s.hourStart - s.dayStart) / HourMs);
    std::vector<Aggregate> minutes;
    if (!m_readMinutes(seriesId, s.dayStart, s.hourStart, &minutes)) {
        s.firstKnownHour = hourIndex;
    } else {
        std::array<bool, 24> rolledUp {};
        for (const Aggregate &a : minutes) {
            if (a.startMs >= s.dayStart && a.startMs < s.hourStart) {
                const size_t h = size_t((a.startMs - s.dayStart) / HourMs);
                s.hours[h].merge(a);
                rolledUp[h] = true;
            }
        }
        // An earlier hour with blocks but no minutes was never rolled up: the day's
        // hour row covers from the hour after it.
        for (int h = hourIndex - 1; h >= 0; --h) {
            const qint64 from = s.dayStart + h * HourMs;
            if (!rolledUp[size_t(h)] && m_hasBlocks(seriesId, from, from + HourMs)) {
                s.firstKnownHour = h + 1;
                break;
            }
        }
    }
    s.unwritten = true;
    return s;
}

void RollupBuilder::add(int seriesId, std::span<const Sample> sorted)
{
    if (sorted.empty())
        return;
    SeriesRollup &s = start(seriesId, sorted.front().tsMs);
    for (const Sample &sample : sorted) {
        const qint64 hour = floorTo(sample.tsMs, HourMs);
        if (hour < s.hourStart) {
            ++m_late;
            continue;
        }
        if (hour > s.hourStart) {
            finishHour(seriesId, s);
            const qint64 day = floorTo(hour, DayMs);
            if (day > s.dayStart)
                finishDay(seriesId, s);
            s.hourStart = hour;
            s.dayStart = day;
        }
        s.minutes[size_t((sample.tsMs - hour) / MinuteMs)].add(sample.value);
        s.unwritten = true;
    }
}

void RollupBuilder::finishHour(int seriesId, SeriesRollup &s)
{
    emitMinuteRow(seriesId, s, true);
    const int hourIndex = int((s.hourStart - s.dayStart) / HourMs);
    if (s.firstKnownMinute > 0) // part of this hour is unknown: so is the hour
        s.firstKnownHour = std::max(s.firstKnownHour, hourIndex + 1);
    s.hours[size_t(hourIndex)].merge(mergedOf(s.minutes));
    s.minutes.fill({});
    s.firstKnownMinute = 0;
}

void RollupBuilder::finishDay(int seriesId, SeriesRollup &s)
{
    emitHourRow(seriesId, s, nullptr, true);
    s.hours.fill({});
    s.firstKnownHour = 0;
    s.unwritten = false;
}

void RollupBuilder::emitMinuteRow(int seriesId, const SeriesRollup &s, bool complete)
{
    int filled = 0;
    const std::vector<Aggregate> slots = filledSlots(s.minutes, s.hourStart, MinuteMs, &filled);
    if (slots.empty())
        return;
    // An unfinished row covers the minutes before its newest: more samples of that one
    // may be in the tail, which readers then read with the rest of the minute.
    m_pending.push_back({ RollupTier::Minute, seriesId, s.hourStart, s.firstKnownMinute,
                          complete ? 60 : filled - 1,
                          RollupCodec::encode(RollupTier::Minute, s.hourStart, slots) });
}

void RollupBuilder::emitHourRow(int seriesId, const SeriesRollup &s,
                                const Aggregate *unfinishedHour, bool complete)
{
    std::array<Aggregate, 24> hours = s.hours;
    if (unfinishedHour)
        hours[size_t((s.hourStart - s.dayStart) / HourMs)].merge(*unfinishedHour);
    int filled = 0;
    const std::vector<Aggregate> slots = filledSlots(hours, s.dayStart, HourMs, &filled);
    if (slots.empty())
        return;
    // An unfinished row covers the finished hours (the minute tier has the current one).
    const int finished = int((s.hourStart - s.dayStart) / HourMs);
    m_pending.push_back({ RollupTier::Hour, seriesId, s.dayStart, s.firstKnownHour,
                          complete ? 24 : finished,
                          RollupCodec::encode(RollupTier::Hour, s.dayStart, slots) });
}

void RollupBuilder::writeUnfinished(std::optional<qint64> newestMs)
{
    for (auto it = m_series.begin(); it != m_series.end();) {
        auto &[id, s] = *it;
        const bool quiet = newestMs && s.hourStart + HourMs <= *newestMs;
        if (newestMs && !quiet) {
            ++it;
            continue;
        }
        // Rows so far, without finishing the hour: samples of it may still come (the
        // series resumes, or the next run rebuilds the hour and replaces these rows).
        if (s.unwritten) {
            emitMinuteRow(id, s, false);
            const Aggregate unfinished = mergedOf(s.minutes);
            emitHourRow(id, s, &unfinished, false);
            s.unwritten = false;
        }
        it = quiet ? m_series.erase(it) : std::next(it);
    }
    for (auto it = m_histograms.begin(); it != m_histograms.end();) {
        const bool quiet = newestMs && it->second.hourStart + HourMs <= *newestMs;
        if (!newestMs || quiet)
            emitHistogramRows(it->first, it->second, true);
        it = quiet ? m_histograms.erase(it) : std::next(it);
    }
}

} // namespace Headroom
