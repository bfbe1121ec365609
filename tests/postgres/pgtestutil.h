// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers for the PostgreSQL tests: where tests/run-tests started the private server,
// a blocking libpq connection for setting up work (fine in tests, never in the
// collector), pg_ctl as the data directory's owner, and lookups into a SampleBatch.
#pragma once

#include "core/sample.h"
#include "postgrescollector.h"

#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>
#include <algorithm>
#include <libpq-fe.h>
#include <optional>
#include <unistd.h>

namespace Headroom::Test {

// The server a test talks to: HEADROOM_TEST_PG<what> for the main one (17), or
// HEADROOM_TEST_PG15<what> when ctest runs the _pg15 variant (HEADROOM_TEST_PG_SERVER=15).
inline QString env(const char *name)
{
    const QString server = qEnvironmentVariable("HEADROOM_TEST_PG_SERVER");
    QString variable = QString::fromLatin1(name);
    if (!server.isEmpty() && variable.startsWith(QLatin1StringView("HEADROOM_TEST_PG")))
        variable.insert(qsizetype(sizeof("HEADROOM_TEST_PG") - 1), server);
    return qEnvironmentVariable(variable.toLatin1().constData());
}

inline bool serverAvailable()
{
    return !env("HEADROOM_TEST_PGHOST").isEmpty() && !env("HEADROOM_TEST_PGPORT").isEmpty();
}

#define HEADROOM_REQUIRE_PG()                                                                      \
    do {                                                                                           \
        if (!Headroom::Test::serverAvailable())                                                    \
            QSKIP("no test PostgreSQL: run through tests/run-tests (17, package postgresql-17) "   \
                  "or ./dev test (15 from the host's postgresql-15 as well)");                     \
    } while (false)

inline QString conninfo(const QString &dbname = QStringLiteral("postgres"),
                        const QString &user = QStringLiteral("postgres"))
{
    return QStringLiteral("host=%1 port=%2 dbname=%3 user=%4")
        .arg(env("HEADROOM_TEST_PGHOST"), env("HEADROOM_TEST_PGPORT"), dbname, user);
}

// The other servers of tests/pg-replication-servers, by name: "SMALL" (12 slots, 2 of
// them reserved for superusers), "PRIMARY" and "STANDBY" (its streaming standby,
// application_name standby1, slot standby1); HEADROOM_TEST_PG<name>* (15: _PG15<name>*).
inline QString otherServerEnv(const char *name, const char *what)
{
    const QByteArray variable
        = QByteArray("HEADROOM_TEST_PG") + QByteArray(name) + QByteArray(what);
    return env(variable.constData());
}

inline bool otherServerAvailable(const char *name)
{
    return !otherServerEnv(name, "HOST").isEmpty() && !otherServerEnv(name, "PORT").isEmpty();
}

inline QString conninfoOf(const char *name, const QString &dbname = QStringLiteral("postgres"),
                          const QString &user = QStringLiteral("postgres"))
{
    return QStringLiteral("host=%1 port=%2 dbname=%3 user=%4")
        .arg(otherServerEnv(name, "HOST"), otherServerEnv(name, "PORT"), dbname, user);
}

#define HEADROOM_REQUIRE_PG_SERVER(name)                                                           \
    do {                                                                                           \
        if (!Headroom::Test::otherServerAvailable(name))                                           \
            QSKIP("no test PostgreSQL " name ": tests/run-tests (17) and ./dev test (15) start "   \
                  "them with tests/pg-replication-servers");                                       \
    } while (false)

// A blocking session for the test's own statements.
class TestConnection
{
public:
    explicit TestConnection(const QString &info)
        : m_conn(PQconnectdb(info.toUtf8().constData()))
    {
    }
    ~TestConnection() { PQfinish(m_conn); }
    TestConnection(const TestConnection &) = delete;
    TestConnection &operator=(const TestConnection &) = delete;

    bool ok() const { return PQstatus(m_conn) == CONNECTION_OK; }
    QString error() const { return QString::fromUtf8(PQerrorMessage(m_conn)).trimmed(); }
    PGconn *raw() const { return m_conn; }

    // Runs sql; the first cell of the last result, or nullopt and *error.
    std::optional<QString> exec(const QString &sql, QString *error = nullptr)
    {
        PGresult *result = PQexec(m_conn, sql.toUtf8().constData());
        const ExecStatusType status = PQresultStatus(result);
        std::optional<QString> value;
        if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
            value = PQntuples(result) > 0 ? QString::fromUtf8(PQgetvalue(result, 0, 0)) : QString();
        } else if (error) {
            *error = sql + QStringLiteral(": ") + QString::fromUtf8(PQresultErrorMessage(result));
        }
        PQclear(result);
        return value;
    }
    // Starts sql without waiting for it (to block on a lock).
    bool send(const QString &sql) { return PQsendQuery(m_conn, sql.toUtf8().constData()) == 1; }
    // Reads every result of a sent query.
    void finish()
    {
        while (PGresult *result = PQgetResult(m_conn))
            PQclear(result);
    }

private:
    PGconn *m_conn;
};

#define PG_EXEC(connection, sql)                                                                   \
    do {                                                                                           \
        QString error_;                                                                            \
        QVERIFY2((connection).exec(sql, &error_).has_value(), qPrintable(error_));                 \
    } while (false)

// pg_ctl as the owner of the data directory (the server refuses root).
inline bool pgCtl(const QStringList &args, QString *output)
{
    const QString data = env("HEADROOM_TEST_PGDATA");
    const QString pgCtlPath = env("HEADROOM_TEST_PGBIN") + QStringLiteral("/pg_ctl");
    QStringList command { pgCtlPath, QStringLiteral("-D"), data };
    command << args;
    const QFileInfo info(data);
    QString program = command.takeFirst();
    if (info.ownerId() != uint(geteuid())) {
        command.prepend(program);
        command
            = QStringList { QStringLiteral("-u"), info.owner(), QStringLiteral("--") } + command;
        program = QStringLiteral("runuser");
    }
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, command);
    const bool finished = process.waitForFinished(90'000);
    *output = QString::fromUtf8(process.readAll());
    return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

inline std::unique_ptr<PostgresCollector>
makeCollector(const QJsonObject &options, int timeoutMs = 5000, QString *error = nullptr)
{
    CollectorConfig config;
    config.sourceId = QStringLiteral("pg:test");
    config.options = options;
    config.timeoutMs = timeoutMs;
    QString ignored;
    return PostgresCollector::create(config, error ? error : &ignored);
}

inline std::optional<double> value(const SampleBatch &batch, const QString &metric,
                                   const Labels &labels = {})
{
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric == metric && v.info.key.labels == labels)
            return v.value;
    }
    return std::nullopt;
}

// The shards of `set` in a poll's pg.shard.load series, busiest first.
inline QList<std::pair<QString, double>> shardsByLoad(const SampleBatch &batch, const QString &set)
{
    QList<std::pair<QString, double>> shards;
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric == QLatin1StringView("pg.shard.load")
            && v.info.key.labels.value(QStringLiteral("set")) == set)
            shards.append({ v.info.key.labels.value(QStringLiteral("shard")), v.value });
    }
    std::stable_sort(shards.begin(), shards.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    return shards;
}

inline std::optional<SeriesInfo> info(const SampleBatch &batch, const QString &metric,
                                      const Labels &labels = {})
{
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric == metric && v.info.key.labels == labels)
            return v.info;
    }
    return std::nullopt;
}

// Fills pg_stat_statements of db's database: `tables` tables t1..tN, each read by IN
// lists of 1 to 50 constants, which pg_stat_statements keeps apart: 50 distinct
// statements a table. false and *error when a statement failed.
inline bool fillStatements(TestConnection &db, int tables, QString *error)
{
    if (!db.exec(QStringLiteral("DO $$ BEGIN FOR i IN 1..%1 LOOP EXECUTE format('CREATE TABLE "
                                "t%s (a int)', i); END LOOP; END $$")
                     .arg(tables),
                 error))
        return false;
    for (int t = 1; t <= tables; ++t) {
        QStringList batch;
        for (int k = 1; k <= 50; ++k) {
            QStringList constants;
            for (int c = 1; c <= k; ++c)
                constants << QString::number(c);
            batch << QStringLiteral("SELECT count(*) FROM t%1 WHERE a IN (%2)")
                         .arg(t)
                         .arg(constants.join(QStringLiteral(", ")));
        }
        if (!db.exec(batch.join(QStringLiteral("; ")), error))
            return false;
    }
    return true;
}

inline bool anyWarningContains(const QStringList &warnings, const QString &text)
{
    return std::any_of(warnings.cbegin(), warnings.cend(),
                       [&](const QString &warning) { return warning.contains(text); });
}

} // namespace Headroom::Test
