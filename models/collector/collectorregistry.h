// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Finds collector plugins (MODULE libraries with JSON metadata) and hands out their
// factories by id, and enforces each plugin's config schema (configschema.h). Tests and
// embedders may also register in-process factories.
#pragma once

#include "collector/collector.h"
#include "collector/configschema.h"

#include <QHash>
#include <QJsonObject>
#include <QStringList>

namespace Headroom {

struct CollectorPluginInfo
{
    QString id;
    QString name;
    QString description;
    QJsonObject configSchema; // the metadata's "config": a JSON Schema (configschema.h)
    QString fileName; // empty for in-process factories
};

class CollectorRegistry
{
public:
    CollectorRegistry() = default;
    ~CollectorRegistry();
    CollectorRegistry(const CollectorRegistry &) = delete;
    CollectorRegistry &operator=(const CollectorRegistry &) = delete;

    // $HEADROOM_PLUGIN_PATH, bin/../lib/headroom/collectors (the build tree),
    // bin/../<libdir>/headroom/collectors (an install under any prefix), the install dir.
    static QStringList defaultPluginDirs();

    // Loads every plugin found; problems (bad metadata, a config schema that cannot be
    // enforced, load failure) are returned, one line each, naming the file, and such a
    // plugin is not loaded.
    QStringList loadPlugins(const QStringList &dirs = defaultPluginDirs());
    // Does not take ownership. A schema that cannot be enforced is logged, and every
    // config of that plugin is then refused with the schema's problem.
    void registerFactory(const CollectorPluginInfo &info, CollectorFactory *factory);

    CollectorFactory *factory(const QString &id) const;
    QList<CollectorPluginInfo> plugins() const;

    // nullopt when `config` conforms to the plugin's config schema (or the plugin is
    // unknown, which the caller reports); else the problem, its field a path below
    // `path`, the config's own path ("sources[2].config"). Checked after ${variable}
    // substitution: where an option may come from a variable, the schema allows a string.
    std::optional<JsonReadError> checkConfig(const QString &pluginId, const QJsonObject &config,
                                             const QString &path) const;

private:
    // The schema that loadPlugins and registerFactory enforce: the metadata's "config"
    // read into a ConfigSchema, or why it cannot be.
    struct Schema
    {
        ConfigSchema schema;
        std::optional<JsonReadError> broken;
    };
    static Schema readSchema(const QJsonObject &config);

    QHash<QString, CollectorPluginInfo> m_infos;
    QHash<QString, CollectorFactory *> m_factories;
    QHash<QString, Schema> m_schemas;
};

} // namespace Headroom
