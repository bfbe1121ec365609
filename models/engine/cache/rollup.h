// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Rollup tiers: per-minute and per-hour aggregates of every value series, kept longer
// than the raw blocks, so long ranges are both cheap and true (means from sums and
// counts, not from block extremes). RollupBuilder (rollupbuilder.h) makes them as blocks
// seal; SampleCache::readRollup() reads them.
//
// A tier row holds one series' slots of one row span: the minute tier 60 one-minute
// slots of a UTC hour, the hour tier 24 one-hour slots of a UTC day. Empty slots (no
// sample, or only NaN) are left out. `slots` says how far the row covers its span: a row
// written for a series still being collected (at stop, or for a series gone quiet)
// covers its finished slots only, and is replaced once the span is complete; readers
// take what it does not cover from the finer tier or the blocks.
#pragma once

#include "core/histogram.h"
#include "core/sample.h"

#include <QByteArray>
#include <QString>
#include <cmath>
#include <vector>

namespace Headroom {

enum class RollupTier : int
{
    Minute = 1, // the values in the file's rollup.tier column
    Hour = 2,
};

constexpr qint64 MinuteMs = 60'000;
constexpr qint64 HourMs = 60 * MinuteMs;

constexpr qint64 rollupStepMs(RollupTier tier)
{
    return tier == RollupTier::Minute ? MinuteMs : HourMs;
}
// The span of one row: an hour of minutes, a day of hours.
constexpr qint64 rollupRowSpanMs(RollupTier tier)
{
    return tier == RollupTier::Minute ? HourMs : 24 * HourMs;
}
constexpr int rollupSlotsPerRow(RollupTier tier)
{
    return int(rollupRowSpanMs(tier) / rollupStepMs(tier));
}
// The start of the step or row containing tsMs (rounding towards minus infinity).
constexpr qint64 floorTo(qint64 tsMs, qint64 stepMs)
{
    const qint64 q = tsMs / stepMs;
    return (q - (tsMs % stepMs < 0 ? 1 : 0)) * stepMs;
}

// What a slot (or a block, or one raw sample) says about its values: NaN left out.
struct Aggregate
{
    qint64 startMs = 0;
    qint64 endMs = 0; // the slot's last millisecond (a raw sample: its own timestamp)
    qint64 count = 0;
    double sum = 0;
    double min = qQNaN();
    double max = qQNaN();

    // One raw sample as an aggregate of one (of none when it is NaN).
    static Aggregate of(const Sample &sample)
    {
        Aggregate a { sample.tsMs, sample.tsMs };
        a.add(sample.value);
        return a;
    }
    void add(double value)
    {
        if (std::isnan(value))
            return;
        min = count == 0 ? value : std::min(min, value);
        max = count == 0 ? value : std::max(max, value);
        sum += value;
        ++count;
    }
    void merge(const Aggregate &other)
    {
        if (other.count == 0)
            return;
        min = count == 0 ? other.min : std::min(min, other.min);
        max = count == 0 ? other.max : std::max(max, other.max);
        sum += other.sum;
        count += other.count;
    }
    double mean() const { return count > 0 ? sum / double(count) : qQNaN(); }
    friend bool operator==(const Aggregate &, const Aggregate &) = default;
};

// A tier's aggregates of one series over a range (its whole slots inside the range only),
// and the spans its rows cover there (sorted, not overlapping): a part of the range
// outside them has to be read from another tier or the blocks.
struct RollupRead
{
    std::vector<Aggregate> slots; // oldest first
    std::vector<std::pair<qint64, qint64>> covered; // [from, to) in ms
};

// A histogram tier's merged histograms of one series (whole slots inside the range,
// stamped at their slots' middles) and the spans they cover, as RollupRead.
struct HistogramRollupRead
{
    std::vector<TimedHistogram> slots;
    std::vector<std::pair<qint64, qint64>> covered;
};

// Points to draw aggregates as: a raw sample as itself, a slot or block as its minimum
// and maximum a quarter in from either end (evenly spaced, so gap detection sees the
// aggregates' own spacing). Sorted by time when the aggregates are.
std::vector<Sample> aggregatePoints(const std::vector<Aggregate> &aggregates);

namespace RollupCodec {

// The row of `slots` (all inside the row starting at rowStartMs, oldest first, none
// empty). A sum that is within 1e-9 of its value from a decimal with at most 6 places
// is stored as that decimal, so that sums of decimal gauges pack like the gauges
// (blockcodec.h) instead of as the float noise of their addition.
QByteArray encode(RollupTier tier, qint64 rowStartMs, const std::vector<Aggregate> &slots);
// Appends the row's slots to *out; false with *error on malformed input (untrusted
// file), *out unchanged.
bool decode(RollupTier tier, qint64 rowStartMs, const QByteArray &data, std::vector<Aggregate> *out,
            QString *error = nullptr);

// The sum as stored (see encode()).
double storedSum(double sum);

} // namespace RollupCodec

} // namespace Headroom
