// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the title bar and the status bar say while a recording is open: that it is
// read-only, which file, what it watched and the span it covers. GUI-free (tested).
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <utility>

namespace Headroom {

struct RecordingSummary
{
    QString title; // "incident.sqlite — recording, read-only"
    QString status; // "Recording, read-only: host, pg:orders — 2026-11-12 09:00 to ... (3 h)"
};

RecordingSummary summarizeRecording(const QString &path, const QStringList &sources,
                                    const std::optional<std::pair<qint64, qint64>> &span);

} // namespace Headroom
