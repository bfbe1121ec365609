// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The bar above an untrusted dashboard: it lists what the file would do (plain text,
// never markup), cuts a long list with a count, and "Trust and connect" hides it and
// asks the window to trust; "Stay disconnected" only hides it.
#include "trustbar.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestTrustBar : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listsAndTrusts();
    void staysDisconnected();
};

void TestTrustBar::listsAndTrusts()
{
    TrustBar bar;
    QStringList lines;
    for (int i = 0; i < 9; ++i)
        lines << u"source \"pg%1\" connects to host=<b>db%1</b>"_s.arg(i);
    bar.showRequest(u"mailed.json"_s, lines);
    QVERIFY(!bar.isHidden());
    const QLabel *text = bar.findChild<QLabel *>();
    QVERIFY(text);
    QCOMPARE(text->textFormat(), Qt::PlainText);
    QVERIFY(text->text().startsWith(u"mailed.json is a dashboard you have not trusted yet"_s));
    QVERIFY(text->text().contains(u"source \"pg5\" connects to host=<b>db5</b>"_s));
    QVERIFY(!text->text().contains(u"pg6"_s));
    QVERIFY(text->text().contains(u"… and 3 more (hover to see all)"_s));
    QVERIFY(text->toolTip().contains(u"host=&lt;b&gt;db8&lt;/b&gt;"_s));
    QSignalSpy trusted(&bar, &TrustBar::trustRequested);
    auto *button = bar.findChild<QPushButton *>(u"trustButton"_s);
    QVERIFY(button);
    button->click();
    QCOMPARE(trusted.count(), 1);
    QVERIFY(bar.isHidden());
}

void TestTrustBar::staysDisconnected()
{
    TrustBar bar;
    bar.showRequest(u"a.json"_s, { u"source \"pg\" runs SQL (queries[0].sql): SELECT 1"_s });
    QSignalSpy trusted(&bar, &TrustBar::trustRequested);
    for (const auto buttons = bar.findChildren<QPushButton *>(); QPushButton * button : buttons) {
        if (button->objectName() != "trustButton"_L1)
            button->click();
    }
    QVERIFY(bar.isHidden());
    QCOMPARE(trusted.count(), 0);
}

QTEST_MAIN(TestTrustBar)
#include "tst_trustbar.moc"
