// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Latency heatmap bucketing, GUI-free: time on x (the pixel columns every other
// reduction uses), latency on y in power-of-two rows, colour = events per second.
//
// Powers of two, not LogHistogram's 2 % buckets: a heatmap needs a few dozen rows a
// person can read ("4–8 ms"), and Prometheus-style histograms (le = 0.001, 0.002, ...)
// mostly use power-of-two or decade bounds, so both sources regroup into the same rows.
#pragma once

#include "core/sample.h"

#include <QList>
#include <QString>
#include <limits>
#include <utility>
#include <vector>

namespace Headroom {

// Layout:
//  - row 0 is the catch-all "≤ upperBoundsMs[0]": the zero bucket (values at or below
//    LogHistogram::MinValue) and anything below the lowest power-of-two row (rows are
//    capped at MaxHeatmapRows, the slowest rows win);
//  - row r >= 1 is (2^(e-1), 2^e] ms with e = firstExponent + r - 1, so upperBoundsMs[r]
//    = 2^e and upperBoundsMs[0] = 2^(firstExponent-1) is also row 1's lower bound;
//  - perSecond is row-major, rows() x columns: perSecond[row * columns + column], row 0
//    (the fastest) first; a cell with no data is 0.
// No data in the range gives no rows at all (and an empty perSecond).
struct HeatmapGrid
{
    qint64 fromMs = 0;
    qint64 toMs = 0;
    int columns = 0;
    int firstExponent = 0; // exponent of row 1 (meaningful only with rows() > 1)
    QList<double> upperBoundsMs;
    std::vector<double> perSecond;
    double maxPerSecond = 0; // the colour scale's top

    int rows() const { return int(upperBoundsMs.size()); }
    double at(int row, int column) const { return perSecond[size_t(row) * columns + column]; }
    double lowerBoundMs(int row) const { return row == 0 ? 0.0 : upperBoundsMs.at(row - 1); }
};

// Including the catch-all row 0.
inline constexpr int MaxHeatmapRows = 40;

// The key of the catch-all row 0 while rows are summed by exponent: it sorts below
// every real exponent.
inline constexpr int HeatmapZeroRow = std::numeric_limits<int>::min();

// Histograms of latencies in ms, sorted or not. Only histograms stamped inside
// [fromMs, toMs] count (the edge columns must not collect what lies outside); each
// goes to its pixelColumn(). A LogHistogram bucket goes to the row containing its
// representative value: a 2 % bucket lies inside one power-of-two row except the one
// straddling each power of two, which is attributed whole (so a value of exactly 4 ms,
// in bucket (3.9996, 4.0796], counts in "4–8 ms"). A cell is the column's count
// divided by the column's width in seconds. columns <= 0 or an empty range give an
// empty grid.
HeatmapGrid heatmapFromHistograms(const std::vector<TimedHistogram> &histograms, qint64 fromMs,
                                  qint64 toMs, int columns);

// One series per bucket bound, Prometheus style: (le, rates) where le is in units of
// msPerUnit ms (1000 for seconds), +inf allowed, and each sample is the per-second
// rate of the cumulative counter "events <= le" (so "+Inf" is every event). Bounds may
// come in any order. The rate of bucket (previous le, le] is the difference of
// consecutive bounds at one timestamp, negatives (rate jitter between series) clamped
// to 0. A finite source bucket goes whole to the row containing its upper bound, so
// (3, 5] ms counts in "4–8 ms"; the +Inf bucket goes to the row holding values just
// above the largest finite bound ("8–16 ms" after le = 8 ms): its events could be
// anywhere above, and the lowest row they can be in is the only one we can name, so
// the heatmap understates the tail rather than inventing one; bounds at or below
// LogHistogram::MinValue ms go to row 0. A cell is the mean of the rates at the
// column's timestamps (they are already per second), so it equals count / width only
// when the timestamps are evenly spread over the columns.
HeatmapGrid
heatmapFromCumulativeBuckets(const QList<std::pair<double, std::vector<Sample>>> &bounds,
                             double msPerUnit, qint64 fromMs, qint64 toMs, int columns);

// "≤ 0.5 ms" for row 0, "4–8 ms" for the others: the legend and the hover text.
QString heatmapRowLabel(const HeatmapGrid &grid, int row);

} // namespace Headroom
