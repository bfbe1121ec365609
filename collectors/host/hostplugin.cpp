// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The plugin's root object: hands out HostCollectors, or NodeExporterCollectors for an http(s)
// host; metadata is in host.json.
#include "collector/collector.h"
#include "collector/hosttransport.h"
#include "hostcollector.h"
#include "nodeexportercollector.h"

#include <QObject>

namespace Headroom {

class HostCollectorFactory : public QObject, public CollectorFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HeadroomCollectorFactory_iid FILE "host.json")
    Q_INTERFACES(Headroom::CollectorFactory)

public:
    std::unique_ptr<Collector> create(const CollectorConfig &config, QString *error) override
    {
        const auto transport = parseHostTransport(config.options, error);
        if (!transport)
            return nullptr;
        switch (transport->kind) {
        case HostTransport::Kind::NodeExporter:
            // "host": "http://server:9100/metrics" reads the same figures from node_exporter.
            return NodeExporterCollector::create(config, NodeExporterMapping::Part::Host, error);
        case HostTransport::Kind::Local:
        case HostTransport::Kind::Ssh:
            break;
        }
        return HostCollector::create(config, error);
    }
};

} // namespace Headroom

#include "hostplugin.moc"
