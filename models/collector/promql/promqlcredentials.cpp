// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/promql/promqlcredentials.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QStringList>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// A URL's path as a server may read it: percent-decoding undone as often as it changes
// something (a proxy that decodes once more must not find a dot segment either), and
// a backslash read as a slash.
QString decodedPath(const QUrl &url)
{
    QString path = url.path(QUrl::FullyDecoded);
    for (int round = 0; round < 8 && path.contains(u'%'); ++round) {
        const QString again = QUrl::fromPercentEncoding(path.toUtf8());
        if (again == path)
            break;
        path = again;
    }
    return path.replace(u'\\', u'/');
}

// The path with dot segments resolved (RFC 3986, 5.2.4), as the engine will see it.
QString normalizedPath(const QUrl &url)
{
    QStringList out;
    const QStringList segments = decodedPath(url).split(u'/');
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const QString &segment = segments.at(i);
        const bool last = i + 1 == segments.size();
        if (segment == u"."_s) {
            if (last)
                out.append(QString());
        } else if (segment == u".."_s) {
            if (out.size() > 1)
                out.removeLast();
            if (last)
                out.append(QString());
        } else {
            out.append(segment);
        }
    }
    return out.join(u'/');
}

bool applies(const QUrl &entry, const QUrl &engine)
{
    const int defaultPort = engine.scheme() == u"https"_s ? 443 : 80;
    if (entry.scheme() != engine.scheme() || entry.host() != engine.host()
        || entry.port(defaultPort) != engine.port(defaultPort))
        return false;
    // A path prefix by whole segments: /prom applies to /prom and /prom/x, not /prometheus.
    // Both are compared as the engine reads them (decoded, dot segments resolved); an
    // engine URL with dot segments never gets here (promqlPathRefusal).
    QString prefix = normalizedPath(entry);
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    const QString path = normalizedPath(engine);
    return prefix.isEmpty() || path == prefix || path.startsWith(prefix + u'/');
}

// A secret file's first line; its content never goes into a message.
std::optional<QByteArray> readSecret(const QString &path, const QString &where, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"%1: cannot read %2: %3"_s.arg(where, path, file.errorString());
        return std::nullopt;
    }
    QByteArray secret = file.readLine(64 * 1024).trimmed();
    if (secret.isEmpty()) {
        *error = u"%1: %2 is empty"_s.arg(where, path);
        return std::nullopt;
    }
    return secret;
}
} // namespace

QString promqlCredentialsPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
        + u"/headroom/engines.json"_s;
}

std::optional<QString> promqlPathRefusal(const QUrl &engine)
{
    const QStringList segments = decodedPath(engine).split(u'/');
    if (segments.contains(u"."_s) || segments.contains(u".."_s))
        return u"the URL's path holds a \".\" or \"..\" segment (written plainly or "
               "percent-encoded): give the engine's path as it is, without them"_s;
    return std::nullopt;
}

std::optional<HttpHeaders> promqlCredentialHeaders(const QUrl &engine, QString *error)
{
    if (const auto refused = promqlPathRefusal(engine)) {
        *error = *refused;
        return std::nullopt;
    }
    const QString path = promqlCredentialsPath();
    QFile file(path);
    if (!file.exists())
        return HttpHeaders {};
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"%1: %2"_s.arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.read(1 << 20), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = u"%1: not a JSON object (%2)"_s.arg(path, parseError.errorString());
        return std::nullopt;
    }
    const QJsonArray entries = document.object().value(u"engines"_s).toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QJsonObject entry = entries.at(i).toObject();
        const QString where = u"%1: engines[%2]"_s.arg(path).arg(i);
        const QUrl url(entry.value(u"url"_s).toString());
        if (!url.isValid() || url.host().isEmpty()) {
            *error = where + u".url: expected the engine's base URL"_s;
            return std::nullopt;
        }
        if (!applies(url, engine))
            continue;
        if (entry.contains(u"password"_s) || entry.contains(u"bearerToken"_s)) {
            *error = where
                + u": secrets go in files of their own (\"passwordFile\", "
                  "\"bearerTokenFile\"), not in this file"_s;
            return std::nullopt;
        }
        if (const QString tokenFile = entry.value(u"bearerTokenFile"_s).toString();
            !tokenFile.isEmpty()) {
            const auto token = readSecret(tokenFile, where, error);
            if (!token)
                return std::nullopt;
            const QByteArray bearer = "Bearer " + *token;
            return HttpHeaders { { "Authorization", bearer } };
        }
        const QString username = entry.value(u"username"_s).toString();
        const QString passwordFile = entry.value(u"passwordFile"_s).toString();
        if (username.isEmpty() || passwordFile.isEmpty()) {
            *error = where + u": needs \"bearerTokenFile\", or \"username\" and \"passwordFile\""_s;
            return std::nullopt;
        }
        const auto password = readSecret(passwordFile, where, error);
        if (!password)
            return std::nullopt;
        const QByteArray pair = username.toUtf8() + ':' + *password;
        return HttpHeaders { { "Authorization", "Basic " + pair.toBase64() } };
    }
    return HttpHeaders {};
}

} // namespace Headroom
