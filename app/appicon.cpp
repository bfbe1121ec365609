// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "appicon.h"

#include <QPainter>
#include <QPixmap>

namespace Headroom {

QIcon appIcon()
{
    QIcon icon;
    for (int size : { 16, 22, 32, 48, 64 }) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x26, 0x32, 0x38));
        p.drawRoundedRect(QRectF(0, 0, size, size), size / 6.0, size / 6.0);
        const double w = size / 5.0;
        const double heights[] = { 0.3, 0.5, 0.75 };
        const QColor colors[]
            = { QColor(0x2c, 0xa0, 0x2c), QColor(0xe0, 0x9a, 0x00), QColor(0xd6, 0x27, 0x28) };
        for (int i = 0; i < 3; ++i) {
            const double h = heights[i] * size;
            p.setBrush(colors[i]);
            p.drawRect(QRectF(w * 0.8 + i * w * 1.2, size - size / 8.0 - h, w, h));
        }
        p.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace Headroom
