// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// --import FILE and File ▸ Import…: a file of another tool's metrics made into a
// recording in a private temporary folder (0700, removed with this object), which then
// opens like any recording. Nothing is written beside the imported file.
#pragma once

#include "engine/import/cacheimport.h"

#include <QTemporaryDir>
#include <memory>

namespace Headroom {

// The collectors' catalogues (host, NIC) by metric name, so that an imported series
// named like one of Headroom's own takes its unit, kind and resource.
Import::Catalogue headroomCatalogue();

class ImportedFile
{
public:
    // Reads file (with the map at mapFile, when given) into a new private cache.
    // False with *error ("bad.csv: line 3: ...") when it is refused.
    bool import(const QString &file, const QString &mapFile, QString *error);
    // The cache to open as a recording; valid while this object lives.
    QString cachePath() const { return m_cachePath; }
    const Import::Imported &summary() const { return m_summary; }
    // "wide CSV, 50 series, 1000000 samples, 2026-03-01 12:00 to 13:00 UTC".
    QString description() const;

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_cachePath;
    Import::Imported m_summary;
};

} // namespace Headroom
