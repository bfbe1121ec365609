// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What changed: the KS statistic on known samples, and a ranking over tracks where one
// series moved in the window, one only got noisier, and the rest stayed as they were.
#include "analysistestutil.h"
#include "query/analysis/whatchanged.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

class TestWhatChanged : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ks_data();
    void ks();
    void ranksTheMovedSeriesFirst();
    void leavesOutThinAndConstantSeries();
};

void TestWhatChanged::ks_data()
{
    QTest::addColumn<std::vector<double>>("a");
    QTest::addColumn<std::vector<double>>("b");
    QTest::addColumn<double>("d");
    QTest::newRow("identical") << std::vector<double> { 1, 2, 3 } << std::vector<double> { 3, 2, 1 }
                               << 0.0;
    QTest::newRow("disjoint") << std::vector<double> { 1, 2 } << std::vector<double> { 5, 6, 7 }
                              << 1.0;
    // F_a - F_b is largest at x = 2: 2/4 - 0/2.
    QTest::newRow("half") << std::vector<double> { 1, 2, 3, 4 } << std::vector<double> { 3, 4 }
                          << 0.5;
    QTest::newRow("ties") << std::vector<double> { 0, 0, 0, 1 }
                          << std::vector<double> { 0, 1, 1, 1 } << 0.5;
    QTest::newRow("empty") << std::vector<double> {} << std::vector<double> { 1 } << 0.0;
}

void TestWhatChanged::ks()
{
    QFETCH(std::vector<double>, a);
    QFETCH(std::vector<double>, b);
    QFETCH(double, d);
    QCOMPARE(ksStatistic(a, b), d);
    QCOMPARE(ksStatistic(b, a), d);
}

void TestWhatChanged::ranksTheMovedSeriesFirst()
{
    // 500 bins: baseline [0, 400), window [400, 500).
    QRandomGenerator random(7);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"steady"_s, UseKind::Utilization, u"%"_s), 500,
        [&](int) { return 30 + noise(random, 2); }, 1));
    tracks.push_back(track(
        info(u"moved"_s, UseKind::Saturation, {}, u"nic:eth1"_s), 500,
        [&](int i) { return (i < 400 ? 1.0 : 9.0) + noise(random, 0.3); }, 2));
    tracks.push_back(track(
        info(u"noisier"_s, UseKind::Throughput, u"B/s"_s), 500,
        [&](int i) { return 1000 + noise(random, i < 400 ? 10 : 200); }, 3));
    const qint64 windowFrom = T0 + 400'000, windowTo = T0 + 499'000;
    const std::vector<ChangeRank> ranks = rankChanges(tracks, windowFrom, windowTo);
    QCOMPARE(ranks.size(), size_t(3));
    QCOMPARE(ranks[0].seriesId, 2);
    QCOMPARE(ranks[0].ks, 1.0);
    QCOMPARE(ranks[0].resource, u"NIC eth1"_s);
    QVERIFY(std::abs(ranks[0].baselineMedian - 1) < 0.2);
    QVERIFY(std::abs(ranks[0].windowMedian - 9) < 0.2);
    QCOMPARE(ranks[0].windowBins, 100);
    QCOMPARE(ranks[0].baselineBins, 396); // 4 x the window's 99 s before it
    QCOMPARE(ranks[1].seriesId, 3); // same median, wider spread: KS sees it, less so
    QVERIFY2(ranks[1].ks > 0.2 && ranks[1].ks < 0.9, qPrintable(QString::number(ranks[1].ks)));
    QCOMPARE(ranks[2].seriesId, 1);
    QVERIFY2(ranks[2].ks < 0.25, qPrintable(QString::number(ranks[2].ks)));
}

void TestWhatChanged::leavesOutThinAndConstantSeries()
{
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(info(u"constant"_s, UseKind::Errors), 100, [](int) { return 0.0; }, 1));
    // Only 3 bins in the window.
    SeriesTrack thin = track(info(u"thin"_s, UseKind::Errors), 83, [](int i) { return i; }, 2);
    tracks.push_back(thin);
    tracks.push_back(
        track(info(u"step"_s, UseKind::Errors), 100, [](int i) { return i < 80 ? 0.0 : 1.0; }, 3));
    const auto ranks = rankChanges(tracks, T0 + 80'000, T0 + 99'000);
    QCOMPARE(ranks.size(), size_t(1));
    QCOMPARE(ranks[0].seriesId, 3);
}

QTEST_GUILESS_MAIN(TestWhatChanged)
#include "tst_whatchanged.moc"
