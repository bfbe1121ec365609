// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "customrangedialog.h"

#include <QCoreApplication>
#include <QDateTimeEdit>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QMessageBox>

namespace Headroom {

using namespace Qt::StringLiterals;

std::optional<std::pair<qint64, qint64>> askCustomRange(QWidget *parent, qint64 from, qint64 to)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QCoreApplication::translate("MainWindow", "Custom time range"));
    auto *form = new QFormLayout(&dialog);
    auto *fromEdit = new QDateTimeEdit(QDateTime::fromMSecsSinceEpoch(from), &dialog);
    auto *toEdit = new QDateTimeEdit(QDateTime::fromMSecsSinceEpoch(to), &dialog);
    fromEdit->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss"_s);
    toEdit->setDisplayFormat(u"yyyy-MM-dd HH:mm:ss"_s);
    fromEdit->setCalendarPopup(true);
    toEdit->setCalendarPopup(true);
    form->addRow(QCoreApplication::translate("MainWindow", "From:"), fromEdit);
    form->addRow(QCoreApplication::translate("MainWindow", "To:"), toEdit);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    const qint64 a = fromEdit->dateTime().toMSecsSinceEpoch();
    const qint64 b = toEdit->dateTime().toMSecsSinceEpoch();
    if (b <= a) {
        QMessageBox::warning(
            parent, QCoreApplication::translate("MainWindow", "Custom time range"),
            QCoreApplication::translate("MainWindow", "The end must be after the start."));
        return std::nullopt;
    }
    return std::pair { a, b };
}

} // namespace Headroom
