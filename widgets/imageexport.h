// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Renders widgets to PNG at a chosen scale (2 = HiDPI), on screen or off.
#pragma once

#include <QImage>
#include <QString>

class QWidget;

namespace Headroom {

QImage renderWidget(QWidget *widget, qreal scale);
bool writePng(QWidget *widget, qreal scale, const QString &path, QString *error);

} // namespace Headroom
