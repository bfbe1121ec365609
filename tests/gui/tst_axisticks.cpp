// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Axis ticks and labels of the panels that paint their own axes: time ticks on whole
// steps of local time with a label format for the span, 1-2-5 value steps, short
// labels with k/M suffixes.
#include "charts/axisticks.h"

#include <QDateTime>
#include <QTest>
#include <cmath>
#include <limits>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestAxisTicks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void timeTicksOnWholeLocalSteps_data();
    void timeTicksOnWholeLocalSteps();
    void valueTicksOnNiceSteps();
    void timeTicksBounded_data();
    void timeTicksBounded();
    void valueTicksBounded_data();
    void valueTicksBounded();
    void labels_data();
    void labels();
};

void TestAxisTicks::timeTicksOnWholeLocalSteps_data()
{
    QTest::addColumn<qint64>("spanMs");
    QTest::addColumn<int>("room");
    QTest::addColumn<qint64>("stepMs");
    QTest::addColumn<QString>("format");
    QTest::newRow("a minute, 12 labels") << 60'000LL << 12 << 5'000LL << u"HH:mm:ss"_s;
    QTest::newRow("15 minutes, 10 labels") << 900'000LL << 10 << 120'000LL << u"HH:mm"_s;
    QTest::newRow("a day, 12 labels") << 86'400'000LL << 12 << 7'200'000LL << u"HH:mm"_s;
    QTest::newRow("3 days, 6 labels") << 259'200'000LL << 6 << 43'200'000LL << u"MM-dd HH:mm"_s;
    QTest::newRow("no room") << 900'000LL << 0 << 600'000LL << u"HH:mm"_s;
}

void TestAxisTicks::timeTicksOnWholeLocalSteps()
{
    QFETCH(qint64, spanMs);
    QFETCH(int, room);
    QFETCH(qint64, stepMs);
    QFETCH(QString, format);
    // From an odd instant, so the first tick has to be rounded up.
    const qint64 from = QDateTime(QDate(2026, 3, 4), QTime(10, 4, 37)).toMSecsSinceEpoch() + 123;
    const TimeTicks ticks = timeTicks(from, from + spanMs, room);
    QCOMPARE(ticks.stepMs, stepMs);
    QCOMPARE(ticks.format, format);
    QVERIFY(!ticks.ticks.isEmpty());
    QVERIFY(ticks.ticks.size() <= std::max(1, room) + 1);
    QVERIFY(ticks.ticks.constFirst() >= from && ticks.ticks.constFirst() < from + stepMs);
    for (qint64 t : ticks.ticks) {
        QVERIFY(t <= from + spanMs);
        // Whole steps of local time: 10:06:00, not 10:06:37.
        const QDateTime local = QDateTime::fromMSecsSinceEpoch(t);
        const qint64 msOfDay = local.time().msecsSinceStartOfDay();
        QCOMPARE(stepMs >= 86'400'000 ? 0 : msOfDay % stepMs, 0);
    }
}

void TestAxisTicks::valueTicksOnNiceSteps()
{
    ValueTicks t = valueTicks(0, 100, 5);
    QCOMPARE(t.step, 20.0);
    QCOMPARE(t.ticks, (QList<double> { 0, 20, 40, 60, 80, 100 }));
    t = valueTicks(-0.3, 0.7, 4);
    QCOMPARE(t.step, 0.5);
    QCOMPARE(t.ticks, (QList<double> { 0, 0.5 }));
    t = valueTicks(3, 3, 5);
    QVERIFY(t.ticks.isEmpty()); // no span, no ticks (and no endless loop)
    t = valueTicks(0, 1e12, 8);
    QCOMPARE(t.step, 2e11);
    QCOMPARE(t.ticks.size(), 6);
}

// Whatever the span and the room, an axis gets a bounded number of ticks, in order and
// inside the range: a dashboard's "100000000d" once made millions of labels per repaint.
void TestAxisTicks::timeTicksBounded_data()
{
    QTest::addColumn<qint64>("fromMs");
    QTest::addColumn<qint64>("toMs");
    QTest::addColumn<int>("room");
    const qint64 now = QDateTime(QDate(2026, 3, 4), QTime(10, 4, 37)).toMSecsSinceEpoch();
    const qint64 day = 86'400'000;
    QTest::newRow("100000000 days, 10 labels") << now - 100'000'000 * day << now << 10;
    QTest::newRow("400 days, 2000 labels of room") << now - 400 * day << now << 2000;
    QTest::newRow("a minute on a huge display") << now - 60'000 << now << 1'000'000;
    QTest::newRow("the whole qint64 range")
        << std::numeric_limits<qint64>::min() << std::numeric_limits<qint64>::max() << 12;
    QTest::newRow("up to the end of qint64") << std::numeric_limits<qint64>::max() - 30 * day
                                             << std::numeric_limits<qint64>::max() << 50;
}

void TestAxisTicks::timeTicksBounded()
{
    QFETCH(qint64, fromMs);
    QFETCH(qint64, toMs);
    QFETCH(int, room);
    const TimeTicks ticks = timeTicks(fromMs, toMs, room);
    QVERIFY(ticks.stepMs > 0);
    QVERIFY(!ticks.ticks.isEmpty());
    QVERIFY2(ticks.ticks.size() <= std::min(room, MaximumAxisTicks) + 1,
             qPrintable(QString::number(ticks.ticks.size())));
    for (qsizetype i = 0; i < ticks.ticks.size(); ++i) {
        QVERIFY(ticks.ticks.at(i) >= fromMs && ticks.ticks.at(i) <= toMs);
        if (i > 0)
            QVERIFY(ticks.ticks.at(i) > ticks.ticks.at(i - 1));
    }
    // Past the table's largest step (a week), steps are whole weeks.
    if (ticks.stepMs > 7 * 86'400'000LL && ticks.stepMs != std::numeric_limits<qint64>::max())
        QCOMPARE(ticks.stepMs % (7 * 86'400'000LL), 0);
}

void TestAxisTicks::valueTicksBounded_data()
{
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<int>("maxTicks");
    QTest::newRow("a billion ticks asked for") << 0.0 << 1.0 << 1'000'000'000;
    QTest::newRow("steps below the resolution of doubles") << 1e18 << 1e18 + 1024 << 200;
    QTest::newRow("the whole double range") << -1e308 << 1e308 << 8;
    QTest::newRow("tiny span far from zero") << 1e300 << 1e300 * (1 + 1e-15) << 8;
}

void TestAxisTicks::valueTicksBounded()
{
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(int, maxTicks);
    const ValueTicks ticks = valueTicks(lo, hi, maxTicks);
    QVERIFY2(ticks.ticks.size() <= MaximumAxisTicks + 1,
             qPrintable(QString::number(ticks.ticks.size())));
    for (qsizetype i = 0; i < ticks.ticks.size(); ++i) {
        QVERIFY(std::isfinite(ticks.ticks.at(i)));
        if (i > 0)
            QVERIFY(ticks.ticks.at(i) > ticks.ticks.at(i - 1));
    }
}

void TestAxisTicks::labels_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<double>("step");
    QTest::addColumn<QString>("label");
    QTest::newRow("percent") << 40.0 << 20.0 << u"40"_s;
    QTest::newRow("fraction") << 0.25 << 0.05 << u"0.25"_s;
    QTest::newRow("zero with decimals") << 0.0 << 0.1 << u"0.0"_s;
    QTest::newRow("thousands") << 12'000.0 << 2'000.0 << u"12k"_s;
    QTest::newRow("thousands, finer step") << 2'500.0 << 500.0 << u"2.5k"_s;
    QTest::newRow("below a thousand") << 500.0 << 500.0 << u"500"_s;
    QTest::newRow("millions") << 1'500'000.0 << 500'000.0 << u"1.5M"_s;
    QTest::newRow("giga") << 3e9 << 1e9 << u"3G"_s;
    QTest::newRow("negative") << -20'000.0 << 10'000.0 << u"-20k"_s;
    QTest::newRow("log decade") << 1000.0 << 1000.0 << u"1k"_s;
    QTest::newRow("small decade") << 0.001 << 0.001 << u"0.001"_s;
}

void TestAxisTicks::labels()
{
    QFETCH(double, value);
    QFETCH(double, step);
    QFETCH(QString, label);
    QCOMPARE(axisNumber(value, step), label);
}

QTEST_MAIN(TestAxisTicks)
#include "tst_axisticks.moc"
