// The plugin's root object: only hands out HostCollectors; metadata is in host.json.
#include "collector.h"
#include "hostcollector.h"

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
        return HostCollector::create(config, error);
    }
};

} // namespace Headroom

#include "hostplugin.moc"
