// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Who blocks whom: the tree built from pg_blocking_pids() rows (data-driven, no
// server), the normalized statement text a root is named by, and a three-level chain
// of real sessions: the collector names the root's pid, application and query.
#include "pgblocking.h"
#include "pgstatementtext.h"
#include "pgtestutil.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QMap>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

PgLockSession session(int pid, QList<int> blockedBy, const QString &application = QString())
{
    PgLockSession s;
    s.pid = pid;
    s.blockedBy = std::move(blockedBy);
    s.application = application;
    return s;
}

// "pid:direct/all" per root, in the tree's order.
QString describe(const PgBlockingTree &tree)
{
    QStringList roots;
    for (const PgRootBlocker &r : tree.roots)
        roots << u"%1:%2/%3"_s.arg(r.session.pid).arg(r.blockedDirectly).arg(r.blockedInAll);
    return roots.join(u' ');
}

const Labels *rootLabels(const SampleBatch &batch)
{
    for (const SeriesValue &v : batch.values)
        if (v.info.key.metric == "pg.locks.root_blocked"_L1)
            return &v.info.key.labels;
    return nullptr;
}

} // namespace

class TestPgBlocking : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tree_data();
    void tree();
    void pidArray_data();
    void pidArray();
    void normalize_data();
    void normalize();
    void series();
    void threeLevelChain();
};

void TestPgBlocking::tree_data()
{
    QTest::addColumn<QList<PgLockSession>>("sessions");
    QTest::addColumn<int>("blocked");
    QTest::addColumn<QString>("roots");
    QTest::newRow("nobody waits") << QList<PgLockSession> { session(1, {}) } << 0 << QString();
    // 10 holds a row; 20 waits on it holding another, which 30 waits on.
    QTest::newRow("three levels") << QList<PgLockSession> { session(30, { 20 }), session(10, {}),
                                                            session(20, { 10 }) }
                                  << 2 << u"10:1/2"_s;
    QTest::newRow("five writers behind one DELETE")
        << QList<PgLockSession> { session(1, {}),    session(2, { 1 }),    session(3, { 1 }),
                                  session(4, { 1 }), session(5, { 1, 4 }), session(6, { 1, 5 }) }
        << 5 << u"1:5/5"_s;
    QTest::newRow("two roots, the larger first")
        << QList<PgLockSession> { session(7, {}),    session(8, { 7 }), session(3, {}),
                                  session(4, { 3 }), session(5, { 4 }), session(6, { 4 }) }
        << 4 << u"3:1/3 7:1/1"_s;
    QTest::newRow("a session behind two roots counts under both")
        << QList<PgLockSession> { session(1, {}), session(2, {}), session(3, { 1, 2 }) } << 1
        << u"1:1/1 2:1/1"_s;
    // A deadlock the server has not broken yet: blocked, but no root to name.
    QTest::newRow("cycle") << QList<PgLockSession> { session(1, { 2 }), session(2, { 1 }) } << 2
                           << QString();
    // The blocker ended between pg_blocking_pids() and the read of its row.
    QTest::newRow("blocker gone") << QList<PgLockSession> { session(2, { 1 }) } << 1 << QString();
}

void TestPgBlocking::tree()
{
    QFETCH(QList<PgLockSession>, sessions);
    QFETCH(int, blocked);
    QFETCH(QString, roots);
    const PgBlockingTree tree = buildBlockingTree(sessions);
    QCOMPARE(tree.blocked, blocked);
    QCOMPARE(describe(tree), roots);
}

void TestPgBlocking::pidArray_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("pids");
    QTest::newRow("empty") << u"{}"_s << QList<int> {};
    QTest::newRow("one") << u"{123}"_s << QList<int> { 123 };
    QTest::newRow("two, spaces") << u" {12, 345} "_s << QList<int> { 12, 345 };
    QTest::newRow("repeated") << u"{5,5}"_s << QList<int> { 5 };
    QTest::newRow("garbage") << u"{a,-1,0,7}"_s << QList<int> { 7 };
    QTest::newRow("not an array") << u"123"_s << QList<int> {};
    QTest::newRow("null") << QString() << QList<int> {};
}

void TestPgBlocking::pidArray()
{
    QFETCH(QString, text);
    QFETCH(QList<int>, pids);
    QCOMPARE(parsePidArray(text), pids);
}

void TestPgBlocking::normalize_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("constants") << u"DELETE FROM accounts WHERE id BETWEEN 1 AND 1000"_s
                               << u"DELETE FROM accounts WHERE id BETWEEN $1 AND $2"_s;
    QTest::newRow("strings, white space")
        << u"UPDATE t\n   SET name = 'O''Brien',  v = 2.5e3\nWHERE id = 7"_s
        << u"UPDATE t SET name = $1, v = $2 WHERE id = $3"_s;
    QTest::newRow("after existing parameters")
        << u"SELECT $2, 'x' FROM t WHERE a = $1"_s << u"SELECT $2, $3 FROM t WHERE a = $1"_s;
    QTest::newRow("a secret") << u"ALTER ROLE app PASSWORD 'hunter2'"_s
                              << u"ALTER ROLE app PASSWORD $1"_s;
    QTest::newRow("dollar quoted") << u"SELECT $tag$a;b$tag$ || E'\\x'"_s << u"SELECT $1 || $2"_s;
    QTest::newRow("names with digits stay")
        << u"SELECT t1.c2 FROM t1"_s << u"SELECT t1.c2 FROM t1"_s;
    QTest::newRow("cut inside a literal") << u"SELECT 'abc"_s << u"SELECT…"_s;
    QTest::newRow("comments") << u"/* token=t0k */ SELECT a -- key=k3y\nFROM/**/t"_s
                              << u"SELECT a FROM t"_s;
    QTest::newRow("long") << u"SELECT "_s + QString(300, u'x')
                          << u"SELECT "_s + QString(192, u'x') + u"…"_s;
}

void TestPgBlocking::normalize()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(normalizeStatementText(text), expected);
    QVERIFY(normalizeStatementText(text).size() <= 200);
}

void TestPgBlocking::series()
{
    PgBlockingTree tree = buildBlockingTree(
        { session(10, {}, u"nightly"_s), session(20, { 10 }), session(30, { 20 }) });
    tree.roots[0].session.user = u"maint"_s;
    tree.roots[0].session.xactAgeS = 42;
    tree.roots[0].session.query = u"DELETE FROM accounts WHERE id < 1000"_s;
    SampleBatch batch;
    PgBlockingPart::publish(tree, u"pg"_s, batch);
    QCOMPARE(value(batch, u"pg.locks.blocked"_s), 2.0);
    QCOMPARE(value(batch, u"pg.locks.root_blockers"_s), 1.0);
    const Labels root { { u"pid"_s, u"10"_s },
                        { u"application"_s, u"nightly"_s },
                        { u"user"_s, u"maint"_s },
                        { u"query"_s, u"DELETE FROM accounts WHERE id < $1"_s } };
    QCOMPARE(value(batch, u"pg.locks.root_blocked"_s, root), 2.0);
    QCOMPARE(value(batch, u"pg.locks.root_blocked_direct"_s, root), 1.0);
    QCOMPARE(value(batch, u"pg.locks.root_xact_age_s"_s, root), 42.0);
    const auto meta = info(batch, u"pg.locks.root_blocked"_s, root);
    QVERIFY(meta);
    QCOMPARE(meta->unit, u"sessions"_s);
    QCOMPARE(meta->resource, u"pg"_s);
    QCOMPARE(meta->kind, UseKind::Saturation);

    // Nobody blocked: the counts are 0 and no root has a series.
    SampleBatch quiet;
    PgBlockingPart::publish(buildBlockingTree({}), u"pg"_s, quiet);
    QCOMPARE(value(quiet, u"pg.locks.blocked"_s), 0.0);
    QCOMPARE(value(quiet, u"pg.locks.root_blockers"_s), 0.0);
    QCOMPARE(quiet.values.size(), 2);
}

// The root holds row 1 in an open transaction; the middle session holds row 2 and
// waits for row 1; the leaf waits for row 2.
void TestPgBlocking::threeLevelChain()
{
    HEADROOM_REQUIRE_PG();
    {
        TestConnection admin(conninfo());
        QVERIFY2(admin.ok(), qPrintable(admin.error()));
        PG_EXEC(admin, u"DROP DATABASE IF EXISTS headroom_blocking WITH (FORCE)"_s);
        PG_EXEC(admin, u"CREATE DATABASE headroom_blocking"_s);
    }
    const QString db = u"headroom_blocking"_s;
    TestConnection setup(conninfo(db));
    QVERIFY2(setup.ok(), qPrintable(setup.error()));
    PG_EXEC(setup, u"CREATE TABLE t (id int PRIMARY KEY, v int)"_s);
    PG_EXEC(setup, u"INSERT INTO t VALUES (1, 0), (2, 0)"_s);

    TestConnection root(conninfo(db) + u" application_name=hr_root"_s);
    TestConnection middle(conninfo(db) + u" application_name=hr_middle"_s);
    TestConnection leaf(conninfo(db) + u" application_name=hr_leaf"_s);
    QVERIFY(root.ok() && middle.ok() && leaf.ok());
    const QString rootPid = root.exec(u"SELECT pg_backend_pid()"_s).value_or(QString());
    PG_EXEC(root, u"BEGIN"_s);
    PG_EXEC(root, u"UPDATE t SET v = 11 WHERE id = 1"_s);
    PG_EXEC(middle, u"BEGIN"_s);
    PG_EXEC(middle, u"UPDATE t SET v = 22 WHERE id = 2"_s);
    QVERIFY(middle.send(u"UPDATE t SET v = 23 WHERE id = 1"_s));
    QVERIFY(leaf.send(u"UPDATE t SET v = 33 WHERE id = 2"_s));

    const auto collector
        = makeCollector({ { u"conninfo"_s, conninfo(db) }, { u"databases"_s, QJsonArray { db } } });
    QVERIFY(collector);
    PollResult poll;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 10'000) {
        poll = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        if (value(poll.batch, u"pg.locks.blocked"_s).value_or(0) >= 2)
            break;
        QThread::msleep(100);
    }
    QCOMPARE(value(poll.batch, u"pg.locks.blocked"_s), 2.0);
    QCOMPARE(value(poll.batch, u"pg.locks.root_blockers"_s), 1.0);
    const Labels *labels = rootLabels(poll.batch);
    QVERIFY(labels);
    QCOMPARE(labels->value(u"pid"_s), rootPid);
    QCOMPARE(labels->value(u"application"_s), u"hr_root"_s);
    QCOMPARE(labels->value(u"user"_s), u"postgres"_s);
    // Idle in its transaction, the root shows its last statement, without its values.
    QCOMPARE(labels->value(u"query"_s), u"UPDATE t SET v = $1 WHERE id = $2"_s);
    QVERIFY(!labels->contains(u"client"_s)); // a Unix socket
    QCOMPARE(value(poll.batch, u"pg.locks.root_blocked"_s, *labels), 2.0);
    QCOMPARE(value(poll.batch, u"pg.locks.root_blocked_direct"_s, *labels), 1.0);
    QVERIFY(value(poll.batch, u"pg.locks.root_xact_age_s"_s, *labels).value_or(-1) > 0);
    // The tree's nodes: each session with the one it waits on.
    QMap<QString, Labels> nodes; // application -> labels
    for (const SeriesValue &v : std::as_const(poll.batch.values))
        if (v.info.key.metric == "pg.locks.session_xact_age_s"_L1)
            nodes.insert(v.info.key.labels.value(u"application"_s), v.info.key.labels);
    QCOMPARE(nodes.keys(), (QStringList { u"hr_leaf"_s, u"hr_middle"_s, u"hr_root"_s }));
    QVERIFY(!nodes[u"hr_root"_s].contains(u"blocked_by"_s));
    QCOMPARE(nodes[u"hr_root"_s].value(u"state"_s), u"idle in transaction"_s);
    QCOMPARE(nodes[u"hr_middle"_s].value(u"blocked_by"_s), rootPid);
    QCOMPARE(nodes[u"hr_middle"_s].value(u"wait"_s), u"Lock:transactionid"_s);
    QCOMPARE(nodes[u"hr_leaf"_s].value(u"blocked_by"_s), nodes[u"hr_middle"_s].value(u"pid"_s));
    QCOMPARE(nodes[u"hr_leaf"_s].value(u"query"_s), u"UPDATE t SET v = $1 WHERE id = $2"_s);
    qInfo("root %s (hr_root) named, blocking 2 sessions, %lld ms after the waits began",
          qPrintable(rootPid), clock.elapsed());

    // The root ends: the waits resolve and no root is named.
    PG_EXEC(root, u"ROLLBACK"_s);
    middle.finish();
    PG_EXEC(middle, u"ROLLBACK"_s);
    leaf.finish();
    const PollResult after = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    QCOMPARE(value(after.batch, u"pg.locks.blocked"_s), 0.0);
    QCOMPARE(value(after.batch, u"pg.locks.root_blockers"_s), 0.0);
    QVERIFY(!rootLabels(after.batch));
    for (const SeriesValue &v : after.batch.values)
        QVERIFY(v.info.key.metric != "pg.locks.session_xact_age_s"_L1);
}

QTEST_GUILESS_MAIN(TestPgBlocking)
#include "tst_pgblocking.moc"
