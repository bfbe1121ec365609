// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "imageexport.h"

#include <QPainter>
#include <QSaveFile>
#include <QWidget>

namespace Headroom {

using namespace Qt::StringLiterals;

QImage renderWidget(QWidget *widget, qreal scale)
{
    const QSize size = widget->size();
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().window().color());
    QPainter painter(&image);
    widget->render(&painter, QPoint(), QRegion(),
                   QWidget::DrawChildren | QWidget::DrawWindowBackground);
    return image;
}

bool writePng(QWidget *widget, qreal scale, const QString &path, QString *error)
{
    const QImage image = renderWidget(widget, scale);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        *error = u"%1: cannot write PNG: %2"_s.arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Headroom
