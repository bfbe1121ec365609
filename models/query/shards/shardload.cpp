// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/shards/shardload.h"

#include "query/downsample.h"
#include "query/panelquery.h"

#include <QSet>
#include <algorithm>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// 3 × the median spacing of the samples, at least 1.5 s: how old a shard's newest
// sample may be and still be "now", and the widest step that is no gap (splitAtGaps).
qint64 staleAfterMs(const std::vector<Sample> &samples)
{
    constexpr qint64 Minimum = 1500;
    if (samples.size() < 2)
        return Minimum;
    std::vector<qint64> steps;
    steps.reserve(samples.size() - 1);
    for (size_t i = 1; i < samples.size(); ++i)
        steps.push_back(samples[i].tsMs - samples[i - 1].tsMs);
    const auto middle = steps.begin() + qsizetype(steps.size() / 2);
    std::nth_element(steps.begin(), middle, steps.end());
    return std::max(Minimum, 3 * *middle);
}

// The median step between samples of (up to 16 of) the shards: their poll interval.
qint64 medianSpacingMs(const QList<ShardLoadSeries> &shards, qint64 fromMs, qint64 toMs)
{
    std::vector<qint64> steps;
    int sampled = 0;
    for (const ShardLoadSeries &s : shards) {
        bool any = false;
        for (size_t i = 1; i < s.load.size(); ++i) {
            if (s.load[i - 1].tsMs >= fromMs && s.load[i].tsMs <= toMs) {
                steps.push_back(s.load[i].tsMs - s.load[i - 1].tsMs);
                any = true;
            }
        }
        if (any && ++sampled == 16)
            break;
    }
    if (steps.empty())
        return 0;
    const auto middle = steps.begin() + qsizetype(steps.size() / 2);
    std::nth_element(steps.begin(), middle, steps.end());
    return *middle;
}

bool busierFirst(const ShardLoadRow &a, const ShardLoadRow &b)
{
    if (a.load != b.load)
        return a.load > b.load;
    if (a.set != b.set)
        return a.set < b.set;
    return a.shard < b.shard;
}

} // namespace

int shardLoadBucket(double loadPercent)
{
    if (std::isnan(loadPercent))
        return -1;
    if (loadPercent <= 0)
        return 0;
    return int(std::min(loadPercent / 10.0, double(ShardLoadBuckets - 1)));
}

QString shardLoadBucketLabel(int bucket)
{
    return u"%1-%2%"_s.arg(bucket * 10).arg(bucket * 10 + 10);
}

bool shardLoadBucketOverloaded(int bucket, double overloadedPercent)
{
    // The top bucket is open above, so it can always hold an overloaded shard.
    return bucket == ShardLoadBuckets - 1 || (bucket + 1) * 10.0 > overloadedPercent;
}

QList<ShardLoadRow> currentShardRows(const QList<ShardLoadSeries> &shards)
{
    qint64 nowMs = 0;
    for (const ShardLoadSeries &s : shards) {
        if (!s.load.empty())
            nowMs = std::max(nowMs, s.load.back().tsMs);
    }
    QList<ShardLoadRow> rows;
    for (const ShardLoadSeries &s : shards) {
        if (s.load.empty())
            continue;
        const qint64 stale = staleAfterMs(s.load);
        const Sample &last = s.load.back();
        if (last.tsMs < nowMs - stale || std::isnan(last.value))
            continue;
        ShardLoadRow row;
        row.source = s.info.key.source;
        row.resource = s.info.resource;
        const Labels &labels = s.info.key.labels;
        for (const QString &name : { u"set"_s, u"shard"_s }) {
            if (labels.contains(name))
                row.labels.insert(name, labels.value(name));
        }
        if (row.labels.isEmpty())
            row.labels = labels; // not a shard series: its own labels tell it apart
        row.set = labels.value(u"set"_s);
        row.shard
            = labels.contains(u"shard"_s) ? labels.value(u"shard"_s) : seriesDisplayName(s.info);
        row.tsMs = last.tsMs;
        row.load = last.value;
        if (s.load.size() >= 2) {
            const Sample &previous = s.load[s.load.size() - 2];
            if (last.tsMs - previous.tsMs <= stale) {
                row.previousTsMs = previous.tsMs;
                row.previousLoad = previous.value;
            }
        }
        // The ops sample of the same poll (or the newest before it, if not too old).
        const auto after
            = std::upper_bound(s.ops.cbegin(), s.ops.cend(), last.tsMs,
                               [](qint64 ts, const Sample &sample) { return ts < sample.tsMs; });
        if (after != s.ops.cbegin()) {
            const Sample &ops = *std::prev(after);
            if (last.tsMs - ops.tsMs <= stale)
                row.ops = ops.value;
        }
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end(), busierFirst);
    return rows;
}

int ShardLoadHistogram::nowOverloaded() const
{
    return int(std::count_if(nowShards.cbegin(), nowShards.cend(),
                             [this](const ShardLoadRow &r) { return r.load > overloadedPercent; }));
}

ShardLoadHistogram shardLoadHistogram(const QList<ShardLoadSeries> &shards, qint64 fromMs,
                                      qint64 toMs, int columns, double overloadedPercent)
{
    ShardLoadHistogram h;
    h.fromMs = fromMs;
    h.toMs = toMs;
    h.overloadedPercent = overloadedPercent;
    if (toMs <= fromMs)
        return h;
    const auto inRange = [&](const Sample &s) { return s.tsMs >= fromMs && s.tsMs <= toMs; };

    // Without reduction every distinct sample time is a column of its own.
    std::vector<qint64> times;
    if (columns <= 0) {
        for (const ShardLoadSeries &s : shards) {
            for (const Sample &sample : s.load) {
                if (inRange(sample))
                    times.push_back(sample.tsMs);
            }
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        columns = int(times.size());
    }
    if (columns <= 0)
        return h;
    // At least two poll intervals per column: a column narrower than one would be empty
    // every other pixel (stripes), one exactly as wide would hold two polls or none as
    // poll times drift against column edges.
    if (times.empty()) {
        if (const qint64 spacing = medianSpacingMs(shards, fromMs, toMs); spacing > 0)
            columns = int(std::clamp<qint64>((toMs - fromMs) / (2 * spacing), 1, columns));
    }
    const auto columnOf = [&](qint64 ts) {
        if (times.empty())
            return pixelColumn(ts, fromMs, toMs, columns);
        return int(std::lower_bound(times.cbegin(), times.cend(), ts) - times.cbegin());
    };

    h.columns = columns;
    h.columnTimeMs.assign(size_t(columns), 0);
    h.counts.assign(size_t(columns) * ShardLoadBuckets, 0);
    h.overloaded.assign(size_t(columns), 0);
    QSet<QString> sets;
    for (const ShardLoadSeries &s : shards) {
        // The last sample of the shard in each column counts, once.
        int column = -1;
        Sample last;
        const auto commit = [&] {
            const int bucket = shardLoadBucket(last.value);
            if (column < 0 || bucket < 0)
                return;
            ++h.counts[size_t(bucket) * columns + column];
            if (last.value > overloadedPercent)
                ++h.overloaded[size_t(column)];
            h.columnTimeMs[size_t(column)] = std::max(h.columnTimeMs[size_t(column)], last.tsMs);
        };
        for (const Sample &sample : s.load) {
            if (!inRange(sample))
                continue;
            const int c = columnOf(sample.tsMs);
            if (c != column) {
                commit();
                column = c;
            }
            last = sample;
        }
        commit();
        if (column >= 0)
            sets.insert(s.info.key.labels.value(u"set"_s));
    }
    h.maxCount = h.counts.empty() ? 0 : *std::max_element(h.counts.cbegin(), h.counts.cend());
    h.sets = QStringList(sets.cbegin(), sets.cend());
    h.sets.sort();

    // "Now" from the samples inside the range only.
    QList<ShardLoadSeries> inside;
    inside.reserve(shards.size());
    for (const ShardLoadSeries &s : shards) {
        ShardLoadSeries part { s.info, {}, {} };
        std::copy_if(s.load.cbegin(), s.load.cend(), std::back_inserter(part.load), inRange);
        inside.append(std::move(part));
    }
    h.nowShards = currentShardRows(inside);
    for (const ShardLoadRow &row : std::as_const(h.nowShards)) {
        h.nowMs = std::max(h.nowMs, row.tsMs);
        const int bucket = shardLoadBucket(row.load);
        if (bucket >= 0)
            ++h.now[size_t(bucket)];
    }
    return h;
}

std::vector<Sample> overloadedSamples(const ShardLoadHistogram &histogram)
{
    std::vector<Sample> points;
    for (int c = 0; c < histogram.columns; ++c) {
        if (histogram.columnTimeMs[size_t(c)] != 0)
            points.push_back(
                { histogram.columnTimeMs[size_t(c)], double(histogram.overloaded[size_t(c)]) });
    }
    return points;
}

std::optional<QList<int>> shardColumnsFromNames(const QStringList &names)
{
    const QStringList known = shardColumnNames();
    QList<int> columns;
    for (const QString &name : names) {
        const qsizetype column = known.indexOf(name);
        if (column < 0)
            return std::nullopt;
        columns.append(int(column));
    }
    return columns;
}

QList<int> defaultShardColumns(bool severalSets)
{
    QList<int> columns { ShardNameColumn, ShardLoadColumn, ShardShareColumn, ShardChangeColumn,
                         ShardOpsColumn };
    if (severalSets)
        columns.prepend(ShardSetColumn);
    return columns;
}

QHash<QString, double> shardSetOpsTotals(const QList<ShardLoadRow> &rows)
{
    QHash<QString, double> totals;
    for (const ShardLoadRow &row : rows) {
        if (!std::isnan(row.ops))
            totals[row.set] += row.ops;
    }
    return totals;
}

double shardOpsShare(double ops, double setTotal)
{
    if (std::isnan(ops) || !(setTotal > 0))
        return qQNaN();
    return 100.0 * ops / setTotal;
}

double shardLoadChange(const ShardLoadRow &row)
{
    return row.load - row.previousLoad; // NaN propagates
}

} // namespace Headroom
