// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "prometheuscollector.h"

#include "collector/httpget.h"
#include "collector/steadyclock.h"

#include <QJsonArray>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// OpenMetrics preferred, the classic text format accepted (node_exporter answers with it).
constexpr QByteArrayView Accept
    = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

} // namespace

std::unique_ptr<PrometheusCollector> PrometheusCollector::create(const CollectorConfig &config,
                                                                 QString *error, Clock clock)
{
    const auto url = exporterUrl(config.options.value("url"_L1).toString(), u"url"_s, error);
    if (!url)
        return nullptr;
    QList<PrometheusShardSet> sets;
    const QJsonArray array = config.options.value("shardSets"_L1).toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonObject o = array.at(i).toObject();
        PrometheusShardSet set { o.value("name"_L1).toString(), o.value("metric"_L1).toString(),
                                 o.value("shardLabel"_L1).toString() };
        if (set.name.isEmpty() || set.metric.isEmpty() || set.shardLabel.isEmpty()) {
            *error = u"shardSets[%1]: needs \"name\", \"metric\" and \"shardLabel\""_s.arg(i);
            return nullptr;
        }
        sets.append(set);
    }
    const double maxMiB = config.options.value("maxBodyMiB"_L1).toDouble(64);
    if (!(maxMiB > 0 && maxMiB <= 1024)) {
        *error = u"\"maxBodyMiB\" must be in (0, 1024]"_s;
        return nullptr;
    }
    return std::unique_ptr<PrometheusCollector>(new PrometheusCollector(
        config.sourceId, *url, std::move(sets), qsizetype(maxMiB * (1 << 20)), std::move(clock)));
}

PrometheusCollector::PrometheusCollector(QString source, QUrl url,
                                         QList<PrometheusShardSet> shardSets, qsizetype maxBody,
                                         Clock clock)
    : m_source(std::move(source))
    , m_clock(clock ? std::move(clock) : Clock(&steadyWallClockMs))
    , m_url(std::move(url))
    , m_maxBody(maxBody)
    , m_converter(std::move(shardSets))
{
}

PollResult PrometheusCollector::poll(const QDeadlineTimer &deadline)
{
    PollResult result;
    result.batch.source = m_source;
    result.batch.tsMs = m_clock();
    if (const auto exposition = scrapeExposition(m_url, m_maxBody, deadline, &result))
        m_converter.convert(*exposition, &result.batch);
    return result;
}

QString exporterUrlForMessages(const QUrl &url)
{
    return url.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment);
}

std::optional<QUrl> exporterUrl(const QString &text, const QString &option, QString *error)
{
    QUrl url(text);
    if (!url.isValid() || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)
        || url.host().isEmpty()) {
        // A value that is not even a URL is not repeated when it might hold credentials.
        const QString shown = url.isValid() ? u'"' + exporterUrlForMessages(url) + u'"'
            : text.contains(u'@')           ? u"a value that is not a URL"_s
                                            : u'"' + text + u'"';
        *error = u"\"%1\" must be an http:// or https:// URL with a host, e.g. "
                 "http://server:9100/metrics, got %2"_s.arg(option, shown);
        return std::nullopt;
    }
    return url;
}

std::optional<Exposition> scrapeExposition(const QUrl &url, qsizetype maxBody,
                                           const QDeadlineTimer &deadline, PollResult *result)
{
    const auto up = [&](double value) {
        result->batch.add({ result->batch.source, u"up"_s, {} }, QString(), QString(),
                          UseKind::Info, value);
    };
    QString error;
    const auto response = httpGet(url, Accept.toByteArray(), deadline, maxBody, &error);
    // The URL may carry credentials (user:password@): the message names host and path only.
    const QString where = exporterUrlForMessages(url);
    if (!response || response->status != 200) {
        result->error = response ? u"%1: HTTP %2"_s.arg(where).arg(response->status)
                                 : u"%1: %2"_s.arg(where, error);
        up(0);
        return std::nullopt;
    }
    Exposition exposition
        = parseExposition(response->body, expositionFormatFromContentType(response->contentType));
    up(1);
    if (exposition.skippedLines > 0)
        result->warnings << where + u": "_s + exposition.summary();
    if (exposition.truncated)
        result->warnings << where + u": the exposition is incomplete (no \"# EOF\", or over "_s
                + QString::number(Exposition::MaxSamples) + u" samples)"_s;
    return exposition;
}

} // namespace Headroom
