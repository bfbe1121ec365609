// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Connections as a USE resource. Without a server: the series of a known snapshot (the
// slots less the reserved ones, utilization capped at 100, states kept at 0 once seen,
// the holders), and the verbose connection error's SQLSTATE. Against the small test
// server (12 slots, 2 reserved for superusers; tests/pg-replication-servers): an
// application ("hrleak", role leaky) fills the slots, the collector (an ordinary role
// with pg_monitor) reads 100 % and names it; once the reserved slots are taken too and
// its session is ended, its reconnect is refused ("too many clients already", 53300),
// which it publishes as pg.connections.refused = 1 although the poll failed; with a
// reserved slot left the refusal reads "reserved" and counts alike; with the slots
// freed it connects again and the refusal reads 0.
#include "pgconnections.h"
#include "pgtestutil.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <memory>
#include <vector>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const SeriesValue *find(const SampleBatch &batch, const QString &metric, const Labels &labels = {})
{
    for (const SeriesValue &v : batch.values)
        if (v.info.key.metric == metric && v.info.key.labels == labels)
            return &v;
    return nullptr;
}

// Opens sessions until `count` are open or the server refuses one; the open ones.
std::vector<std::unique_ptr<TestConnection>> openSessions(const QString &info, int count)
{
    std::vector<std::unique_ptr<TestConnection>> sessions;
    for (int i = 0; i < count; ++i) {
        auto session = std::make_unique<TestConnection>(info);
        if (!session->ok())
            break;
        sessions.push_back(std::move(session));
    }
    return sessions;
}

} // namespace

class TestPgConnections : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void publishesSlotsAndHolders();
    void verboseErrorGivesTheSqlState_data();
    void verboseErrorGivesTheSqlState();
    void filledSlotsAndARefusedConnection();
};

void TestPgConnections::publishesSlotsAndHolders()
{
    PgConnectionsSnapshot s;
    s.maxConnections = 100;
    s.superuserReserved = 3;
    s.reserved = 2; // 95 slots for ordinary roles
    s.byState = { { u"active"_s, 10 }, { u"idle"_s, 66 }, { QString(), 0 } };
    s.byApplication = { { u"erp"_s, 70 }, { QString(), 6 } };
    s.byUser = { { u"app"_s, 76 } };
    QSet<QString> seen;
    SampleBatch batch;
    PgConnectionsPart::publish(s, &seen, u"pg"_s, batch);
    const SeriesValue *utilization = find(batch, u"pg.connections.utilization"_s);
    QVERIFY(utilization);
    QCOMPARE(utilization->value, 80.0); // 76 of 95
    QCOMPARE(utilization->info.kind, UseKind::Utilization);
    QCOMPARE(utilization->info.resource, u"connections"_s);
    QCOMPARE(find(batch, u"pg.connections.used"_s)->value, 76.0);
    QCOMPARE(find(batch, u"pg.connections.available"_s)->value, 95.0);
    QCOMPARE(find(batch, u"pg.connections.max"_s)->value, 100.0);
    QCOMPARE(find(batch, u"pg.connections.by_state"_s, { { u"state"_s, u"idle"_s } })->value, 66.0);
    QCOMPARE(
        find(batch, u"pg.connections.by_application"_s, { { u"application"_s, u"erp"_s } })->value,
        70.0);
    QVERIFY(find(batch, u"pg.connections.by_application"_s, { { u"application"_s, QString() } }));
    QCOMPARE(find(batch, u"pg.connections.by_user"_s, { { u"user"_s, u"app"_s } })->value, 76.0);

    // A state seen before reads 0, not nothing; superusers in their reserved slots do
    // not take utilization past 100.
    s.byState = { { u"active"_s, 99 } };
    batch = {};
    PgConnectionsPart::publish(s, &seen, u"pg"_s, batch);
    QCOMPARE(find(batch, u"pg.connections.by_state"_s, { { u"state"_s, u"idle"_s } })->value, 0.0);
    QCOMPARE(find(batch, u"pg.connections.utilization"_s)->value, 100.0);

    batch = {};
    PgConnectionsPart::publishRefused(true, u"pg"_s, batch);
    const SeriesValue *refused = find(batch, u"pg.connections.refused"_s);
    QVERIFY(refused);
    QCOMPARE(refused->value, 1.0);
    QCOMPARE(refused->info.kind, UseKind::Errors);
    QCOMPARE(refused->info.resource, u"connections"_s);
}

void TestPgConnections::verboseErrorGivesTheSqlState_data()
{
    QTest::addColumn<QString>("verbose");
    QTest::addColumn<QByteArray>("state");
    QTest::addColumn<QString>("message");
    // As libpq 17 words them with PQERRORS_VERBOSE (captured from the test servers).
    QTest::newRow("too many clients")
        << u"connection to server on socket \"/tmp/x/.s.PGSQL.54330\" failed: FATAL:  53300: "
           "sorry, too many clients already\nLOCATION:  InitProcess, proc.c:355\n"_s
        << QByteArray("53300")
        << u"connection to server on socket \"/tmp/x/.s.PGSQL.54330\" failed: FATAL: sorry, too "
           "many clients already"_s;
    QTest::newRow("reserved")
        << u"connection to server on socket \"/tmp/x/.s.PGSQL.54330\" failed: FATAL:  53300: "
           "remaining connection slots are reserved for roles with the SUPERUSER attribute\n"
           "LOCATION:  InitPostgres, postinit.c:960\n"_s
        << QByteArray("53300")
        << u"connection to server on socket \"/tmp/x/.s.PGSQL.54330\" failed: FATAL: remaining "
           "connection slots are reserved for roles with the SUPERUSER attribute"_s;
    QTest::newRow("translated")
        << u"Verbindung fehlgeschlagen: FATAL:  28000: kein pg_hba.conf-Eintrag\n"
           "ORT:  ClientAuthentication, auth.c:539\n"_s
        << QByteArray("28000") << u"Verbindung fehlgeschlagen: FATAL: kein pg_hba.conf-Eintrag"_s;
    QTest::newRow("no server answer")
        << u"connection to server at \"10.0.0.1\", port 5432 failed: Connection refused\n\tIs the "
           "server running on that host and accepting TCP/IP connections?\n"_s
        << QByteArray()
        << u"connection to server at \"10.0.0.1\", port 5432 failed: Connection refused Is the "
           "server running on that host and accepting TCP/IP connections?"_s;
}

void TestPgConnections::verboseErrorGivesTheSqlState()
{
    QFETCH(QString, verbose);
    QFETCH(QByteArray, state);
    QFETCH(QString, message);
    const PgConnectFailure failure = parseVerboseConnectError(verbose);
    QCOMPARE(failure.sqlState, state);
    QCOMPARE(failure.message, message);
}

void TestPgConnections::filledSlotsAndARefusedConnection()
{
    HEADROOM_REQUIRE_PG_SERVER("SMALL");
    TestConnection admin(conninfoOf("SMALL"));
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    // Ordinary roles: the collector's (pg_monitor, so it sees every session) and the
    // leaking application's. Left in place: the server is the tests' own.
    PG_EXEC(admin,
            u"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = "
            "'headroom_monitor') THEN CREATE ROLE headroom_monitor LOGIN IN ROLE "
            "pg_monitor; END IF; IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = "
            "'leaky') THEN CREATE ROLE leaky LOGIN; END IF; END $$"_s);
    // Nobody else: sessions a test before us left behind would skew the counts.
    PG_EXEC(admin,
            u"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = "
            "'client backend' AND pid <> pg_backend_pid()"_s);
    QTRY_COMPARE_WITH_TIMEOUT(
        admin.exec(u"SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"_s)
            .value_or(QString()),
        u"1"_s, 5000);
    const int maxConnections = admin.exec(u"SHOW max_connections"_s).value_or(u"0"_s).toInt();
    const int reservedForSuperusers
        = admin.exec(u"SHOW superuser_reserved_connections"_s).value_or(u"0"_s).toInt();
    const int available = maxConnections - reservedForSuperusers;
    QVERIFY2(available > 2 && maxConnections <= 40,
             qPrintable(u"max_connections %1"_s.arg(maxConnections)));

    QString error;
    auto collector = makeCollector(
        QJsonObject { { u"conninfo"_s, conninfoOf("SMALL", u"postgres"_s, u"headroom_monitor"_s) },
                      { u"statements"_s, false },
                      { u"tables"_s, false },
                      { u"waitSamplesPerSecond"_s, 0 } },
        5000, &error);
    QVERIFY2(collector, qPrintable(error));
    PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    // Ours and the admin's: 2 of the ordinary slots.
    QCOMPARE(value(result.batch, u"pg.connections.used"_s), 2.0);
    QCOMPARE(value(result.batch, u"pg.connections.available"_s), double(available));
    QCOMPARE(value(result.batch, u"pg.connections.max"_s), double(maxConnections));
    QCOMPARE(value(result.batch, u"pg.connections.utilization"_s), 200.0 / available);
    QCOMPARE(value(result.batch, u"pg.connections.refused"_s), 0.0);

    // The leak takes every ordinary slot left.
    const QString leakInfo
        = conninfoOf("SMALL", u"postgres"_s, u"leaky"_s) + u" application_name=hrleak"_s;
    auto leaks = openSessions(leakInfo, available - 2);
    QCOMPARE(int(leaks.size()), available - 2);
    {
        TestConnection refused(leakInfo);
        QVERIFY(!refused.ok()); // the server is full for ordinary roles
        QVERIFY2(refused.error().contains(u"reserved"_s), qPrintable(refused.error()));
    }
    result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(value(result.batch, u"pg.connections.utilization"_s), 100.0);
    QCOMPARE(value(result.batch, u"pg.connections.used"_s), double(available));
    QCOMPARE(value(result.batch, u"pg.connections.by_application"_s,
                   { { u"application"_s, u"hrleak"_s } }),
             double(available - 2));
    QCOMPARE(value(result.batch, u"pg.connections.by_user"_s, { { u"user"_s, u"leaky"_s } }),
             double(available - 2));
    // The leak's and the admin's sessions are idle; ours runs the query.
    QCOMPARE(value(result.batch, u"pg.connections.by_state"_s, { { u"state"_s, u"idle"_s } }),
             double(available - 1));
    QCOMPARE(value(result.batch, u"pg.connections.by_state"_s, { { u"state"_s, u"active"_s } }),
             1.0);

    // Our session ended and its slot taken by the leak, superusers take the reserved
    // slots but one: the reconnect is refused for the slot kept for superusers, 53300.
    const int ourPid = collector->connection().backendPid();
    QVERIFY(ourPid > 0);
    PG_EXEC(admin, u"SELECT pg_terminate_backend(%1, 5000)"_s.arg(ourPid));
    leaks.push_back(std::make_unique<TestConnection>(leakInfo));
    QVERIFY2(leaks.back()->ok(), qPrintable(leaks.back()->error()));
    auto superusers = openSessions(conninfoOf("SMALL"), reservedForSuperusers - 1);
    QCOMPARE(int(superusers.size()), reservedForSuperusers - 1);
    const auto pollUntilRefused = [&](const QString &expected) {
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 15'000) {
            result = collector->poll(QDeadlineTimer(5000));
            // While it backs off, the poll repeats the last attempt's error.
            if (value(result.failed, PgConnectionsPart::RefusedMetric) == 1.0
                && result.error.contains(expected))
                break;
            QThread::msleep(200);
        }
        const auto refused = value(result.failed, PgConnectionsPart::RefusedMetric);
        QVERIFY2(refused == 1.0, qPrintable(result.error));
        QVERIFY2(result.error.contains(expected), qPrintable(result.error));
        QVERIFY(!result.error.contains(u"53300"_s)); // as the default verbosity words it
        QVERIFY(!result.error.contains(u"LOCATION"_s));
        const SeriesValue *v = find(result.failed, PgConnectionsPart::RefusedMetric);
        QCOMPARE(v->info.kind, UseKind::Errors);
        QCOMPARE(v->info.resource, u"connections"_s);
        QCOMPARE(result.failed.source, u"pg:test"_s);
        QVERIFY(result.failed.tsMs > 0);
    };
    pollUntilRefused(u"reserved"_s);
    if (QTest::currentTestFailed())
        return;
    // Every slot taken: "too many clients already", which counts the same.
    superusers.push_back(std::make_unique<TestConnection>(conninfoOf("SMALL")));
    QVERIFY2(superusers.back()->ok(), qPrintable(superusers.back()->error()));
    {
        TestConnection full(conninfoOf("SMALL"));
        QVERIFY(!full.ok());
        QVERIFY2(full.error().contains(u"too many clients"_s), qPrintable(full.error()));
    }
    pollUntilRefused(u"too many clients"_s);
    if (QTest::currentTestFailed())
        return;

    // The slots freed, it connects again (after its backoff) and reads no refusal.
    leaks.clear();
    superusers.clear();
    QElapsedTimer waited;
    waited.start();
    do {
        QThread::msleep(250);
        result = collector->poll(QDeadlineTimer(5000));
    } while (!result.error.isEmpty() && waited.elapsed() < 20'000);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(value(result.batch, PgConnectionsPart::RefusedMetric), 0.0);
    QVERIFY(*value(result.batch, u"pg.connections.utilization"_s) < 50);
    QVERIFY(result.failed.isEmpty());
}

QTEST_GUILESS_MAIN(TestPgConnections)
#include "tst_pgconnections.moc"
