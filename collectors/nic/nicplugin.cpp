// The plugin's root object: only hands out NicCollectors; metadata is in nic.json.
#include "collector.h"
#include "niccollector.h"

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
        return NicCollector::create(config, error);
    }
};

} // namespace Headroom

#include "nicplugin.moc"
