// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// TimescaleDB, when the connected database has the extension: its hypertables' size and
// chunks, how well they compress, and its background jobs (the retention and
// compression policies that replace a housekeeper's DELETE). A database without the
// extension costs one catalog lookup a poll (PgPoll::timescaleDbSchema) and reports
// nothing. The chunks' load, as shards of their hypertable, comes with the table part
// (pgtables.h). Two queries a poll, three where there are hypertables:
//   pg.hypertable.chunks{hypertable}           chunks (Info)
//   pg.hypertable.bytes{hypertable}            table, index and TOAST bytes of every
//                                              chunk, compressed ones as they are now
//   pg.hypertable.compression_ratio{hypertable} bytes before compression over bytes
//                                              after, of its compressed chunks (absent
//                                              while none is compressed)
//   pg.timescale.job.runs.rate{job, hypertable}     runs per second (reset-safe)
//   pg.timescale.job.failures.rate{job, hypertable} failed runs per second (Errors)
//   pg.timescale.job.failing{job, hypertable}  1 while the job's last run failed
//                                              (Errors: a retention or compression
//                                              policy that fails leaves chunks behind)
//   pg.timescale.job.last_duration_s{job, hypertable}  its last run's duration
//   pg.timescale.jobs.failing                  jobs whose last run failed (Errors)
//   pg.hypertable.delete_s{hypertable, pid, user, query}
//                                              seconds a DELETE on the hypertable has
//                                              been running (housekeeping by DELETE,
//                                              where dropping chunks takes
//                                              milliseconds); query normalized as
//                                              pg_stat_statements shows it. The rows it
//                                              deletes show once committed, in
//                                              pg.shardset.deletes.rate{set=hypertable}.
// A third query, of pg_stat_activity, finds the DELETEs (other roles' statements need
// pg_monitor to be seen). job is TimescaleDB's application name ("Retention Policy [1000]", unique:
// it carries the job id); hypertable is the qualified name, empty for a job of none (a user job,
// the telemetry reporter). Resource: "shardset:<hypertable>" for the hypertable series,
// the hypertable's shard set; "db:<database>" for the jobs.
#pragma once

#include "collector/counterrate.h"
#include "core/sample.h"
#include "pgpoll.h"

#include <QList>
#include <QString>
#include <optional>

namespace Headroom {

struct PgHypertable
{
    QString name; // schema.table
    int chunks = 0;
    double bytes = 0;
    double compressedBefore = 0; // of the compressed chunks: bytes before compression
    double compressedAfter = 0; // and now
};

struct PgTimescaleJob
{
    int id = 0;
    QString name; // application_name
    QString hypertable; // schema.table, or empty
    double runs = 0; // total_runs
    double failures = 0; // total_failures
    double lastDurationS = -1; // < 0: never ran
    bool lastFailed = false;
};

// A DELETE running in the database, on whatever table.
struct PgRunningDelete
{
    int pid = 0;
    QString user;
    double seconds = 0;
    QString query; // as the client sent it
};

struct PgTimescale
{
    QString database;
    QList<PgHypertable> hypertables;
    QList<PgTimescaleJob> jobs;
    QList<PgRunningDelete> deletes;
};

// The table a DELETE statement deletes from, as written ("history" or
// "public.history", names folded as the server folds them), or nullopt when sql is not
// a DELETE (a leading WITH is not looked into).
std::optional<QString> deleteTarget(const QString &sql);

// The libpq-free core: one poll's rows in, series out.
class PgTimescaleActivity
{
public:
    void update(const PgTimescale &snapshot, qint64 tsMs, const QString &source,
                SampleBatch &batch);
    void clear() { m_counters.clear(); }

private:
    CounterRate m_counters;
};

class PgTimescalePart : public PgPart
{
public:
    void collect(PgPoll &poll) override;
    void resetBaselines() override { m_activity.clear(); }

    // The queries, with the extension's schema (its functions live there).
    static QByteArray hypertablesQuery(const QString &extensionSchema);
    static QByteArray jobsQuery();
    static QByteArray deletesQuery();

private:
    PgTimescaleActivity m_activity;
};

} // namespace Headroom
