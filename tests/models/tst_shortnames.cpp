// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Short names where there is little room (core/shortnames.h): what every name shares at
// its start or end is dropped at a separator, what is still too long loses its middle,
// and different names never read the same, even when they differ only in what the cut
// left out.
#include "core/shortnames.h"

#include <QSet>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestShortNames : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shortNames_data();
    void shortNames();
    void distinct_data();
    void distinct();
    void elideMiddle_data();
    void elideMiddle();
};

void TestShortNames::shortNames_data()
{
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QStringList>("expected");

    const QString e(ShortNameEllipsis);
    QTest::newRow("shared schema")
        << QStringList { u"public.orders_p1"_s, u"public.orders_p2"_s, u"public.orders_p10"_s }
        << 40 << QStringList { u"orders_p1"_s, u"orders_p2"_s, u"orders_p10"_s };
    QTest::newRow("shared prefix and suffix")
        << QStringList { u"db.tup_returned.rate app"_s, u"db.tup_fetched.rate app"_s,
                         u"db.tup_inserted.rate app"_s }
        << 40 << QStringList { u"tup_returned"_s, u"tup_fetched"_s, u"tup_inserted"_s };
    QTest::newRow("cut at a separator, not inside a word")
        << QStringList { u"shard-alpha"_s, u"shard-beta"_s } << 40
        << QStringList { u"shard-alpha"_s, u"shard-beta"_s };
    QTest::newRow("a name that is all prefix keeps a word")
        << QStringList { u"pg.db"_s, u"pg.db.x"_s } << 40 << QStringList { u"db"_s, u"db.x"_s };
    QTest::newRow("one name is left whole")
        << QStringList { u"public.orders_p1"_s } << 40 << QStringList { u"public.orders_p1"_s };
    QTest::newRow("equal names are left whole")
        << QStringList { u"public.a"_s, u"public.a"_s } << 40
        << QStringList { u"public.a"_s, u"public.a"_s };
    QTest::newRow("cut in the middle") << QStringList { u"alpha-one-two-three-omega"_s, u"x"_s }
                                       << 9 << QStringList { u"alph"_s + e + u"mega"_s, u"x"_s };
    QTest::newRow("never fewer than the minimum") << QStringList { u"abcdefghij"_s, u"x"_s } << 1
                                                  << QStringList { u"ab"_s + e + u"ij"_s, u"x"_s };
    QTest::newRow("differ only in the middle")
        << QStringList { u"aaaaaaaa1zzzzzzzz"_s, u"aaaaaaaa2zzzzzzzz"_s } << 9
        << QStringList { e + u"aa1zzzz"_s + e, e + u"aa2zzzz"_s + e };
    QTest::newRow("differ at the start, end cut")
        << QStringList { u"1bbbbbbbbbbbbbbbbzz"_s, u"1bbbbbbbbbbbbbbbbyy"_s,
                         u"2bbbbbbbbbbbbbbbbzz"_s }
        << 7
        << QStringList { u"1bb"_s + e + u"bzz"_s, u"1bb"_s + e + u"byy"_s,
                         u"2bb"_s + e + u"bzz"_s };
}

void TestShortNames::shortNames()
{
    QFETCH(QStringList, names);
    QFETCH(int, maxChars);
    QFETCH(QStringList, expected);
    QCOMPARE(distinctShortNames(names, maxChars), expected);
}

// Whatever the names, different ones read differently and none is longer than asked.
void TestShortNames::distinct_data()
{
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<int>("maxChars");

    QStringList shards;
    for (int i = 1; i <= 12; ++i)
        shards << u"public.kv_hot_partitioned_p%1"_s.arg(i);
    QTest::newRow("twelve shards in 8") << shards << 8;
    QTest::newRow("twelve shards in 5") << shards << 5;
    QStringList middle;
    for (int i = 0; i < 10; ++i)
        middle << u"%1-shared-by-all-%2-of-them-here"_s.arg(u"x"_s.repeated(30)).arg(i);
    QTest::newRow("differ deep in the middle") << middle << 6;
    QStringList nested;
    for (const QString &a : { u"a"_s, u"b"_s })
        for (const QString &b : { u"c"_s, u"d"_s })
            nested << u"same-start-%1-and-a-long-shared-part-%2-end"_s.arg(a, b);
    QTest::newRow("two places of difference") << nested << 8;
    QTest::newRow("prefixes of each other")
        << QStringList { u"abcdefghijklmnop"_s, u"abcdefghijklmnopq"_s, u"abcdefghijklmnopqr"_s }
        << 6;
    QTest::newRow("surrogate pairs")
        << QStringList { u"\U0001F600\U0001F600\U0001F600\U0001F600a"_s,
                         u"\U0001F600\U0001F600\U0001F600\U0001F600b"_s }
        << 6;
}

void TestShortNames::distinct()
{
    QFETCH(QStringList, names);
    QFETCH(int, maxChars);
    const QStringList shown = distinctShortNames(names, maxChars);
    QCOMPARE(shown.size(), names.size());
    QSet<QString> seen;
    for (qsizetype i = 0; i < shown.size(); ++i) {
        QVERIFY2(shown.at(i).size() <= std::max(maxChars, MinShortNameChars),
                 qPrintable(shown.at(i)));
        QVERIFY2(!shown.at(i).isEmpty(), qPrintable(names.at(i)));
        QVERIFY2(!seen.contains(shown.at(i)), qPrintable(shown.join(u" | "_s)));
        seen.insert(shown.at(i));
        // Never half a surrogate pair.
        for (qsizetype c = 0; c < shown.at(i).size(); ++c) {
            const QChar ch = shown.at(i).at(c);
            if (ch.isHighSurrogate())
                QVERIFY(c + 1 < shown.at(i).size() && shown.at(i).at(c + 1).isLowSurrogate());
            if (ch.isLowSurrogate())
                QVERIFY(c > 0 && shown.at(i).at(c - 1).isHighSurrogate());
        }
    }
}

void TestShortNames::elideMiddle_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QString>("expected");
    const QString e(ShortNameEllipsis);
    QTest::newRow("fits") << u"abc"_s << 3 << u"abc"_s;
    QTest::newRow("odd") << u"abcdefgh"_s << 5 << u"ab"_s + e + u"gh"_s;
    QTest::newRow("even") << u"abcdefgh"_s << 6 << u"abc"_s + e + u"gh"_s;
}

void TestShortNames::elideMiddle()
{
    QFETCH(QString, text);
    QFETCH(int, maxChars);
    QFETCH(QString, expected);
    QCOMPARE(Headroom::elideMiddle(text, maxChars), expected);
}

QTEST_MAIN(TestShortNames)
#include "tst_shortnames.moc"
