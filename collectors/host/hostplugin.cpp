// The plugin's root object: hands out HostCollectors, or NodeExporterCollectors for an http(s)
// host; metadata is in host.json.
#include "collector/collector.h"
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
        // "host": "http://server:9100/metrics" reads the same figures from node_exporter.
        if (NodeExporterCollector::wanted(config.options))
            return NodeExporterCollector::create(config, NodeExporterMapping::Part::Host, error);
        return HostCollector::create(config, error);
    }
};

} // namespace Headroom

#include "hostplugin.moc"
