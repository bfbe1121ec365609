// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shard-set series every database collector publishes the same way (PostgreSQL's
// partitions and hypertables, MariaDB's tables named t_s0 … t_sN), so that the shard
// histogram, the top-shards table, the USE matrix and the shard rules read them alike.
// Per set (labels {set}, resource "shardset:<set>"):
//   <prefix>.shardset.shards       shards found (every poll, even without rates)
//   <prefix>.shardset.ops.rate     rows (tuples) read + written per second, all shards
//   <prefix>.shardset.deletes.rate rows deleted per second (when the collector counts them)
//   <prefix>.shardset.load.max     the busiest shard's load
//   <prefix>.shardset.overloaded   shards whose load is above overloadedPercent
// Per shard (labels {set, shard}), the maxShards busiest:
//   <prefix>.shard.ops.rate  and  <prefix>.shard.load  (%): with a capacity
//   100 × ops / capacity (may exceed 100); without, the shard's share of the set's work,
//   100 × ops / the set's ops, where a set doing under minRelativeOps is idle (shares
//   are of that floor, so a stray maintenance read does not make a hot shard).
#pragma once

#include "core/sample.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace Headroom {

struct ShardSetInput
{
    struct Shard
    {
        QString name;
        double ops = 0; // rows read + written per second this interval
        double deleted = 0;
    };
    double capacity = 0; // ops that mean 100 %; 0: relative load
    int shards = 0; // shards found, with a rate this interval or not
    QList<Shard> busy; // the shards with a rate this interval
};

struct ShardSetSeries
{
    QString prefix; // "pg": pg.shard.load, pg.shardset.ops.rate …
    double overloadedPercent = 60;
    double minRelativeOps = 10;
    bool deletes = true; // publish <prefix>.shardset.deletes.rate
    int maxShards = 500;
    QString view; // names the source of the rows in the warning about a cap
};

// The series of `sets` (by name) into `batch`; a warning in *warnings when shards were
// left out by maxShards.
void publishShardSets(const QMap<QString, ShardSetInput> &sets, const ShardSetSeries &series,
                      const QString &source, SampleBatch &batch, QStringList *warnings);

} // namespace Headroom
