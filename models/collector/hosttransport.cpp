// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/hosttransport.h"

#include <QJsonValue>
#include <QUrl>

namespace Headroom {

using namespace Qt::StringLiterals;

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
