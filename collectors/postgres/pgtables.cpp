// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgtables.h"

#include "collector/shardsets.h"

#include <QHash>
#include <QMap>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Sorts busiest first (equal ones by name, so the cut does not flap between polls) and
// keeps the `max` busiest, with a warning "<view>: N of M <noun> left out; ...".
template<typename T>
void keepBusiest(QList<T> &list, qsizetype max, const QString &view, const QString &noun,
                 QStringList &warnings)
{
    std::sort(list.begin(), list.end(), [](const T &a, const T &b) {
        if (a.ops != b.ops)
            return a.ops > b.ops;
        return a.name < b.name;
    });
    if (list.size() <= max)
        return;
    warnings << u"%1: %2 of %3 %4 left out; only the %5 busiest are reported"_s.arg(view)
                    .arg(list.size() - max)
                    .arg(list.size())
                    .arg(noun)
                    .arg(max);
    list.resize(max);
}

} // namespace

PgTableActivity::PgTableActivity(QList<PgShardSetOption> shardSets, double overloadedPercent)
    : m_shardSets(std::move(shardSets))
    , m_overloadedPercent(overloadedPercent)
{
}

void PgTableActivity::clear()
{
    m_counters.clear();
    m_known.clear();
    m_statsReset.clear();
    m_haveStatsReset = false;
}

std::optional<PgTableActivity::Rates> PgTableActivity::rates(const Row &row, qint64 tsMs,
                                                             bool statsReset)
{
    // Every counter is stepped, so all of them take their new baseline together.
    std::array<std::optional<double>, CounterCount> perSecond;
    bool complete = true;
    for (int i = 0; i < CounterCount; ++i) {
        perSecond[size_t(i)] = m_counters.update(
            QString::number(row.relid) + u'/' + QString::number(i), row.counters[size_t(i)], tsMs);
        complete = complete && perSecond[size_t(i)].has_value();
    }
    // One counter that went down means the table was reset; the others may have climbed
    // past their old values since, so none of them is trusted this interval.
    if (!complete || statsReset)
        return std::nullopt;
    const auto at = [&](Counter c) { return *perSecond[size_t(c)]; };
    return Rates { at(SeqTupRead) + at(IdxTupFetch), at(TupIns) + at(TupUpd) + at(TupDel),
                   at(HeapBlksRead), at(TupDel) };
}

QStringList PgTableActivity::update(const Snapshot &snapshot, qint64 tsMs, const QString &source,
                                    SampleBatch &batch)
{
    QStringList warnings;
    bool statsReset = false;
    if (!snapshot.rows.isEmpty()) {
        statsReset = m_haveStatsReset && snapshot.statsReset != m_statsReset;
        m_statsReset = snapshot.statsReset;
        m_haveStatsReset = true;
    }

    const auto add = [&](const QString &metric, const Labels &labels, const QString &resource,
                         const QString &unit, UseKind kind, double value) {
        batch.add({ source, metric, labels }, unit, resource, kind, value);
    };

    // Rates of every table with storage; partitioned tables only name shard sets.
    QHash<quint32, Rates> rated;
    QHash<QString, const Row *> byName;
    QSet<quint32> seen;
    struct Table
    {
        const Row *row;
        Rates rates;
        double ops;
        QString name;
    };
    QList<Table> tables;
    for (const Row &row : snapshot.rows) {
        byName.insert(row.qualified(), &row);
        if (row.partitioned)
            continue;
        seen.insert(row.relid);
        if (const auto r = rates(row, tsMs, statsReset)) {
            rated.insert(row.relid, *r);
            tables.append({ &row, *r, r->ops(), row.qualified() });
        }
    }
    // Dropped tables (and detached-then-dropped partitions) leave no baselines behind.
    for (const quint32 relid : std::as_const(m_known)) {
        if (!seen.contains(relid)) {
            for (int i = 0; i < CounterCount; ++i)
                m_counters.forget(QString::number(relid) + u'/' + QString::number(i));
        }
    }
    m_known = std::move(seen);

    keepBusiest(tables, MaxTables, u"pg_stat_user_tables"_s, u"tables"_s, warnings);
    const QString dbResource = u"db:"_s + snapshot.database;
    for (const Table &t : std::as_const(tables)) {
        Labels labels { { u"schema"_s, t.row->schema }, { u"table"_s, t.row->table } };
        if (t.row->isPartition())
            labels.insert(u"parent"_s, t.row->qualifiedRoot());
        add(u"pg.table.tup_read.rate"_s, labels, dbResource, u"1/s"_s, UseKind::Throughput,
            t.rates.read);
        add(u"pg.table.tup_written.rate"_s, labels, dbResource, u"1/s"_s, UseKind::Throughput,
            t.rates.written);
        add(u"pg.table.heap_blks_read.rate"_s, labels, dbResource, u"1/s"_s, UseKind::Throughput,
            t.rates.heapBlksRead);
        add(u"pg.table.dead_tuples"_s, labels, dbResource, u"rows"_s, UseKind::Info,
            t.row->deadTuples);
        if (t.row->vacuumAgeS >= 0)
            add(u"pg.table.vacuum_age_s"_s, labels, dbResource, u"s"_s, UseKind::Info,
                t.row->vacuumAgeS);
    }

    // Sets by name: partitioned tables (names with a dot) and declared ones (without).
    struct Set
    {
        double capacity = 0;
        QList<const Row *> shards;
    };
    QMap<QString, Set> sets;
    for (const Row &row : snapshot.rows) {
        if (row.partitioned && !row.isPartition())
            sets[row.qualified()];
        else if (!row.partitioned && row.isPartition())
            sets[row.qualifiedRoot()].shards.append(&row);
    }
    for (const PgShardSetOption &option : std::as_const(m_shardSets)) {
        Set &set = sets[option.name];
        set.capacity = option.capacity;
        for (const QString &table : option.tables) {
            const QString name = table.contains(u'.') ? table : u"public."_s + table;
            const Row *row = byName.value(name);
            if (!row) {
                // Empty when the database has no tables at all (no rows).
                const QString where = snapshot.database.isEmpty()
                    ? u"the connected database"_s
                    : u"database \"%1\""_s.arg(snapshot.database);
                warnings << u"shard set \"%1\": no table \"%2\" in %3 (only the connected "
                            "database is visible)"_s.arg(option.name, name, where);
            } else if (row->partitioned) {
                warnings << u"shard set \"%1\": \"%2\" is partitioned and has no activity of its "
                            "own; list its partitions, or use the shard set \"%2\""_s.arg(
                                option.name, name);
            } else if (!set.shards.contains(row)) {
                set.shards.append(row);
            }
        }
    }

    QMap<QString, ShardSetInput> inputs;
    for (auto it = sets.cbegin(); it != sets.cend(); ++it) {
        ShardSetInput &input = inputs[it.key()];
        input.capacity = it->capacity;
        input.shards = int(it->shards.size());
        for (const Row *row : it->shards) {
            const auto r = rated.constFind(row->relid);
            if (r != rated.cend())
                input.busy.append({ row->qualified(), r->ops(), r->deleted });
        }
    }
    publishShardSets(
        inputs, { u"pg"_s, m_overloadedPercent, MinRelativeOps, true, MaxShards, u"shard sets"_s },
        source, batch, &warnings);
    return warnings;
}

PgTablesPart::PgTablesPart(QList<PgShardSetOption> shardSets, double overloadedPercent)
    : m_activity(std::move(shardSets), overloadedPercent)
{
}

QByteArray PgTablesPart::query(bool timescaleDb)
{
    // pg_partition_root() gives a leaf its top-level partitioned table in one step, where
    // pg_inherits would need a recursive walk; relispartition keeps plain inheritance
    // children out. A table without indexes has a NULL idx_tup_fetch. TimescaleDB's
    // chunks inherit from their hypertable without being partitions; its catalog names
    // them (the compressed copies' internal hypertables are left out: their chunks stay
    // tables of their own).
    QByteArray partitioned = "c.relkind = 'p'";
    QByteArray rootSchema = "coalesce(rn.nspname, '')";
    QByteArray rootTable = "coalesce(r.relname, '')";
    QByteArray chunks;
    if (timescaleDb) {
        partitioned += " OR EXISTS (SELECT 1 FROM _timescaledb_catalog.hypertable h"
                       " WHERE h.schema_name = t.schemaname AND h.table_name = t.relname"
                       " AND h.schema_name <> '_timescaledb_internal')";
        rootSchema = "coalesce(rn.nspname, tc.root_schema, '')";
        rootTable = "coalesce(r.relname, tc.root_table, '')";
        chunks = " LEFT JOIN (SELECT ch.schema_name, ch.table_name, h.schema_name AS root_schema,"
                 "                   h.table_name AS root_table"
                 "            FROM _timescaledb_catalog.chunk ch"
                 "            JOIN _timescaledb_catalog.hypertable h ON h.id = ch.hypertable_id"
                 "            WHERE NOT ch.dropped AND h.schema_name <> '_timescaledb_internal') tc"
                 " ON tc.schema_name = t.schemaname AND tc.table_name = t.relname";
    }
    QByteArray sql = "SELECT current_database(),"
                     " coalesce((SELECT stats_reset::text FROM pg_stat_database"
                     "           WHERE datname = current_database()), ''),"
                     " t.relid, t.schemaname, t.relname, ";
    sql += partitioned + ", " + rootSchema + ", " + rootTable + ",";
    sql += " t.seq_tup_read, coalesce(t.idx_tup_fetch, 0), t.n_tup_ins, t.n_tup_upd,"
           " t.n_tup_del, coalesce(io.heap_blks_read, 0), t.n_dead_tup,"
           " extract(epoch FROM now() - greatest(t.last_vacuum, t.last_autovacuum))::float8"
           " FROM pg_stat_user_tables t"
           // pg_statio_user_tables has no partitioned tables (relkind p): LEFT JOIN.
           " LEFT JOIN pg_statio_user_tables io ON io.relid = t.relid"
           " JOIN pg_class c ON c.oid = t.relid"
           " LEFT JOIN pg_class r ON c.relispartition AND r.oid = pg_partition_root(t.relid)::oid"
           " LEFT JOIN pg_namespace rn ON rn.oid = r.relnamespace";
    return sql + chunks;
}

void PgTablesPart::collect(PgPoll &poll)
{
    const auto result
        = poll.run(u"pg_stat_user_tables"_s, query(poll.timescaleDbSchema().has_value()));
    if (!result)
        return;
    PgTableActivity::Snapshot snapshot;
    snapshot.rows.reserve(result->rows());
    for (int r = 0; r < result->rows(); ++r) {
        if (r == 0) {
            snapshot.database = result->text(r, 0);
            snapshot.statsReset = result->text(r, 1);
        }
        PgTableActivity::Row row;
        bool complete = false;
        row.relid = result->text(r, 2).toUInt(&complete);
        row.schema = result->text(r, 3);
        row.table = result->text(r, 4);
        row.partitioned = result->text(r, 5) == "t"_L1;
        row.rootSchema = result->text(r, 6);
        row.rootTable = result->text(r, 7);
        for (int i = 0; i < PgTableActivity::CounterCount && complete; ++i)
            row.counters[size_t(i)] = result->number(r, 8 + i, &complete);
        row.deadTuples = result->number(r, 8 + PgTableActivity::CounterCount);
        bool vacuumed = false;
        const double age = result->number(r, 9 + PgTableActivity::CounterCount, &vacuumed);
        row.vacuumAgeS = vacuumed ? std::max(0.0, age) : -1;
        if (complete)
            snapshot.rows.append(row);
    }
    const QStringList warnings
        = m_activity.update(snapshot, poll.ts, poll.source(), poll.result.batch);
    for (const QString &warning : warnings)
        poll.warn(warning);
}

} // namespace Headroom
