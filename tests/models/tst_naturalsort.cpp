// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Natural order (core/naturalsort.h) with its two case rules: the USE matrix's rows
// (case-sensitive) and the series tree (case-insensitive).
#include "core/naturalsort.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestNaturalSort : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compare_data();
    void compare();
    void sortsNames();
};

void TestNaturalSort::compare_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("sensitive"); // sign of naturalCompare, Qt::CaseSensitive
    QTest::addColumn<int>("insensitive"); // and Qt::CaseInsensitive

    QTest::newRow("digits by value") << u"sda2"_s << u"sda10"_s << -1 << -1;
    QTest::newRow("digits by value, reversed") << u"eth10"_s << u"eth9"_s << 1 << 1;
    QTest::newRow("label values") << u"cpu=2"_s << u"cpu=10"_s << -1 << -1;
    QTest::newRow("equal") << u"nvme0n1"_s << u"nvme0n1"_s << 0 << 0;
    QTest::newRow("leading zeros tie, then plain order") << u"a01"_s << u"a1"_s << -1 << -1;
    QTest::newRow("prefix first") << u"sda"_s << u"sda1"_s << -1 << -1;
    QTest::newRow("empty first") << u""_s << u"a"_s << -1 << -1;
    // Case: code units ('B' < 'a') or folded ("a" < "B"); a tie by folding is broken
    // by plain comparison.
    QTest::newRow("case") << u"a"_s << u"B"_s << 1 << -1;
    QTest::newRow("case tie") << u"Eth0"_s << u"eth0"_s << -1 << -1;
    QTest::newRow("case before digits") << u"Disk10"_s << u"disk9"_s << -1 << 1;
    QTest::newRow("non-ASCII folded") << u"École"_s << u"éa"_s << -1 << 1;
    QTest::newRow("long numbers") << u"x123456789012345678901"_s << u"x99"_s << 1 << 1;
}

void TestNaturalSort::compare()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, sensitive);
    QFETCH(int, insensitive);
    const auto sign = [](int c) { return (c > 0) - (c < 0); };
    QCOMPARE(sign(naturalCompare(a, b, Qt::CaseSensitive)), sensitive);
    QCOMPARE(sign(naturalCompare(b, a, Qt::CaseSensitive)), -sensitive);
    QCOMPARE(sign(naturalCompare(a, b, Qt::CaseInsensitive)), insensitive);
    QCOMPARE(naturalLess(a, b, Qt::CaseSensitive), sensitive < 0);
    QCOMPARE(naturalLess(a, b, Qt::CaseInsensitive), insensitive < 0);
}

void TestNaturalSort::sortsNames()
{
    QStringList names { u"sdb"_s, u"sda10"_s, u"Sda3"_s, u"sda2"_s, u"sda"_s };
    std::sort(names.begin(), names.end(), [](const QString &a, const QString &b) {
        return naturalLess(a, b, Qt::CaseInsensitive);
    });
    QCOMPARE(names, (QStringList { u"sda"_s, u"sda2"_s, u"Sda3"_s, u"sda10"_s, u"sdb"_s }));
    std::sort(names.begin(), names.end(), [](const QString &a, const QString &b) {
        return naturalLess(a, b, Qt::CaseSensitive);
    });
    QCOMPARE(names, (QStringList { u"Sda3"_s, u"sda"_s, u"sda2"_s, u"sda10"_s, u"sdb"_s }));
}

QTEST_GUILESS_MAIN(TestNaturalSort)
#include "tst_naturalsort.moc"
