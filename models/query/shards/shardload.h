// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the shard-load series say, GUI-free: how many shards sit in each 10 % load
// bucket now and over time (the shardhistogram panel), and each shard's latest load,
// ops and previous load (the shardtable panel). Both panels share the rule for "now".
//
// Input: one ShardLoadSeries per shard, normally pg.shard.load{set, shard} (% of the
// set's busiest shard, or of a declared capacity, so it may exceed 100).
//
// One panel, every matched set: a histogram counts the shards of all the sets its
// selectors match together (each shard's load is already relative to its own set, so
// "how many shards are near their ceiling" adds up across sets); narrow a panel to one
// set with a selector label, e.g. {"set": "public.orders"}.
#pragma once

#include "core/sample.h"
#include "document/panels/shardtableoptions.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <array>
#include <optional>
#include <vector>

namespace Headroom {

// One shard's samples over the panel's range, oldest first.
struct ShardLoadSeries
{
    SeriesInfo info; // the load series; labels set and shard
    std::vector<Sample> load;
    std::vector<Sample> ops; // the shard's ops series (tables only); may be empty
};

inline constexpr int ShardLoadBuckets = 10;
inline constexpr double DefaultOverloadedPercent = 60;

// Bucket b holds loads in [10 b, 10 b + 10) %; 100 % and anything above (capacity
// mode) go to the top bucket, negative values to bucket 0. NaN gives -1.
int shardLoadBucket(double loadPercent);
// "10-20%" (the CSV label and hover text; the top bucket is "90-100%").
QString shardLoadBucketLabel(int bucket);
// Whether bucket can hold an overloaded shard (load above `overloadedPercent`): its
// upper bound is above the threshold. Bars and rows of such buckets are drawn red.
bool shardLoadBucketOverloaded(int bucket, double overloadedPercent);

// One shard as it is now: its newest load sample, the ops sample at or before it,
// and the load sample before it (the previous interval).
struct ShardLoadRow
{
    QString source;
    QString set; // the "set" label ("" when the series has none)
    QString shard; // the "shard" label, or the series' display name when it has none
    Labels labels; // {set, shard} as far as the series has them: what a selection emits
    QString resource;
    qint64 tsMs = 0; // time of `load`
    double load = 0;
    double ops = qQNaN(); // NaN without an ops series
    qint64 previousTsMs = 0; // 0 when there is no previous sample
    double previousLoad = qQNaN(); // NaN at the first sample, or across a gap
};

// The shards that are current: a shard counts "now" when its newest sample is no older
// than the newest sample of all shards minus 3 × its own median poll spacing (at least
// 1.5 s, the splitAtGaps rule), so a dropped partition or a shard that fell out of the
// collector's top 500 does not linger at its last value. Busiest first (load, then set
// and shard by name).
QList<ShardLoadRow> currentShardRows(const QList<ShardLoadSeries> &shards);

struct ShardLoadHistogram
{
    qint64 fromMs = 0;
    qint64 toMs = 0;
    int columns = 0;
    // Per column: time of its newest sample; 0 for a column without samples (a gap).
    std::vector<qint64> columnTimeMs;
    // Row-major ShardLoadBuckets × columns: counts[bucket * columns + column], bucket 0
    // (0-10 %) first.
    std::vector<int> counts;
    int maxCount = 0; // the colour scale's top
    // Per column: shards with load > overloadedPercent (0 in a column without samples).
    std::vector<int> overloaded;
    double overloadedPercent = DefaultOverloadedPercent;

    // Now (see currentShardRows): shards per bucket at nowMs, the newest sample time.
    std::array<int, ShardLoadBuckets> now {};
    qint64 nowMs = 0; // 0: no data in the range
    QList<ShardLoadRow> nowShards; // what `now` counts, busiest first
    QStringList sets; // the sets of every shard in the range, sorted

    int at(int bucket, int column) const { return counts[size_t(bucket) * columns + column]; }
    int nowOverloaded() const;
    bool isEmpty() const { return nowMs == 0; }
};

// Buckets the shards' loads into columns, the same pixel columns every other
// reduction uses (pixelColumn): in each column each shard counts once, with its last
// sample in that column. Columns are at least two poll intervals (the median step of
// the samples) wide, so fewer than `columns` when the range holds few polls: the view
// scales them up rather than drawing stripes with empty columns between polls. Only
// samples inside [fromMs, toMs] count. columns <= 0 means no reduction (the CSV
// export): one column per distinct sample time.
ShardLoadHistogram shardLoadHistogram(const QList<ShardLoadSeries> &shards, qint64 fromMs,
                                      qint64 toMs, int columns, double overloadedPercent);

// The overloaded count per column as samples (columns with data only), for a line.
std::vector<Sample> overloadedSamples(const ShardLoadHistogram &histogram);

// The shard table's columns, as the model and its proxies number them (the first five
// are the model's own, share and change are computed by a proxy) and as dashboard
// files name them in the shardtable option "columns".
enum ShardColumn
{
    ShardSetColumn,
    ShardNameColumn,
    ShardLoadColumn,
    ShardOpsColumn,
    ShardPreviousColumn, // load at the previous interval
    ShardShareColumn, // shard ops / its set's total ops, %
    ShardChangeColumn, // load now - previous load, in percentage points
    ShardColumnCount
};
// Column numbers for names; nullopt when one is unknown.
std::optional<QList<int>> shardColumnsFromNames(const QStringList &names);
// shard, load, share, change, ops; with "set" first when more than one set is shown.
QList<int> defaultShardColumns(bool severalSets);

// Ops of every shard of each set, added (the shards the collector reports, which is
// every shard unless a set has more than its cap of 500).
QHash<QString, double> shardSetOpsTotals(const QList<ShardLoadRow> &rows);
// 100 × ops / set total; NaN without ops or when the set did no work.
double shardOpsShare(double ops, double setTotal);
// load - previous load; NaN without a previous sample.
double shardLoadChange(const ShardLoadRow &row);

// What a shardtable panel shows (rows busiest first; the view sorts, filters and cuts
// them again) and what its CSV writes.
struct ShardTableData
{
    QList<ShardLoadRow> rows;
    int top = 10; // rows shown; 0: all
    QList<int> columns; // ShardColumn values in display order
    QString loadMetric; // metric and unit of the load and ops series, for the CSV
    QString loadUnit;
    QString opsMetric;
    QString opsUnit;
    double overloadedPercent = DefaultOverloadedPercent;
};

} // namespace Headroom
