// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How the host and nic collectors reach the host their "host" option names: this
// machine, over SSH, or through node_exporter. The option is read here and only here;
// the plugins pick their collector from the kind, and each transport parses its own
// address further (parseSshTarget in collectors/ssh, exporterUrl in
// collectors/prometheus), with the messages those already give.
//   "" or "local"                    Local (with "root", a captured tree, in tests)
//   ssh://[user@]server[:port]       Ssh; the scheme in any case
//   http://... or https://...        NodeExporter; the scheme in lower case only
// "root" is for Local only: with a remote host it is refused, not ignored.
// A database dashboard's host source also names its server, "postgresServer" (a libpq
// conninfo) or "mariadbServer" (a mariadb:// URL): with "host" empty it is Local when
// that server is on this machine (serverplace.h: a Unix socket or loopback), and
// refused, asking for "host", when it is elsewhere or where cannot be told.
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

namespace Headroom {

inline constexpr QLatin1StringView PostgresServerOption("postgresServer");
inline constexpr QLatin1StringView MariadbServerOption("mariadbServer");

struct HostTransport
{
    enum class Kind
    {
        Local,
        Ssh,
        NodeExporter
    };

    Kind kind = Kind::Local;
    QString address; // the "host" value as written ("", "local", "ssh://db1"...)
    QString root; // Local: the "root" option, a path prefix (fixture trees); else empty
};

// nullopt and *error (no password in it) when "host" is not a string, names no
// transport, or is remote and "root" is set, or is empty while the database server
// named beside it is not on this machine.
std::optional<HostTransport> parseHostTransport(const QJsonObject &options, QString *error);

// "\"host\": db1 is not a host this collector can read; use local, ..." (no password):
// for a value naming no transport, or one the reader at hand cannot serve.
QString unreadableHostMessage(const QString &value);

} // namespace Headroom
