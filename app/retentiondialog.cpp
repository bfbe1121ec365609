// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "retentiondialog.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace Headroom {

namespace {

QSpinBox *daysBox(int value, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(MinRetentionDays, MaxRetentionDays);
    box->setSuffix(QDialog::tr(" days"));
    box->setValue(value);
    return box;
}

} // namespace

std::optional<RetentionDays> askRetention(QWidget *parent, const RetentionDays &current)
{
    QDialog dialog(parent);
    dialog.setWindowTitle(QDialog::tr("Keep History"));
    auto *layout = new QVBoxLayout(&dialog);
    auto *intro = new QLabel(
        QDialog::tr("Older history is dropped: raw samples a whole day at a time, rollups an "
                    "hour or a day at a time. Long ranges are drawn from the rollups (sums, "
                    "counts, minima and maxima per minute and per hour), so they outlive the "
                    "samples. A recording is never trimmed."),
        &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    QSpinBox *raw = daysBox(current.raw, &dialog);
    QSpinBox *minute = daysBox(std::max(current.minute, current.raw), &dialog);
    QSpinBox *hour = daysBox(std::max({ current.hour, current.minute, current.raw }), &dialog);
    raw->setObjectName(QStringLiteral("rawDays"));
    minute->setObjectName(QStringLiteral("minuteDays"));
    hour->setObjectName(QStringLiteral("hourDays"));
    form->addRow(QDialog::tr("&Samples:"), raw);
    form->addRow(QDialog::tr("Per-&minute rollups:"), minute);
    form->addRow(QDialog::tr("Per-&hour rollups:"), hour);
    layout->addLayout(form);
    // Each tier at least as long as the one below: raising one raises those above it.
    QObject::connect(raw, &QSpinBox::valueChanged, minute,
                     [=](int days) { minute->setValue(std::max(minute->value(), days)); });
    QObject::connect(minute, &QSpinBox::valueChanged, hour, [=](int days) {
        hour->setValue(std::max(hour->value(), days));
        raw->setValue(std::min(raw->value(), days));
    });
    QObject::connect(hour, &QSpinBox::valueChanged, minute,
                     [=](int days) { minute->setValue(std::min(minute->value(), days)); });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    const RetentionDays chosen { raw->value(), minute->value(), hour->value() };
    if (chosen == current)
        return std::nullopt;
    return chosen;
}

} // namespace Headroom
