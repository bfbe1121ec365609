// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Per-table load and shard sets, from performance_schema.table_io_waits_summary_by_table
// (rows fetched, inserted, updated and deleted, and the time spent on the table's I/O;
// every schema but the server's own), or without performance_schema from MariaDB's
// information_schema.TABLE_STATISTICS (userstat=ON; rows read and changed only). Per table (labels
// {schema, table}, resource "db:<schema>"), the MaxTables busiest:
//   mariadb.table.reads.rate, mariadb.table.writes.rate (rows per second),
//   mariadb.table.deletes.rate, mariadb.table.io_wait.rate (ms/s)
// Shard sets: the tables of one schema whose names differ only in a trailing number
// (t_s0 … t_s7, ads_1 … ads_12) are the shards of the set "<schema>.<name without the
// number>" when there are at least two, published by collector/shardsets.h as for
// PostgreSQL partitions: per
// shard (labels {set, shard}, resource "shardset:<set>"):
//   mariadb.shard.ops.rate  rows read + written per second
//   mariadb.shard.load      % its share of the set's work (100 × ops / the set's ops; a
//                           set under MinRelativeOps rows/s counts as idle)
// and per set mariadb.shardset.shards, .ops.rate, .deletes.rate, .load.max and
// .overloaded (shards above overloadedPercent). A counter that went down
// (TRUNCATE performance_schema..., a restart) gives a gap for that table, never a spike;
// a table first seen since the last poll is rated from zero.
#pragma once

#include "collector/rowcounterrates.h"
#include "core/sample.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace Headroom {

class MariadbTables
{
public:
    static constexpr int MaxTables = 500;
    static constexpr int MaxShards = 500; // shard series, the busiest
    static constexpr double MinRelativeOps = 10;
    static constexpr double OverloadedPercent = 60;

    struct Row
    {
        QString schema;
        QString table;
        double reads = 0;
        double writes = 0;
        double deletes = 0;
        double timerWaitPs = 0;
    };

    // Columns: OBJECT_SCHEMA, OBJECT_NAME, COUNT_READ, COUNT_WRITE, COUNT_DELETE,
    // SUM_TIMER_WAIT.
    static QByteArray query();
    // Without performance_schema, MariaDB's user statistics (userstat=ON): the same
    // columns from information_schema.TABLE_STATISTICS, which counts rows read and
    // changed but neither deletes nor I/O time (those two series are left out).
    static QByteArray userStatisticsQuery();
    // The set a table belongs to by its name ("t_s" for "t_s3"), empty when its name does
    // not end in a number.
    static QString shardSetStem(const QString &table);

    // withTimes: the rows have deletes and I/O wait (performance_schema) and their
    // series are published.
    // Warnings: shards left out by MaxShards.
    QStringList update(const QList<Row> &rows, qint64 tsMs, const QString &source,
                       SampleBatch &batch, bool withTimes = true);
    void clear() { m_rates.clear(); }

private:
    RowCounterRates m_rates;
};

} // namespace Headroom
