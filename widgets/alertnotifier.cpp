// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "alertnotifier.h"

#include "widgetslogging.h"

#include <QDateTime>
#include <QSystemTrayIcon>

namespace Headroom {

AlertNotifier::AlertNotifier(QObject *parent)
    : QObject(parent)
{
}

void AlertNotifier::setTrayIcon(QSystemTrayIcon *icon)
{
    m_tray = icon;
}

void AlertNotifier::notify(const QList<AlertEvent> &events)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const AlertEvent &event : events) {
        const auto notification = m_limiter.offer(event, now);
        if (!notification)
            continue;
        ++m_shown;
        const bool tray = m_tray && m_tray->isVisible();
        qCInfo(lcAlerts).noquote()
            << "notification in the" << (tray ? "system tray:" : "status bar:")
            << notification->title << "—" << notification->message.section(u'\n', 0, 0);
        if (tray) {
            const auto icon = notification->severity == AlertSeverity::Critical
                ? QSystemTrayIcon::Critical
                : QSystemTrayIcon::Warning;
            m_tray->showMessage(notification->title, notification->message, icon, 10000);
        }
        Q_EMIT notified(notification->title, notification->message);
    }
}

} // namespace Headroom
