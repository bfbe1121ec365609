// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// TimescaleDB awareness (pgtimescale.h, and hypertables as shard sets in pgtables.h).
// Without a server: the hypertable and job series from synthetic rows, and a job's
// counters reset. Against the test server with TimescaleDB preloaded (tests/run-tests'
// third server, HEADROOM_TEST_PGTSDB*): a hypertable of eight daily chunks, one of them
// read hot and named first; chunk count and size (and the compression ratio where the
// build has compression); a background job that fails; and a database without the
// extension, which reports none of it.
#include "pgtables.h"
#include "pgtestutil.h"
#include "pgtimescale.h"
#include "postgrescollector.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <algorithm>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString Source = u"pg:test"_s;
const QString Db = u"headroom_tsdb"_s;
const QString PlainDb = u"headroom_tsdb_plain"_s;
const QString MonitorRole = u"headroom_tsdb_monitor"_s;
const QString Hypertable = u"public.metrics"_s;
constexpr int Days = 8;
constexpr int RowsPerDay = 2000;

// A collector of the database with its table and TimescaleDB parts, no statements,
// no probe.
std::unique_ptr<PostgresCollector> collectorFor(const QString &database,
                                                const QString &user = u"postgres"_s)
{
    return makeCollector({ { u"conninfo"_s, conninfo(database, user) },
                           { u"statements"_s, false },
                           { u"probe"_s, false } });
}

QStringList metricsStartingWith(const SampleBatch &batch, const QString &prefix)
{
    QStringList metrics;
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric.startsWith(prefix))
            metrics << v.info.key.metric;
    }
    return metrics;
}

PgTimescaleJob job(int id, const QString &name, double runs, double failures, bool failed)
{
    PgTimescaleJob j;
    j.id = id;
    j.name = name;
    j.runs = runs;
    j.failures = failures;
    j.lastFailed = failed;
    j.lastDurationS = 0.5;
    return j;
}

} // namespace

class TestPgTimescale : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void deleteTargets_data();
    void deleteTargets();
    void seriesFromRows();
    void jobCountersReset();

    void chunksAreShards();
    void chunksSizeAndCompression();
    void failingJob();
    void monitoringRoleSuffices();
    void deleteOnHypertable();
    void withoutExtension();

private:
    bool m_ready = false;
};

void TestPgTimescale::initTestCase()
{
    if (!serverAvailable())
        return; // the unit tests run anyway; the live ones skip
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    for (const QString &db : { Db, PlainDb })
        PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(db));
    PG_EXEC(admin, u"DROP ROLE IF EXISTS %1"_s.arg(MonitorRole));
    PG_EXEC(admin, u"CREATE ROLE %1 LOGIN IN ROLE pg_monitor"_s.arg(MonitorRole));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(Db));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(PlainDb));
    TestConnection db(conninfo(Db));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    PG_EXEC(db, u"CREATE EXTENSION timescaledb"_s);
    PG_EXEC(db, u"CREATE TABLE metrics (time timestamptz NOT NULL, device int, v float8)"_s);
    PG_EXEC(
        db,
        u"SELECT create_hypertable('metrics', 'time', chunk_time_interval => interval '1 day')"_s);
    // Eight whole days, one chunk each.
    PG_EXEC(db,
            u"INSERT INTO metrics SELECT timestamptz '2026-01-01' + (i * interval '1 day' / %1),"
            " i % 16, random() FROM generate_series(0, %2 - 1) i"_s.arg(RowsPerDay)
                .arg(Days * RowsPerDay));
    QCOMPARE(db.exec(u"SELECT count(*) FROM show_chunks('metrics')"_s),
             std::optional<QString>(QString::number(Days)));
    m_ready = true;
}

void TestPgTimescale::cleanupTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    QString error;
    for (const QString &db : { Db, PlainDb }) {
        if (!admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(db), &error))
            qWarning("cleanup failed: %s", qPrintable(error));
    }
    if (!admin.exec(u"DROP ROLE IF EXISTS %1"_s.arg(MonitorRole), &error))
        qWarning("cleanup failed: %s", qPrintable(error));
}

// ---------------------------------------------------------------- no server

void TestPgTimescale::deleteTargets_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("target"); // empty: none

    QTest::newRow("bare") << u"DELETE FROM history WHERE clock < 1700000000"_s << u"history"_s;
    QTest::newRow("qualified, only, comment")
        << u"/* housekeeper */ delete from ONLY public.history_uint where itemid = 3"_s
        << u"public.history_uint"_s;
    QTest::newRow("quoted") << u"DELETE FROM \"Zabbix\".\"History\" WHERE true"_s
                            << u"Zabbix.History"_s;
    QTest::newRow("spaced dot") << u"DELETE FROM public . history"_s << u"public.history"_s;
    QTest::newRow("select") << u"SELECT 'delete from history'"_s << QString();
    QTest::newRow("with") << u"WITH d AS (DELETE FROM history RETURNING 1) SELECT count(*) FROM d"_s
                          << QString();
    QTest::newRow("cut short") << u"DELETE FROM"_s << QString();
    QTest::newRow("empty") << QString() << QString();
}

void TestPgTimescale::deleteTargets()
{
    QFETCH(QString, sql);
    QFETCH(QString, target);
    QCOMPARE(deleteTarget(sql).value_or(QString()), target);
}

void TestPgTimescale::seriesFromRows()
{
    PgTimescale snapshot;
    snapshot.database = u"zabbix"_s;
    PgHypertable history;
    history.name = u"public.history"_s;
    history.chunks = 30;
    history.bytes = 3e9;
    history.compressedBefore = 2e9;
    history.compressedAfter = 2e8;
    PgHypertable trends;
    trends.name = u"public.trends"_s;
    trends.chunks = 4;
    trends.bytes = 1e6; // nothing compressed: no ratio
    snapshot.hypertables = { history, trends };
    snapshot.jobs = { job(1000, u"Retention Policy [1000]"_s, 10, 0, false),
                      job(1001, u"Compression Policy [1001]"_s, 10, 3, true) };
    snapshot.jobs[0].hypertable = u"public.history"_s;
    snapshot.jobs[1].hypertable = u"public.history"_s;
    // A housekeeping DELETE on a hypertable, named without its schema, and one on a
    // plain table, which is no concern here.
    snapshot.deletes = { { 4242, u"zabbix"_s, 95.5,
                           u"delete from history where itemid = 7 and clock < 1700000000"_s },
                         { 4243, u"zabbix"_s, 300, u"DELETE FROM sessions WHERE id < 10"_s } };

    PgTimescaleActivity activity;
    SampleBatch first;
    activity.update(snapshot, 1'000, Source, first);
    const Labels historyLabels { { u"hypertable"_s, u"public.history"_s } };
    QCOMPARE(value(first, u"pg.hypertable.chunks"_s, historyLabels), 30.0);
    QCOMPARE(value(first, u"pg.hypertable.bytes"_s, historyLabels), 3e9);
    QCOMPARE(value(first, u"pg.hypertable.compression_ratio"_s, historyLabels), 10.0);
    QCOMPARE(value(first, u"pg.hypertable.compression_ratio"_s,
                   { { u"hypertable"_s, u"public.trends"_s } }),
             std::nullopt);
    QCOMPARE(info(first, u"pg.hypertable.chunks"_s, historyLabels)->resource,
             u"shardset:public.history"_s);
    const Labels failingLabels { { u"job"_s, u"Compression Policy [1001]"_s },
                                 { u"hypertable"_s, u"public.history"_s } };
    QCOMPARE(value(first, u"pg.timescale.job.failing"_s, failingLabels), 1.0);
    QCOMPARE(info(first, u"pg.timescale.job.failing"_s, failingLabels)->kind, UseKind::Errors);
    QCOMPARE(info(first, u"pg.timescale.job.failing"_s, failingLabels)->resource, u"db:zabbix"_s);
    QCOMPARE(value(first, u"pg.timescale.jobs.failing"_s), 1.0);
    const Labels deleteLabels { { u"hypertable"_s, u"public.history"_s },
                                { u"pid"_s, u"4242"_s },
                                { u"user"_s, u"zabbix"_s },
                                { u"query"_s,
                                  u"delete from history where itemid = $1 and clock < $2"_s } };
    QCOMPARE(value(first, u"pg.hypertable.delete_s"_s, deleteLabels), 95.5);
    QCOMPARE(info(first, u"pg.hypertable.delete_s"_s, deleteLabels)->resource,
             u"shardset:public.history"_s);
    int deletes = 0;
    for (const SeriesValue &v : std::as_const(first.values))
        deletes += v.info.key.metric == "pg.hypertable.delete_s"_L1 ? 1 : 0;
    QCOMPARE(deletes, 1);
    // Rates need a second poll.
    QCOMPARE(value(first, u"pg.timescale.job.failures.rate"_s, failingLabels), std::nullopt);

    snapshot.jobs[1].runs = 14;
    snapshot.jobs[1].failures = 5;
    SampleBatch second;
    activity.update(snapshot, 3'000, Source, second);
    QCOMPARE(value(second, u"pg.timescale.job.runs.rate"_s, failingLabels), 2.0);
    QCOMPARE(value(second, u"pg.timescale.job.failures.rate"_s, failingLabels), 1.0);
    QCOMPARE(info(second, u"pg.timescale.job.failures.rate"_s, failingLabels)->kind,
             UseKind::Errors);
}

void TestPgTimescale::jobCountersReset()
{
    // A job dropped and re-added with its id, or stats lost in a restart, count from zero
    // again: a gap, never a negative rate.
    PgTimescale snapshot;
    snapshot.database = u"db"_s;
    snapshot.jobs = { job(7, u"User-Defined Action [7]"_s, 100, 40, false) };
    PgTimescaleActivity activity;
    SampleBatch first, second, third;
    activity.update(snapshot, 1'000, Source, first);
    snapshot.jobs[0].runs = 2;
    snapshot.jobs[0].failures = 1;
    activity.update(snapshot, 2'000, Source, second);
    const Labels labels { { u"job"_s, u"User-Defined Action [7]"_s },
                          { u"hypertable"_s, QString() } };
    QCOMPARE(value(second, u"pg.timescale.job.runs.rate"_s, labels), std::nullopt);
    QCOMPARE(value(second, u"pg.timescale.job.failures.rate"_s, labels), std::nullopt);
    QCOMPARE(value(second, u"pg.timescale.job.failing"_s, labels), 0.0);
    snapshot.jobs[0].runs = 4;
    activity.update(snapshot, 3'000, Source, third);
    QCOMPARE(value(third, u"pg.timescale.job.runs.rate"_s, labels), 2.0);
    QCOMPARE(value(third, u"pg.timescale.job.failures.rate"_s, labels), 0.0);
}

// ---------------------------------------------------------------- live

void TestPgTimescale::chunksAreShards()
{
    HEADROOM_REQUIRE_PG();
    QVERIFY(m_ready);
    const auto collector = collectorFor(Db);
    QVERIFY(collector);
    const PollResult before = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));
    QCOMPARE(before.warnings, QStringList());
    const Labels set { { u"set"_s, Hypertable } };
    QCOMPARE(value(before.batch, u"pg.shardset.shards"_s, set), double(Days));

    // Every chunk read once, the fifth day's twenty times more.
    TestConnection work(conninfo(Db));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    const std::optional<QString> hot = work.exec(
        u"SELECT chunk_schema || '.' || chunk_name FROM timescaledb_information.chunks"
        " WHERE hypertable_name = 'metrics' AND range_start = timestamptz '2026-01-05'"_s);
    QVERIFY(hot && !hot->isEmpty());
    QElapsedTimer interval;
    interval.start();
    // Sequential scans, so that every row read counts (an index-only scan of an
    // all-visible chunk reads no heap tuples).
    for (const QString &setting :
         { u"max_parallel_workers_per_gather = 0"_s, u"enable_indexscan = off"_s,
           u"enable_indexonlyscan = off"_s, u"enable_bitmapscan = off"_s })
        PG_EXEC(work, u"SET "_s + setting);
    PG_EXEC(work, u"SELECT count(*) FROM metrics"_s);
    for (int i = 0; i < 20; ++i)
        PG_EXEC(
            work,
            u"SELECT count(*) FROM metrics WHERE time >= '2026-01-05' AND time < '2026-01-06'"_s);
    PG_EXEC(work, u"SELECT pg_stat_force_next_flush()"_s);
    QThread::msleep(std::max<qint64>(0, 1100 - interval.elapsed()));
    const PollResult after = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    QCOMPARE(after.warnings, QStringList());

    const auto ranked = shardsByLoad(after.batch, Hypertable);
    QStringList loads;
    for (const auto &[shard, load] : ranked)
        loads << u"%1=%2"_s.arg(shard.section(u'.', 1), QString::number(load, 'f', 1));
    qInfo("chunk loads: %s", qPrintable(loads.join(u' ')));
    QCOMPARE(ranked.size(), Days);
    QCOMPARE(ranked.first().first, *hot);
    // 21 of the 28 scans' rows: 75 % of the set's work, the others 3.6 % each.
    QVERIFY2(ranked.first().second > 70 && ranked.first().second < 80,
             qPrintable(loads.join(u' ')));
    for (qsizetype i = 1; i < ranked.size(); ++i)
        QVERIFY2(ranked[i].second < 5, qPrintable(loads.join(u' ')));
    // The chunk is listed as a table of its hypertable; the hypertable itself (no rows of
    // its own) only as the set.
    const Labels chunkLabels { { u"schema"_s, hot->section(u'.', 0, 0) },
                               { u"table"_s, hot->section(u'.', 1) },
                               { u"parent"_s, Hypertable } };
    QVERIFY(value(after.batch, u"pg.table.tup_read.rate"_s, chunkLabels));
    QCOMPARE(value(after.batch, u"pg.table.tup_read.rate"_s,
                   { { u"schema"_s, u"public"_s }, { u"table"_s, u"metrics"_s } }),
             std::nullopt);
}

void TestPgTimescale::chunksSizeAndCompression()
{
    HEADROOM_REQUIRE_PG();
    QVERIFY(m_ready);
    const auto collector = collectorFor(Db);
    QVERIFY(collector);
    const Labels labels { { u"hypertable"_s, Hypertable } };
    const PollResult plain = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(plain.error.isEmpty(), qPrintable(plain.error));
    QCOMPARE(value(plain.batch, u"pg.hypertable.chunks"_s, labels), double(Days));
    const std::optional<double> bytes = value(plain.batch, u"pg.hypertable.bytes"_s, labels);
    QVERIFY(bytes && *bytes > Days * 8192);
    QCOMPARE(value(plain.batch, u"pg.hypertable.compression_ratio"_s, labels), std::nullopt);

    QCOMPARE(*bytes,
             TestConnection(conninfo(Db)).exec(u"SELECT hypertable_size('metrics')"_s)->toDouble());

    // Compression is a feature of TimescaleDB's own licence ("timescale"); Debian's
    // package is the Apache build, without it.
    TestConnection db(conninfo(Db));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    if (db.exec(u"SHOW timescaledb.license"_s) != u"timescale"_s) {
        qInfo("TimescaleDB's Apache build: no compression to measure");
        return;
    }
    // The four oldest days compressed: the ratio is TimescaleDB's own figure.
    PG_EXEC(db,
            u"ALTER TABLE metrics SET (timescaledb.compress,"
            " timescaledb.compress_segmentby = 'device')"_s);
    PG_EXEC(db,
            u"SELECT count(compress_chunk(c))"
            " FROM show_chunks('metrics', older_than => timestamptz '2026-01-05') c"_s);
    const std::optional<QString> expected = db.exec(
        u"SELECT sum(before_compression_total_bytes)::float8 / sum(after_compression_total_bytes)"
        " FROM hypertable_compression_stats('metrics')"_s);
    QVERIFY(expected);
    const PollResult compressed = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(compressed.error.isEmpty(), qPrintable(compressed.error));
    QCOMPARE(compressed.warnings, QStringList());
    const std::optional<double> ratio
        = value(compressed.batch, u"pg.hypertable.compression_ratio"_s, labels);
    QVERIFY(ratio);
    qInfo("compression ratio %.2f", *ratio);
    QVERIFY(*ratio > 1.0);
    QCOMPARE(*ratio, expected->toDouble());
    // Compressed chunks stay chunks; their compressed copies are no shards.
    QCOMPARE(value(compressed.batch, u"pg.hypertable.chunks"_s, labels), double(Days));
    QCOMPARE(value(compressed.batch, u"pg.shardset.shards"_s, { { u"set"_s, Hypertable } }),
             double(Days));
}

void TestPgTimescale::failingJob()
{
    // Every database with TimescaleDB has its job history retention job. Debian's
    // package is TimescaleDB's Apache build, whose job cannot run its policy: it fails,
    // on its own, within seconds of CREATE EXTENSION (the Apache build cannot add or
    // alter jobs either). Whatever the build, what Headroom reports must be what
    // job_stats says, and a failed last run an error.
    HEADROOM_REQUIRE_PG();
    QVERIFY(m_ready);
    TestConnection db(conninfo(Db));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    QElapsedTimer waited;
    waited.start();
    std::optional<QString> runs;
    while ((runs = db.exec(u"SELECT coalesce(sum(total_runs), 0)"
                           " FROM timescaledb_information.job_stats"_s))
           && runs->toInt() < 1) {
        QVERIFY2(waited.elapsed() < 30'000, "the scheduler never ran a job");
        QThread::msleep(200);
    }
    const auto collector = collectorFor(Db);
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings, QStringList());

    // Each job as the server lists it: name, hypertable, last status, duration.
    TestConnection query(conninfo(Db));
    PGresult *jobs = PQexec(query.raw(),
                            "SELECT j.application_name,"
                            " coalesce(j.hypertable_schema || '.' || j.hypertable_name, ''),"
                            " coalesce(s.last_run_status, ''), s.total_runs"
                            " FROM timescaledb_information.jobs j"
                            " LEFT JOIN timescaledb_information.job_stats s USING (job_id)");
    QCOMPARE(PQresultStatus(jobs), PGRES_TUPLES_OK);
    int failed = 0;
    for (int r = 0; r < PQntuples(jobs); ++r) {
        const QString name = QString::fromUtf8(PQgetvalue(jobs, r, 0));
        const Labels labels { { u"job"_s, name },
                              { u"hypertable"_s, QString::fromUtf8(PQgetvalue(jobs, r, 1)) } };
        const bool lastFailed = qstrcmp(PQgetvalue(jobs, r, 2), "Failed") == 0;
        qInfo("job %s: last run %s after %s runs", qPrintable(name), PQgetvalue(jobs, r, 2),
              PQgetvalue(jobs, r, 3));
        failed += lastFailed ? 1 : 0;
        QCOMPARE(value(result.batch, u"pg.timescale.job.failing"_s, labels),
                 lastFailed ? 1.0 : 0.0);
        QCOMPARE(info(result.batch, u"pg.timescale.job.failing"_s, labels)->kind, UseKind::Errors);
        if (*PQgetvalue(jobs, r, 2))
            QVERIFY(value(result.batch, u"pg.timescale.job.last_duration_s"_s, labels));
    }
    PQclear(jobs);
    QVERIFY(failed > 0 || db.exec(u"SHOW timescaledb.license"_s) == u"timescale"_s);
    QCOMPARE(value(result.batch, u"pg.timescale.jobs.failing"_s), double(failed));
    QCOMPARE(info(result.batch, u"pg.timescale.jobs.failing"_s)->resource, u"db:"_s + Db);
}

void TestPgTimescale::monitoringRoleSuffices()
{
    // pg_monitor, as docs/postgresql.md asks, and nothing else: the same hypertable series, no
    // warning.
    HEADROOM_REQUIRE_PG();
    QVERIFY(m_ready);
    const auto collector = collectorFor(Db, MonitorRole);
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings, QStringList());
    QCOMPARE(value(result.batch, u"pg.shardset.shards"_s, { { u"set"_s, Hypertable } }),
             double(Days));
    QCOMPARE(value(result.batch, u"pg.hypertable.chunks"_s, { { u"hypertable"_s, Hypertable } }),
             double(Days));
    QVERIFY(value(result.batch, u"pg.timescale.jobs.failing"_s));
}

void TestPgTimescale::deleteOnHypertable()
{
    // A DELETE on the hypertable waits behind a lock (as a housekeeper's does behind the
    // site's writes) and is reported as it runs, with its session; then one that
    // commits shows as rows deleted per second of the hypertable's set.
    HEADROOM_REQUIRE_PG();
    QVERIFY(m_ready);
    const auto collector = collectorFor(Db);
    QVERIFY(collector);
    TestConnection holder(conninfo(Db));
    TestConnection housekeeper(conninfo(Db));
    QVERIFY2(holder.ok() && housekeeper.ok(), qPrintable(holder.error() + housekeeper.error()));
    PG_EXEC(holder, u"BEGIN"_s);
    PG_EXEC(holder, u"LOCK TABLE metrics IN SHARE MODE"_s);
    PG_EXEC(housekeeper, u"BEGIN"_s);
    const QString pid = housekeeper.exec(u"SELECT pg_backend_pid()"_s).value_or(QString());
    QVERIFY(housekeeper.send(u"DELETE FROM metrics WHERE time < '2026-01-03'"_s));
    QThread::msleep(1500);
    const PollResult running = collector->poll(QDeadlineTimer(10'000));
    PG_EXEC(holder, u"ROLLBACK"_s);
    housekeeper.finish();
    PG_EXEC(housekeeper, u"ROLLBACK"_s); // the rows stay
    QVERIFY2(running.error.isEmpty(), qPrintable(running.error));
    const Labels labels { { u"hypertable"_s, Hypertable },
                          { u"pid"_s, pid },
                          { u"user"_s, u"postgres"_s },
                          { u"query"_s, u"DELETE FROM metrics WHERE time < $1"_s } };
    const std::optional<double> seconds = value(running.batch, u"pg.hypertable.delete_s"_s, labels);
    QVERIFY2(seconds,
             qPrintable(metricsStartingWith(running.batch, u"pg.hypertable."_s).join(u' ')));
    QVERIFY2(*seconds >= 1.0 && *seconds < 30, qPrintable(QString::number(*seconds)));

    // The last day's rows deleted and committed: 2,000 rows in the interval.
    const PollResult before = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));
    PG_EXEC(housekeeper, u"DELETE FROM metrics WHERE time >= '2026-01-08'"_s);
    PG_EXEC(housekeeper, u"SELECT pg_stat_force_next_flush()"_s);
    QThread::msleep(1100);
    const PollResult after = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    const double interval = double(after.batch.tsMs - before.batch.tsMs) / 1000.0;
    const std::optional<double> rate
        = value(after.batch, u"pg.shardset.deletes.rate"_s, { { u"set"_s, Hypertable } });
    QVERIFY(rate);
    QCOMPARE(qRound(*rate * interval), RowsPerDay);
    QCOMPARE(value(after.batch, u"pg.hypertable.delete_s"_s, labels), std::nullopt);
}

void TestPgTimescale::withoutExtension()
{
    HEADROOM_REQUIRE_PG();
    QVERIFY(m_ready);
    const auto collector = collectorFor(PlainDb);
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings, QStringList());
    QCOMPARE(metricsStartingWith(result.batch, u"pg.hypertable."_s), QStringList());
    QCOMPARE(metricsStartingWith(result.batch, u"pg.timescale."_s), QStringList());
    QVERIFY(value(result.batch, u"pg.up"_s));
}

QTEST_MAIN(TestPgTimescale)
#include "tst_pgtimescale.moc"
