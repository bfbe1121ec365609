// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#pragma once

#include <QMetaType>
#include <QString>

namespace Headroom {

enum class SourceState
{
    Starting,
    Ok,
    Stale,
    Error,
    Stopped
};

QString sourceStateName(SourceState state);

// What the window's status area shows for one configured source.
struct SourceStatus
{
    QString sourceId;
    QString plugin;
    SourceState state = SourceState::Starting;
    QString message; // the reason for Stale/Error, warnings for Ok
    qint64 lastSuccessMs = 0; // end of the last poll that delivered samples
    int lastPollDurationMs = 0;
    int seriesCount = 0; // values in the last successful batch
    // New series the bus refused in the last poll because the source had registered
    // seriesCap of them (SeriesRegistry::admit); also named in the message.
    int droppedSeries = 0;
    int seriesCap = 0;
};

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::SourceStatus)
