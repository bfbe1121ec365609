// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/shardsets.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

void publishShardSets(const QMap<QString, ShardSetInput> &sets, const ShardSetSeries &series,
                      const QString &source, SampleBatch &batch, QStringList *warnings)
{
    const auto add = [&](const QString &name, const Labels &labels, const QString &resource,
                         const QString &unit, UseKind kind, double value) {
        batch.add({ source, series.prefix + name, labels }, unit, resource, kind, value);
    };
    struct Shard
    {
        QString set;
        QString resource;
        double ops;
        double load;
        QString name;
    };
    QList<Shard> shards;
    for (auto it = sets.cbegin(); it != sets.cend(); ++it) {
        const Labels setLabels { { u"set"_s, it.key() } };
        const QString resource = u"shardset:"_s + it.key();
        add(u".shardset.shards"_s, setLabels, resource, QString(), UseKind::Info,
            double(it->shards));
        if (it->busy.isEmpty())
            continue;
        double totalOps = 0;
        double deleted = 0;
        for (const ShardSetInput::Shard &shard : it->busy) {
            totalOps += shard.ops;
            deleted += shard.deleted;
        }
        const double denominator
            = it->capacity > 0 ? it->capacity : std::max(totalOps, series.minRelativeOps);
        double maxLoad = 0;
        int overloaded = 0;
        for (const ShardSetInput::Shard &shard : it->busy) {
            // ops / denominator first: the only busy shard of a relative set is exactly 100.
            const double load = denominator > 0 ? 100.0 * (shard.ops / denominator) : 0.0;
            maxLoad = std::max(maxLoad, load);
            overloaded += load > series.overloadedPercent ? 1 : 0;
            shards.append({ it.key(), resource, shard.ops, load, shard.name });
        }
        add(u".shardset.ops.rate"_s, setLabels, resource, u"1/s"_s, UseKind::Throughput, totalOps);
        if (series.deletes)
            add(u".shardset.deletes.rate"_s, setLabels, resource, u"1/s"_s, UseKind::Throughput,
                deleted);
        add(u".shardset.load.max"_s, setLabels, resource, u"%"_s, UseKind::Utilization, maxLoad);
        add(u".shardset.overloaded"_s, setLabels, resource, u"shards"_s, UseKind::Saturation,
            double(overloaded));
    }

    // The busiest shards get series of their own; the per-set series cover every shard.
    std::sort(shards.begin(), shards.end(), [](const Shard &a, const Shard &b) {
        if (a.ops != b.ops)
            return a.ops > b.ops;
        return a.name < b.name;
    });
    if (shards.size() > series.maxShards) {
        if (warnings)
            *warnings << u"%1: %2 of %3 shards left out; only the %4 busiest are reported"_s
                             .arg(series.view)
                             .arg(shards.size() - series.maxShards)
                             .arg(shards.size())
                             .arg(series.maxShards);
        shards.resize(series.maxShards);
    }
    for (const Shard &shard : std::as_const(shards)) {
        const Labels labels { { u"set"_s, shard.set }, { u"shard"_s, shard.name } };
        add(u".shard.ops.rate"_s, labels, shard.resource, u"1/s"_s, UseKind::Throughput, shard.ops);
        add(u".shard.load"_s, labels, shard.resource, u"%"_s, UseKind::Utilization, shard.load);
    }
}

} // namespace Headroom
