// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/counterrate.h"

#include <QTest>

using namespace Qt::StringLiterals;

using namespace Headroom;

class TestCounterRate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rates_data();
    void rates();
    void goneCountersAreForgotten();
    void capacityPrefersCurrentCounters();
    void startFromZero();
};

void TestCounterRate::startFromZero()
{
    CounterRate rates;
    // Born after the last poll at 1 s: its first value at 3 s is 2 s of work.
    rates.startFromZero(u"new"_s, 1000);
    QCOMPARE(rates.update(u"new"_s, 40, 3000), 20.0);
    // A counter with a baseline keeps it.
    QVERIFY(!rates.update(u"old"_s, 500, 1000));
    rates.startFromZero(u"old"_s, 2000);
    QCOMPARE(rates.update(u"old"_s, 600, 3000), 50.0);
}

void TestCounterRate::rates_data()
{
    QTest::addColumn<QList<double>>("values"); // one per second
    QTest::addColumn<QList<double>>("expected"); // -1 = no rate for that interval
    QTest::newRow("steady") << QList<double> { 0, 100, 200, 350 }
                            << QList<double> { -1, 100, 100, 150 };
    QTest::newRow("reset gives a gap, then resumes")
        << QList<double> { 1000, 2000, 50, 150 } << QList<double> { -1, 1000, -1, 100 };
    QTest::newRow("wrap is a gap, not a spike")
        << QList<double> { 4294967000.0, 200, 300 } << QList<double> { -1, -1, 100 };
    QTest::newRow("NaN is skipped")
        << QList<double> { 10, qQNaN(), 30 } << QList<double> { -1, -1, 10 };
    QTest::newRow("unchanged") << QList<double> { 7, 7, 7 } << QList<double> { -1, 0, 0 };
}

void TestCounterRate::rates()
{
    QFETCH(QList<double>, values);
    QFETCH(QList<double>, expected);
    CounterRate rates;
    for (qsizetype i = 0; i < values.size(); ++i) {
        const auto rate = rates.update(u"c"_s, values.at(i), 1000 * i);
        if (expected.at(i) < 0) {
            QVERIFY2(!rate, qPrintable(u"step %1 gave %2"_s.arg(i).arg(rate.value_or(0))));
        } else {
            QVERIFY2(rate.has_value(), qPrintable(u"step %1 gave no rate"_s.arg(i)));
            QCOMPARE(*rate, expected.at(i));
        }
    }
}

// A counter not seen for longer than forgetAfterMs loses its baseline (and its memory);
// one that keeps coming keeps it.
void TestCounterRate::goneCountersAreForgotten()
{
    constexpr qint64 Minute = 60'000;
    CounterRate rates(100, 10 * Minute);
    QVERIFY(!rates.update(u"gone"_s, 5, 0));
    QVERIFY(!rates.update(u"kept"_s, 0, 0));
    QVERIFY(!rates.update(u"back soon"_s, 0, 0));
    // Swept every quarter of forgetAfterMs: gone between 10 and 12.5 minutes.
    for (qint64 t = Minute; t <= 13 * Minute; t += Minute) {
        QCOMPARE(rates.update(u"kept"_s, double(t) / 1000, t), 1.0);
        if (t == 5 * Minute) // away for 5 minutes: still remembered
            QCOMPARE(rates.update(u"back soon"_s, 300, t), 1.0);
    }
    QCOMPARE(rates.size(), qsizetype(2)); // "gone" went
    QVERIFY(!rates.update(u"gone"_s, 785, 13 * Minute)); // a fresh baseline
    QCOMPARE(rates.update(u"gone"_s, 845, 14 * Minute), 1.0);
}

// Full: counters not seen in the current poll make room (once per poll); if all are
// current, a new counter gets no baseline rather than evicting one in use.
void TestCounterRate::capacityPrefersCurrentCounters()
{
    CounterRate rates(3);
    for (const char *name : { "a", "b", "c", "d" })
        QVERIFY(!rates.update(QString::fromLatin1(name), 0, 0));
    QCOMPARE(rates.size(), qsizetype(3)); // "d" refused
    QCOMPARE(rates.update(u"a"_s, 1, 1000), 1.0);
    QCOMPARE(rates.update(u"b"_s, 1, 1000), 1.0);
    QVERIFY(!rates.update(u"e"_s, 0, 1000)); // "c" (not in this poll) makes room
    QVERIFY(!rates.update(u"f"_s, 0, 1000)); // a, b, e are current: refused
    QCOMPARE(rates.size(), qsizetype(3));
    QCOMPARE(rates.update(u"e"_s, 2, 2000), 2.0);
    QCOMPARE(rates.update(u"a"_s, 3, 2000), 2.0);
    QVERIFY(!rates.update(u"c"_s, 9, 2000)); // forgotten: a baseline again
}

QTEST_GUILESS_MAIN(TestCounterRate)
#include "tst_counterrate.moc"
