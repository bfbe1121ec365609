// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/promql/promqlclient.h"

#include "collector/promql/promqlcredentials.h"

#include <QStringList>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', 3);
}

using Parameters = QList<std::pair<QString, QString>>;

// Every byte outside the unreserved set percent-encoded: a '+' in PromQL (a + b) must
// not reach the engine as a space, as QUrlQuery would leave it.
QString encoded(const Parameters &parameters)
{
    QStringList pairs;
    for (const auto &[name, value] : parameters)
        pairs.append(QString::fromLatin1(QUrl::toPercentEncoding(name) + '='
                                         + QUrl::toPercentEncoding(value)));
    return pairs.join(u'&');
}

// The answer of one endpoint read by parse (parsePromqlResponse, parsePromqlLabelValues),
// its error naming the engine.
template<typename Answer>
Answer call(const QUrl &base, const QString &endpoint, const Parameters &query,
            const QDeadlineTimer &deadline, const HttpHeaders &headers,
            Answer (*parse)(QByteArrayView, int))
{
    QUrl url = base;
    QString path = url.path();
    if (!path.endsWith(u'/'))
        path += u'/';
    url.setPath(path + u"api/v1/"_s + endpoint);
    url.setQuery(encoded(query), QUrl::StrictMode);
    Answer result;
    QString error;
    // The user's credentials for this engine (promqlcredentials.h), never a dashboard's.
    const auto credentials = promqlCredentialHeaders(base, &error);
    if (!credentials) {
        result.error = promqlUrlForMessages(base) + u": "_s + error;
        return result;
    }
    const auto response
        = httpGet(url, "application/json", deadline, PromqlMaxBody, &error, headers + *credentials);
    if (!response)
        result.error = error;
    else
        result = parse(response->body, response->status);
    if (!result.error.isEmpty())
        result.error = promqlUrlForMessages(base) + u": "_s + result.error;
    return result;
}
} // namespace

std::optional<QUrl> promqlBaseUrl(const QString &text, QString *error)
{
    const QUrl url(text);
    if (!url.isValid() || (url.scheme() != u"http"_s && url.scheme() != u"https"_s)
        || url.host().isEmpty()) {
        *error = u"\"url\" must be an engine's http:// or https:// base URL with a host, e.g. "
                 "http://127.0.0.1:9090, got %1"_s.arg(
                     text.contains(u'@') ? u"a value with user info"_s : u'"' + text + u'"');
        return std::nullopt;
    }
    if (!url.userInfo().isEmpty()) {
        *error = u"\"url\" holds user info: credentials for an engine come from the user's "
                 "settings, never from a dashboard"_s;
        return std::nullopt;
    }
    if (const auto refused = promqlPathRefusal(url)) {
        *error = u"\"url\": "_s + *refused;
        return std::nullopt;
    }
    return url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment);
}

QString promqlUrlForMessages(const QUrl &url)
{
    return url.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment
                        | QUrl::StripTrailingSlash);
}

PromqlResult promqlInstantQuery(const QUrl &base, const QString &query, qint64 atMs,
                                const QDeadlineTimer &deadline, const HttpHeaders &headers)
{
    const Parameters parameters { { u"query"_s, query }, { u"time"_s, seconds(atMs) } };
    return call(base, u"query"_s, parameters, deadline, headers, parsePromqlResponse);
}

PromqlResult promqlRangeQuery(const QUrl &base, const QString &query, qint64 fromMs, qint64 toMs,
                              qint64 stepMs, const QDeadlineTimer &deadline,
                              const HttpHeaders &headers)
{
    const Parameters parameters { { u"query"_s, query },
                                  { u"start"_s, seconds(fromMs) },
                                  { u"end"_s, seconds(toMs) },
                                  { u"step"_s, seconds(stepMs) } };
    return call(base, u"query_range"_s, parameters, deadline, headers, parsePromqlResponse);
}

PromqlLabelValues promqlLabelValues(const QUrl &base, const QString &label, const QString &match,
                                    qint64 fromMs, qint64 toMs, const QDeadlineTimer &deadline)
{
    Parameters parameters { { u"start"_s, seconds(fromMs) }, { u"end"_s, seconds(toMs) } };
    if (!match.isEmpty())
        parameters.append({ u"match[]"_s, match });
    // The label is a checked label name ([A-Za-z_][A-Za-z0-9_]*): safe in the path.
    return call(base, u"label/%1/values"_s.arg(label), parameters, deadline, {},
                parsePromqlLabelValues);
}

} // namespace Headroom
