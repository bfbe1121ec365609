// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/downsample.h"

#include <QRandomGenerator>
#include <QTest>

using namespace Headroom;

class TestDownsample : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keepsExtremesPerColumn();
    void smallInputUntouched();
    void rangeFiltering();
    void gapsSplitSegments_data();
    void gapsSplitSegments();
};

void TestDownsample::keepsExtremesPerColumn()
{
    std::vector<Sample> samples;
    QRandomGenerator rng(1);
    samples.reserve(86400);
    for (qint64 t = 0; t < 86400; ++t)
        samples.push_back({ t * 1000, rng.generateDouble() * 100 });
    samples[50000].value = 1000; // a spike must survive reduction
    samples[60000].value = -1000;
    const int columns = 800;
    const auto out = downsampleMinMax(samples, 0, 86400 * 1000, columns);
    QVERIFY(out.size() <= size_t(4 * columns));
    QVERIFY(out.size() >= size_t(2 * columns));
    QVERIFY(std::is_sorted(out.begin(), out.end(), [](auto a, auto b) { return a.tsMs < b.tsMs; }));
    QVERIFY(std::any_of(out.begin(), out.end(), [](auto s) { return s.value == 1000; }));
    QVERIFY(std::any_of(out.begin(), out.end(), [](auto s) { return s.value == -1000; }));
    // Every column's min and max equal those of the raw data in that column.
    const double span = 86400.0 * 1000;
    for (int c : { 0, 123, 799 }) {
        double rawMin = 1e9, rawMax = -1e9, outMin = 1e9, outMax = -1e9;
        for (const Sample &s : samples) {
            if (std::min(columns - 1, int(double(s.tsMs) * columns / span)) == c) {
                rawMin = std::min(rawMin, s.value);
                rawMax = std::max(rawMax, s.value);
            }
        }
        for (const Sample &s : out) {
            if (std::min(columns - 1, int(double(s.tsMs) * columns / span)) == c) {
                outMin = std::min(outMin, s.value);
                outMax = std::max(outMax, s.value);
            }
        }
        QCOMPARE(outMin, rawMin);
        QCOMPARE(outMax, rawMax);
    }
}

void TestDownsample::smallInputUntouched()
{
    std::vector<Sample> samples { { 0, 1 }, { 1000, 2 }, { 2000, 3 } };
    const auto out = downsampleMinMax(samples, 0, 2000, 100);
    QCOMPARE(out, samples);
}

void TestDownsample::rangeFiltering()
{
    std::vector<Sample> samples;
    samples.reserve(100);
    for (qint64 t = 0; t < 100; ++t)
        samples.push_back({ t, double(t) });
    const auto out = downsampleMinMax(samples, 10, 19, 1000);
    QCOMPARE(out.size(), size_t(10));
    QCOMPARE(out.front().tsMs, 10);
    QCOMPARE(out.back().tsMs, 19);
    QVERIFY(downsampleMinMax(samples, 50, 40, 10).empty());
}

void TestDownsample::gapsSplitSegments_data()
{
    QTest::addColumn<QList<qint64>>("times");
    QTest::addColumn<int>("segments");
    QTest::newRow("regular 1 s") << QList<qint64> { 0, 1000, 2000, 3000, 4000 } << 1;
    QTest::newRow("one outage") << QList<qint64> { 0, 1000, 2000, 30000, 31000, 32000 } << 2;
    QTest::newRow("two outages") << QList<qint64> { 0, 1000, 20000, 21000, 60000, 61000 } << 3;
    QTest::newRow("jitter is not a gap") << QList<qint64> { 0, 1100, 1900, 3050, 4000 } << 1;
    QTest::newRow("single point") << QList<qint64> { 5 } << 1;
}

void TestDownsample::gapsSplitSegments()
{
    QFETCH(QList<qint64>, times);
    QFETCH(int, segments);
    std::vector<Sample> samples;
    for (qint64 t : times)
        samples.push_back({ t, 1 });
    const auto parts = splitAtGaps(samples);
    QCOMPARE(int(parts.size()), segments);
    QCOMPARE(parts.front().first, size_t(0));
    QCOMPARE(parts.back().second, samples.size());
}

QTEST_GUILESS_MAIN(TestDownsample)
#include "tst_downsample.moc"
