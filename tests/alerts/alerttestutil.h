// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers shared by the alert tests (tests/alerts and the GUI tests in tests/gui).
#pragma once

#include "engine/runtime/alertevent.h"

#include <QDateTime>
#include <QStringList>

namespace Headroom::AlertTest {

// An hour ago on a whole second: recent enough for the cache's 7-day retention.
inline qint64 recentBase()
{
    return QDateTime::currentMSecsSinceEpoch() / 1000 * 1000 - 3600'000;
}

// An event `seconds` after base with a message naming the series and the second.
inline AlertEvent makeEvent(qint64 base, qint64 seconds, AlertState state, const SeriesKey &series,
                            AlertSeverity severity = AlertSeverity::Critical)
{
    AlertEvent e;
    e.tsMs = base + seconds * 1000;
    e.ruleId = QStringLiteral("cpu");
    e.ruleName = QStringLiteral("CPU high");
    e.series = series;
    e.state = state;
    e.value = 95;
    e.severity = severity;
    e.message = QStringLiteral("%1: CPU 95 % (%2 s)").arg(series.source).arg(seconds);
    e.hint = QStringLiteral("top");
    return e;
}

// "12:firing" per event: seconds after base and state, for compact comparisons.
inline QStringList eventStates(const QList<AlertEvent> &events, qint64 base)
{
    QStringList out;
    for (const AlertEvent &e : events)
        out << QStringLiteral("%1:%2").arg((e.tsMs - base) / 1000).arg(alertStateName(e.state));
    return out;
}

} // namespace Headroom::AlertTest
