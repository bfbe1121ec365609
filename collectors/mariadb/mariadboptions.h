// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The mariadb collector's options (see mariadb.json), parsed and checked before any
// connection is made, so a dashboard with a typo fails to open with the option named.
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

namespace Headroom {

// Where to connect, from a URL:
//   mariadb://user@host:port/db          TCP (port 3306 when left out)
//   mariadb:///db?socket=/run/mysqld/mysqld.sock   a Unix socket (user@localhost
//                                                  names a user with it)
// (mysql:// is the same). A password is never part of it: ~/.my.cnf holds it.
inline const QString DefaultMariadbSocket = QStringLiteral("/run/mysqld/mysqld.sock");

struct MariadbTarget
{
    QString user; // empty: ~/.my.cnf's, else the login name
    QString host; // empty with a socket
    int port = 3306;
    QString socket;
    QString database;

    // "user@host:port/db" or "user@socket /path", for messages and logs.
    QString display() const;
};

// nullopt and *error naming what is wrong.
std::optional<MariadbTarget> parseMariadbUrl(const QString &url, QString *error);

struct MariadbOptions
{
    QString url; // empty: the socket of ~/.my.cnf or /run/mysqld/mysqld.sock
    MariadbTarget target;
    int connectTimeoutMs = 3000;
    int statementTimeoutMs = 1000;
    bool statements = true; // performance_schema digests
    int topStatements = 10;
    bool tables = true; // performance_schema table I/O, shard sets
    bool locks = true; // InnoDB lock waits: the blocking tree
};

std::optional<MariadbOptions> parseMariadbOptions(const QJsonObject &options, QString *error);

} // namespace Headroom
