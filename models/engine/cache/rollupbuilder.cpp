#include "engine/cache/rollupbuilder.h"

#include "cachelogging.h"

#include <optional>

namespace Headroom {

namespace {

constexpr qint64 DayMs = 24 * HourMs;

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

RollupBuilder::RollupBuilder(ReadSamples readSamples, ReadMinutes readMinutes,
                             ReadHistograms readHistograms)
    : m_readSamples(std::move(readSamples))
    , m_readMinutes(std::move(readMinutes))
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
    // What earlier runs stored of this minute (polls) and hour (finished minutes).
    std::vector<TimedHistogram> earlier;
    if (m_readHistograms(seriesId, std::nullopt, h.minuteStart, firstTs, &earlier))
        for (const auto &[ts, histogram] : earlier)
            h.minute.merge(histogram);
    earlier.clear();
    if (m_readHistograms(seriesId, RollupTier::Minute, h.hourStart, h.minuteStart, &earlier))
        for (const auto &[ts, histogram] : earlier)
            h.hour.merge(histogram);
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
        if (!h.minute.isEmpty()) {
            m_pendingHistograms.push_back(
                { RollupTier::Minute, seriesId, h.minuteStart, h.minute.serialize() });
            h.hour.merge(h.minute);
            h.minute.clear();
        }
        h.minuteStart = minute;
        const qint64 hour = floorTo(tsMs, HourMs);
        if (hour > h.hourStart) {
            if (!h.hour.isEmpty())
                m_pendingHistograms.push_back(
                    { RollupTier::Hour, seriesId, h.hourStart, h.hour.serialize() });
            h.hour.clear();
            h.hourStart = hour;
        }
    }
    h.minute.merge(histogram);
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
        qCWarning(lcCache) << "cache: rollup of series" << seriesId
                           << "starts at the current sample: its earlier blocks are unreadable";
    }
    std::vector<Aggregate> minutes;
    if (m_readMinutes(seriesId, s.dayStart, s.hourStart, &minutes)) {
        for (const Aggregate &a : minutes) {
            if (a.startMs >= s.dayStart && a.startMs < s.hourStart)
                s.hours[size_t((a.startMs - s.dayStart) / HourMs)].merge(a);
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
    s.hours[size_t((s.hourStart - s.dayStart) / HourMs)].merge(mergedOf(s.minutes));
    s.minutes.fill({});
}

void RollupBuilder::finishDay(int seriesId, SeriesRollup &s)
{
    emitHourRow(seriesId, s, nullptr, true);
    s.hours.fill({});
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
    m_pending.push_back({ RollupTier::Minute, seriesId, s.hourStart, complete ? 60 : filled - 1,
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
    m_pending.push_back({ RollupTier::Hour, seriesId, s.dayStart, complete ? 24 : finished,
                          RollupCodec::encode(RollupTier::Hour, s.dayStart, slots) });
}

void RollupBuilder::writeUnfinished(std::optional<qint64> newestMs)
{
    for (auto &[id, s] : m_series) {
        if (!s.unwritten || (newestMs && s.hourStart + HourMs > *newestMs))
            continue;
        // Rows so far, without finishing the hour: samples of it may still come (the
        // series resumes, or the next run rebuilds the hour and replaces these rows).
        emitMinuteRow(id, s, false);
        const Aggregate unfinished = mergedOf(s.minutes);
        emitHourRow(id, s, &unfinished, false);
        s.unwritten = false;
    }
}

} // namespace Headroom
