// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The plugin's root object: hands out NicCollectors, or NodeExporterCollectors for an http(s) host;
// metadata is in nic.json.
#include "collector/collector.h"
#include "collector/hosttransport.h"
#include "niccollector.h"
#include "nodeexportercollector.h"

#include <QObject>

namespace Headroom {

class NicCollectorFactory : public QObject, public CollectorFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HeadroomCollectorFactory_iid FILE "nic.json")
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
            return NodeExporterCollector::create(config, NodeExporterMapping::Part::Nic, error);
        case HostTransport::Kind::Local:
        case HostTransport::Kind::Ssh:
            break;
        }
        return NicCollector::create(config, error);
    }
};

} // namespace Headroom

#include "nicplugin.moc"
