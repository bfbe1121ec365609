// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Which alert events become desktop notifications. An incident fires many rules at
// once; a notification per event would bury the desktop. So: only firings (and
// resolutions of critical alerts) notify; one instance notifies at most once per
// InstanceQuietMs; at most Burst notifications per WindowMs overall. What is held back
// is counted and named in the next notification ("and 7 more"), never lost: the alert
// list has every event.
#pragma once

#include "engine/runtime/alertevent.h"

#include <QHash>
#include <deque>
#include <optional>

namespace Headroom {

struct AlertNotification
{
    QString title; // "Critical: CPU utilization above 90 %"
    QString message; // the event's message, then "and N more alerts held back"
    AlertSeverity severity = AlertSeverity::Warning;
};

class NotificationLimiter
{
public:
    static constexpr qint64 InstanceQuietMs = 5 * 60 * 1000;
    static constexpr qint64 WindowMs = 60 * 1000;
    static constexpr int Burst = 3;

    // nowMs is the wall clock when the event reached the GUI.
    std::optional<AlertNotification> offer(const AlertEvent &event, qint64 nowMs);
    int heldBack() const { return m_heldBack; }

private:
    QHash<QString, qint64> m_lastByInstance;
    std::deque<qint64> m_recent; // times of notifications shown within WindowMs
    int m_heldBack = 0;
};

} // namespace Headroom
