// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The plugin's root object: only hands out PromqlCollectors; metadata in promql.json.
#include "collector/collector.h"
#include "promqlcollector.h"

#include <QObject>

namespace Headroom {

class PromqlCollectorFactory : public QObject, public CollectorFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HeadroomCollectorFactory_iid FILE "promql.json")
    Q_INTERFACES(Headroom::CollectorFactory)

public:
    std::unique_ptr<Collector> create(const CollectorConfig &config, QString *error) override
    {
        return PromqlCollector::create(config, error);
    }
};

} // namespace Headroom

#include "promqlplugin.moc"
