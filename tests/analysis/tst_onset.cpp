// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Onsets ("since when") on tracks with a known change: steps up and down on noise, a
// ramp, single spikes and PostgreSQL's once-a-second 0-dips (which must move nothing),
// noise alone and a flat line (no onset), and a cumulative counter (read as its rate).
#include "analysistestutil.h"
#include "query/analysis/onset.h"

#include <QTest>
#include <algorithm>
#include <limits>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

class TestOnset : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detects_data();
    void detects();
    void incidentThatEndedInsideTheRange();
    void cumulativeCounterReadsAsRate();
    void binsAverageSamples();
    void anyRangeBinsWithinBounds_data();
    void anyRangeBinsWithinBounds();
};

void TestOnset::detects_data()
{
    QTest::addColumn<int>("kind"); // which shape
    QTest::addColumn<int>("expectedIndex"); // -1: no onset
    QTest::addColumn<double>("before");
    QTest::addColumn<double>("after");
    QTest::newRow("step up on noise") << 0 << 60 << 10.0 << 40.0;
    QTest::newRow("step down on noise") << 1 << 45 << 20000.0 << 300.0;
    QTest::newRow("step with 0-dips every 3rd bin") << 2 << 70 << 100.0 << 700.0;
    QTest::newRow("single spikes only") << 3 << -1 << 5.0 << 5.0;
    QTest::newRow("noise only") << 4 << -1 << 50.0 << 50.0;
    QTest::newRow("flat line") << 5 << -1 << 3.0 << 3.0;
    QTest::newRow("ramp: onset where it took off") << 6 << 62 << 10.0 << 90.0;
    QTest::newRow("small step within the noise") << 7 << -1 << 50.0 << 52.0;
    QTest::newRow("two-bin burst") << 8 << -1 << 1.0 << 1.0;
    QTest::newRow("late step, 4 bins after") << 9 << 116 << 2.0 << 12.0;
}

void TestOnset::detects()
{
    QFETCH(int, kind);
    QFETCH(int, expectedIndex);
    QFETCH(double, before);
    QFETCH(double, after);
    QRandomGenerator random(18 + kind);
    const int n = 120;
    std::function<double(int)> value;
    switch (kind) {
    case 0:
        value = [&](int i) { return (i < 60 ? 10.0 : 40.0) + noise(random, 1.0); };
        break;
    case 1:
        value = [&](int i) { return (i < 45 ? 20000.0 : 300.0) * (1 + noise(random, 0.02)); };
        break;
    case 2:
        value = [&](int i) {
            if (i % 3 == 2)
                return 0.0; // the statistics flush left nothing for this poll
            return (i < 70 ? 100.0 : 700.0) * (1 + noise(random, 0.05));
        };
        break;
    case 3:
        value = [&](int i) { return i % 17 == 5 ? 400.0 : 5.0 + noise(random, 0.2); };
        break;
    case 4:
        value = [&](int) { return 50.0 + noise(random, 5.0); };
        break;
    case 5:
        value = [](int) { return 3.0; };
        break;
    case 6:
        value = [&](int i) {
            const double x = i < 60 ? 10.0 : i < 80 ? 10.0 + (i - 60) * 4.0 : 90.0;
            return x + noise(random, 0.5);
        };
        break;
    case 7:
        value = [&](int i) { return (i < 60 ? 50.0 : 52.0) + noise(random, 5.0); };
        break;
    case 8:
        value = [&](int i) { return i == 50 || i == 51 ? 90.0 : 1.0 + noise(random, 0.05); };
        break;
    case 9:
        value = [&](int i) { return (i < 116 ? 2.0 : 12.0) + noise(random, 0.1); };
        break;
    default:
        QFAIL("no series of that kind");
    }
    const SeriesTrack t = track(info(u"x"_s, UseKind::Saturation), n, value);
    const std::optional<Onset> onset = detectOnset(t);
    if (expectedIndex < 0) {
        QVERIFY2(!onset,
                 onset ? qPrintable(u"unexpected onset at bin %1 (effect %2, relative %3)"_s
                                        .arg(onset->index)
                                        .arg(onset->effect)
                                        .arg(onset->relative))
                       : "");
        return;
    }
    QVERIFY(onset);
    QVERIFY2(std::abs(int(onset->index) - expectedIndex) <= (kind == 6 ? 3 : 1),
             qPrintable(u"onset at bin %1, expected %2"_s.arg(onset->index).arg(expectedIndex)));
    QCOMPARE(onset->tsMs, t.times[onset->index]);
    QVERIFY2(std::abs(onset->before - before) <= 0.1 * std::abs(before) + 1,
             qPrintable(QString::number(onset->before)));
    if (kind != 6) // a ramp's "after" is the first level past the take-off
        QVERIFY2(std::abs(onset->after - after) <= 0.1 * std::abs(after) + 1,
                 qPrintable(QString::number(onset->after)));
    QCOMPARE(onset->rising(), after > before);
    QVERIFY(onset->confidence > 0.4 && onset->confidence <= 1.0);
}

void TestOnset::incidentThatEndedInsideTheRange()
{
    // Saturated from bin 40 to bin 70 of 200, quiet before and after: split over the
    // whole range, the 30 high bins are diluted by 160 low ones; judged between its
    // neighbouring boundaries it is a rise at 40 until 70, then a fall.
    QRandomGenerator random(99);
    const SeriesTrack t = track(info(u"x"_s, UseKind::Saturation), 200, [&](int i) {
        return (i >= 40 && i < 70 ? 12.0 : 1.0) + noise(random, 0.3);
    });
    const std::vector<Onset> onsets = detectOnsets(t);
    QCOMPARE(onsets.size(), size_t(2));
    QVERIFY(onsets[0].rising());
    QVERIFY2(std::abs(int(onsets[0].index) - 40) <= 1,
             qPrintable(QString::number(onsets[0].index)));
    QVERIFY2(std::abs(onsets[0].untilMs - (T0 + 70'000)) <= 1000,
             qPrintable(QString::number(onsets[0].untilMs - T0)));
    QVERIFY(!onsets[1].rising());
    QVERIFY2(std::abs(int(onsets[1].index) - 70) <= 1,
             qPrintable(QString::number(onsets[1].index)));
    QCOMPARE(onsets[1].untilMs, t.toMs + 1);
}

void TestOnset::cumulativeCounterReadsAsRate()
{
    // A counter growing by 10/s, then by 100/s from t = 50 s.
    std::vector<Sample> samples;
    double total = 1e6;
    for (int i = 0; i < 100; ++i) {
        total += i < 50 ? 10 : 100;
        samples.push_back({ T0 + i * 1000LL, total });
    }
    SeriesTrack t;
    t.info = info(u"c"_s, UseKind::Throughput, u"1"_s);
    t.fromMs = T0;
    t.toMs = T0 + 99'999;
    t.binMs = 1000;
    fillTrack(&t, samples);
    QCOMPARE(t.values.size(), size_t(99)); // the first sample has no rate
    QCOMPARE(t.values.front(), 10.0);
    QCOMPARE(t.values.back(), 100.0);
    const auto onset = detectOnset(t);
    QVERIFY(onset);
    QCOMPARE(onset->tsMs, T0 + 50'000);
}

void TestOnset::binsAverageSamples()
{
    // Two samples per 2 s bin, out of order, one outside the range, one NaN.
    SeriesTrack t;
    t.info = info(u"g"_s, UseKind::Utilization, u"%"_s);
    t.fromMs = T0;
    t.toMs = T0 + 5999;
    t.binMs = 2000;
    fillTrack(&t,
              { { T0 + 1000, 4 },
                { T0, 2 },
                { T0 + 2500, qQNaN() },
                { T0 + 3000, 8 },
                { T0 + 7000, 99 },
                { T0 + 4000, 1 },
                { T0 + 5000, 3 } });
    QCOMPARE(t.times, (std::vector<qint64> { T0, T0 + 2000, T0 + 4000 }));
    QCOMPARE(t.values, (std::vector<double> { 3, 8, 2 }));
    QCOMPARE(binWidthFor(T0, T0 + 86'400'000), qint64(87'000)); // a day: <= 1000 bins
    QCOMPARE(binWidthFor(T0, T0 + 120'000), qint64(1000));
    QCOMPARE(binWidthFor(T0, T0 + 120'000, 5000), qint64(5000));
}

void TestOnset::anyRangeBinsWithinBounds_data()
{
    // Ranges whose span overflows a qint64, as a tampered recording may claim: a width
    // from the wrapped difference makes a vector past max_size, or 1 s bins over 2^64 ms
    // and writes far outside them.
    constexpr qint64 Min = std::numeric_limits<qint64>::min();
    constexpr qint64 Max = std::numeric_limits<qint64>::max();
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("to");
    QTest::newRow("min to now") << Min << T0;
    QTest::newRow("min to max") << Min << Max;
    QTest::newRow("now to max") << T0 << Max;
}

void TestOnset::anyRangeBinsWithinBounds()
{
    QFETCH(qint64, from);
    QFETCH(qint64, to);
    const qint64 bin = binWidthFor(from, to);
    QVERIFY(bin >= 1000);
    QVERIFY((quint64(to) - quint64(from)) / quint64(bin) < 1000);
    SeriesTrack t;
    t.info = info(u"g"_s, UseKind::Utilization, u"%"_s);
    t.fromMs = from;
    t.toMs = to;
    t.binMs = bin;
    fillTrack(&t, { { from, 1 }, { T0, 2 }, { to, 3 } });
    QVERIFY(t.values.size() >= 2 && t.values.size() <= 3);
    QVERIFY(std::is_sorted(t.times.begin(), t.times.end()));
    QCOMPARE(t.times.front(), from);
    // Bins far too narrow for the range: refused, not allocated.
    t.binMs = 1000;
    fillTrack(&t, { { T0, 2 } });
    QVERIFY(t.isEmpty());
}

QTEST_GUILESS_MAIN(TestOnset)
#include "tst_onset.moc"
