// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host and nic plugins' collector for a server running node_exporter: a source whose
// "host" option is an http(s) URL scrapes it each poll and publishes the same series as
// the local collectors (nodeexportermapping.h), so the shipped host dashboard works for
// `--var host=http://server:9100/metrics`.
#pragma once

#include "collector/collector.h"
#include "nodeexportermapping.h"

#include <QUrl>
#include <functional>

namespace Headroom {

class NodeExporterCollector : public Collector
{
public:
    // Sample timestamps and rate intervals; null means steadyWallClockMs (see
    // PrometheusCollector::Clock).
    using Clock = std::function<qint64()>;

    // For a host/nic source whose "host" is http(s):// (HostTransport::Kind::NodeExporter).
    static std::unique_ptr<NodeExporterCollector> create(const CollectorConfig &config,
                                                         NodeExporterMapping::Part part,
                                                         QString *error, Clock clock = {});

    PollResult poll(const QDeadlineTimer &deadline) override;

private:
    NodeExporterCollector(QString source, QUrl url, NodeExporterMapping mapping, Clock clock);

    const QString m_source;
    const Clock m_clock;
    const QUrl m_url;
    NodeExporterMapping m_mapping;
};

} // namespace Headroom
