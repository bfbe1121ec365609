// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A dashboard's own queries against the real test server: numeric columns become
// series labelled by the text columns; a write is refused by the server and the user is
// told why; a set_config() in a query does not outlive the poll; one failing query does
// not stop the next; statements that could end the read-only transaction are refused
// when the dashboard is opened.
#include "pgcustomqueries.h"
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QJsonArray>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString Database = u"headroom_queries"_s;

QJsonObject query(const QString &name, const QString &sql)
{
    return { { u"name"_s, name }, { u"sql"_s, sql } };
}

QJsonObject options(const QJsonArray &queries)
{
    return { { u"conninfo"_s, conninfo(Database) },
             { u"queries"_s, queries },
             { u"statements"_s, false },
             { u"tables"_s, false },
             { u"probe"_s, false } };
}

} // namespace

class TestPgCustomQueries : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refusedWhenOpened_data();
    void refusedWhenOpened();
    void probeScreenedToo();
    void labelledSeries();
    void writesRefusedByServer_data();
    void writesRefusedByServer();
    void settingsDoNotOutliveThePoll();
    void problemsAreNamed();
    void timeoutInsideTheTransaction();
    void cleanupTestCase();
};

void TestPgCustomQueries::initTestCase()
{
    HEADROOM_REQUIRE_PG();
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Database));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(Database));
    TestConnection setup(conninfo(Database));
    QVERIFY2(setup.ok(), qPrintable(setup.error()));
    PG_EXEC(setup, u"CREATE TABLE queue (name text, depth int, oldest_s float8)"_s);
    PG_EXEC(setup, u"INSERT INTO queue VALUES ('mail', 12, 3.5), ('billing', 0, NULL)"_s);
    PG_EXEC(setup, u"CREATE SEQUENCE ticket"_s);
    PG_EXEC(setup,
            u"CREATE FUNCTION sneaky_write() RETURNS int LANGUAGE sql AS"
            " $$ INSERT INTO queue VALUES ('sneaky', 1, 1) RETURNING 1 $$"_s);
}

void TestPgCustomQueries::cleanupTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Database));
}

void TestPgCustomQueries::refusedWhenOpened_data()
{
    QTest::addColumn<QJsonArray>("queries");
    QTest::addColumn<QString>("error");
    QTest::newRow("set") << QJsonArray { query(u"a"_s,
                                               u"SET default_transaction_read_only = off"_s) }
                         << u"queries[0].sql: SET statements are not run: dashboard queries "
                            "run in Headroom's read-only monitoring session"_s;
    QTest::newRow("commit") << QJsonArray { query(u"a"_s, u"select 1"_s),
                                            query(u"b"_s, u"  commit;"_s) }
                            << u"queries[1].sql: COMMIT statements are not run: dashboard "
                               "queries run in Headroom's read-only monitoring session"_s;
    QTest::newRow("commit behind comments")
        << QJsonArray { query(u"a"_s, u"-- looks harmless\n/* really */ commit"_s) }
        << u"queries[0].sql: COMMIT statements are not run: dashboard queries run in "
           "Headroom's read-only monitoring session"_s;
    QTest::newRow("insert") << QJsonArray { query(u"a"_s,
                                                  u"INSERT INTO queue VALUES ('x', 1, 1)"_s) }
                            << u"queries[0].sql: INSERT statements are not run: dashboard "
                               "queries run in Headroom's read-only monitoring session"_s;
    QTest::newRow("sequence")
        << QJsonArray { query(u"a"_s, u"SELECT nextval('ticket')"_s) }
        << u"queries[0].sql: calls nextval(), which advances a sequence; dashboard queries "
           "run in Headroom's read-only monitoring session and may only read"_s;
    QTest::newRow("set_config")
        << QJsonArray { query(u"a"_s, u"SELECT set_config('lock_timeout', '0', false)"_s) }
        << u"queries[0].sql: calls set_config(), which changes the session's settings; "
           "dashboard queries run in Headroom's read-only monitoring session and may only read"_s;
    QTest::newRow("bad name") << QJsonArray { query(u"Queue Depth"_s, u"select 1"_s) }
                              << u"queries[0].name: must be a name of lower-case letters, "
                                 "digits and _, got \"Queue Depth\""_s;
    QTest::newRow("twice") << QJsonArray { query(u"a"_s, u"select 1"_s),
                                           query(u"a"_s, u"select 2"_s) }
                           << u"queries[1].name: \"a\" is used twice"_s;
    QTest::newRow("no sql") << QJsonArray { QJsonObject { { u"name"_s, u"a"_s } } }
                            << u"queries[0].sql: is required"_s;
}

void TestPgCustomQueries::refusedWhenOpened()
{
    QFETCH(QJsonArray, queries);
    QFETCH(QString, error);
    QString actual;
    QVERIFY(!makeCollector(options(queries), 5000, &actual));
    QCOMPARE(actual, error);
}

void TestPgCustomQueries::probeScreenedToo()
{
    QJsonObject withProbe = options({});
    withProbe.insert(u"probe"_s,
                     QJsonObject { { u"sql"_s, u"set default_transaction_read_only = off"_s } });
    QString error;
    QVERIFY(!makeCollector(withProbe, 5000, &error));
    QCOMPARE(error,
             u"probe.sql: SET statements are not run: dashboard queries run in "
             "Headroom's read-only monitoring session"_s);
}

void TestPgCustomQueries::labelledSeries()
{
    const auto collector = makeCollector(
        options({ query(u"queue"_s, u"SELECT name, depth, oldest_s FROM queue ORDER BY name;"_s),
                  query(u"total"_s,
                        u"SELECT sum(depth)::int AS depth, count(*) > 1 AS many FROM queue"_s) }));
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings, QStringList());
    const Labels mail { { u"name"_s, u"mail"_s } };
    const Labels billing { { u"name"_s, u"billing"_s } };
    QCOMPARE(value(result.batch, u"pg.query.queue.depth"_s, mail), 12.0);
    QCOMPARE(value(result.batch, u"pg.query.queue.oldest_s"_s, mail), 3.5);
    QCOMPARE(value(result.batch, u"pg.query.queue.depth"_s, billing), 0.0);
    // NULL is no sample, not zero.
    QCOMPARE(value(result.batch, u"pg.query.queue.oldest_s"_s, billing), std::nullopt);
    QCOMPARE(value(result.batch, u"pg.query.total.depth"_s), 12.0);
    QCOMPARE(value(result.batch, u"pg.query.total.many"_s), 1.0); // bool as 0/1
    QCOMPARE(value(result.batch, u"pg.up"_s), 1.0);
}

void TestPgCustomQueries::writesRefusedByServer_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("reason");
    const QString refused = u"query \"writer\": refused: Headroom's session is read-only and a "
                            "dashboard query may not write ("_s;
    // As a sub-select, a data-modifying WITH does not even parse.
    QTest::newRow("cte")
        << u"WITH w AS (DELETE FROM queue RETURNING depth) SELECT count(*) FROM w"_s
        << u"query \"writer\": failed: "_s
        << u"WITH clause containing a data-modifying statement must be at the top level"_s;
    QTest::newRow("function") << u"SELECT sneaky_write()"_s << refused
                              << u"cannot execute INSERT in a read-only transaction"_s;
}

void TestPgCustomQueries::writesRefusedByServer()
{
    QFETCH(QString, sql);
    QFETCH(QString, prefix);
    QFETCH(QString, reason);
    const auto collector = makeCollector(options(
        { query(u"writer"_s, sql), query(u"after"_s, u"SELECT count(*) AS n FROM queue"_s) }));
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings.size(), 1);
    const QString warning = result.warnings.constFirst();
    QVERIFY2(warning.startsWith(prefix), qPrintable(warning));
    QVERIFY2(warning.contains(reason), qPrintable(warning));
    // The next query still ran, and nothing was written.
    QCOMPARE(value(result.batch, u"pg.query.after.n"_s), 2.0);
    TestConnection check(conninfo(Database));
    QCOMPARE(check.exec(u"SELECT count(*) FROM queue"_s), std::optional<QString>(u"2"_s));
    QCOMPARE(check.exec(u"SELECT last_value FROM ticket"_s), std::optional<QString>(u"1"_s));
    QCOMPARE(check.exec(u"SELECT is_called FROM ticket"_s), std::optional<QString>(u"f"_s));
}

void TestPgCustomQueries::settingsDoNotOutliveThePoll()
{
    // set_config() is refused when the file is opened (tst_pgsqlguard); what is left to
    // prove is that a poll leaves the session as it found it: read-only, no transaction.
    const auto collector = makeCollector(options(
        { query(u"seen"_s, u"SELECT current_setting('transaction_read_only') = 'on' AS ro"_s) }));
    QVERIFY(collector);
    const PollResult first = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    QCOMPARE(value(first.batch, u"pg.query.seen.ro"_s), 1.0);
    QVERIFY(!collector->connection().inTransaction());
    const PgResult after = collector->connection().exec(
        "SELECT current_setting('lock_timeout'), current_setting('default_transaction_read_only')",
        {}, QDeadlineTimer(2000));
    QVERIFY2(after.ok(), qPrintable(after.error()));
    QCOMPARE(after.text(0, 0), u"100ms"_s);
    QCOMPARE(after.text(0, 1), u"on"_s);
    const PollResult second = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
}

void TestPgCustomQueries::problemsAreNamed()
{
    const auto collector = makeCollector(options(
        { query(u"typo"_s, u"SELECT depht FROM queue"_s),
          query(u"texts"_s, u"SELECT name FROM queue"_s),
          query(u"dupes"_s, u"SELECT 'same' AS k, depth FROM queue"_s),
          query(u"twins"_s, u"SELECT count(*), count(*) FILTER (WHERE depth > 0) FROM queue"_s) }));
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings.size(), 4);
    QVERIFY2(result.warnings.at(0).startsWith(u"query \"typo\": failed: "_s)
                 && result.warnings.at(0).contains(u"depht"_s),
             qPrintable(result.warnings.at(0)));
    QCOMPARE(result.warnings.at(1),
             u"query \"texts\": no numeric column, so no series (text columns are labels)"_s);
    QCOMPARE(result.warnings.at(2),
             u"query \"dupes\": 1 rows repeat the text columns of an earlier row and were "
             "ignored; make the text columns unique"_s);
    QVERIFY(value(result.batch, u"pg.query.dupes.depth"_s, { { u"k"_s, u"same"_s } }));
    QCOMPARE(
        result.warnings.at(3),
        u"query \"twins\": two columns are named \"count\"; give them distinct names with AS"_s);
    QVERIFY(!value(result.batch, u"pg.query.twins.count"_s));
}

void TestPgCustomQueries::timeoutInsideTheTransaction()
{
    // A query that outlives the poll is cancelled inside the read-only transaction,
    // which the cancel aborts; the next poll must not inherit that aborted block.
    QJsonObject slow
        = options({ query(u"slow"_s,
                          u"SELECT 1 AS one FROM pg_sleep(CASE WHEN"
                          " current_setting('application_name') = 'headroom'"
                          " AND (SELECT count(*) FROM queue) = 2 THEN 3 ELSE 0 END)"_s),
                    query(u"depth"_s, u"SELECT sum(depth)::int AS total FROM queue"_s) });
    slow.insert(u"statementTimeoutMs"_s, 60'000);
    const auto collector = makeCollector(slow, 1000);
    QVERIFY(collector);
    const PollResult cut = collector->poll(QDeadlineTimer(1000));
    QVERIFY2(cut.error.contains(u"query \"slow\""_s), qPrintable(cut.error));
    {
        // Make the slow query quick from now on.
        TestConnection change(conninfo(Database));
        PG_EXEC(change, u"INSERT INTO queue VALUES ('later', 0, NULL)"_s);
    }
    QThread::msleep(1200); // outlast a reconnect backoff, should the cancel have failed
    const PollResult next = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(next.error.isEmpty(), qPrintable(next.error));
    QCOMPARE(next.warnings, QStringList());
    QCOMPARE(value(next.batch, u"pg.query.slow.one"_s), 1.0);
    QCOMPARE(value(next.batch, u"pg.query.depth.total"_s), 12.0);
    QVERIFY(!collector->connection().inTransaction());
    TestConnection cleanup(conninfo(Database));
    PG_EXEC(cleanup, u"DELETE FROM queue WHERE name = 'later'"_s);
}

QTEST_GUILESS_MAIN(TestPgCustomQueries)
#include "tst_pgcustomqueries.moc"
