// The plugin's root object: hands out NicCollectors, or NodeExporterCollectors for an http(s) host;
// metadata is in nic.json.
#include "collector/collector.h"
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
        // "host": "http://server:9100/metrics" reads the same figures from node_exporter.
        if (NodeExporterCollector::wanted(config.options))
            return NodeExporterCollector::create(config, NodeExporterMapping::Part::Nic, error);
        return NicCollector::create(config, error);
    }
};

} // namespace Headroom

#include "nicplugin.moc"
