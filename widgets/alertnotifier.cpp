#include "alertnotifier.h"

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
        if (m_tray && m_tray->isVisible()) {
            const auto icon = notification->severity == AlertSeverity::Critical
                ? QSystemTrayIcon::Critical
                : QSystemTrayIcon::Warning;
            m_tray->showMessage(notification->title, notification->message, icon, 10000);
        }
        Q_EMIT notified(notification->title, notification->message);
    }
}

} // namespace Headroom
