// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/collectorregistry.h"

#include "collectorlogging.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QPluginLoader>

#ifndef HEADROOM_PLUGIN_INSTALL_DIR
#define HEADROOM_PLUGIN_INSTALL_DIR ""
#endif
#ifndef HEADROOM_PLUGIN_SUBDIR
#define HEADROOM_PLUGIN_SUBDIR "lib/headroom/collectors"
#endif

namespace Headroom {

using namespace Qt::StringLiterals;

CollectorRegistry::~CollectorRegistry() = default; // plugin instances are owned by Qt

QStringList CollectorRegistry::defaultPluginDirs()
{
    QStringList dirs;
    const QByteArray env = qgetenv("HEADROOM_PLUGIN_PATH");
    if (!env.isEmpty())
        dirs += QString::fromLocal8Bit(env).split(u':', Qt::SkipEmptyParts);
    if (QCoreApplication::instance()) {
        // The build tree (bin/, lib/headroom/collectors), then an install moved to
        // another prefix or unpacked from the archive (bin/, <libdir>/headroom/collectors).
        const QString bin = QCoreApplication::applicationDirPath();
        dirs += bin + u"/../lib/headroom/collectors"_s;
        dirs += bin + u"/../"_s + QStringLiteral(HEADROOM_PLUGIN_SUBDIR);
    }
    const QString installed = QStringLiteral(HEADROOM_PLUGIN_INSTALL_DIR);
    if (!installed.isEmpty())
        dirs += installed;
    // /usr/bin/../lib/<arch>/headroom/collectors is the install dir: one visit each.
    for (QString &dir : dirs)
        dir = QDir::cleanPath(dir);
    dirs.removeDuplicates();
    return dirs;
}

QStringList CollectorRegistry::loadPlugins(const QStringList &dirs)
{
    QStringList problems;
    for (const QString &dirPath : dirs) {
        QDir dir(dirPath);
        if (!dir.exists())
            continue;
        const auto files = dir.entryList({ u"*.so"_s }, QDir::Files, QDir::Name);
        for (const QString &file : files) {
            const QString path = dir.absoluteFilePath(file);
            QPluginLoader loader(path);
            const QJsonObject meta = loader.metaData().value(u"MetaData"_s).toObject();
            const QString id = meta.value(u"id"_s).toString();
            if (loader.metaData().value(u"IID"_s).toString()
                != QLatin1StringView(HeadroomCollectorFactory_iid))
                continue; // not ours
            if (id.isEmpty()) {
                problems << u"%1: plugin metadata has no \"id\""_s.arg(path);
                continue;
            }
            if (m_factories.contains(id))
                continue; // first directory wins (build tree before install dir)
            Schema schema = readSchema(meta.value(u"config"_s).toObject());
            if (schema.broken) {
                problems << u"%1: config schema: %2"_s.arg(path, schema.broken->toString());
                continue;
            }
            auto *factory = qobject_cast<CollectorFactory *>(loader.instance());
            if (!factory) {
                problems << u"%1: cannot load: %2"_s.arg(path, loader.errorString());
                continue;
            }
            CollectorPluginInfo info;
            info.id = id;
            info.name = meta.value(u"name"_s).toString(id);
            info.description = meta.value(u"description"_s).toString();
            info.configSchema = meta.value(u"config"_s).toObject();
            info.fileName = path;
            m_infos.insert(id, info);
            m_factories.insert(id, factory);
            m_schemas.insert(id, schema);
            qCDebug(lcRegistry) << "loaded collector plugin" << id << "from" << path;
        }
    }
    return problems;
}

void CollectorRegistry::registerFactory(const CollectorPluginInfo &info, CollectorFactory *factory)
{
    Schema schema = readSchema(info.configSchema);
    if (schema.broken)
        qCWarning(lcRegistry) << "collector" << info.id
                              << "config schema:" << schema.broken->toString();
    m_infos.insert(info.id, info);
    m_factories.insert(info.id, factory);
    m_schemas.insert(info.id, schema);
}

CollectorRegistry::Schema CollectorRegistry::readSchema(const QJsonObject &config)
{
    Schema read;
    JsonReadError error;
    if (auto schema = ConfigSchema::fromJson(config, u"config"_s, &error))
        read.schema = std::move(*schema);
    else
        read.broken = error;
    return read;
}

std::optional<JsonReadError> CollectorRegistry::checkConfig(const QString &pluginId,
                                                            const QJsonObject &config,
                                                            const QString &path) const
{
    const auto it = m_schemas.constFind(pluginId);
    if (it == m_schemas.constEnd())
        return std::nullopt;
    if (it->broken)
        return JsonReadError { path,
                               u"cannot be checked: the plugin's "_s + it->broken->toString() };
    return it->schema.check(config, path);
}

CollectorFactory *CollectorRegistry::factory(const QString &id) const
{
    return m_factories.value(id);
}

QList<CollectorPluginInfo> CollectorRegistry::plugins() const
{
    return m_infos.values();
}

} // namespace Headroom
