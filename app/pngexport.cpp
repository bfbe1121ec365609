// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pngexport.h"

#include "imageexport.h"
#include "literaltext.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QMessageBox>

namespace Headroom {

void exportPng(QWidget *parent, QWidget *widget, const QString &title, const QString &fileName)
{
    const QString path = QFileDialog::getSaveFileName(
        parent, title, fileName, QCoreApplication::translate("MainWindow", "PNG (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!writePng(widget, parent->devicePixelRatioF(), path, &error))
        QMessageBox::warning(parent, QCoreApplication::translate("MainWindow", "Export failed"),
                             literalAutoText(error));
}

} // namespace Headroom
