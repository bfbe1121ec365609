// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Settings ▸ Keep History…: three spin boxes that keep each tier at least as long as the
// one below it, and nothing returned on Cancel or when nothing changed.
#include "retentiondialog.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QTimer>
#include <functional>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

// Runs `act` on the dialog once it is shown (it is modal: exec() returns after). A
// failed check inside `act` returns early; Cancel closes the dialog in any case, so the
// test fails on its result instead of hanging.
void onDialog(const std::function<void(QDialog *)> &act)
{
    QTimer::singleShot(0, qApp, [act] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            return; // nothing to close: exec() was not reached
        act(dialog);
        if (dialog->isVisible())
            dialog->reject();
    });
}

QSpinBox *box(QDialog *dialog, const char *name)
{
    return dialog->findChild<QSpinBox *>(QString::fromLatin1(name));
}

void press(QDialog *dialog, QDialogButtonBox::StandardButton which)
{
    dialog->findChild<QDialogButtonBox *>()->button(which)->click();
}

} // namespace

class TestRetentionDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tiersNeverShorterThanTheOneBelow();
    void cancelAndUnchangedGiveNothing();
};

void TestRetentionDialog::tiersNeverShorterThanTheOneBelow()
{
    onDialog([](QDialog *dialog) {
        QCOMPARE(box(dialog, "rawDays")->value(), 30);
        QCOMPARE(box(dialog, "minuteDays")->value(), 90);
        box(dialog, "rawDays")->setValue(120); // minutes follow up
        QCOMPARE(box(dialog, "minuteDays")->value(), 120);
        box(dialog, "hourDays")->setValue(100); // minutes, then samples follow down
        QCOMPARE(box(dialog, "minuteDays")->value(), 100);
        QCOMPARE(box(dialog, "rawDays")->value(), 100);
        QCOMPARE(box(dialog, "hourDays")->maximum(), 400);
        press(dialog, QDialogButtonBox::Ok);
    });
    const auto chosen = askRetention(nullptr, { 30, 90, 400 });
    QVERIFY(chosen);
    QCOMPARE(*chosen, (RetentionDays { 100, 100, 100 }));
}

void TestRetentionDialog::cancelAndUnchangedGiveNothing()
{
    onDialog([](QDialog *dialog) {
        box(dialog, "rawDays")->setValue(10);
        press(dialog, QDialogButtonBox::Cancel);
    });
    QVERIFY(!askRetention(nullptr, { 30, 90, 400 }));
    onDialog([](QDialog *dialog) { press(dialog, QDialogButtonBox::Ok); });
    QVERIFY(!askRetention(nullptr, { 30, 90, 400 }));
}

QTEST_MAIN(TestRetentionDialog)
#include "tst_retentiondialog.moc"
