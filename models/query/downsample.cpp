// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/downsample.h"

#include <algorithm>
#include <array>

namespace Headroom {

namespace {
// The samples stamped inside [fromMs, toMs] of a sorted series.
std::pair<std::span<const Sample>::iterator, std::span<const Sample>::iterator>
samplesIn(std::span<const Sample> sorted, qint64 fromMs, qint64 toMs)
{
    const auto first = std::lower_bound(sorted.begin(), sorted.end(), fromMs,
                                        [](const Sample &s, qint64 t) { return s.tsMs < t; });
    const auto last = std::upper_bound(first, sorted.end(), toMs,
                                       [](qint64 t, const Sample &s) { return t < s.tsMs; });
    return { first, last };
}
} // namespace

std::vector<Sample> downsampleMinMax(std::span<const Sample> sorted, qint64 fromMs, qint64 toMs,
                                     int columns)
{
    std::vector<Sample> out;
    if (columns <= 0 || toMs <= fromMs)
        return out;
    const auto [first, last] = samplesIn(sorted, fromMs, toMs);
    const auto count = std::distance(first, last);
    if (count <= 4 * qint64(columns)) {
        out.assign(first, last);
        return out;
    }
    out.reserve(4 * size_t(columns));
    auto columnOf = [&](qint64 ts) { return pixelColumn(ts, fromMs, toMs, columns); };
    auto it = first;
    while (it != last) {
        const int column = columnOf(it->tsMs);
        auto colBegin = it;
        auto minIt = it, maxIt = it;
        for (++it; it != last && columnOf(it->tsMs) == column; ++it) {
            if (it->value < minIt->value)
                minIt = it;
            if (it->value > maxIt->value)
                maxIt = it;
        }
        auto colLast = it - 1;
        // Emit the distinct extreme points in time order.
        std::array<decltype(it), 4> picks { colBegin, minIt, maxIt, colLast };
        std::sort(picks.begin(), picks.end());
        for (size_t i = 0; i < picks.size(); ++i) {
            if (i == 0 || picks[i] != picks[i - 1])
                out.push_back(*picks[i]);
        }
    }
    return out;
}

std::vector<Sample> downsampleMean(std::span<const Sample> sorted, qint64 fromMs, qint64 toMs,
                                   int columns)
{
    std::vector<Sample> out;
    if (columns <= 0 || toMs <= fromMs)
        return out;
    const auto [first, last] = samplesIn(sorted, fromMs, toMs);
    if (std::distance(first, last) <= qint64(columns)) {
        out.assign(first, last);
        return out;
    }
    out.reserve(size_t(columns));
    const double width = double(toMs - fromMs) / columns;
    for (auto it = first; it != last;) {
        const int column = pixelColumn(it->tsMs, fromMs, toMs, columns);
        double sum = 0;
        int n = 0;
        for (; it != last && pixelColumn(it->tsMs, fromMs, toMs, columns) == column; ++it) {
            sum += it->value;
            ++n;
        }
        out.push_back({ fromMs + qint64((column + 0.5) * width), sum / n });
    }
    return out;
}

std::vector<Sample> downsampleMean(std::span<const Aggregate> sorted, qint64 fromMs, qint64 toMs,
                                   int columns)
{
    std::vector<Sample> out;
    if (columns <= 0 || toMs <= fromMs)
        return out;
    const double width = double(toMs - fromMs) / columns;
    int column = -1;
    double sum = 0;
    qint64 count = 0;
    const auto close = [&] {
        if (count > 0)
            out.push_back({ fromMs + qint64((column + 0.5) * width), sum / double(count) });
        sum = 0;
        count = 0;
    };
    for (const Aggregate &a : sorted) {
        const qint64 middle = a.startMs + (a.endMs - a.startMs) / 2;
        if (a.count == 0 || middle < fromMs || middle > toMs)
            continue;
        const int c = pixelColumn(middle, fromMs, toMs, columns);
        if (c != column) {
            close();
            column = c;
        }
        sum += a.sum;
        count += a.count;
    }
    close();
    return out;
}

} // namespace Headroom

namespace Headroom {

namespace {

template<typename Timed>
std::vector<std::pair<size_t, size_t>> splitTimedAtGaps(std::span<const Timed> sorted,
                                                        qint64 maxGapMs)
{
    std::vector<std::pair<size_t, size_t>> segments;
    if (sorted.empty())
        return segments;
    if (maxGapMs <= 0) {
        std::vector<qint64> deltas;
        deltas.reserve(sorted.size());
        for (size_t i = 1; i < sorted.size(); ++i)
            deltas.push_back(timestampOf(sorted[i]) - timestampOf(sorted[i - 1]));
        qint64 median = 0;
        if (!deltas.empty()) {
            auto mid = deltas.begin() + qsizetype(deltas.size() / 2);
            std::nth_element(deltas.begin(), mid, deltas.end());
            median = *mid;
        }
        maxGapMs = std::max<qint64>(1500, 3 * median);
    }
    size_t begin = 0;
    for (size_t i = 1; i < sorted.size(); ++i) {
        if (timestampOf(sorted[i]) - timestampOf(sorted[i - 1]) > maxGapMs) {
            segments.emplace_back(begin, i);
            begin = i;
        }
    }
    segments.emplace_back(begin, sorted.size());
    return segments;
}

} // namespace

std::vector<std::pair<size_t, size_t>> splitAtGaps(std::span<const Sample> sorted, qint64 maxGapMs)
{
    return splitTimedAtGaps(sorted, maxGapMs);
}

std::vector<std::pair<size_t, size_t>> splitAtGaps(std::span<const TimedHistogram> sorted,
                                                   qint64 maxGapMs)
{
    return splitTimedAtGaps(sorted, maxGapMs);
}

} // namespace Headroom
