#include "mariadbtables.h"

#include <QMap>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

QByteArray MariadbTables::query()
{
    return "SELECT OBJECT_SCHEMA, OBJECT_NAME, COUNT_READ, COUNT_WRITE, COUNT_DELETE, "
           "SUM_TIMER_WAIT"
           " FROM performance_schema.table_io_waits_summary_by_table"
           " WHERE OBJECT_TYPE = 'TABLE' AND OBJECT_SCHEMA NOT IN"
           " ('mysql', 'performance_schema', 'information_schema', 'sys')";
}

QByteArray MariadbTables::userStatisticsQuery()
{
    return "SELECT TABLE_SCHEMA, TABLE_NAME, ROWS_READ, ROWS_CHANGED, 0, 0"
           " FROM information_schema.TABLE_STATISTICS WHERE TABLE_SCHEMA NOT IN"
           " ('mysql', 'performance_schema', 'information_schema', 'sys')";
}

QString MariadbTables::shardSetStem(const QString &table)
{
    qsizetype end = table.size();
    while (end > 0 && table.at(end - 1).isDigit())
        --end;
    // A name of digits only has no stem; a name without a trailing number is no shard.
    if (end == table.size() || end == 0)
        return {};
    return table.left(end);
}

void MariadbTables::update(const QList<Row> &rows, qint64 tsMs, const QString &source,
                           SampleBatch &batch, bool withTimes)
{
    struct Rated
    {
        const Row *row;
        double reads, writes, deletes, waitMs;
        double ops() const { return reads + writes; }
    };
    QList<Rated> rated;
    m_rates.beginRead(tsMs);
    for (const Row &row : rows) {
        const QString key = row.schema + u'.' + row.table;
        const auto reads = m_rates.update(key, u'r', row.reads);
        const auto writes = m_rates.update(key, u'w', row.writes);
        const auto deletes = m_rates.update(key, u'd', row.deletes);
        const auto wait = m_rates.update(key, u't', row.timerWaitPs / 1e9);
        if (reads && writes && deletes && wait)
            rated.append({ &row, *reads, *writes, *deletes, *wait });
    }

    m_rates.endRead();

    // The busiest tables get series of their own.
    QList<Rated> busiest = rated;
    std::sort(busiest.begin(), busiest.end(),
              [](const Rated &a, const Rated &b) { return a.ops() > b.ops(); });
    if (busiest.size() > MaxTables)
        busiest.resize(MaxTables);
    for (const Rated &t : std::as_const(busiest)) {
        const Labels labels { { u"schema"_s, t.row->schema }, { u"table"_s, t.row->table } };
        const QString resource = u"db:"_s + t.row->schema;
        batch.add({ source, u"mariadb.table.reads.rate"_s, labels }, u"1/s"_s, resource,
                  UseKind::Throughput, t.reads);
        batch.add({ source, u"mariadb.table.writes.rate"_s, labels }, u"1/s"_s, resource,
                  UseKind::Throughput, t.writes);
        if (!withTimes)
            continue;
        batch.add({ source, u"mariadb.table.deletes.rate"_s, labels }, u"1/s"_s, resource,
                  UseKind::Throughput, t.deletes);
        batch.add({ source, u"mariadb.table.io_wait.rate"_s, labels }, u"ms/s"_s, resource,
                  UseKind::Saturation, t.waitMs);
    }

    // Shard sets by name: every table read this poll, rated or not, counts as a shard.
    QMap<QString, QStringList> members;
    for (const Row &row : rows) {
        const QString stem = shardSetStem(row.table);
        if (!stem.isEmpty())
            members[row.schema + u'.' + stem].append(row.table);
    }
    QMap<QString, QList<const Rated *>> sets;
    for (const Rated &t : std::as_const(rated)) {
        const QString stem = shardSetStem(t.row->table);
        const QString set = t.row->schema + u'.' + stem;
        if (!stem.isEmpty() && members.value(set).size() >= 2)
            sets[set].append(&t);
    }
    struct Shard
    {
        Labels labels;
        QString resource;
        double ops, load;
    };
    QList<Shard> shardSeries;
    for (auto it = members.cbegin(); it != members.cend(); ++it) {
        if (it->size() < 2)
            continue;
        const QString &set = it.key();
        const Labels setLabels { { u"set"_s, set } };
        const QString resource = u"shardset:"_s + set;
        const auto add = [&](const QString &metric, const Labels &labels, const QString &unit,
                             UseKind kind, double value) {
            batch.add({ source, metric, labels }, unit, resource, kind, value);
        };
        add(u"mariadb.shardset.shards"_s, setLabels, QString(), UseKind::Info, double(it->size()));
        const QList<const Rated *> shards = sets.value(set);
        if (shards.isEmpty())
            continue;
        double total = 0;
        double deleted = 0;
        for (const Rated *t : shards) {
            total += t->ops();
            deleted += t->deletes;
        }
        const double denominator = std::max(total, MinRelativeOps);
        double maxLoad = 0;
        int overloaded = 0;
        for (const Rated *t : shards) {
            const double load = 100.0 * (t->ops() / denominator);
            maxLoad = std::max(maxLoad, load);
            overloaded += load > OverloadedPercent ? 1 : 0;
            shardSeries.append(
                { { { u"set"_s, set }, { u"shard"_s, t->row->table } }, resource, t->ops(), load });
        }
        add(u"mariadb.shardset.ops.rate"_s, setLabels, u"1/s"_s, UseKind::Throughput, total);
        if (withTimes)
            add(u"mariadb.shardset.deletes.rate"_s, setLabels, u"1/s"_s, UseKind::Throughput,
                deleted);
        add(u"mariadb.shardset.load.max"_s, setLabels, u"%"_s, UseKind::Utilization, maxLoad);
        add(u"mariadb.shardset.overloaded"_s, setLabels, u"shards"_s, UseKind::Saturation,
            double(overloaded));
    }
    // The busiest shards get series of their own (tables named by date would otherwise
    // make one set of thousands); the per-set series cover every shard.
    std::sort(shardSeries.begin(), shardSeries.end(),
              [](const Shard &a, const Shard &b) { return a.ops > b.ops; });
    if (shardSeries.size() > MaxShards)
        shardSeries.resize(MaxShards);
    for (const Shard &shard : std::as_const(shardSeries)) {
        batch.add({ source, u"mariadb.shard.ops.rate"_s, shard.labels }, u"1/s"_s, shard.resource,
                  UseKind::Throughput, shard.ops);
        batch.add({ source, u"mariadb.shard.load"_s, shard.labels }, u"%"_s, shard.resource,
                  UseKind::Utilization, shard.load);
    }
}

} // namespace Headroom
