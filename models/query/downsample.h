// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Reduces a sorted series to at most four points per pixel column (first, min, max,
// last, in time order): the line drawn from the result is pixel-identical to the line
// drawn from all samples, at a cost bounded by the width instead of the range.
#pragma once

#include "core/sample.h"
#include "engine/cache/rollup.h"

#include <algorithm>
#include <span>
#include <vector>

namespace Headroom {

// The pixel column of tsMs when [fromMs, toMs] is drawn `columns` pixels wide; every
// reduction to the width (values and histograms) uses it, so their points line up.
inline int pixelColumn(qint64 tsMs, qint64 fromMs, qint64 toMs, int columns)
{
    const double span = double(toMs - fromMs);
    // Clamped as a double: a time far outside the range must not overflow the int.
    return int(std::clamp(double(tsMs - fromMs) * columns / span, 0.0, double(columns - 1)));
}

std::vector<Sample> downsampleMinMax(std::span<const Sample> sorted, qint64 fromMs, qint64 toMs,
                                     int columns);

} // namespace Headroom

namespace Headroom {

// Splits sorted samples where consecutive points are further apart than maxGapMs, so a
// dead source draws as a gap instead of a straight line across the outage. With
// maxGapMs <= 0 the threshold is 3x the median spacing (at least 1.5 s).
// Returns [begin, end) index pairs. Histogram series split by the same rule.
std::vector<std::pair<size_t, size_t>> splitAtGaps(std::span<const Sample> sorted,
                                                   qint64 maxGapMs = 0);
std::vector<std::pair<size_t, size_t>> splitAtGaps(std::span<const TimedHistogram> sorted,
                                                   qint64 maxGapMs = 0);

} // namespace Headroom

namespace Headroom {

// One point per pixel column that has samples: the mean of its samples, stamped at
// the column's centre. For stacked areas, whose bands must share timestamps to add up
// (min/max points land at different instants in each series). Series with at most
// one sample per column come back unchanged.
std::vector<Sample> downsampleMean(std::span<const Sample> sorted, qint64 fromMs, qint64 toMs,
                                   int columns);
// As above from aggregates (rollup slots, block summaries, raw samples as aggregates of
// one), sorted by start: each column's mean is its aggregates' sum over their count, so
// it is the mean of every sample they stand for. An aggregate counts in the column of
// its middle.
std::vector<Sample> downsampleMean(std::span<const Aggregate> sorted, qint64 fromMs, qint64 toMs,
                                   int columns);

} // namespace Headroom
