// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// An imported file made into a cache file: read by readImport (importreader.h) into a
// new cache through its writer, with a dashboard of what it holds stored in it, so that
// it then opens as any recording does (SampleCache::openRecording). Nothing is written
// beside the imported file: the cache goes where the caller says (a private temporary
// folder, or a recording kept with --save-recording).
#pragma once

#include "engine/import/importreader.h"

#include <optional>

namespace Headroom::Import {

struct Imported
{
    Format format = Format::WideCsv;
    qint64 lines = 0;
    qint64 samples = 0; // stored: duplicates of a time in a series counted once
    int series = 0;
    qint64 fromMs = 0, toMs = 0;
};

// Reads file (memory-mapped) into a new cache at cachePath, which must not exist, and
// stores a dashboard for it (importDashboardJson). nullopt with *error ("FILE: line 3:
// ...") when the file is refused; the cache file is removed then.
std::optional<Imported> importIntoCache(const QString &file, const Options &options,
                                        const QString &cachePath, QString *error);

// The dashboard an import opens with: a USE matrix of every series and a time series
// panel per metric, over the file's span.
QByteArray importDashboardJson(const QString &title, const QList<SeriesInfo> &series,
                               qint64 spanMs);

} // namespace Headroom::Import
