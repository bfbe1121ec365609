// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "nodeexportercollector.h"

#include "collector/hosttransport.h"
#include "collector/steadyclock.h"
#include "prometheuscollector.h"

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr qsizetype MaxBody = 64 << 20;
}

std::unique_ptr<NodeExporterCollector> NodeExporterCollector::create(const CollectorConfig &config,
                                                                     NodeExporterMapping::Part part,
                                                                     QString *error, Clock clock)
{
    const auto transport = parseHostTransport(config.options, error);
    if (!transport)
        return nullptr;
    // Any other transport is refused here too, as not an http(s) URL.
    const auto url = exporterUrl(transport->address, u"host"_s, error);
    if (!url)
        return nullptr;
    // "defaultSpeedMbps" is a number or a string (a dashboard variable); empty: none.
    const QJsonValue speed = config.options.value("defaultSpeedMbps"_L1);
    const double defaultSpeed = speed.isString() ? speed.toString().toDouble() : speed.toDouble(0);
    return std::unique_ptr<NodeExporterCollector>(new NodeExporterCollector(
        config.sourceId, *url, NodeExporterMapping(part, defaultSpeed), std::move(clock)));
}

NodeExporterCollector::NodeExporterCollector(QString source, QUrl url, NodeExporterMapping mapping,
                                             Clock clock)
    : m_source(std::move(source))
    , m_clock(clock ? std::move(clock) : Clock(&steadyWallClockMs))
    , m_url(std::move(url))
    , m_mapping(std::move(mapping))
{
}

PollResult NodeExporterCollector::poll(const QDeadlineTimer &deadline)
{
    PollResult result;
    result.batch.source = m_source;
    result.batch.tsMs = m_clock();
    if (const auto exposition = scrapeExposition(m_url, MaxBody, deadline, &result)) {
        m_mapping.map(*exposition, &result.batch);
        if (m_mapping.part() == NodeExporterMapping::Part::Host)
            result.warnings << NodeExporterMapping::processWarning();
    }
    return result;
}

} // namespace Headroom
