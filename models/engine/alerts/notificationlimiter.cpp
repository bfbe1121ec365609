// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/alerts/notificationlimiter.h"

namespace Headroom {

using namespace Qt::StringLiterals;

std::optional<AlertNotification> NotificationLimiter::offer(const AlertEvent &event, qint64 nowMs)
{
    const bool worth = event.state == AlertState::Firing
        || (event.state == AlertState::Resolved && event.severity == AlertSeverity::Critical);
    if (!worth || event.severity == AlertSeverity::Info)
        return std::nullopt;
    const QString instance = event.instanceKey() + u'\x1f' + alertStateName(event.state);
    const auto last = m_lastByInstance.constFind(instance);
    if (last != m_lastByInstance.cend() && nowMs - *last < InstanceQuietMs) {
        ++m_heldBack;
        return std::nullopt;
    }
    while (!m_recent.empty() && nowMs - m_recent.front() >= WindowMs)
        m_recent.pop_front();
    if (int(m_recent.size()) >= Burst) {
        ++m_heldBack;
        return std::nullopt;
    }
    m_recent.push_back(nowMs);
    m_lastByInstance.insert(instance, nowMs);

    AlertNotification n;
    n.severity = event.severity;
    const QString severity
        = event.severity == AlertSeverity::Critical ? u"Critical"_s : u"Warning"_s;
    n.title = (event.state == AlertState::Resolved ? u"Resolved"_s : severity) + u": "_s
        + event.ruleName;
    n.message = event.message;
    if (m_heldBack > 0) {
        n.message += u"\n(and %1 more alert notification(s) held back; see the alert list)"_s.arg(
            m_heldBack);
        m_heldBack = 0;
    }
    return n;
}

} // namespace Headroom
