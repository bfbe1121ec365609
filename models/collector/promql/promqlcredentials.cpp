#include "collector/promql/promqlcredentials.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
bool applies(const QUrl &entry, const QUrl &engine)
{
    const int defaultPort = engine.scheme() == u"https"_s ? 443 : 80;
    if (entry.scheme() != engine.scheme() || entry.host() != engine.host()
        || entry.port(defaultPort) != engine.port(defaultPort))
        return false;
    // A path prefix by whole segments: /prom applies to /prom and /prom/x, not /prometheus.
    QString prefix = entry.path();
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    const QString path = engine.path();
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
    const QByteArray secret = file.readLine(64 * 1024).trimmed();
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

std::optional<HttpHeaders> promqlCredentialHeaders(const QUrl &engine, QString *error)
{
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
