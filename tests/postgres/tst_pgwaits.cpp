// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Waits finer than the poll. Without a server: pg_wait_sampling's profile as deltas (a
// reset gives nothing), and the series of a known set of samples. Against the test
// server, with each method it offers (pg_wait_sampling where 17 has it preloaded; the
// sampler session everywhere): a 200 ms lock wait between two polls, 20 times, is seen
// at least 18 times, with the statement that waited; the once-a-second snapshot's count
// is printed beside it.
#include "pgtestutil.h"
#include "pgwaits.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString Db = u"headroom_waits"_s;
const QString ProfileDb = u"headroom_waits_profile"_s;

const SeriesValue *find(const SampleBatch &batch, const QString &metric, const Labels &labels)
{
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric != metric)
            continue;
        bool all = true;
        for (auto it = labels.cbegin(); it != labels.cend() && all; ++it)
            all = v.info.key.labels.value(it.key()) == it.value();
        if (all)
            return &v;
    }
    return nullptr;
}

} // namespace

class TestPgWaits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void profileDeltas();
    void series();
    void shortLockWaitsSeen_data();
    void shortLockWaitsSeen();
};

void TestPgWaits::initTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    for (const QString &db : { Db, ProfileDb })
        PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(db));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(Db));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(ProfileDb));
    for (const QString &db : { Db, ProfileDb }) {
        TestConnection c(conninfo(db));
        QVERIFY2(c.ok(), qPrintable(c.error()));
        PG_EXEC(c, u"CREATE TABLE t (id int PRIMARY KEY, v int)"_s);
        PG_EXEC(c, u"INSERT INTO t VALUES (1, 0)"_s);
    }
}

void TestPgWaits::cleanupTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    for (const QString &db : { Db, ProfileDb }) {
        QString error;
        if (!admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(db), &error))
            qWarning("cleanup failed: %s", qPrintable(error));
    }
}

void TestPgWaits::profileDeltas()
{
    const PgWaitKey lock { u"Lock"_s, u"transactionid"_s, 42 };
    const PgWaitKey io { u"IO"_s, u"DataFileRead"_s, 7 };
    PgWaitProfile profile;
    QCOMPARE(profile.update({ { lock, 100 }, { io, 5 } }), std::nullopt); // baselines
    auto deltas = profile.update({ { lock, 130 }, { io, 5 } });
    QVERIFY(deltas);
    QCOMPARE(deltas->value(lock), 30.0);
    QVERIFY(!deltas->contains(io)); // no new sample
    // io's count went down (a reset): nothing from it; a new key counts from 0.
    const PgWaitKey lwlock { u"LWLock"_s, u"BufferMapping"_s, 0 };
    deltas = profile.update({ { lock, 131 }, { io, 2 }, { lwlock, 4 } });
    QCOMPARE(deltas->value(lock), 1.0);
    QVERIFY(!deltas->contains(io));
    QCOMPARE(deltas->value(lwlock), 4.0);
}

void TestPgWaits::series()
{
    QHash<PgWaitKey, double> sessions;
    sessions[{ u"Lock"_s, u"transactionid"_s, 42 }] = 2.5;
    sessions[{ u"Lock"_s, u"tuple"_s, 42 }] = 0.5;
    sessions[{ u"CPU"_s, u"CPU"_s, 42 }] = 1;
    sessions[{ u"IO"_s, u"DataFileRead"_s, 0 }] = 0.25; // no statement known
    for (qint64 q = 100; q < 100 + PgWaitsPart::TopStatements + 2; ++q)
        sessions[{ u"IPC"_s, u"BgWorkerShutdown"_s, q }] = 0.01 * double(q - 99);
    SampleBatch batch;
    PgWaitsPart::publish(sessions, u"pg_wait_sampling"_s, 100, u"pg"_s, batch);
    QCOMPARE(value(batch, u"pg.waits.sessions"_s,
                   { { u"class"_s, u"Lock"_s }, { u"event"_s, u"transactionid"_s } }),
             2.5);
    QCOMPARE(value(batch, u"pg.waits.class_sessions"_s, { { u"class"_s, u"Lock"_s } }), 3.0);
    QCOMPARE(value(batch, u"pg.waits.class_sessions"_s, { { u"class"_s, u"CPU"_s } }), 1.0);
    // The contention classes are there at 0 before anything waits in them.
    QCOMPARE(value(batch, u"pg.waits.class_sessions"_s, { { u"class"_s, u"BufferPin"_s } }), 0.0);
    // Statement 42 waits most: its waits and its running time are named.
    QCOMPARE(value(batch, u"pg.waits.statement_sessions"_s,
                   { { u"queryid"_s, u"42"_s },
                     { u"class"_s, u"Lock"_s },
                     { u"event"_s, u"transactionid"_s } }),
             2.5);
    QCOMPARE(
        value(batch, u"pg.waits.statement_sessions"_s,
              { { u"queryid"_s, u"42"_s }, { u"class"_s, u"CPU"_s }, { u"event"_s, u"CPU"_s } }),
        1.0);
    // Of the 12 other statements, the 9 waiting most make the top 10 with 42.
    int statements = 0;
    for (const SeriesValue &v : std::as_const(batch.values))
        if (v.info.key.metric == "pg.waits.statement_sessions"_L1
            && v.info.key.labels.value(u"class"_s) == "IPC"_L1)
            ++statements;
    QCOMPARE(statements, PgWaitsPart::TopStatements - 1);
    QVERIFY(!find(batch, u"pg.waits.statement_sessions"_s, { { u"queryid"_s, u"100"_s } }));
    QCOMPARE(
        value(batch, u"pg.waits.samples_per_second"_s, { { u"method"_s, u"pg_wait_sampling"_s } }),
        100.0);
}

void TestPgWaits::shortLockWaitsSeen_data()
{
    QTest::addColumn<QString>("database");
    QTest::addColumn<QString>("method");
    QTest::newRow("pg_stat_activity sampler") << Db << u"pg_stat_activity"_s;
    QTest::newRow("pg_wait_sampling") << ProfileDb << u"pg_wait_sampling"_s;
}

void TestPgWaits::shortLockWaitsSeen()
{
    QFETCH(QString, database);
    QFETCH(QString, method);
    HEADROOM_REQUIRE_PG();
    TestConnection setup(conninfo(database));
    QVERIFY2(setup.ok(), qPrintable(setup.error()));
    if (method == "pg_wait_sampling"_L1) {
        const auto available = setup.exec(
            u"SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_wait_sampling'"_s);
        const auto loaded = setup.exec(u"SELECT current_setting('shared_preload_libraries')"_s);
        if (available != u"1"_s || !loaded.value_or(QString()).contains(u"pg_wait_sampling"_s))
            QSKIP("this server has no pg_wait_sampling preloaded (./dev installs it for 17)");
        PG_EXEC(setup, u"CREATE EXTENSION IF NOT EXISTS pg_wait_sampling"_s);
    }
    const auto collector = makeCollector({ { u"conninfo"_s, conninfo(database) },
                                           { u"statements"_s, false },
                                           { u"tables"_s, false },
                                           { u"probe"_s, false } });
    QVERIFY(collector);
    PollResult poll = collector->poll(QDeadlineTimer(5000)); // baselines; the sampler starts
    QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
    QThread::msleep(300);
    poll = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));

    TestConnection holder(conninfo(database));
    TestConnection waiter(conninfo(database));
    QVERIFY(holder.ok() && waiter.ok());
    constexpr int Repeats = 20;
    int seen = 0;
    int seenBySnapshot = 0;
    int statementNamed = 0;
    for (int i = 0; i < Repeats; ++i) {
        PG_EXEC(holder, u"BEGIN"_s);
        PG_EXEC(holder, u"UPDATE t SET v = v + 1 WHERE id = 1"_s);
        QVERIFY(waiter.send(u"UPDATE t SET v = v + 1 WHERE id = 1"_s));
        QThread::msleep(200);
        PG_EXEC(holder, u"COMMIT"_s);
        waiter.finish();
        QThread::msleep(100); // (the poll comes a while after the wait, as it may)
        poll = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        const auto lock = value(poll.batch, u"pg.waits.sessions"_s,
                                { { u"class"_s, u"Lock"_s }, { u"event"_s, u"transactionid"_s } });
        if (lock.value_or(0) > 0)
            ++seen;
        if (value(poll.batch, u"pg.activity.waiting"_s, { { u"wait"_s, u"Lock:transactionid"_s } })
                .value_or(0)
            > 0)
            ++seenBySnapshot;
        if (find(poll.batch, u"pg.waits.statement_sessions"_s, { { u"class"_s, u"Lock"_s } }))
            ++statementNamed;
    }
    qInfo("%s: a 200 ms lock wait seen in %d of %d polls after it (the statement named in %d); "
          "the poll's own pg_stat_activity snapshot saw it in %d",
          qPrintable(method), seen, Repeats, statementNamed, seenBySnapshot);
    QVERIFY2(seen >= Repeats * 9 / 10, qPrintable(QString::number(seen)));
    QVERIFY2(statementNamed >= Repeats * 9 / 10, qPrintable(QString::number(statementNamed)));
    QCOMPARE(value(poll.batch, u"pg.waits.samples_per_second"_s, { { u"method"_s, method } })
                 .has_value(),
             true);
    QVERIFY2(poll.notes.join(u' ').contains(method), qPrintable(poll.notes.join(u' ')));
}

QTEST_GUILESS_MAIN(TestPgWaits)
#include "tst_pgwaits.moc"
