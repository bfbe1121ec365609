// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadbtables.h"

#include "collector/shardsets.h"

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

QStringList MariadbTables::update(const QList<Row> &rows, qint64 tsMs, const QString &source,
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

    // Shard sets by name: every table read this poll, rated or not, counts as a shard;
    // a name alone in its set is no set.
    QMap<QString, ShardSetInput> sets;
    for (const Row &row : rows) {
        const QString stem = shardSetStem(row.table);
        if (!stem.isEmpty())
            ++sets[row.schema + u'.' + stem].shards;
    }
    sets.removeIf([](const auto &set) { return set.value().shards < 2; });
    for (const Rated &t : std::as_const(rated)) {
        const QString stem = shardSetStem(t.row->table);
        const auto set = stem.isEmpty() ? sets.end() : sets.find(t.row->schema + u'.' + stem);
        if (set != sets.end())
            set->busy.append({ t.row->table, t.ops(), t.deletes });
    }
    QStringList warnings;
    publishShardSets(
        sets,
        { u"mariadb"_s, OverloadedPercent, MinRelativeOps, withTimes, MaxShards, u"shard sets"_s },
        source, batch, &warnings);
    return warnings;
}

} // namespace Headroom
