// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Maintenance as it runs (the nightly delete and its vacuum that locked a site): the
// progress views, the autovacuum workers, and whoever holds the xmin horizon back so
// that no vacuum can remove what was deleted. Two queries a poll, server-wide:
//   pg.maintenance.running{command}       commands running now, each command published
//                                         from the first poll (0 until one runs):
//                                         vacuum, autovacuum, analyze, autoanalyze,
//                                         create_index (CREATE INDEX and REINDEX)
//   pg.maintenance.progress{pid, command, datname, table}
//                                         % done: heap blocks scanned (vacuum), sample
//                                         blocks scanned (analyze), blocks or else tuples
//                                         done (create_index) of the phase's total
//   pg.maintenance.elapsed_s{pid, command, datname, table, phase}
//                                         seconds since the command's statement began,
//                                         labelled with the phase it is in
//   pg.autovacuum.workers                 autovacuum workers running (sessions)
//   pg.autovacuum.busy                    % of autovacuum_max_workers running: at 100,
//                                         tables wait for a worker (the Utilization
//                                         of the worker pool: one of three busy is
//                                         normal, no saturation)
//   pg.xmin.horizon_age{holder}           xids between the next transaction id and the
//                                         oldest xmin each kind of holder keeps:
//                                         session, prepared (a prepared transaction),
//                                         slot (a replication slot's xmin or catalog_xmin)
//   pg.xmin.oldest_xact_age_s{pid, application, user, state, query}
//                                         the session holding the oldest xmin: how long
//                                         its transaction has been open (query
//                                         normalized as pg_stat_statements shows it)
// Tables (pg.table.dead_tuples, .vacuum_age_s) come with the table part (pgtables.h).
// The progress views list other roles' commands without their table names unless the
// role has pg_read_all_stats (pg_monitor has it); before PostgreSQL 13 there is no
// pg_stat_progress_analyze and analyses are not counted.
#pragma once

#include "pgpoll.h"

#include <QList>
#include <QString>
#include <optional>

namespace Headroom {

struct PgMaintenanceCommand
{
    int pid = 0;
    QString command; // vacuum, autovacuum, analyze, autoanalyze, create_index
    QString database;
    QString table; // the relation's name when it is in our database, else its oid
    QString phase;
    double done = 0; // in the units of total; progress = done / total
    double total = 0;
    double elapsedS = 0;
};

struct PgXminHolder
{
    int pid = 0;
    QString application;
    QString user;
    QString state;
    QString query;
    double xactAgeS = 0;
};

struct PgMaintenance
{
    QList<PgMaintenanceCommand> commands;
    int autovacuumWorkers = 0;
    int autovacuumMaxWorkers = 0;
    // Age in xids of the oldest xmin of each holder kind; absent: none holds one.
    std::optional<double> sessionHorizonAge;
    std::optional<double> preparedHorizonAge;
    std::optional<double> slotHorizonAge;
    std::optional<PgXminHolder> oldestSession;
};

class PgMaintenancePart : public PgPart
{
public:
    // At most this many commands get series of their own (a REINDEX of a partitioned
    // table runs one after another; parallel workers do not show as commands).
    static constexpr int MaxCommands = 50;
    static const QStringList &commandNames();

    // Columns: pid, command, datname, table, phase, done, total, elapsed s. Views
    // missing before `serverVersion` (13 for analyze) are left out.
    static QByteArray progressQuery(int serverVersion);
    // One row: autovacuum workers, autovacuum_max_workers, the session, prepared and slot
    // horizon ages (NULL when none), then the oldest session's pid, application, user,
    // state, transaction age s and query (NULL when none).
    static QByteArray horizonQuery();
    static void publish(const PgMaintenance &maintenance, const QString &source,
                        SampleBatch &batch);

    void collect(PgPoll &poll) override;
    void resetBaselines() override { }
};

} // namespace Headroom
