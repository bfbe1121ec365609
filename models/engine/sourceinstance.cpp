// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/sourceinstance.h"

#include "core/jsonreader.h"
#include "document/dashboardtrust.h"

namespace Headroom {

using namespace Qt::StringLiterals;

SourceInstance instantiateSource(const CollectorRegistry &collectors, const Dashboard &dashboard,
                                 qsizetype index, const QMap<QString, QString> &values)
{
    SourceInstance instance;
    const DashboardSource &source = dashboard.sources.at(index);
    CollectorConfig &config = instance.config;
    config.sourceId = source.id;
    config.intervalMs = source.intervalMs;
    config.timeoutMs = source.timeoutMs;
    config.options = substituteVariables(source.config, values, &instance.error);
    config.userOptions = userSuppliedOptions(dashboard, source, values);
    CollectorFactory *factory = collectors.factory(source.plugin);
    if (instance.error.isEmpty() && !factory)
        instance.error = u"no collector plugin \"%1\" installed"_s.arg(source.plugin);
    // The plugin's schema before the plugin: every plugin refuses a misspelt or
    // mistyped option in the same words, naming it as the file does.
    if (instance.error.isEmpty()) {
        const QString path
            = JsonReader::joinPath(JsonReader::indexPath(u"sources"_s, index), u"config"_s);
        if (const auto refused = collectors.checkConfig(source.plugin, config.options, path))
            instance.error = refused->toString();
    }
    if (instance.error.isEmpty())
        instance.collector = factory->create(config, &instance.error);
    if (!instance.collector && instance.error.isEmpty())
        instance.error = u"the \"%1\" plugin refused the source"_s.arg(source.plugin);
    return instance;
}

} // namespace Headroom
