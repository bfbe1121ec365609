// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// File ▸ Save Recording As… and --save-recording: a new, compact, self-contained cache
// file holding one span of every series of an open cache, the alert events in it and the
// dashboards it was watched with, so that it opens elsewhere (--recording) with the same
// panels and the same figures.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>
#include <utility>

namespace Headroom {

class SampleCache;
class SeriesRegistry;

struct SavedRecording
{
    qint64 series = 0; // series with data in the span
    qint64 samples = 0;
    qint64 histograms = 0;
    qint64 alertEvents = 0;
    qint64 bytes = 0; // the file's size
};

// Writes [fromMs, toMs] of every series of registry stored in source to target, with
// dashboards (name, JSON). The file is written beside target under a temporary name and
// renamed over it only when complete: an existing target is replaced whole or not at all.
// The source is only read (flush it first so the last second is in). Runs on any thread;
// nullopt with *error naming the file and the reason when it cannot be written.
std::optional<SavedRecording> saveRecording(const SampleCache &source,
                                            const SeriesRegistry &registry, qint64 fromMs,
                                            qint64 toMs,
                                            const QList<std::pair<QString, QByteArray>> &dashboards,
                                            const QString &target, QString *error);

// Stores dashboards (name, JSON) into the closed cache file at path (no writer may have
// it open). False with *reason when it cannot.
bool storeRecordingDashboards(const QString &path,
                              const QList<std::pair<QString, QByteArray>> &dashboards,
                              QString *reason);

} // namespace Headroom
