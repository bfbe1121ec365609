// Finds collector plugins (MODULE libraries with JSON metadata) and hands out their
// factories by id. Tests and embedders may also register in-process factories.
#pragma once

#include "collector/collector.h"

#include <QHash>
#include <QJsonObject>
#include <QStringList>

namespace Headroom {

struct CollectorPluginInfo
{
    QString id;
    QString name;
    QString description;
    QJsonObject configSchema;
    QString fileName; // empty for in-process factories
};

class CollectorRegistry
{
public:
    CollectorRegistry() = default;
    ~CollectorRegistry();
    CollectorRegistry(const CollectorRegistry &) = delete;
    CollectorRegistry &operator=(const CollectorRegistry &) = delete;

    // bin/../lib/headroom/collectors, the install dir, and $HEADROOM_PLUGIN_PATH.
    static QStringList defaultPluginDirs();

    // Loads every plugin found; problems (bad metadata, load failure) are returned,
    // one line each, naming the file.
    QStringList loadPlugins(const QStringList &dirs = defaultPluginDirs());
    // Does not take ownership.
    void registerFactory(const CollectorPluginInfo &info, CollectorFactory *factory);

    CollectorFactory *factory(const QString &id) const;
    QList<CollectorPluginInfo> plugins() const;

private:
    QHash<QString, CollectorPluginInfo> m_infos;
    QHash<QString, CollectorFactory *> m_factories;
};

} // namespace Headroom
