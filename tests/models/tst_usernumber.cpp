// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Numbers typed into the editors (core/usernumber.h): the C way in every locale, the
// user's way as well.
#include "core/usernumber.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestUserNumber : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
};

void TestUserNumber::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("locale");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<double>("value");
    for (const QString &locale : { u"C"_s, u"en_US"_s, u"de_DE"_s }) {
        const auto row = [&](const char *name) {
            return &QTest::newRow(qPrintable(locale + u' ' + QLatin1StringView(name)));
        };
        *row("C decimal point") << u"1.5"_s << locale << true << 1.5;
        *row("integer") << u"42"_s << locale << true << 42.0;
        *row("trimmed") << u"  -0.25 "_s << locale << true << -0.25;
        *row("exponent") << u"1e3"_s << locale << true << 1000.0;
        *row("empty") << u""_s << locale << false << 0.0;
        *row("blank") << u"   "_s << locale << false << 0.0;
        *row("word") << u"high"_s << locale << false << 0.0;
        *row("infinity") << u"inf"_s << locale << false << 0.0;
        *row("nan") << u"nan"_s << locale << false << 0.0;
        *row("overflow") << u"1e999"_s << locale << false << 0.0;
    }
    // The user's own decimal comma, where it is theirs.
    QTest::newRow("de_DE decimal comma") << u"1,5"_s << u"de_DE"_s << true << 1.5;
    QTest::newRow("en_US no decimal comma") << u"1,5"_s << u"en_US"_s << false << 0.0;
    QTest::newRow("C no decimal comma") << u"1,5"_s << u"C"_s << false << 0.0;
}

void TestUserNumber::parse()
{
    QFETCH(QString, text);
    QFETCH(QString, locale);
    QFETCH(bool, ok);
    QFETCH(double, value);
    const std::optional<double> parsed = parseUserNumber(text, QLocale(locale));
    QCOMPARE(parsed.has_value(), ok);
    if (ok)
        QCOMPARE(*parsed, value);
}

QTEST_GUILESS_MAIN(TestUserNumber)
#include "tst_usernumber.moc"
