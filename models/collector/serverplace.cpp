// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/serverplace.h"

#include "core/conninfo.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QMap>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// A comma-separated list of hosts (libpq's multi-host form): local only when all are.
ServerPlace placeOfHosts(const QString &list)
{
    for (const auto entries = list.split(u','); const QString &entry : entries) {
        const QString host = entry.trimmed();
        if (!isLocalHostName(host))
            return { ServerPlace::Kind::Remote, host };
    }
    return { ServerPlace::Kind::Local, list.isEmpty() ? u"the default socket"_s : list };
}

// The keywords of a URI that say where: its hosts (the authority, without user and
// ports) and its host, hostaddr and service parameters. false when it does not parse.
bool uriKeywords(const QString &uri, QMap<QString, QString> *keywords)
{
    const qsizetype schemeEnd = uri.indexOf("://"_L1);
    QString rest = uri.mid(schemeEnd + 3);
    const qsizetype queryStart = rest.indexOf(u'?');
    const QString query = queryStart < 0 ? QString() : rest.mid(queryStart + 1);
    if (queryStart >= 0)
        rest.truncate(queryStart);
    const qsizetype pathStart = rest.indexOf(u'/');
    QString authority = pathStart < 0 ? rest : rest.left(pathStart);
    const qsizetype at = authority.lastIndexOf(u'@');
    if (at >= 0)
        authority = authority.mid(at + 1);
    QStringList hosts;
    for (const auto specs = authority.split(u','); const QString &spec : specs) {
        QString host = spec;
        if (host.startsWith(u'[')) {
            const qsizetype close = host.indexOf(u']');
            if (close < 0)
                return false;
            host = host.mid(1, close - 1);
        } else if (const qsizetype colon = host.indexOf(u':'); colon >= 0) {
            host.truncate(colon);
        }
        hosts << QUrl::fromPercentEncoding(host.toUtf8());
    }
    // No host at all ("postgresql:///db"): the default, as with no host keyword.
    if (std::any_of(hosts.cbegin(), hosts.cend(), [](const QString &h) { return !h.isEmpty(); }))
        keywords->insert(u"host"_s, hosts.join(u','));
    for (const auto allPairs = query.split(u'&', Qt::SkipEmptyParts);
         const QString &pair : allPairs) {
        const qsizetype equals = pair.indexOf(u'=');
        if (equals < 0)
            continue;
        const QString key = QUrl::fromPercentEncoding(pair.left(equals).toUtf8());
        if (key == "host"_L1 || key == "hostaddr"_L1 || key == "service"_L1)
            keywords->insert(key, QUrl::fromPercentEncoding(pair.mid(equals + 1).toUtf8()));
    }
    return true;
}

} // namespace

bool isLocalHostName(const QString &host)
{
    if (host.isEmpty() || host.startsWith(u'/') || host.startsWith(u'@'))
        return true;
    if (host.compare("localhost"_L1, Qt::CaseInsensitive) == 0)
        return true;
    QHostAddress address;
    if (!address.setAddress(host))
        return false;
    return address.isLoopback();
}

ServerPlace postgresServerPlace(const QString &conninfo,
                                const std::function<QString(const char *)> &environment)
{
    QMap<QString, QString> keywords;
    const QString trimmed = conninfo.trimmed();
    if (trimmed.startsWith("postgresql://"_L1) || trimmed.startsWith("postgres://"_L1)) {
        if (!uriKeywords(trimmed, &keywords))
            return { ServerPlace::Kind::Unknown, u"a connection URI that does not parse"_s };
    } else {
        const auto pairs = conninfoKeywords(trimmed);
        if (!pairs)
            return { ServerPlace::Kind::Unknown, u"a connection string that does not parse"_s };
        for (const auto &[key, value] : *pairs)
            keywords.insert(key, value);
    }
    // hostaddr is where libpq connects; host then only names the server for
    // authentication.
    if (!keywords.value(u"hostaddr"_s).isEmpty())
        return placeOfHosts(keywords.value(u"hostaddr"_s));
    if (!keywords.value(u"host"_s).isEmpty())
        return placeOfHosts(keywords.value(u"host"_s));
    // A service file fills what the string left unset, before the environment does.
    if (!keywords.value(u"service"_s).isEmpty() || !environment("PGSERVICE").isEmpty())
        return { ServerPlace::Kind::Unknown, u"a service names the server"_s };
    if (const QString address = environment("PGHOSTADDR"); !address.isEmpty())
        return placeOfHosts(address);
    return placeOfHosts(environment("PGHOST"));
}

QByteArray readUserMyCnfText()
{
    QFile file(QDir::homePath() + u"/.my.cnf"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(64 * 1024);
}

ServerPlace mariadbServerPlace(const QString &url, const std::function<QByteArray()> &userMyCnf)
{
    if (url.trimmed().isEmpty()) {
        // The client's own files may name the server: a host there decides.
        for (const auto cnfLines = userMyCnf().split('\n'); const QByteArray &raw : cnfLines) {
            const QByteArray line = raw.trimmed();
            const qsizetype equals = line.indexOf('=');
            if (equals < 0 || line.left(equals).trimmed() != "host")
                continue;
            QByteArray value = line.mid(equals + 1).trimmed();
            if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')
                && value.back() == value.front())
                value = value.mid(1, value.size() - 2);
            return placeOfHosts(QString::fromUtf8(value));
        }
        return { ServerPlace::Kind::Local, u"the local socket"_s };
    }
    const QUrl parsed(url.trimmed(), QUrl::StrictMode);
    if (!parsed.isValid())
        return { ServerPlace::Kind::Unknown, u"a URL that does not parse"_s };
    if (QUrlQuery(parsed).hasQueryItem(u"socket"_s))
        return { ServerPlace::Kind::Local, u"a socket"_s };
    const QString host = parsed.host();
    if (isLocalHostName(host))
        return { ServerPlace::Kind::Local, host.isEmpty() ? u"the local socket"_s : host };
    return { ServerPlace::Kind::Remote, host };
}

} // namespace Headroom
