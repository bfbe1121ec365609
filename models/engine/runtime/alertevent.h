// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One change of an alert instance's state, as stored in the cache, listed in the alert
// panel, drawn on charts and written to CSV.
#pragma once

#include "core/series.h"
#include "document/alertrule.h"

#include <QList>
#include <QMetaType>

namespace Headroom {

struct AlertEvent
{
    qint64 id = 0; // the cache's row id; 0 before it is stored
    qint64 tsMs = 0;
    QString ruleId;
    QString ruleName;
    SeriesKey series;
    AlertState state = AlertState::Ok;
    double value = qQNaN(); // the reduced value that caused it; NaN: no data
    AlertSeverity severity = AlertSeverity::Warning;
    QString message;
    QString hint;
    bool acknowledged = false;

    // The instance an event belongs to: one rule on one series.
    QString instanceKey() const { return ruleId + u'\x1f' + series.toString(); }
};

// A span of time an instance was firing (or pending), from the events of one range:
// what charts shade. endMs is the range's end when it had not resolved by then.
struct AlertSpan
{
    QString ruleId;
    QString ruleName;
    SeriesKey series;
    AlertSeverity severity = AlertSeverity::Warning;
    qint64 startMs = 0;
    qint64 endMs = 0;
    bool open = false; // still firing at the range's end
};

// Firing spans from events sorted by time. An instance firing before the first event
// of the list (its firing event is older) is not known here; pass events from early
// enough. Spans are clipped to [fromMs, toMs].
QList<AlertSpan> alertFiringSpans(const QList<AlertEvent> &events, qint64 fromMs, qint64 toMs);

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::AlertEvent)
