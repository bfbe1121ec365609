// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/hosttransport.h"

#include "collector/serverplace.h"

#include <QJsonValue>
#include <QUrl>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// With "host" unset, the host of a database dashboard follows its server: nullopt when
// that is this machine (or no server is named), else why this machine is not its host.
std::optional<QString> serverElsewhere(const QJsonObject &options)
{
    ServerPlace place { ServerPlace::Kind::Local, {} };
    if (options.contains(PostgresServerOption))
        place = postgresServerPlace(options.value(PostgresServerOption).toString());
    else if (options.contains(MariadbServerOption))
        place = mariadbServerPlace(options.value(MariadbServerOption).toString());
    if (place.kind == ServerPlace::Kind::Local)
        return std::nullopt;
    const QString where = place.kind == ServerPlace::Kind::Remote
        ? u"on %1, not on this machine"_s.arg(place.where)
        : u"where this cannot tell (%1)"_s.arg(place.where);
    return u"\"host\" is not set and the database server is %1: set the dashboard's host "
           "variable to the server's host, ssh://user@server[:port] or "
           "http://server:9100/metrics (node_exporter)"_s.arg(where);
}

} // namespace

std::optional<HostTransport> parseHostTransport(const QJsonObject &options, QString *error)
{
    const auto fail = [error](const QString &message) -> std::optional<HostTransport> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    const QJsonValue host = options.value("host"_L1);
    if (!host.isUndefined() && !host.isNull() && !host.isString())
        return fail(u"\"host\" must be a string"_s);
    const QString value = host.toString();
    const QString root = options.value("root"_L1).toString();

    // Case-sensitive, as node_exporter sources have always been recognised: "HTTP://"
    // is refused below, while ssh:// is taken in any case (parseSshTarget accepts SSH://).
    const bool http = value.startsWith("http://"_L1) || value.startsWith("https://"_L1);
    const bool ssh = value.startsWith("ssh://"_L1, Qt::CaseInsensitive);
    if ((http || ssh) && !root.isEmpty())
        return fail(u"\"root\" is for local captured trees; it cannot be used with %1"_s.arg(
            http ? u"http://"_s : u"ssh://"_s));
    if (http)
        return HostTransport { HostTransport::Kind::NodeExporter, value, {} };
    if (ssh)
        return HostTransport { HostTransport::Kind::Ssh, value, {} };
    if (value.isEmpty()) {
        if (const auto elsewhere = serverElsewhere(options))
            return fail(*elsewhere);
    }
    if (value.isEmpty() || value == "local"_L1)
        return HostTransport { HostTransport::Kind::Local, value, root };
    return fail(unreadableHostMessage(value));
}

QString unreadableHostMessage(const QString &value)
{
    return u"\"host\": %1 is not a host this collector can read; use local, "
           "ssh://user@server[:port] or http://server:9100/metrics (node_exporter)"_s.arg(
               QUrl(value).toString(QUrl::RemovePassword));
}

} // namespace Headroom
