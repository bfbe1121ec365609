// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadboptions.h"

#include "collector/pluginoptionreader.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

namespace Headroom {

using namespace Qt::StringLiterals;

QString MariadbTarget::display() const
{
    const QString who = user.isEmpty() ? QString() : user + u'@';
    const QString where = socket.isEmpty() ? u"%1:%2"_s.arg(host).arg(port) : u"socket "_s + socket;
    return who + where + (database.isEmpty() ? QString() : u'/' + database);
}

std::optional<MariadbTarget> parseMariadbUrl(const QString &text, QString *error)
{
    const auto refuse = [&](const QString &why) {
        *error = why;
        return std::nullopt;
    };
    // A password first, before any message could echo the URL (QUrl's errors quote it).
    static const QRegularExpression userinfoWithPassword(u"^[^:/]*://[^/@]*:[^/@]*@"_s);
    if (userinfoWithPassword.match(text.trimmed()).hasMatch())
        return refuse(u"holds a password; passwords belong in ~/.my.cnf ([client] password=...), "
                      "never in a dashboard"_s);
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid())
        return refuse(u"is not a URL of the form mariadb://user@host:port/db"_s);
    if (url.scheme() != "mariadb"_L1 && url.scheme() != "mysql"_L1)
        return refuse(u"must start with mariadb:// or mysql://"_s);
    if (!url.password().isEmpty())
        return refuse(u"holds a password; passwords belong in ~/.my.cnf ([client] password=...), "
                      "never in a dashboard"_s);
    MariadbTarget target;
    target.user = url.userName();
    target.host = url.host();
    if (url.port() == 0)
        return refuse(u"port 0 is not a port"_s);
    target.port = url.port(3306);
    QString path = url.path();
    if (path.startsWith(u'/'))
        path.remove(0, 1);
    if (path.contains(u'/'))
        return refuse(u"names more than a database after the host: \"%1\""_s.arg(path));
    target.database = path;
    const QUrlQuery query(url);
    for (const auto entries = query.queryItems(QUrl::FullyDecoded);
         const auto &[key, value] : entries) {
        if (key != "socket"_L1)
            return refuse(u"has an unknown parameter \"%1\" (only socket=)"_s.arg(key));
        if (!value.startsWith(u'/'))
            return refuse(u"socket must be an absolute path, got \"%1\""_s.arg(value));
        target.socket = value;
    }
    if (target.socket.isEmpty() && target.host.isEmpty())
        target.socket = DefaultMariadbSocket;
    if (!target.socket.isEmpty() && !target.host.isEmpty()) {
        // mariadb://user@localhost/db?socket=... is how a user is named with a socket.
        if (target.host != "localhost"_L1)
            return refuse(u"names both a host and a socket"_s);
        target.host.clear();
    }
    return target;
}

std::optional<MariadbOptions> parseMariadbOptions(const QJsonObject &options, QString *error)
{
    PluginOptionReader reader;
    MariadbOptions parsed;
    if (!reader.checkKnownKeys(options, QString(),
                               { u"url"_s, u"connectTimeoutMs"_s, u"statementTimeoutMs"_s,
                                 u"statements"_s, u"topStatements"_s, u"tables"_s, u"locks"_s })
        || !reader.readString(options, u"url"_s, QString(), false, &parsed.url)
        || !reader.readLenientInt(options, u"connectTimeoutMs"_s, QString(), 100, 60000,
                                  &parsed.connectTimeoutMs)
        || !reader.readLenientInt(options, u"statementTimeoutMs"_s, QString(), 10, 60000,
                                  &parsed.statementTimeoutMs)
        || !reader.readLenientBool(options, u"statements"_s, &parsed.statements)
        || !reader.readLenientInt(options, u"topStatements"_s, QString(), 1, 100,
                                  &parsed.topStatements)
        || !reader.readLenientBool(options, u"tables"_s, &parsed.tables)
        || !reader.readLenientBool(options, u"locks"_s, &parsed.locks)) {
        *error = reader.error().toString();
        return std::nullopt;
    }
    QString why;
    const auto target
        = parseMariadbUrl(parsed.url.trimmed().isEmpty() ? u"mariadb://"_s : parsed.url, &why);
    if (!target) {
        *error = JsonReadError { u"url"_s, why }.toString();
        return std::nullopt;
    }
    parsed.target = *target;
    return parsed;
}

} // namespace Headroom
