// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Maintenance visibility. Without a server: the series of a known state (every command
// counted from 0, progress clamped, the phase labelled, the horizon holders). Against the
// test server: a throttled VACUUM of a 60,000-row table shows as running with its
// progress and phase; a REPEATABLE READ transaction holding the xmin horizon is named by
// pid and application while other sessions burn xids; dead tuples and the last vacuum
// per table.
#include "pgmaintenance.h"
#include "pgtestutil.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString Db = u"headroom_maintenance"_s;

const SeriesValue *find(const SampleBatch &batch, const QString &metric,
                        const QString &label = QString(), const QString &labelValue = QString())
{
    for (const SeriesValue &v : batch.values)
        if (v.info.key.metric == metric
            && (label.isEmpty() || v.info.key.labels.value(label) == labelValue))
            return &v;
    return nullptr;
}

} // namespace

class TestPgMaintenance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void series();
    void vacuumProgress();
    void xminHolderNamed();
    void deadTuplesAndLastVacuum();
};

void TestPgMaintenance::initTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Db));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(Db));
    TestConnection db(conninfo(Db));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    // No autovacuum on it: the test's own VACUUM is the only one.
    PG_EXEC(db,
            u"CREATE TABLE big (id int PRIMARY KEY, pad text) WITH (autovacuum_enabled = off)"_s);
    PG_EXEC(db, u"INSERT INTO big SELECT i, repeat('x', 100) FROM generate_series(1, 60000) i"_s);
}

void TestPgMaintenance::cleanupTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    QString error;
    if (!admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Db), &error))
        qWarning("cleanup failed: %s", qPrintable(error));
}

void TestPgMaintenance::series()
{
    PgMaintenance m;
    PgMaintenanceCommand vacuum;
    vacuum.pid = 42;
    vacuum.command = u"vacuum"_s;
    vacuum.database = u"app"_s;
    vacuum.table = u"orders"_s;
    vacuum.phase = u"scanning heap"_s;
    vacuum.done = 250;
    vacuum.total = 1000;
    vacuum.elapsedS = 12.5;
    PgMaintenanceCommand index = vacuum;
    index.pid = 43;
    index.command = u"create_index"_s;
    index.phase = u"building index: scanning table"_s;
    index.done = 1200; // past a total that grew under it
    index.total = 1000;
    PgMaintenanceCommand waiting = vacuum;
    waiting.pid = 44;
    waiting.command = u"autovacuum"_s;
    waiting.total = 0; // nothing to measure yet
    m.commands = { vacuum, index, waiting };
    m.autovacuumWorkers = 1;
    m.autovacuumMaxWorkers = 4;
    m.sessionHorizonAge = 5000;
    m.oldestSession = PgXminHolder { 7,
                                     u"report"_s,
                                     u"alice"_s,
                                     u"idle in transaction"_s,
                                     u"SELECT * FROM orders WHERE id = 12"_s,
                                     300 };
    SampleBatch batch;
    PgMaintenancePart::publish(m, u"pg"_s, batch);

    const auto running = [&](const QString &command) {
        return value(batch, u"pg.maintenance.running"_s, { { u"command"_s, command } });
    };
    QCOMPARE(running(u"vacuum"_s), 1.0);
    QCOMPARE(running(u"autovacuum"_s), 1.0);
    QCOMPARE(running(u"create_index"_s), 1.0);
    QCOMPARE(running(u"analyze"_s), 0.0); // there from the first poll, for onsets
    QCOMPARE(running(u"autoanalyze"_s), 0.0);
    const Labels of42 { { u"pid"_s, u"42"_s },
                        { u"command"_s, u"vacuum"_s },
                        { u"datname"_s, u"app"_s },
                        { u"table"_s, u"orders"_s } };
    QCOMPARE(value(batch, u"pg.maintenance.progress"_s, of42), 25.0);
    Labels phased = of42;
    phased.insert(u"phase"_s, u"scanning heap"_s);
    QCOMPARE(value(batch, u"pg.maintenance.elapsed_s"_s, phased), 12.5);
    QCOMPARE(find(batch, u"pg.maintenance.progress"_s, u"pid"_s, u"43"_s)->value, 100.0);
    QVERIFY(!find(batch, u"pg.maintenance.progress"_s, u"pid"_s, u"44"_s));
    QVERIFY(find(batch, u"pg.maintenance.elapsed_s"_s, u"pid"_s, u"44"_s));
    QCOMPARE(value(batch, u"pg.autovacuum.workers"_s), 1.0);
    const SeriesValue *busy = find(batch, u"pg.autovacuum.busy"_s);
    QVERIFY(busy);
    QCOMPARE(busy->value, 25.0);
    QCOMPARE(busy->info.kind, UseKind::Utilization);
    QCOMPARE(value(batch, u"pg.xmin.horizon_age"_s, { { u"holder"_s, u"session"_s } }), 5000.0);
    QVERIFY(!find(batch, u"pg.xmin.horizon_age"_s, u"holder"_s, u"slot"_s));
    const SeriesValue *holder = find(batch, u"pg.xmin.oldest_xact_age_s"_s);
    QVERIFY(holder);
    QCOMPARE(holder->value, 300.0);
    QCOMPARE(holder->info.key.labels.value(u"pid"_s), u"7"_s);
    QCOMPARE(holder->info.key.labels.value(u"application"_s), u"report"_s);
    QCOMPARE(holder->info.key.labels.value(u"query"_s), u"SELECT * FROM orders WHERE id = $1"_s);
}

void TestPgMaintenance::vacuumProgress()
{
    HEADROOM_REQUIRE_PG();
    TestConnection setup(conninfo(Db));
    QVERIFY2(setup.ok(), qPrintable(setup.error()));
    PG_EXEC(setup, u"DELETE FROM big WHERE id % 2 = 0"_s);
    // Throttled hard, a VACUUM of the table's ~1,000 pages takes seconds.
    TestConnection vacuumer(conninfo(Db) + u" application_name=hr_vacuum"_s);
    QVERIFY(vacuumer.ok());
    const QString pid = vacuumer.exec(u"SELECT pg_backend_pid()"_s).value_or(QString());
    PG_EXEC(vacuumer, u"SET vacuum_cost_delay = 20"_s);
    PG_EXEC(vacuumer, u"SET vacuum_cost_limit = 5"_s);
    QVERIFY(vacuumer.send(u"VACUUM big"_s));

    const auto collector = makeCollector(
        { { u"conninfo"_s, conninfo(Db) }, { u"tables"_s, false }, { u"probe"_s, false } });
    QVERIFY(collector);
    QElapsedTimer clock;
    clock.start();
    PollResult poll;
    const SeriesValue *progress = nullptr;
    QList<double> seen;
    while (clock.elapsed() < 15'000) {
        poll = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        progress = find(poll.batch, u"pg.maintenance.progress"_s, u"pid"_s, pid);
        if (progress)
            seen << progress->value;
        if (seen.size() >= 3 && seen.last() > seen.first())
            break;
        QThread::msleep(300);
    }
    QVERIFY2(progress, "no progress of the VACUUM within 15 s");
    QStringList shown;
    for (const double p : std::as_const(seen))
        shown << QString::number(p, 'f', 1);
    qInfo("VACUUM progress seen in %lld ms: %s %%", clock.elapsed(), qPrintable(shown.join(u' ')));
    for (const double p : std::as_const(seen))
        QVERIFY(p >= 0 && p <= 100);
    QVERIFY2(seen.last() > seen.first(), "the progress moved");
    const Labels &labels = progress->info.key.labels;
    QCOMPARE(labels.value(u"command"_s), u"vacuum"_s);
    QCOMPARE(labels.value(u"datname"_s), Db);
    QCOMPARE(labels.value(u"table"_s), u"big"_s);
    QCOMPARE(value(poll.batch, u"pg.maintenance.running"_s, { { u"command"_s, u"vacuum"_s } }),
             1.0);
    const SeriesValue *elapsed = find(poll.batch, u"pg.maintenance.elapsed_s"_s, u"pid"_s, pid);
    QVERIFY(elapsed);
    QVERIFY(!elapsed->info.key.labels.value(u"phase"_s).isEmpty());
    QVERIFY(elapsed->value > 0);

    // Cancelled, it is gone by the next poll.
    PG_EXEC(setup, u"SELECT pg_cancel_backend(%1)"_s.arg(pid));
    vacuumer.finish();
    const PollResult after = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    QVERIFY(!find(after.batch, u"pg.maintenance.progress"_s, u"pid"_s, pid));
    QCOMPARE(value(after.batch, u"pg.maintenance.running"_s, { { u"command"_s, u"vacuum"_s } }),
             0.0);
}

void TestPgMaintenance::xminHolderNamed()
{
    HEADROOM_REQUIRE_PG();
    TestConnection holder(conninfo(Db) + u" application_name=hr_holder"_s);
    QVERIFY(holder.ok());
    const QString pid = holder.exec(u"SELECT pg_backend_pid()"_s).value_or(QString());
    PG_EXEC(holder, u"BEGIN ISOLATION LEVEL REPEATABLE READ"_s);
    PG_EXEC(holder, u"SELECT count(*) FROM big WHERE id < 10"_s); // takes its snapshot
    TestConnection writer(conninfo(Db));
    QVERIFY(writer.ok());
    PG_EXEC(writer, u"CREATE TABLE IF NOT EXISTS burn (i int)"_s);
    for (int i = 0; i < 20; ++i) // 20 transactions, 20 xids
        PG_EXEC(writer, u"INSERT INTO burn VALUES (%1)"_s.arg(i));

    const auto collector = makeCollector(
        { { u"conninfo"_s, conninfo(Db) }, { u"tables"_s, false }, { u"probe"_s, false } });
    QVERIFY(collector);
    const PollResult poll = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
    const SeriesValue *oldest = find(poll.batch, u"pg.xmin.oldest_xact_age_s"_s);
    QVERIFY(oldest);
    QCOMPARE(oldest->info.key.labels.value(u"pid"_s), pid);
    QCOMPARE(oldest->info.key.labels.value(u"application"_s), u"hr_holder"_s);
    QCOMPARE(oldest->info.key.labels.value(u"state"_s), u"idle in transaction"_s);
    QCOMPARE(oldest->info.key.labels.value(u"query"_s),
             u"SELECT count(*) FROM big WHERE id < $1"_s);
    QVERIFY(oldest->value >= 0);
    const auto age = value(poll.batch, u"pg.xmin.horizon_age"_s, { { u"holder"_s, u"session"_s } });
    QVERIFY(age);
    QVERIFY2(*age >= 20, qPrintable(QString::number(*age)));
    QVERIFY(value(poll.batch, u"pg.autovacuum.busy"_s).has_value());

    PG_EXEC(holder, u"COMMIT"_s);
    const PollResult after = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    const SeriesValue *then = find(after.batch, u"pg.xmin.oldest_xact_age_s"_s);
    QVERIFY(!then || then->info.key.labels.value(u"pid"_s) != pid);
}

void TestPgMaintenance::deadTuplesAndLastVacuum()
{
    HEADROOM_REQUIRE_PG();
    TestConnection db(conninfo(Db));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    PG_EXEC(db, u"CREATE TABLE churn (id int) WITH (autovacuum_enabled = off)"_s);
    PG_EXEC(db, u"INSERT INTO churn SELECT generate_series(1, 5000)"_s);
    const auto collector
        = makeCollector({ { u"conninfo"_s, conninfo(Db) }, { u"probe"_s, false } });
    QVERIFY(collector);
    PollResult poll = collector->poll(QDeadlineTimer(5000)); // the tables' baselines
    QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
    PG_EXEC(db, u"DELETE FROM churn WHERE id <= 3000"_s);
    PG_EXEC(db, u"SELECT pg_stat_force_next_flush()"_s); // the counts reach the server now
    PG_EXEC(db, u"SELECT 1"_s);
    const Labels churn { { u"schema"_s, u"public"_s }, { u"table"_s, u"churn"_s } };
    QElapsedTimer clock;
    clock.start();
    std::optional<double> dead;
    while (clock.elapsed() < 5000 && dead.value_or(0) < 3000) {
        QThread::msleep(200);
        poll = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        dead = value(poll.batch, u"pg.table.dead_tuples"_s, churn);
    }
    QCOMPARE(dead, 3000.0);
    QVERIFY(!value(poll.batch, u"pg.table.vacuum_age_s"_s, churn)); // never vacuumed

    PG_EXEC(db, u"VACUUM churn"_s);
    PG_EXEC(db, u"SELECT pg_stat_force_next_flush()"_s);
    PG_EXEC(db, u"SELECT 1"_s);
    clock.restart();
    std::optional<double> vacuumAge;
    while (clock.elapsed() < 5000 && !vacuumAge) {
        QThread::msleep(200);
        poll = collector->poll(QDeadlineTimer(5000));
        vacuumAge = value(poll.batch, u"pg.table.vacuum_age_s"_s, churn);
    }
    QVERIFY(vacuumAge);
    QVERIFY2(*vacuumAge >= 0 && *vacuumAge < 30, qPrintable(QString::number(*vacuumAge)));
    QCOMPARE(value(poll.batch, u"pg.table.dead_tuples"_s, churn), 0.0);
}

QTEST_GUILESS_MAIN(TestPgMaintenance)
#include "tst_pgmaintenance.moc"
