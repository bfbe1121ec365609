// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "importdialog.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace Headroom {

namespace {

// A path field with a Browse… button that fills it.
QWidget *pathField(QWidget *parent, QLineEdit *edit, const QString &caption, const QString &filter)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto *browse = new QPushButton(QDialog::tr("Browse…"), row);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, row, [row, edit, caption, filter] {
        const QString path = QFileDialog::getOpenFileName(row, caption, edit->text(), filter);
        if (!path.isEmpty())
            edit->setText(path);
    });
    return row;
}

} // namespace

std::optional<ImportChoice> askImport(QWidget *parent)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QDialog::tr("Import"));
    auto *form = new QFormLayout(&dialog);
    auto *intro = new QLabel(
        QDialog::tr("A wide or long CSV (a Grafana export, a spreadsheet, Headroom's own "
                    "CSV) or OpenMetrics text with timestamps. It is read into a private "
                    "temporary cache; nothing is written beside it."),
        &dialog);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::PlainText);
    form->addRow(intro);
    auto *file = new QLineEdit(&dialog);
    file->setObjectName(QStringLiteral("importFile"));
    form->addRow(QDialog::tr("&File:"),
                 pathField(&dialog, file, QDialog::tr("Import file"),
                           QDialog::tr("Metrics (*.csv *.txt *.prom *.om);;All files (*)")));
    auto *map = new QLineEdit(&dialog);
    map->setObjectName(QStringLiteral("importMap"));
    map->setPlaceholderText(QDialog::tr("optional: what the columns are (JSON)"));
    form->addRow(QDialog::tr("&Map:"),
                 pathField(&dialog, map, QDialog::tr("Import map"),
                           QDialog::tr("Import maps (*.json);;All files (*)")));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QPushButton *ok = buttons->button(QDialogButtonBox::Ok);
    ok->setText(QDialog::tr("&Import"));
    ok->setEnabled(false);
    QObject::connect(file, &QLineEdit::textChanged, ok,
                     [ok](const QString &text) { ok->setEnabled(!text.trimmed().isEmpty()); });
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    dialog.resize(560, dialog.sizeHint().height());
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return ImportChoice { file->text().trimmed(), map->text().trimmed() };
}

} // namespace Headroom
