// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where a database server runs, as far as the target a dashboard names it by tells:
// this machine (a Unix socket, a loopback address, localhost), elsewhere, or cannot be
// told (a libpq service file names the host). The host collector of a database
// dashboard watches this machine only when the server is here (hosttransport.h).
// Pure string rules, no connection and no name lookup: a host name that resolves to
// this machine's own address counts as elsewhere.
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>
#include <functional>

namespace Headroom {

struct ServerPlace
{
    enum class Kind
    {
        Local,
        Remote,
        Unknown
    };
    Kind kind = Kind::Unknown;
    QString where; // Remote: the host as written ("db1", "10.0.0.5"); else why, for messages
};

// Whether a host as written (a host name, an address, a socket directory) is this
// machine: empty, a path ("/run/postgresql", "@abstract"), localhost, 127.0.0.0/8, ::1.
bool isLocalHostName(const QString &host);

// A libpq connection string, keyword/value or URI, read as libpq does: hostaddr, then
// host (every entry of a list: local only when all are), then a service (Unknown), then
// PGHOSTADDR and PGHOST (read through `environment`), and else the default socket.
// Never says anything of a password in it.
ServerPlace postgresServerPlace(
    const QString &conninfo,
    const std::function<QString(const char *)> &environment
    = [](const char *name) { return qEnvironmentVariable(name); });

// A mariadb collector URL (mariadb://user@host:port/db, mariadb:///db?socket=...). The
// client takes "localhost" for its socket, as here. Empty is ~/.my.cnf's host (given
// by `userMyCnf`, the file's text: a "host =" line of any section counts), else the
// local socket.
QByteArray readUserMyCnfText(); // $HOME/.my.cnf, empty when there is none
ServerPlace mariadbServerPlace(const QString &url,
                               const std::function<QByteArray()> &userMyCnf = readUserMyCnfText);

} // namespace Headroom
