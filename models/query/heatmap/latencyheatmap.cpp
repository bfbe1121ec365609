// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/heatmap/latencyheatmap.h"

#include "query/downsample.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// 2^1024 is +inf: the top row's bound stays finite, so +inf and DBL_MAX land there.
constexpr int MaxExponent = std::numeric_limits<double>::max_exponent - 1;
// Bounds that are powers of two in seconds arrive as 8.000000000000002 ms after the
// unit conversion; without slack they would slip into the next row.
constexpr double Slack = 1e-9;

// The exponent e of the row (2^(e-1), 2^e] containing ms.
int rowContaining(double ms)
{
    if (!(ms > LogHistogram::MinValue))
        return HeatmapZeroRow;
    if (!std::isfinite(ms))
        return MaxExponent;
    return std::min(MaxExponent, int(std::ceil(std::log2(ms) - Slack)));
}

// The exponent of the row containing values just above ms.
int rowAbove(double ms)
{
    if (!(ms > LogHistogram::MinValue))
        return HeatmapZeroRow; // nothing known about where the events are
    if (!std::isfinite(ms))
        return MaxExponent;
    return std::min(MaxExponent, int(std::floor(std::log2(ms) + Slack)) + 1);
}

HeatmapGrid emptyGrid(qint64 fromMs, qint64 toMs, int columns)
{
    HeatmapGrid grid;
    grid.fromMs = fromMs;
    grid.toMs = toMs;
    // An unusable range has no columns, so at() and perSecond stay consistent.
    grid.columns = columns > 0 && toMs > fromMs ? columns : 0;
    return grid;
}

// Sums per (row exponent, column); the rows are only known once all data is seen.
class Accumulator
{
public:
    explicit Accumulator(int columns)
        : m_columns(columns)
    {
    }

    void add(int exponent, int column, double amount)
    {
        // Zero-rate buckets must not widen the grid to rows nobody will ever see filled.
        if (!(amount > 0))
            return;
        std::vector<double> &row = m_rows[exponent];
        if (row.empty())
            row.assign(size_t(m_columns), 0.0);
        row[size_t(column)] += amount;
    }

    // Each column's sums divided by divisors[column] (0: the column stays 0).
    void finish(HeatmapGrid &grid, const std::vector<double> &divisors) const
    {
        if (m_rows.empty())
            return;
        const int highest = m_rows.rbegin()->first;
        int first = highest;
        if (highest != HeatmapZeroRow) {
            const int lowest = m_rows.upper_bound(HeatmapZeroRow)->first;
            first = std::max(lowest, highest - (MaxHeatmapRows - 2));
            grid.firstExponent = first;
            grid.upperBoundsMs.append(std::ldexp(1.0, first - 1));
            for (int e = first; e <= highest; ++e)
                grid.upperBoundsMs.append(std::ldexp(1.0, e));
        } else {
            grid.upperBoundsMs.append(LogHistogram::MinValue); // only the zero bucket
        }
        grid.perSecond.assign(size_t(grid.rows()) * size_t(grid.columns), 0.0);
        for (const auto &[exponent, sums] : m_rows) {
            const int row
                = exponent == HeatmapZeroRow || exponent < first ? 0 : exponent - first + 1;
            for (int c = 0; c < grid.columns; ++c) {
                if (divisors[size_t(c)] > 0)
                    grid.perSecond[size_t(row) * size_t(grid.columns) + size_t(c)]
                        += sums[size_t(c)] / divisors[size_t(c)];
            }
        }
        grid.maxPerSecond = *std::max_element(grid.perSecond.begin(), grid.perSecond.end());
    }

private:
    int m_columns;
    std::map<int, std::vector<double>> m_rows;
};

QString formatMs(double ms)
{
    return QString::number(ms, 'g', QLocale::FloatingPointShortest);
}

} // namespace

HeatmapGrid heatmapFromHistograms(const std::vector<TimedHistogram> &histograms, qint64 fromMs,
                                  qint64 toMs, int columns)
{
    HeatmapGrid grid = emptyGrid(fromMs, toMs, columns);
    if (grid.columns == 0)
        return grid;
    Accumulator sums(grid.columns);
    for (const auto &[tsMs, histogram] : histograms) {
        if (tsMs < fromMs || tsMs > toMs)
            continue;
        const int column = pixelColumn(tsMs, fromMs, toMs, grid.columns);
        const QMap<int, quint64> &buckets = histogram.buckets();
        for (auto it = buckets.cbegin(); it != buckets.cend(); ++it) {
            const int exponent = it.key() == LogHistogram::ZeroBucket
                ? HeatmapZeroRow
                : rowContaining(LogHistogram::bucketRepresentative(it.key()));
            sums.add(exponent, column, double(it.value()));
        }
    }
    const double columnSeconds = double(toMs - fromMs) / 1000.0 / grid.columns;
    sums.finish(grid, std::vector<double>(size_t(grid.columns), columnSeconds));
    return grid;
}

HeatmapGrid
heatmapFromCumulativeBuckets(const QList<std::pair<double, std::vector<Sample>>> &bounds,
                             double msPerUnit, qint64 fromMs, qint64 toMs, int columns)
{
    HeatmapGrid grid = emptyGrid(fromMs, toMs, columns);
    if (grid.columns == 0)
        return grid;

    // Bounds in ascending order (a NaN bound has no place in it).
    std::vector<std::pair<double, const std::vector<Sample> *>> sorted;
    for (const auto &[le, samples] : bounds) {
        if (!std::isnan(le))
            sorted.emplace_back(le * msPerUnit, &samples);
    }
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    const size_t n = sorted.size();
    if (n == 0)
        return grid;

    // The cumulative rates of every bound at each timestamp, NaN where a series has no
    // sample.
    std::map<qint64, std::vector<double>> byTime;
    for (size_t i = 0; i < n; ++i) {
        for (const Sample &sample : *sorted[i].second) {
            if (sample.tsMs < fromMs || sample.tsMs > toMs)
                continue;
            std::vector<double> &rates = byTime[sample.tsMs];
            if (rates.empty())
                rates.assign(n, std::numeric_limits<double>::quiet_NaN());
            rates[i] = sample.value;
        }
    }

    Accumulator sums(grid.columns);
    std::vector<double> timestamps(size_t(grid.columns), 0.0);
    for (const auto &[tsMs, rates] : byTime) {
        // A timestamp missing from one bound series (a failed scrape, a bucket that
        // appeared later) is skipped whole: differencing around the hole would hand
        // the missing bucket's events to its neighbour, or a whole cumulative count to
        // one bucket.
        if (std::any_of(rates.begin(), rates.end(), [](double r) { return std::isnan(r); }))
            continue;
        const int column = pixelColumn(tsMs, fromMs, toMs, grid.columns);
        ++timestamps[size_t(column)];
        double previousLe = 0;
        double previousRate = 0;
        for (size_t i = 0; i < n; ++i) {
            const double le = sorted[i].first;
            // Series are rated separately, so a bound can come out a hair below the one
            // under it; a negative bucket rate is jitter, not negative events.
            const double rate = std::max(0.0, rates[i] - previousRate);
            sums.add(std::isfinite(le) ? rowContaining(le) : rowAbove(previousLe), column, rate);
            previousLe = le;
            previousRate = rates[i];
        }
    }
    sums.finish(grid, timestamps);
    return grid;
}

QString heatmapRowLabel(const HeatmapGrid &grid, int row)
{
    if (row < 0 || row >= grid.rows())
        return {};
    if (row == 0)
        return u"≤ %1 ms"_s.arg(formatMs(grid.upperBoundsMs.at(0)));
    return u"%1–%2 ms"_s.arg(formatMs(grid.lowerBoundMs(row)),
                             formatMs(grid.upperBoundsMs.at(row)));
}

} // namespace Headroom
