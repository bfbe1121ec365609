// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Table, partition and shard-set activity from pg_stat_user_tables and
// pg_statio_user_tables. Those views (and so everything here) cover the database the
// session is connected to only: to watch the tables of another database, add a source
// whose conninfo names it.
//
// Per table (labels {schema, table}, plus parent = the qualified partitioned root for a
// partition; resource "db:<database>"), in rows or blocks per second:
//   pg.table.tup_read.rate       seq_tup_read + idx_tup_fetch
//   pg.table.tup_written.rate    n_tup_ins + n_tup_upd + n_tup_del
//   pg.table.heap_blks_read.rate heap blocks read from outside shared buffers
//   pg.table.dead_tuples         n_dead_tup, rows a vacuum has yet to remove (rows)
//   pg.table.vacuum_age_s        since its last vacuum or autovacuum (s; absent when
//                                never vacuumed since the statistics were reset)
// At most MaxTables tables are reported, the busiest by tuples read + written; a warning
// says how many were left out. Partitioned tables have no storage and no counters of
// their own, so they appear only as shard sets.
//
// Shard sets: every top-level partitioned table is one, named by its qualified name
// ("public.orders"), whose shards are its leaf partitions (a sub-partitioned partition's
// leaves belong to the top-level set); every TimescaleDB hypertable, whose shards are
// its chunks (labels parent = the hypertable); and each set declared in "shardSets". Per shard
// (labels {set, shard = qualified table name}, resource "shardset:<set>"):
//   pg.shard.ops.rate  tuples read + written per second
//   pg.shard.load      % (Utilization). With a declared capacity: 100 * ops / capacity,
//                      which may exceed 100. Without one (every partitioned table, and
//                      declared sets without capacity) it is the shard's share of the
//                      set's work: 100 * ops / the set's ops, so evenly loaded shards
//                      of a set of 8 read 12.5 and one shard doing 3/4 of the work 75.
//                      A set doing under MinRelativeOps tuples/s is idle: shares are
//                      of that floor, so a stray autovacuum does not make a hot shard.
//                      Relative load says where the work goes, not how much.
// Per set (labels {set}, same resource):
//   pg.shardset.shards    shards found (every poll, even without rates)
//   pg.shardset.ops.rate  tuples read + written per second over all its shards
//   pg.shardset.deletes.rate rows deleted per second over all its shards (committed
//                         deletes: housekeeping by DELETE where a partition or chunk
//                         could be dropped shows here)
//   pg.shardset.load.max  the busiest shard's load
//   pg.shardset.overloaded shards (unit shards) whose load is above the overloaded threshold
//                         (source option shardOverloadedPercent, default 60), over
//                         every shard of the set (Saturation; for alert rules)
// At most MaxShards shard pairs are reported, the busiest; the per-set series always
// cover every shard.
//
// Resets: a counter that went down (pg_stat_reset_single_table_counters) or a changed
// stats_reset of the database (pg_stat_reset(), which also marks single-table resets)
// gives no value for that interval, never a negative value or a spike.
#pragma once

#include "collector/counterrate.h"
#include "core/sample.h"
#include "pgpoll.h"
#include "postgresoptions.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>
#include <array>
#include <optional>

namespace Headroom {

// The libpq-free core: one poll's rows in, series and warnings out.
class PgTableActivity
{
public:
    static constexpr int MaxTables = 500;
    static constexpr int MaxShards = 500;
    // Tuples/s below which a set without capacity counts as idle (see pg.shard.load).
    static constexpr double MinRelativeOps = 10;

    enum Counter
    {
        SeqTupRead,
        IdxTupFetch,
        TupIns,
        TupUpd,
        TupDel,
        HeapBlksRead,
        CounterCount
    };

    struct Row
    {
        quint32 relid = 0; // a dropped and re-created table is a new table
        QString schema;
        QString table;
        bool partitioned = false; // relkind 'p': no storage, no counters
        QString rootSchema; // the top-level partitioned table; empty unless a partition
        QString rootTable;
        std::array<double, CounterCount> counters {};
        double deadTuples = 0; // n_dead_tup
        double vacuumAgeS = -1; // since the last vacuum or autovacuum; < 0: never

        QString qualified() const { return schema + u'.' + table; }
        QString qualifiedRoot() const { return rootSchema + u'.' + rootTable; }
        bool isPartition() const { return !rootTable.isEmpty(); }
    };

    struct Snapshot
    {
        QString database; // current_database()
        QString statsReset; // pg_stat_database.stats_reset of it, as text
        QList<Row> rows;
    };

    explicit PgTableActivity(QList<PgShardSetOption> shardSets,
                             double overloadedPercent = DefaultShardOverloadedPercent);

    // Adds the series of `snapshot` at tsMs to batch under `source`; returns warnings.
    QStringList update(const Snapshot &snapshot, qint64 tsMs, const QString &source,
                       SampleBatch &batch);
    // Forget every baseline (new session, maybe a different server).
    void clear();

private:
    struct Rates
    {
        double read = 0;
        double written = 0;
        double heapBlksRead = 0;
        double deleted = 0; // of written
        double ops() const { return read + written; }
    };
    // The rates of `row`, or nullopt on its first poll or after a reset.
    std::optional<Rates> rates(const Row &row, qint64 tsMs, bool statsReset);

    QList<PgShardSetOption> m_shardSets;
    double m_overloadedPercent;
    CounterRate m_counters;
    QSet<quint32> m_known; // relids with baselines, so dropped tables leave none behind
    QString m_statsReset;
    bool m_haveStatsReset = false;
};

// Reads the views each poll and feeds PgTableActivity.
class PgTablesPart : public PgPart
{
public:
    PgTablesPart(QList<PgShardSetOption> shardSets, double overloadedPercent);

    // Columns: current_database(), stats_reset, relid, schema, table, partitioned,
    // root schema, root table, then the counters in PgTableActivity::Counter order,
    // n_dead_tup, seconds since the last (auto)vacuum (NULL: never).
    // With timescaleDb, a hypertable counts as a partitioned table and its chunks as
    // its partitions (TimescaleDB's own catalog says which they are).
    static QByteArray query(bool timescaleDb = false);

    void collect(PgPoll &poll) override;
    void resetBaselines() override { m_activity.clear(); }

private:
    PgTableActivity m_activity;
};

} // namespace Headroom
