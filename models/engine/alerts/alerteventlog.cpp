// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/alerts/alerteventlog.h"

#include <algorithm>

namespace Headroom {

void AlertEventLog::append(const QList<AlertEvent> &events)
{
    QMutexLocker locker(&m_lock);
    for (const AlertEvent &event : events)
        m_events.push_back(event);
    while (m_events.size() > Capacity)
        m_events.pop_front();
}

void AlertEventLog::markAcknowledged(const QString &ruleId, const SeriesKey &series, qint64 upToMs)
{
    QMutexLocker locker(&m_lock);
    for (AlertEvent &event : m_events)
        if (event.ruleId == ruleId && event.series == series && event.tsMs <= upToMs
            && (event.state == AlertState::Pending || event.state == AlertState::Firing))
            event.acknowledged = true;
}

QList<AlertEvent> AlertEventLog::read(qint64 fromMs, qint64 toMs) const
{
    QMutexLocker locker(&m_lock);
    QList<AlertEvent> out;
    for (const AlertEvent &event : m_events)
        if (event.tsMs >= fromMs && event.tsMs <= toMs)
            out.append(event);
    // Appended in evaluation order, which is time order per series but not across
    // sources: sort, keeping that order for equal times.
    std::stable_sort(out.begin(), out.end(),
                     [](const AlertEvent &a, const AlertEvent &b) { return a.tsMs < b.tsMs; });
    return out;
}

bool sameAlertEvent(const AlertEvent &a, const AlertEvent &b)
{
    return a.tsMs == b.tsMs && a.state == b.state && a.ruleId == b.ruleId && a.series == b.series;
}

} // namespace Headroom
