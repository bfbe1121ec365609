// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The plugin's root object: only hands out PostgresCollectors; metadata is in postgres.json.
#include "collector/collector.h"
#include "postgrescollector.h"

#include <QObject>

namespace Headroom {

class PostgresCollectorFactory : public QObject, public CollectorFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HeadroomCollectorFactory_iid FILE "postgres.json")
    Q_INTERFACES(Headroom::CollectorFactory)

public:
    std::unique_ptr<Collector> create(const CollectorConfig &config, QString *error) override
    {
        return PostgresCollector::create(config, error);
    }
};

} // namespace Headroom

#include "postgresplugin.moc"
