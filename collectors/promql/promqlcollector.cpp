// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "promqlcollector.h"

#include "collector/promql/promqlclient.h"
#include "collector/steadyclock.h"

#include <QElapsedTimer>

namespace Headroom {

using namespace Qt::StringLiterals;

std::unique_ptr<PromqlCollector> PromqlCollector::create(const CollectorConfig &config,
                                                         QString *error)
{
    const auto url = promqlBaseUrl(config.options.value(u"url"_s).toString(), error);
    if (!url)
        return nullptr;
    return std::unique_ptr<PromqlCollector>(new PromqlCollector(config.sourceId, *url));
}

PromqlCollector::PromqlCollector(QString source, QUrl url)
    : m_source(std::move(source))
    , m_url(std::move(url))
{
}

PollResult PromqlCollector::poll(const QDeadlineTimer &deadline)
{
    PollResult result;
    result.batch.source = m_source;
    result.batch.tsMs = steadyWallClockMs();
    QElapsedTimer timer;
    timer.start();
    const PromqlResult answer
        = promqlInstantQuery(m_url, u"vector(1)"_s, result.batch.tsMs, deadline);
    const bool up = answer.error.isEmpty();
    result.batch.add({ m_source, u"promql.up"_s, {} }, QString(), QString(), UseKind::Info,
                     up ? 1.0 : 0.0);
    if (up)
        result.batch.add({ m_source, u"promql.query_ms"_s, {} }, u"ms"_s, QString(),
                         UseKind::Latency, double(timer.nsecsElapsed()) / 1e6);
    else
        result.error = answer.error;
    return result;
}

} // namespace Headroom
