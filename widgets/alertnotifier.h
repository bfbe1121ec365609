// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Desktop notifications of alert events through the system tray, rate-limited by
// NotificationLimiter. Without a tray (no notification area on this desktop) the
// notification is still emitted as notified(), which the main window shows in its
// status bar.
#pragma once

#include "engine/alerts/notificationlimiter.h"

#include <QObject>

class QSystemTrayIcon;

namespace Headroom {

class AlertNotifier : public QObject
{
    Q_OBJECT
public:
    explicit AlertNotifier(QObject *parent = nullptr);

    // The tray icon to show messages on, or nullptr; not owned.
    void setTrayIcon(QSystemTrayIcon *icon);
    const NotificationLimiter &limiter() const { return m_limiter; }
    int shownCount() const { return m_shown; }

    void notify(const QList<Headroom::AlertEvent> &events);

Q_SIGNALS:
    void notified(const QString &title, const QString &message);

private:
    QSystemTrayIcon *m_tray = nullptr;
    NotificationLimiter m_limiter;
    int m_shown = 0;
};

} // namespace Headroom
