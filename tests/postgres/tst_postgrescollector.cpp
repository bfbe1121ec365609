// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The postgres collector against the real server tests/run-tests starts: rates for known
// work, pg_stat_reset() mid-run, wait events from a blocked UPDATE, a role without
// pg_monitor, and libpq's defaults from the PG* environment.
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <QThread>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const Labels Rates { { u"datname"_s, u"headroom_rates"_s } };
const Labels Reset { { u"datname"_s, u"headroom_reset"_s } };

// Makes the session's pending statistics visible at once (PostgreSQL 15+) instead of
// after up to a second, so each poll sees exactly the work done before it.
const QString ForceFlush = u"SELECT pg_stat_force_next_flush()"_s;

} // namespace

class TestPostgresCollector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void rates();
    void statsResetMidRun();
    void waitEvents();
    void roleWithoutPgMonitor();
    void pgMonitorIsEnough();
    void viewPermissionDenied();
    void libpqDefaults();
    void readOnlySession();
    void queryDeadlineCancels();
    void ownRollbacksLeftOut();

private:
    PollResult pollOk(PostgresCollector &collector);
};

void TestPostgresCollector::initTestCase()
{
    HEADROOM_REQUIRE_PG();
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    for (const char *db : { "headroom_rates", "headroom_reset", "headroom_locks",
                            "headroom_noprivs", "headroom_own" }) {
        PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(QLatin1StringView(db)));
        PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(QLatin1StringView(db)));
    }
    // With the extension in place a superuser's polls carry no warning at all.
    PG_EXEC(admin, u"CREATE EXTENSION IF NOT EXISTS pg_stat_statements"_s);
    PG_EXEC(admin, u"DROP ROLE IF EXISTS headroom_plain"_s);
    PG_EXEC(admin, u"CREATE ROLE headroom_plain LOGIN"_s);
    PG_EXEC(admin, u"DROP ROLE IF EXISTS headroom_monitor"_s);
    PG_EXEC(admin, u"CREATE ROLE headroom_monitor LOGIN IN ROLE pg_monitor"_s);
    // Autovacuum off for the test tables: an ANALYZE writes pg_statistic rows, which
    // pg_stat_database would count as inserts.
    for (const char *db : { "headroom_rates", "headroom_reset", "headroom_locks" }) {
        TestConnection setup(conninfo(QLatin1StringView(db)));
        QVERIFY2(setup.ok(), qPrintable(setup.error()));
        PG_EXEC(setup,
                u"CREATE TABLE t (id int PRIMARY KEY, v int) WITH (autovacuum_enabled = off)"_s);
        PG_EXEC(setup, u"INSERT INTO t VALUES (1, 0)"_s);
        PG_EXEC(setup, ForceFlush);
    }
}

PollResult TestPostgresCollector::pollOk(PostgresCollector &collector)
{
    QElapsedTimer clock;
    clock.start();
    PollResult result = collector.poll(QDeadlineTimer(5000));
    if (clock.elapsed() > 5000)
        qWarning("poll took %lld ms", clock.elapsed());
    return result;
}

void TestPostgresCollector::rates()
{
    const auto collector = makeCollector(
        { { u"conninfo"_s, conninfo() }, { u"databases"_s, QJsonArray { u"headroom_rates"_s } } });
    QVERIFY(collector);
    PollResult baseline = pollOk(*collector);
    QVERIFY2(baseline.error.isEmpty(), qPrintable(baseline.error));
    QCOMPARE(value(baseline.batch, u"pg.up"_s), 1.0);
    QCOMPARE(baseline.warnings, QStringList()); // a superuser sees everything

    constexpr int N = 5000;
    {
        TestConnection work(conninfo(u"headroom_rates"_s));
        QVERIFY2(work.ok(), qPrintable(work.error()));
        PG_EXEC(work, u"INSERT INTO t SELECT g, g FROM generate_series(2, %1 + 1) g"_s.arg(N));
        PG_EXEC(work, ForceFlush);
    }
    QThread::msleep(200); // a measurable interval
    const PollResult after = pollOk(*collector);
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    QCOMPARE(value(after.batch, u"pg.up"_s), 1.0);
    const double interval = double(after.batch.tsMs - baseline.batch.tsMs) / 1000.0;
    QVERIFY(interval > 0);
    const auto inserted = value(after.batch, u"pg.db.tup_inserted.rate"_s, Rates);
    QVERIFY(inserted);
    const double rows = *inserted * interval;
    QVERIFY2(rows > N - 0.5 && rows < N + 50, qPrintable(QString::number(rows)));
    const auto commits = value(after.batch, u"pg.db.commits.rate"_s, Rates);
    QVERIFY(commits);
    QVERIFY(*commits * interval >= 1.5); // the INSERT and the flush
    const auto meta = info(after.batch, u"pg.db.tup_inserted.rate"_s, Rates);
    QCOMPARE(meta->key.source, u"pg:test"_s);
    QCOMPARE(meta->resource, u"db:headroom_rates"_s);
    QCOMPARE(meta->unit, u"1/s"_s);
    QCOMPARE(meta->kind, UseKind::Throughput);
    // "databases" restricts the rows.
    for (const SeriesValue &v : after.batch.values) {
        if (v.info.key.metric.startsWith("pg.db."_L1))
            QCOMPARE(v.info.key.labels, Rates);
    }
    // The activity part ran too.
    QVERIFY(value(after.batch, u"pg.activity.oldest_xact_age_s"_s));
}

void TestPostgresCollector::statsResetMidRun()
{
    const auto collector = makeCollector(
        { { u"conninfo"_s, conninfo() }, { u"databases"_s, QJsonArray { u"headroom_reset"_s } } });
    QVERIFY(collector);
    TestConnection work(conninfo(u"headroom_reset"_s));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    int nextId = 100;
    const auto insert = [&](int rows) {
        QString error;
        const bool ok
            = work.exec(
                      u"INSERT INTO t SELECT g, 0 FROM generate_series(%1, %2) g"_s.arg(nextId).arg(
                          nextId + rows - 1),
                      &error)
                  .has_value()
            && work.exec(ForceFlush, &error).has_value();
        nextId += rows;
        if (!ok)
            qWarning("%s", qPrintable(error));
        return ok;
    };

    QList<PollResult> polls;
    QList<int> insertedBefore; // rows inserted in the interval ending at each poll
    const auto poll = [&](int inserted) {
        QThread::msleep(100);
        polls << pollOk(*collector);
        insertedBefore << inserted;
        return polls.last().error.isEmpty();
    };
    QVERIFY(poll(0));
    QVERIFY(insert(100));
    QVERIFY(poll(100));
    // Reset, then more work than before the reset, so that no counter of the database
    // goes down: the collector has to notice stats_reset itself.
    QVERIFY(insert(100));
    PG_EXEC(work, u"SELECT pg_stat_reset()"_s);
    QVERIFY(insert(3000));
    QVERIFY(poll(3100));
    QVERIFY(insert(500));
    QVERIFY(poll(500));
    QVERIFY(insert(200));
    QVERIFY(poll(200));

    const QString metric = u"pg.db.tup_inserted.rate"_s;
    for (int i = 1; i < polls.size(); ++i) {
        const double interval = double(polls[i].batch.tsMs - polls[i - 1].batch.tsMs) / 1000.0;
        for (const SeriesValue &v : std::as_const(polls[i].batch.values))
            QVERIFY2(v.value >= 0, qPrintable(v.info.key.toString()));
        const auto rate = value(polls[i].batch, metric, Reset);
        // Never more than the work done (plus a little catalog noise): no spike.
        if (rate)
            QVERIFY2(*rate * interval <= insertedBefore[i] + 50,
                     qPrintable(u"poll %1: %2 rows"_s.arg(i).arg(*rate * interval)));
    }
    const auto rateAt = [&](int i) { return value(polls[i].batch, metric, Reset); };
    QVERIFY(rateAt(1)); // before the reset: a rate
    QVERIFY2(!rateAt(2), "the interval with pg_stat_reset() must give no rate");
    QVERIFY(!value(polls[2].batch, u"pg.db.blks_hit.rate"_s, Reset));
    QVERIFY(rateAt(3)); // and rates come back
    const double interval3 = double(polls[3].batch.tsMs - polls[2].batch.tsMs) / 1000.0;
    QVERIFY(*rateAt(3) * interval3 > 499.5);
    QVERIFY(rateAt(4));
}

void TestPostgresCollector::waitEvents()
{
    const auto collector = makeCollector({ { u"conninfo"_s, conninfo() } });
    QVERIFY(collector);
    const Labels lockWait { { u"wait"_s, u"Lock:transactionid"_s } };
    TestConnection holder(conninfo(u"headroom_locks"_s));
    TestConnection blocked(conninfo(u"headroom_locks"_s));
    QVERIFY(holder.ok() && blocked.ok());

    PollResult before = pollOk(*collector);
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));
    QVERIFY(value(before.batch, u"pg.activity.waiting"_s, lockWait).value_or(0) == 0);

    PG_EXEC(holder, u"BEGIN"_s);
    PG_EXEC(holder, u"UPDATE t SET v = v + 1 WHERE id = 1"_s);
    QVERIFY(blocked.send(u"UPDATE t SET v = v + 1 WHERE id = 1"_s));

    // The blocked backend reports its wait as soon as it sleeps on the lock.
    double waiting = 0;
    PollResult during;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 10'000) {
        during = pollOk(*collector);
        QVERIFY2(during.error.isEmpty(), qPrintable(during.error));
        waiting = value(during.batch, u"pg.activity.waiting"_s, lockWait).value_or(0);
        if (waiting >= 1)
            break;
        QThread::msleep(100);
    }
    QCOMPARE(waiting, 1.0);
    const auto meta = info(during.batch, u"pg.activity.waiting"_s, lockWait);
    QCOMPARE(meta->kind, UseKind::Saturation);
    QCOMPARE(meta->resource, u"pg"_s);
    QCOMPARE(meta->unit, u"sessions"_s);
    QVERIFY(
        value(during.batch, u"pg.activity.sessions"_s, { { u"state"_s, u"active"_s } }).value_or(0)
        >= 1);
    QVERIFY(
        value(during.batch, u"pg.activity.sessions"_s, { { u"state"_s, u"idle in transaction"_s } })
            .value_or(0)
        >= 1);
    QVERIFY(value(during.batch, u"pg.activity.oldest_xact_age_s"_s).value_or(-1) > 0);
    QVERIFY(value(during.batch, u"pg.activity.longest_query_age_s"_s).value_or(-1) > 0);

    PG_EXEC(holder, u"COMMIT"_s);
    blocked.finish();

    // The wait class is still reported, at 0, so a stacked chart falls to zero.
    PollResult after = pollOk(*collector);
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    QCOMPARE(value(after.batch, u"pg.activity.waiting"_s, lockWait), 0.0);
}

void TestPostgresCollector::roleWithoutPgMonitor()
{
    // Another role's session the plain role may not look into.
    TestConnection other(conninfo());
    QVERIFY(other.ok());
    const auto collector
        = makeCollector({ { u"conninfo"_s, conninfo(u"postgres"_s, u"headroom_plain"_s) },
                          { u"databases"_s, QJsonArray { u"headroom_rates"_s } } });
    QVERIFY(collector);
    PollResult first = pollOk(*collector);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    {
        TestConnection work(conninfo(u"headroom_rates"_s));
        PG_EXEC(work, u"SELECT count(*) FROM t"_s);
        PG_EXEC(work, ForceFlush);
    }
    QThread::msleep(50);
    PollResult second = pollOk(*collector);
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    QCOMPARE(value(second.batch, u"pg.up"_s), 1.0);
    QVERIFY(value(second.batch, u"pg.db.tup_returned.rate"_s, Rates).value_or(0) > 0);
    // What it cannot see is named, with the fix.
    QVERIFY2(anyWarningContains(second.warnings, u"pg_stat_activity: "_s)
                 && anyWarningContains(second.warnings, u"grant pg_monitor"_s),
             qPrintable(second.warnings.join(u" | "_s)));
}

void TestPostgresCollector::pgMonitorIsEnough()
{
    // A role with nothing but pg_monitor sees every part: no warning at all, while
    // another role's session and statements exist.
    TestConnection other(conninfo());
    QVERIFY(other.ok());
    PG_EXEC(other, u"SELECT count(*) FROM pg_class"_s);
    const auto collector
        = makeCollector({ { u"conninfo"_s, conninfo(u"postgres"_s, u"headroom_monitor"_s) } });
    QVERIFY(collector);
    const PollResult first = pollOk(*collector);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    QThread::msleep(200);
    const PollResult second = pollOk(*collector);
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    QCOMPARE(second.warnings, QStringList());
    QCOMPARE(value(second.batch, u"pg.up"_s), 1.0);
    QVERIFY(
        value(second.batch, u"pg.activity.sessions"_s, { { u"state"_s, u"idle"_s } }).value_or(0)
        >= 1);
    QVERIFY(!second.batch.histograms.isEmpty()); // the probe, at least
}

void TestPostgresCollector::viewPermissionDenied()
{
    // Privileges on catalog views are per database: take pg_stat_activity away from
    // everyone in one database only.
    {
        TestConnection admin(conninfo(u"headroom_noprivs"_s));
        QVERIFY(admin.ok());
        PG_EXEC(admin, u"REVOKE SELECT ON pg_catalog.pg_stat_activity FROM PUBLIC"_s);
    }
    // (pg_stat_statements is not installed there; its own warning is not the point.)
    const auto collector
        = makeCollector({ { u"conninfo"_s, conninfo(u"headroom_noprivs"_s, u"headroom_plain"_s) },
                          { u"statements"_s, false } });
    QVERIFY(collector);
    PollResult first = pollOk(*collector);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    QThread::msleep(500); // the wait sampler's session has tried by then
    PollResult second = pollOk(*collector);
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    // Every part that reads pg_stat_activity says so: the sampler, who blocks whom, the
    // connection slots, the sessions' CPU, the maintenance progress (joined to it) and
    // the wait sampler's session, each with the server's reason.
    QCOMPARE(second.warnings.size(), 6);
    QVERIFY2(second.warnings.at(0).startsWith(
                 "pg_stat_activity: permission denied; grant pg_monitor"_L1),
             qPrintable(second.warnings.at(0)));
    QVERIFY2(second.warnings.at(1).startsWith(
                 "pg_blocking_pids: permission denied; grant pg_monitor"_L1),
             qPrintable(second.warnings.at(1)));
    QVERIFY2(second.warnings.at(2).startsWith(
                 "connections: permission denied; grant pg_monitor (ERROR: permission denied "
                 "for view pg_stat_activity)"_L1),
             qPrintable(second.warnings.at(2)));
    QVERIFY2(second.warnings.at(3).startsWith(
                 "pg_stat_activity (session CPU): permission denied; grant pg_monitor (ERROR: "
                 "permission denied for view pg_stat_activity)"_L1),
             qPrintable(second.warnings.at(3)));
    QVERIFY2(second.warnings.at(4).startsWith(
                 "pg_stat_progress_*: permission denied; grant pg_monitor (ERROR: permission "
                 "denied for view pg_stat_activity)"_L1),
             qPrintable(second.warnings.at(4)));
    QVERIFY2(second.warnings.at(5).startsWith(
                 "wait sampling (pg_stat_activity, 10 a second): ERROR: permission denied for "
                 "view pg_stat_activity"_L1),
             qPrintable(second.warnings.at(5)));
    // The other parts carry on.
    QCOMPARE(value(second.batch, u"pg.up"_s), 1.0);
    QVERIFY(
        value(second.batch, u"pg.db.commits.rate"_s, { { u"datname"_s, u"headroom_noprivs"_s } }));
    QVERIFY(!value(second.batch, u"pg.activity.oldest_xact_age_s"_s));
}

void TestPostgresCollector::libpqDefaults()
{
    // An empty conninfo means whatever psql would use: here the PG* environment.
    const QList<QByteArrayView> names { "PGHOST", "PGPORT", "PGUSER", "PGDATABASE" };
    QList<QByteArray> saved;
    for (QByteArrayView name : names)
        saved << qgetenv(name.data());
    qputenv("PGHOST", env("HEADROOM_TEST_PGHOST").toUtf8());
    qputenv("PGPORT", env("HEADROOM_TEST_PGPORT").toUtf8());
    qputenv("PGUSER", "headroom_plain");
    qputenv("PGDATABASE", "headroom_rates");
    const auto restore = qScopeGuard([&] {
        for (qsizetype i = 0; i < names.size(); ++i) {
            if (saved[i].isNull())
                qunsetenv(names[i].data());
            else
                qputenv(names[i].data(), saved[i]);
        }
    });
    const auto collector = makeCollector({ { u"conninfo"_s, u""_s } });
    QVERIFY(collector);
    const PollResult result = pollOk(*collector);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(value(result.batch, u"pg.up"_s), 1.0);
    TestConnection admin(conninfo());
    // Our session is there, as the PGUSER role, in the PGDATABASE, named headroom. (Other
    // tests' sessions, on the same server at the same time, are named headroom too, but
    // none of them is in this database.)
    QCOMPARE(admin.exec(u"SELECT string_agg(DISTINCT usename, ',') FROM pg_stat_activity"
                        " WHERE application_name = 'headroom' AND datname = 'headroom_rates'"_s),
             std::optional<QString>(u"headroom_plain"_s));
}

void TestPostgresCollector::readOnlySession()
{
    // The session's settings as the server sees them.
    const auto collector = makeCollector({ { u"conninfo"_s, conninfo(u"headroom_locks"_s) },
                                           { u"statementTimeoutMs"_s, 1234 },
                                           { u"lockTimeoutMs"_s, 56 } });
    QVERIFY(collector);
    const PollResult result = pollOk(*collector);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    PgConnection &connection = collector->connection();
    const PgResult settings = connection.exec(
        "SELECT current_setting('default_transaction_read_only') || ' ' || "
        "current_setting('statement_timeout') || ' ' || current_setting('lock_timeout') || ' ' "
        "|| current_setting('application_name')",
        {}, QDeadlineTimer(2000));
    QVERIFY2(settings.ok(), qPrintable(settings.error()));
    QCOMPARE(settings.text(0, 0), u"on 1234ms 56ms headroom"_s);
    const PgResult write
        = connection.exec("UPDATE t SET v = v + 1 WHERE id = $1", { "1" }, QDeadlineTimer(2000));
    QVERIFY(!write.ok());
    QCOMPARE(write.sqlState(), QByteArray("25006")); // read_only_sql_transaction
    QVERIFY(connection.isConnected());
}

void TestPostgresCollector::queryDeadlineCancels()
{
    // statement_timeout out of the way: only our own deadline can stop the query.
    const auto collector = makeCollector(
        { { u"conninfo"_s, conninfo() }, { u"statementTimeoutMs"_s, 60'000 } }, 2000);
    QVERIFY(collector);
    const PollResult first = pollOk(*collector);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    PgConnection &connection = collector->connection();

    QElapsedTimer clock;
    clock.start();
    const PgResult slow = connection.exec("SELECT pg_sleep(30)", {}, QDeadlineTimer(300));
    const qint64 elapsed = clock.elapsed();
    QVERIFY(!slow.ok());
    QVERIFY(slow.timedOut());
    // The deadline plus at most the cancel grace (a tenth of the 2 s poll timeout).
    QVERIFY2(elapsed >= 290 && elapsed <= 300 + 200 + 50, qPrintable(QString::number(elapsed)));
    QCOMPARE(slow.error(), u"query did not finish within the poll deadline; cancelled"_s);
    // The server got the cancel, so the session is still usable and idle.
    QVERIFY(connection.isConnected());
    const PgResult next = connection.exec("SELECT 1", {}, QDeadlineTimer(1000));
    QVERIFY2(next.ok(), qPrintable(next.error()));
    TestConnection admin(conninfo());
    QCOMPARE(admin.exec(u"SELECT count(*) FROM pg_stat_activity"
                        " WHERE application_name = 'headroom' AND query LIKE '%pg_sleep%'"
                        " AND state = 'active'"_s),
             std::optional<QString>(u"0"_s));

    // The server's statement_timeout: an ordinary error, the session stays.
    const auto strict
        = makeCollector({ { u"conninfo"_s, conninfo() }, { u"statementTimeoutMs"_s, 100 } }, 2000);
    QVERIFY(strict);
    QVERIFY(pollOk(*strict).error.isEmpty());
    const PgResult cut = strict->connection().exec("SELECT pg_sleep(5)", {}, QDeadlineTimer(1500));
    QVERIFY(!cut.ok());
    QVERIFY(!cut.timedOut());
    QCOMPARE(cut.sqlState(), QByteArray("57014")); // query_canceled
    QVERIFY(strict->connection().isConnected());
}

// The probe and the dashboard's queries each end a read-only transaction in a ROLLBACK
// every poll: the database Headroom watches would read as one with rollbacks (an error
// in the USE sense). They are left out of pg.db.rollbacks.rate; another session's
// rollbacks still count, every one.
void TestPostgresCollector::ownRollbacksLeftOut()
{
    const Labels own { { u"datname"_s, u"headroom_own"_s } };
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    const auto serverCount = [&] {
        return admin
            .exec(u"SELECT xact_rollback FROM pg_stat_database WHERE datname = 'headroom_own'"_s)
            .value_or(u"nan"_s)
            .toDouble();
    };
    const auto collector
        = makeCollector({ { u"conninfo"_s, conninfo(u"headroom_own"_s) },
                          { u"databases"_s, QJsonArray { u"headroom_own"_s } },
                          { u"probe"_s, QJsonObject { { u"count"_s, 3 } } },
                          { u"queries"_s,
                            QJsonArray { QJsonObject { { u"name"_s, u"one"_s },
                                                       { u"sql"_s, u"SELECT 1 AS one"_s } } } } });
    QVERIFY(collector);
    const double serverBefore = serverCount();
    double counted = 0; // rollbacks the rates add up to
    qint64 lastTs = 0;
    const auto pollAndCount = [&] {
        const PollResult r = pollOk(*collector);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        if (const auto rate = value(r.batch, u"pg.db.rollbacks.rate"_s, own))
            counted += *rate * double(r.batch.tsMs - lastTs) / 1000.0;
        lastTs = r.batch.tsMs;
    };
    for (int i = 0; i < 12; ++i) {
        pollAndCount();
        QThread::msleep(250);
    }
    QThread::msleep(1500); // the server's statistics of our session flushed
    pollAndCount();
    const double serverOwn = serverCount() - serverBefore;
    qInfo("the server counted %g rollbacks of Headroom's session; the rate added up to %g",
          serverOwn, counted);
    QVERIFY2(serverOwn >= 20, qPrintable(QString::number(serverOwn))); // 2 a poll
    QVERIFY2(std::abs(counted) < 0.01, qPrintable(QString::number(counted)));

    // Another session's rollbacks are real ones.
    {
        TestConnection other(conninfo(u"headroom_own"_s));
        QVERIFY2(other.ok(), qPrintable(other.error()));
        for (int i = 0; i < 5; ++i) {
            PG_EXEC(other, u"BEGIN"_s);
            PG_EXEC(other, u"ROLLBACK"_s);
        }
        PG_EXEC(other, ForceFlush);
    }
    // Ours and theirs reach the counter in either order: a backend flushes its
    // statistics at most once a second and, idle, up to 10 s later. Until ours arrive,
    // theirs pay for them; once every one has arrived the rates add up to theirs alone.
    counted = 0;
    pollAndCount();
    QThread::msleep(11'000);
    pollAndCount();
    QVERIFY2(std::abs(counted - 5) < 0.01, qPrintable(QString::number(counted)));
}

QTEST_GUILESS_MAIN(TestPostgresCollector)
#include "tst_postgrescollector.moc"
