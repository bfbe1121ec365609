// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Dashboard files are untrusted input. Each attack below is opened as a dashboard
// against the real test server (17, and 15 as the _pg15 variant) and must be
// harmless: no row changed, no session left writable, no file written by the server,
// no advisory lock, no statistics reset, no password sent, each refusal named in the
// source status; through the headless path an untrusted file exits non-zero without
// --trust and is still harmless with it; the GUI does not connect before the user
// trusts the file.
#include "collector/collectorregistry.h"
#include "core/environmentsecrets.h"
#include "document/dashboardfile.h"
#include "document/dashboardtrust.h"
#include "engine/monitoringsession.h"
#include "fakepgserver.h"
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString Database = u"headroom_hostile"_s;
const QByteArray EnvPassword = "env-secret";
const QByteArray PgpassPassword = "pgpass-secret";

QJsonObject sourceOptions(const QJsonObject &extra)
{
    QJsonObject options { { u"conninfo"_s, conninfo(Database) },
                          { u"statements"_s, false },
                          { u"tables"_s, false },
                          { u"probe"_s, false } };
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        options.insert(it.key(), it.value());
    return options;
}

QJsonObject queries(const QStringList &sql)
{
    QJsonArray list;
    for (qsizetype i = 0; i < sql.size(); ++i)
        list.append(QJsonObject { { u"name"_s, u"q%1"_s.arg(i) }, { u"sql"_s, sql.at(i) } });
    return { { u"queries"_s, list } };
}

// A dashboard file as a colleague would mail it: one postgres source, one panel.
QByteArray dashboardJson(const QJsonObject &options)
{
    const QJsonObject source { { u"id"_s, u"pg"_s },
                               { u"plugin"_s, u"postgres"_s },
                               { u"intervalMs"_s, 500 },
                               { u"timeoutMs"_s, 3000 },
                               { u"config"_s, options } };
    const QJsonObject panel {
        { u"id"_s, u"p"_s },
        { u"type"_s, u"timeseries"_s },
        { u"title"_s, u"up"_s },
        { u"series"_s,
          QJsonArray { QJsonObject { { u"source"_s, u"pg"_s }, { u"metric"_s, u"pg.up"_s } } } },
        { u"layout"_s, QJsonObject { { u"x"_s, 0 }, { u"y"_s, 0 }, { u"w"_s, 6 }, { u"h"_s, 4 } } }
    };
    const QJsonObject root { { u"schemaVersion"_s, 2 },
                             { u"title"_s, u"shared by a colleague"_s },
                             { u"sources"_s, QJsonArray { source } },
                             { u"panels"_s, QJsonArray { panel } } };
    return QJsonDocument(root).toJson();
}

// What a client that knows `password` answers an md5 request of FakePgServer.
QByteArray md5Answer(const QByteArray &password, const QByteArray &user)
{
    const auto md5Hex = [](const QByteArray &data) {
        return QCryptographicHash::hash(data, QCryptographicHash::Md5).toHex();
    };
    return "md5"
        + md5Hex(md5Hex(password + user)
                 + QByteArray(FakePgServer::Md5Salt, sizeof FakePgServer::Md5Salt));
}

struct Run
{
    int exitCode = -1;
    QString output;
};

} // namespace

class TestHostileDashboard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void refusedOnOpen_data();
    void refusedOnOpen();
    void refusedByTheServer_data();
    void refusedByTheServer();
    void passwordNeverSentByTheCollector();
    void md5NeverAnsweredForAFile();
    void fileTargetsOfTrustServersConnect_data();
    void fileTargetsOfTrustServersConnect();
    void hostaddrNeverConnects();
    void headlessRefusesUntrusted();
    void headlessWithTrustStillHarmless();
    void headlessSendsNoPassword();
    void headlessAnswersNoMd5();
    void guiWaitsForTrust();
    void statementSecretsNeverBecomeLabels();
    void cleanupTestCase();

private:
    void verifyNothingChanged();
    QString writeDashboard(const QString &name, const QJsonObject &options);
    Run runHeadroom(const QStringList &args, const QProcessEnvironment &env, int timeoutMs = 60000);
    QProcessEnvironment childEnvironment() const;

    QTemporaryDir m_dir;
    QString m_pgpass;
    QString m_statsReset;
    QString m_pwnedFile;
    int m_victimPid = 0;
    std::unique_ptr<TestConnection> m_victim; // a session an attack would terminate
};

void TestHostileDashboard::initTestCase()
{
    HEADROOM_REQUIRE_PG();
    QVERIFY(m_dir.isValid());
    // The user's own secrets, as a victim of a hostile dashboard would have them.
    qputenv("PGPASSWORD", EnvPassword);
    m_pgpass = m_dir.filePath(u"pgpass"_s);
    QFile pgpass(m_pgpass);
    QVERIFY(pgpass.open(QIODevice::WriteOnly));
    pgpass.write("prod-db.corp:*:*:*:prod-secret\n*:*:*:*:" + PgpassPassword + "\n");
    pgpass.close();
    QVERIFY(QFile::setPermissions(m_pgpass, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    qputenv("PGPASSFILE", m_pgpass.toUtf8());
    QCOMPARE(environmentPgPassword(), EnvPassword);
    QVERIFY(qEnvironmentVariableIsEmpty("PGPASSWORD")); // taken out of the environment

    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Database));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(Database));
    TestConnection setup(conninfo(Database));
    QVERIFY2(setup.ok(), qPrintable(setup.error()));
    PG_EXEC(setup, u"CREATE TABLE victim (id int)"_s);
    PG_EXEC(setup, u"INSERT INTO victim SELECT generate_series(1, 3)"_s);
    PG_EXEC(setup,
            u"CREATE FUNCTION sneaky_write() RETURNS int LANGUAGE sql AS"
            " $$ INSERT INTO victim VALUES (99) RETURNING 1 $$"_s);
    m_statsReset = setup
                       .exec(u"SELECT coalesce(stats_reset::text, 'never') FROM pg_stat_database "
                             "WHERE datname = current_database()"_s)
                       .value_or(QString());
    m_victim = std::make_unique<TestConnection>(conninfo(Database));
    QVERIFY(m_victim->ok());
    m_victimPid = m_victim->exec(u"SELECT pg_backend_pid()"_s).value_or(u"0"_s).toInt();
    QVERIFY(m_victimPid > 0);
    m_pwnedFile = m_dir.filePath(u"pwned"_s);
    // The server runs as another user: let it write here, so that a COPY TO PROGRAM
    // that got through would leave a file.
    QFile::setPermissions(m_dir.path(), QFileDevice::Permissions(0x7777));
}

void TestHostileDashboard::cleanupTestCase()
{
    m_victim.reset();
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Database));
}

void TestHostileDashboard::verifyNothingChanged()
{
    TestConnection check(conninfo(Database));
    QVERIFY2(check.ok(), qPrintable(check.error()));
    QCOMPARE(check.exec(u"SELECT count(*) FROM victim"_s), std::optional<QString>(u"3"_s));
    QCOMPARE(check.exec(u"SELECT count(*) FROM victim WHERE id = 99"_s),
             std::optional<QString>(u"0"_s));
    QCOMPARE(check.exec(u"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"_s),
             std::optional<QString>(u"0"_s));
    QCOMPARE(check.exec(u"SELECT coalesce(stats_reset::text, 'never') FROM pg_stat_database "
                        "WHERE datname = current_database()"_s),
             std::optional<QString>(m_statsReset));
    QCOMPARE(m_victim->exec(u"SELECT pg_backend_pid()"_s),
             std::optional<QString>(QString::number(m_victimPid)));
    QVERIFY2(!QFile::exists(m_pwnedFile), "the server ran a program");
    // No Headroom session of ours is left writable or inside a transaction.
    QCOMPARE(check.exec(u"SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                        "'headroom' AND state LIKE 'idle in transaction%'"_s),
             std::optional<QString>(u"0"_s));
}

void TestHostileDashboard::refusedOnOpen_data()
{
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("refusal");
    const QString pid = QString::number(m_victimPid);
    QTest::newRow("set_config then nested-comment COMMIT")
        << sourceOptions(
               queries({ u"SELECT set_config('default_transaction_read_only','off',false)"_s,
                         u"/* /* */ */ COMMIT"_s }))
        << u"queries[0].sql: calls set_config(), which changes the session's settings"_s;
    QTest::newRow("nested-comment COMMIT") << sourceOptions(queries({ u"/* /* */ */ COMMIT"_s }))
                                           << u"queries[0].sql: COMMIT statements are not run"_s;
    QTest::newRow("DELETE as the probe")
        << sourceOptions({ { u"probe"_s, QJsonObject { { u"sql"_s, u"DELETE FROM victim"_s } } } })
        << u"probe.sql: DELETE statements are not run"_s;
    QTest::newRow("COPY TO PROGRAM") << sourceOptions(
        queries({ u"/* /* */ */ COPY (SELECT 1) TO PROGRAM 'touch %1'"_s.arg(m_pwnedFile) }))
                                     << u"queries[0].sql: COPY statements are not run"_s;
    QTest::newRow("pg_terminate_backend")
        << sourceOptions(queries({ u"SELECT pg_terminate_backend(%1)"_s.arg(pid) }))
        << u"calls pg_terminate_backend(), which terminates other sessions"_s;
    QTest::newRow("pg_stat_reset")
        << sourceOptions(queries({ u"SELECT 1 AS one FROM pg_stat_reset()"_s }))
        << u"calls pg_stat_reset(), which resets statistics other tools rely on"_s;
    QTest::newRow("advisory lock")
        << sourceOptions(queries({ u"SELECT pg_advisory_lock(42)::text, 1 AS one"_s }))
        << u"calls pg_advisory_lock(), which takes advisory locks that outlive the query"_s;
    QTest::newRow("quoted and qualified")
        << sourceOptions(queries({ u"SELECT pg_catalog.\"pg_terminate_backend\"(%1)"_s.arg(pid) }))
        << u"calls pg_terminate_backend()"_s;
    QTest::newRow("hostaddr") << sourceOptions(
        { { u"conninfo"_s, QString(conninfo(Database) + u" hostaddr=127.0.0.1"_s) } })
                              << u"conninfo: hostaddr is not taken from a dashboard file"_s;
}

void TestHostileDashboard::refusedOnOpen()
{
    QFETCH(QJsonObject, options);
    QFETCH(QString, refusal);
    const DashboardLoadResult loaded = parseDashboard(dashboardJson(options), u"shared.json"_s);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    MonitoringSession session;
    QCOMPARE(session.loadPlugins(), QStringList());
    session.start(*loaded.dashboard, {});
    QTest::qWait(1200); // two intervals: anything that could run would have
    session.stop();
    const QList<SourceStatus> statuses = session.scheduler().statuses();
    QCOMPARE(statuses.size(), 1);
    QCOMPARE(statuses.first().state, SourceState::Error);
    QVERIFY2(statuses.first().message.contains(refusal), qPrintable(statuses.first().message));
    verifyNothingChanged();
}

// Past the screen (a query that starts as one), the server itself refuses; the session
// stays read-only and leaves no transaction open.
void TestHostileDashboard::refusedByTheServer_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("reason");
    QTest::newRow("data-modifying WITH")
        << u"WITH d AS (DELETE FROM victim RETURNING 1) SELECT count(*) FROM d"_s
        << u"WITH clause containing a data-modifying statement must be at the top level"_s;
    QTest::newRow("a function that writes")
        << u"SELECT sneaky_write() AS n"_s << u"cannot execute INSERT in a read-only transaction"_s;
    QTest::newRow("SELECT INTO") << u"SELECT id INTO stolen FROM victim"_s << u"INTO"_s;
    QTest::newRow("a huge row") << u"SELECT repeat('x', 50000000) AS big, 1 AS n"_s
                                << u"bytes is over the 8192-byte limit"_s;
}

void TestHostileDashboard::refusedByTheServer()
{
    QFETCH(QString, sql);
    QFETCH(QString, reason);
    QJsonObject options = sourceOptions(queries({ sql, u"SELECT count(*) AS n FROM victim"_s }));
    options.insert(u"statementTimeoutMs"_s, 10000);
    const auto collector = makeCollector(options);
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(8000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY2(anyWarningContains(result.warnings, u"query \"q0\": "_s),
             qPrintable(result.warnings.join(u" | "_s)));
    QVERIFY2(anyWarningContains(result.warnings, reason),
             qPrintable(result.warnings.join(u" | "_s)));
    QCOMPARE(value(result.batch, u"pg.query.q1.n"_s), 3.0); // the next query still ran
    const PgResult state
        = collector->connection().exec("SELECT current_setting('default_transaction_read_only'), "
                                       "current_setting('transaction_read_only')",
                                       {}, QDeadlineTimer(2000));
    QVERIFY2(state.ok(), qPrintable(state.error()));
    QCOMPARE(state.text(0, 0), u"on"_s);
    QCOMPARE(state.text(0, 1), u"on"_s);
    QVERIFY(!collector->connection().inTransaction());
    TestConnection check(conninfo(Database));
    QCOMPARE(check.exec(u"SELECT to_regclass('stolen') IS NULL"_s), std::optional<QString>(u"t"_s));
    verifyNothingChanged();
}

void TestHostileDashboard::passwordNeverSentByTheCollector()
{
    FakePgServer fake;
    QVERIFY(fake.port() > 0);
    const QString target = u"host=127.0.0.1 port=%1 user=postgres dbname=x"_s.arg(fake.port());
    CollectorConfig config;
    config.sourceId = u"pg"_s;
    config.options = sourceOptions({ { u"conninfo"_s, target } });
    QString error;
    auto fromFile = PostgresCollector::create(config, &error);
    QVERIFY2(fromFile, qPrintable(error));
    const PollResult refused = fromFile->poll(QDeadlineTimer(3000));
    QVERIFY2(refused.error.contains(u"cleartext password"_s), qPrintable(refused.error));
    QVERIFY(fake.startups() >= 1);
    QCOMPARE(fake.passwords(), QList<QByteArray>());

    // The control: the same target typed by the user gets PGPASSWORD, so the fake
    // server would have seen a password had the file's conninfo been treated alike.
    config.userOptions = QStringList { u"conninfo"_s };
    auto typed = PostgresCollector::create(config, &error);
    QVERIFY2(typed, qPrintable(error));
    typed->poll(QDeadlineTimer(3000));
    QTRY_COMPARE(fake.passwords(), QList<QByteArray> { EnvPassword });
}

// A server a file names that asks for md5 gets no answer: the wildcard ~/.pgpass line
// would have given it md5(md5(password + user) + salt) for its own salt.
void TestHostileDashboard::md5NeverAnsweredForAFile()
{
    FakePgServer fake(FakePgServer::Ask::Md5);
    QVERIFY(fake.port() > 0);
    const QString target = u"host=127.0.0.1 port=%1 user=postgres dbname=x"_s.arg(fake.port());
    CollectorConfig config;
    config.sourceId = u"pg"_s;
    config.options = sourceOptions({ { u"conninfo"_s, target } });
    QString error;
    auto fromFile = PostgresCollector::create(config, &error);
    QVERIFY2(fromFile, qPrintable(error));
    const PollResult refused = fromFile->poll(QDeadlineTimer(3000));
    QVERIFY(fake.startups() >= 1);
    QCOMPARE(fake.passwords(), QList<QByteArray>());
    QVERIFY2(refused.error.contains(u"server requested a hashed password"_s)
                 && refused.error.contains(u"--var"_s)
                 && refused.error.contains(u"PGREQUIREAUTH"_s),
             qPrintable(refused.error));

    // The control: typed by the user, the same target gets an md5 answer (from
    // PGPASSWORD), the one an attacker would crack.
    config.userOptions = QStringList { u"conninfo"_s };
    auto typed = PostgresCollector::create(config, &error);
    QVERIFY2(typed, qPrintable(error));
    typed->poll(QDeadlineTimer(3000));
    QTRY_COMPARE(fake.passwords(), QList<QByteArray> { md5Answer(EnvPassword, "postgres") });
}

// Servers that ask for no password (trust, as the test server on its socket and on
// 127.0.0.1) reveal nothing and still serve a file's targets.
void TestHostileDashboard::fileTargetsOfTrustServersConnect_data()
{
    QTest::addColumn<QString>("host");
    QTest::newRow("socket") << env("HEADROOM_TEST_PGHOST");
    QTest::newRow("loopback") << u"127.0.0.1"_s;
}

void TestHostileDashboard::fileTargetsOfTrustServersConnect()
{
    QFETCH(QString, host);
    const QString target = u"host=%1 port=%2 dbname=%3 user=postgres"_s.arg(
        host, env("HEADROOM_TEST_PGPORT"), Database);
    CollectorConfig config;
    config.sourceId = u"pg"_s;
    config.options = sourceOptions({ { u"conninfo"_s, target } });
    QString error;
    auto fromFile = PostgresCollector::create(config, &error);
    QVERIFY2(fromFile, qPrintable(error));
    const PollResult result = fromFile->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(fromFile->connection().isConnected());
}

void TestHostileDashboard::hostaddrNeverConnects()
{
    FakePgServer fake;
    CollectorConfig config;
    config.sourceId = u"pg"_s;
    config.options = sourceOptions(
        { { u"conninfo"_s,
            u"host=prod-db.corp hostaddr=127.0.0.1 port=%1 user=postgres"_s.arg(fake.port()) } });
    QString error;
    QVERIFY(!PostgresCollector::create(config, &error));
    QVERIFY2(error.startsWith(u"conninfo: hostaddr is not taken from a dashboard file"_s),
             qPrintable(error));
    QTest::qWait(200);
    QCOMPARE(fake.connections(), 0);
}

QString TestHostileDashboard::writeDashboard(const QString &name, const QJsonObject &options)
{
    QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(dashboardJson(options));
    return path;
}

QProcessEnvironment TestHostileDashboard::childEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PGPASSWORD"_s, QString::fromUtf8(EnvPassword));
    env.insert(u"PGPASSFILE"_s, m_pgpass);
    // A trust store of this test's own.
    env.insert(u"XDG_STATE_HOME"_s, m_dir.filePath(u"state"_s));
    return env;
}

Run TestHostileDashboard::runHeadroom(const QStringList &args, const QProcessEnvironment &env,
                                      int timeoutMs)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"), args);
    Run run;
    // Wait with the event loop running: the fake server lives on its own thread, but
    // QProcess needs the loop to read output.
    QDeadlineTimer deadline(timeoutMs);
    while (process.state() != QProcess::NotRunning && !deadline.hasExpired())
        process.waitForFinished(100);
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished();
    }
    run.output = QString::fromUtf8(process.readAll());
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    return run;
}

void TestHostileDashboard::headlessRefusesUntrusted()
{
    const QString file = writeDashboard(
        u"untrusted.json"_s,
        sourceOptions(
            queries({ u"WITH d AS (DELETE FROM victim RETURNING 1) SELECT count(*) FROM d"_s })));
    const QString csv = m_dir.filePath(u"untrusted.csv"_s);
    const Run run = runHeadroom({ u"--dashboard"_s, file, u"--no-cache"_s, u"--collect-for"_s,
                                  u"1"_s, u"--export-csv"_s, csv },
                                childEnvironment());
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.output.contains(u"is not trusted"_s), qPrintable(run.output));
    QVERIFY2(run.output.contains(u"source \"pg\" connects to host="_s), qPrintable(run.output));
    QVERIFY2(run.output.contains(u"source \"pg\" runs SQL (queries[0].sql): WITH d AS"_s),
             qPrintable(run.output));
    QVERIFY2(run.output.contains(u"--trust"_s), qPrintable(run.output));
    QVERIFY(!QFile::exists(csv));
    verifyNothingChanged();
}

void TestHostileDashboard::headlessWithTrustStillHarmless()
{
    const QString file = writeDashboard(
        u"trusted.json"_s,
        sourceOptions(
            queries({ u"WITH d AS (DELETE FROM victim RETURNING 1) SELECT count(*) FROM d"_s,
                      u"SELECT sneaky_write() AS n"_s })));
    const QString csv = m_dir.filePath(u"trusted.csv"_s);
    const Run run = runHeadroom({ u"--dashboard"_s, file, u"--no-cache"_s, u"--collect-for"_s,
                                  u"2"_s, u"--export-csv"_s, csv, u"--trust"_s },
                                childEnvironment());
    QVERIFY2(run.output.contains(u"must be at the top level"_s), qPrintable(run.output));
    QVERIFY2(run.output.contains(u"cannot execute INSERT in a read-only transaction"_s),
             qPrintable(run.output));
    QVERIFY(QFile::exists(csv));
    verifyNothingChanged();
}

void TestHostileDashboard::headlessSendsNoPassword()
{
    FakePgServer fake;
    const QString target = u"host=127.0.0.1 port=%1 user=postgres dbname=x"_s.arg(fake.port());
    const QString file
        = writeDashboard(u"thief.json"_s, sourceOptions({ { u"conninfo"_s, target } }));
    const QStringList args { u"--dashboard"_s,
                             file,
                             u"--no-cache"_s,
                             u"--collect-for"_s,
                             u"1"_s,
                             u"--export-csv"_s,
                             m_dir.filePath(u"thief.csv"_s) };
    const Run untrusted = runHeadroom(args, childEnvironment());
    QCOMPARE(untrusted.exitCode, 2);
    QCOMPARE(fake.connections(), 0);
    const Run trusted = runHeadroom(args + QStringList { u"--trust"_s }, childEnvironment());
    QVERIFY2(trusted.output.contains(u"cleartext password"_s), qPrintable(trusted.output));
    QVERIFY(fake.startups() >= 1);
    QCOMPARE(fake.passwords(), QList<QByteArray>());
    QVERIFY2(!trusted.output.contains(QString::fromUtf8(EnvPassword))
                 && !trusted.output.contains(QString::fromUtf8(PgpassPassword)),
             qPrintable(trusted.output));
}

// Headless with --trust and a wildcard ~/.pgpass line: a server the file names that
// asks for md5 is refused on every reconnect, and gets no answer.
void TestHostileDashboard::headlessAnswersNoMd5()
{
    FakePgServer fake(FakePgServer::Ask::Md5);
    const QString target = u"host=127.0.0.1 port=%1 user=postgres dbname=x"_s.arg(fake.port());
    const QString file
        = writeDashboard(u"md5thief.json"_s, sourceOptions({ { u"conninfo"_s, target } }));
    const Run trusted
        = runHeadroom({ u"--dashboard"_s, file, u"--no-cache"_s, u"--collect-for"_s, u"2"_s,
                        u"--export-csv"_s, m_dir.filePath(u"md5thief.csv"_s), u"--trust"_s },
                      childEnvironment());
    QVERIFY(fake.startups() >= 1);
    QCOMPARE(fake.passwords(), QList<QByteArray>());
    QVERIFY2(trusted.output.contains(u"server requested a hashed password"_s),
             qPrintable(trusted.output));
    QVERIFY2(!trusted.output.contains(QString::fromUtf8(PgpassPassword)),
             qPrintable(trusted.output));
}

void TestHostileDashboard::guiWaitsForTrust()
{
    const QString display = qEnvironmentVariable("HEADROOM_TEST_DISPLAY");
    if (display.isEmpty())
        QSKIP("no Xvfb (tests/run-tests starts one)");
    FakePgServer fake;
    const QString target = u"host=127.0.0.1 port=%1 user=postgres dbname=x"_s.arg(fake.port());
    const QJsonObject options = sourceOptions({ { u"conninfo"_s, target } });
    const QString file = writeDashboard(u"gui.json"_s, options);
    QProcessEnvironment env = childEnvironment();
    env.insert(u"DISPLAY"_s, display);
    env.remove(u"QT_QPA_PLATFORM"_s);
    const QStringList args { u"--dashboard"_s, file, u"--no-cache"_s, u"--quit-after"_s, u"3"_s };
    const Run waiting = runHeadroom(args, env);
    QCOMPARE(waiting.exitCode, 0);
    QCOMPARE(fake.connections(), 0); // the trust bar is up; nothing connected

    // The user trusts it (the bar's button writes the same record): now it connects,
    // and still sends no password to a host named by the file.
    CollectorRegistry plugins;
    QCOMPARE(plugins.loadPlugins(), QStringList());
    const DashboardLoadResult loaded = loadDashboard(file);
    QVERIFY(loaded.ok());
    const TrustRequest request = trustRequest(*loaded.dashboard, plugins.plugins(), {});
    QCOMPARE(request.sources(), QStringList { u"pg"_s });
    QString error;
    DashboardTrustStore store(m_dir.filePath(u"state/headroom/trusted-dashboards.json"_s));
    QVERIFY2(store.trust(request.fingerprint(), file, &error), qPrintable(error));
    const Run trusted = runHeadroom(args, env);
    QCOMPARE(trusted.exitCode, 0);
    QVERIFY(fake.startups() >= 1);
    QCOMPARE(fake.passwords(), QList<QByteArray>());
}

void TestHostileDashboard::statementSecretsNeverBecomeLabels()
{
    // PostgreSQL 15 keeps this statement word for word in pg_stat_statements; 16 and
    // later replace the literal, so the _pg15 variant is the one that proves the mask.
    TestConnection setup(conninfo(Database));
    PG_EXEC(setup, u"CREATE EXTENSION IF NOT EXISTS pg_stat_statements"_s);
    setup.exec(u"CREATE ROLE headroom_app"_s);
    QJsonObject options = sourceOptions({});
    options.insert(u"statements"_s, true);
    options.insert(u"topStatements"_s, 100);
    const auto collector = makeCollector(options);
    QVERIFY(collector);
    QVERIFY(collector->poll(QDeadlineTimer(5000)).error.isEmpty());
    for (int i = 0; i < 20; ++i) {
        PG_EXEC(setup, u"ALTER ROLE headroom_app PASSWORD 'hunter2-secret'"_s);
        // A token in a comment, as tracing libraries and hurried people write them:
        // pg_stat_statements keeps comments word for word.
        PG_EXEC(setup, u"/* api_token=tok-7c1e */ SELECT max(id) FROM victim -- key=k3y-99"_s);
    }
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    bool sawAlter = false;
    bool sawCommented = false;
    for (const SeriesValue &v : result.batch.values) {
        const QString query = v.info.key.labels.value(u"query"_s);
        QVERIFY2(!query.contains(u"hunter2"_s), qPrintable(query));
        QVERIFY2(!query.contains(u"tok-7c1e"_s) && !query.contains(u"k3y-99"_s), qPrintable(query));
        sawAlter = sawAlter || query.contains(u"ALTER ROLE headroom_app PASSWORD"_s);
        sawCommented = sawCommented || query == u"SELECT max(id) FROM victim"_s;
    }
    QVERIFY2(sawAlter, "the ALTER ROLE statement did not reach the top statements");
    QVERIFY2(sawCommented, "the commented statement did not reach the top statements");
    setup.exec(u"DROP ROLE headroom_app"_s);
}

QTEST_GUILESS_MAIN(TestHostileDashboard)
#include "tst_hostiledashboard.moc"
