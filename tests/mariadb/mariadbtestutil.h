// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers for the tests against tests/run-tests' private MariaDB
// (tests/mariadb-server): where it is, statements run with the mariadb client as root
// (the collector's own session is read-only), background sessions, and a collector.
#pragma once

#include "mariadbcollector.h"

#include <QProcess>
#include <QTest>
#include <memory>

namespace Headroom::Test {

inline QString mariadbSocket()
{
    return qEnvironmentVariable("HEADROOM_TEST_MARIADB_SOCKET");
}
inline int mariadbPort()
{
    return qEnvironmentVariableIntValue("HEADROOM_TEST_MARIADB_PORT");
}
inline const QString MariadbDatabase = QStringLiteral("headroom_test");

// The mariadb client's arguments for root over the socket, or for `user` with its
// password over TCP.
inline QStringList mariadbClientArgs(const QString &user = {}, const QString &password = {})
{
    QStringList args { QStringLiteral("--batch"), QStringLiteral("--skip-column-names") };
    if (user.isEmpty())
        args << QStringLiteral("--socket=") + mariadbSocket() << QStringLiteral("--user=root");
    else
        args << QStringLiteral("--host=127.0.0.1")
             << QStringLiteral("--port=") + QString::number(mariadbPort())
             << QStringLiteral("--user=") + user << QStringLiteral("--password=") + password;
    args << MariadbDatabase;
    return args;
}

// Runs `sql` as root and returns its output; a failure fails the calling test.
inline QString mariadbSql(const QString &sql, int timeoutMs = 60000)
{
    QProcess client;
    client.start(QStringLiteral("mariadb"), mariadbClientArgs() << QStringLiteral("-e") << sql);
    if (!client.waitForFinished(timeoutMs) || client.exitCode() != 0) {
        QTest::qFail(
            qPrintable(QStringLiteral("mariadb -e \"%1\": %2")
                           .arg(sql.left(200), QString::fromUtf8(client.readAllStandardError()))),
            __FILE__, __LINE__);
        return {};
    }
    return QString::fromUtf8(client.readAllStandardOutput()).trimmed();
}

// A client session running `sql` in the background (as root, or as user/password).
inline std::unique_ptr<QProcess> mariadbSession(const QString &sql, const QString &user = {},
                                                const QString &password = {})
{
    auto client = std::make_unique<QProcess>();
    client->start(QStringLiteral("mariadb"),
                  mariadbClientArgs(user, password) << QStringLiteral("-e") << sql);
    client->waitForStarted();
    return client;
}

// Waits (up to 30 s) until a session runs a statement starting with `prefix`, as the
// server's process list shows it: a background client has got as far as its statement.
inline bool waitForStatement(const QString &prefix)
{
    for (int i = 0; i < 300; ++i) {
        const QString running = mariadbSql(
            QStringLiteral(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%1%'")
                .arg(prefix));
        if (!running.isEmpty() && running != QLatin1StringView("0"))
            return true;
        QTest::qWait(100);
    }
    return false;
}

inline std::unique_ptr<MariadbCollector>
makeMariadbCollector(QJsonObject options, QStringList userOptions = {}, QString *error = nullptr)
{
    CollectorConfig config;
    config.sourceId = QStringLiteral("mariadb:test");
    config.options = std::move(options);
    config.userOptions = std::move(userOptions);
    QString why;
    auto collector = MariadbCollector::create(config, &why);
    if (error)
        *error = why;
    return collector;
}

// The URL of root over the test server's socket.
inline QString rootSocketUrl()
{
    return QStringLiteral("mariadb://root@localhost/%1?socket=%2")
        .arg(MariadbDatabase, mariadbSocket());
}

} // namespace Headroom::Test
