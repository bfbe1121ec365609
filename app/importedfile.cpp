// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "importedfile.h"

#include "hostmetrics.h"
#include "nicmetrics.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace Headroom {

Import::Catalogue headroomCatalogue()
{
    static const QHash<QString, const MetricSpec *> byName = [] {
        QHash<QString, const MetricSpec *> names;
        for (const auto *list : { &HostMetrics::all(), &NicMetrics::all() })
            for (const MetricSpec *spec : *list)
                names.insert(spec->name, spec);
        return names;
    }();
    return [](const QString &metric) { return byName.value(metric, nullptr); };
}

bool ImportedFile::import(const QString &file, const QString &mapFile, QString *error)
{
    Import::Options options;
    options.fileName = file;
    options.catalogue = headroomCatalogue();
    if (!mapFile.isEmpty()) {
        options.map = Import::loadImportMap(mapFile, error);
        if (!options.map)
            return false;
    }
    // QTemporaryDir makes its folder 0700: the samples are for this user only.
    auto dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/headroom-import-XXXXXX"_s);
    if (!dir->isValid()) {
        *error = u"cannot make a temporary folder for the import: "_s + dir->errorString();
        return false;
    }
    const QString path = dir->filePath(QFileInfo(file).completeBaseName() + u".sqlite"_s);
    const auto imported = Import::importIntoCache(file, options, path, error);
    if (!imported)
        return false;
    m_dir = std::move(dir);
    m_cachePath = path;
    m_summary = *imported;
    return true;
}

QString ImportedFile::description() const
{
    const auto at = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODate);
    };
    return u"%1, %2 series, %3 samples, %4 to %5"_s.arg(Import::formatName(m_summary.format))
        .arg(m_summary.series)
        .arg(m_summary.samples)
        .arg(at(m_summary.fromMs), at(m_summary.toMs));
}

} // namespace Headroom
