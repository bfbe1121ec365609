// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The plugin's root object: only hands out PrometheusCollectors; metadata in prometheus.json.
#include "collector/collector.h"
#include "prometheuscollector.h"

#include <QObject>

namespace Headroom {

class PrometheusCollectorFactory : public QObject, public CollectorFactory
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID HeadroomCollectorFactory_iid FILE "prometheus.json")
    Q_INTERFACES(Headroom::CollectorFactory)

public:
    std::unique_ptr<Collector> create(const CollectorConfig &config, QString *error) override
    {
        return PrometheusCollector::create(config, error);
    }
};

} // namespace Headroom

#include "prometheusplugin.moc"
