// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// "Test connection" for a source being set up: the real collector, made as the session
// makes it (sourceinstance.h), polled a few times on the calling thread (run it on a
// worker, never the GUI thread), with what it would collect and what it says about
// itself: the error that stops it, warnings (a missing extension or privilege, an
// interface without a link speed), notes (which method it uses).
#pragma once

#include "collector/collectorregistry.h"
#include "document/dashboard.h"

#include <QStringList>
#include <atomic>

namespace Headroom {

struct SourceProbeResult
{
    QString error; // empty: every poll succeeded
    QStringList warnings; // distinct, in the order first seen
    QStringList notes;
    int polls = 0; // polls made (stops at the first error)
    int series = 0; // distinct series (values and histograms) of the last poll
    QStringList metrics; // their distinct metric names, sorted
    qint64 tookMs = 0;
};

// Polls the source at `index` of dashboard `polls` times, each within the source's
// timeout, its interval apart but at most MaxProbeGapMs (a rate needs two polls, not a
// whole minute of waiting). Set *cancel to stop between polls (the result then says
// "cancelled").
constexpr int MaxProbeGapMs = 2000;
SourceProbeResult probeSource(const CollectorRegistry &collectors, const Dashboard &dashboard,
                              qsizetype index, const QMap<QString, QString> &values, int polls = 2,
                              const std::atomic<bool> *cancel = nullptr);

// "152 series, 31 metrics (pg.activity.sessions, ...)", the warnings and notes, or the
// error: the dialog's words for a result.
QString describeProbe(const SourceProbeResult &result);

} // namespace Headroom
