// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The prometheus source: scrapes one exporter's /metrics over HTTP(S) each poll and
// publishes what ExpositionConverter makes of it, plus up (1 when the scrape parsed,
// 0 when it failed). Lines the parser skipped are counted in the source status with
// their reasons; a scrape that fails (refused, timed out, not 200) is the source's
// error and a gap in every series.
//
// Options: "url" (required, http:// or https://), "shardSets": [{"name", "metric",
// "shardLabel"}] (see expositionconverter.h), "maxBodyMiB" (64).
#pragma once

#include "collector/collector.h"
#include "expositionconverter.h"

#include <QUrl>
#include <functional>

namespace Headroom {

// One scrape of url into *result's batch (source and time set by the caller): the parsed
// exposition, with `up` 1 and the parser's skipped lines as warnings; or nullopt with
// result->error naming the URL (without user info) and the reason, and `up` 0.
std::optional<Exposition> scrapeExposition(const QUrl &url, qsizetype maxBody,
                                           const QDeadlineTimer &deadline, PollResult *result);

// An http(s) URL with a host, or nullopt with *error saying what "option" should be
// (repeating the value without its credentials).
std::optional<QUrl> exporterUrl(const QString &text, const QString &option, QString *error);

// The URL as messages, logs and statuses show it: scheme, host, port and path. User
// info (user:password@) and the query (which may carry a token) are never shown.
QString exporterUrlForMessages(const QUrl &url);

class PrometheusCollector : public Collector
{
public:
    // Sample timestamps and the intervals of counter rates, ms since the epoch; a null
    // clock means steadyWallClockMs, so a wall clock step cannot inflate a rate.
    using Clock = std::function<qint64()>;

    static std::unique_ptr<PrometheusCollector> create(const CollectorConfig &config,
                                                       QString *error, Clock clock = {});

    PollResult poll(const QDeadlineTimer &deadline) override;

private:
    PrometheusCollector(QString source, QUrl url, QList<PrometheusShardSet> shardSets,
                        qsizetype maxBody, Clock clock);

    const QString m_source;
    const Clock m_clock;
    const QUrl m_url;
    const qsizetype m_maxBody;
    ExpositionConverter m_converter;
};

} // namespace Headroom
