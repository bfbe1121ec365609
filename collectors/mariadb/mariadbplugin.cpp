// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The plugin's root object: only hands out MariadbCollectors; metadata is in mariadb.json.
#include "collector/collector.h"
#include "mariadbcollector.h"

#include <QObject>

namespace Headroom {

class MariadbCollectorFactory : public QObject, public CollectorFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HeadroomCollectorFactory_iid FILE "mariadb.json")
    Q_INTERFACES(Headroom::CollectorFactory)

public:
    std::unique_ptr<Collector> create(const CollectorConfig &config, QString *error) override
    {
        return MariadbCollector::create(config, error);
    }
};

} // namespace Headroom

#include "mariadbplugin.moc"
