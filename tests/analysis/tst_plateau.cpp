// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Shelves: a throughput that rose to a cap (or fell to it) and stays flat there; not a
// series that was always flat, a noisy one, or one still climbing.
#include "analysistestutil.h"
#include "query/analysis/plateau.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

class TestPlateau : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detects_data();
    void detects();
    void onlyThroughputAndUtilization();
    void percentShelvesFromFivePercent_data();
    void percentShelvesFromFivePercent();
};

void TestPlateau::detects_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<int>("expectedFirst"); // -1: none
    QTest::addColumn<double>("level");
    QTest::newRow("rose to a cap") << 0 << 30 << 1.0e6;
    QTest::newRow("fell to a cap") << 1 << 40 << 1.0e6;
    QTest::newRow("always flat") << 2 << -1 << 0.0;
    QTest::newRow("noisy") << 3 << -1 << 0.0;
    QTest::newRow("climbing") << 4 << -1 << 0.0;
    QTest::newRow("idle zero") << 5 << -1 << 0.0;
    QTest::newRow("short flat top") << 6 << -1 << 0.0;
}

void TestPlateau::detects()
{
    QFETCH(int, shape);
    QFETCH(int, expectedFirst);
    QFETCH(double, level);
    QRandomGenerator random(30 + shape);
    std::function<double(int)> value;
    switch (shape) {
    case 0:
        value = [&](int i) {
            return i < 30 ? 2e4 * (1 + noise(random, 0.3)) : 1e6 * (1 + noise(random, 0.01));
        };
        break;
    case 1:
        value = [&](int i) {
            return i < 40 ? 5e6 * (1 + noise(random, 0.2)) : 1e6 * (1 + noise(random, 0.01));
        };
        break;
    case 2:
        value = [&](int) { return 1e6 * (1 + noise(random, 0.01)); };
        break;
    case 3:
        value = [&](int) { return 1e6 * (1 + noise(random, 0.4)); };
        break;
    case 4:
        value = [&](int i) { return 1e4 * i; };
        break;
    case 5:
        value = [](int) { return 0.0; };
        break;
    case 6:
        value = [&](int i) { return i >= 50 && i < 58 ? 1e6 : 1e4 * (1 + noise(random, 0.2)); };
        break;
    default:
        QFAIL("no series of that shape");
    }
    const SeriesTrack t
        = track(info(u"nic.tx.bytes"_s, UseKind::Throughput, u"B/s"_s, u"nic:veth0"_s), 120, value);
    const auto shelf = detectPlateau(t);
    if (expectedFirst < 0) {
        QVERIFY2(!shelf,
                 shelf ? qPrintable(u"unexpected shelf from bin %1"_s.arg(shelf->firstIndex)) : "");
        return;
    }
    QVERIFY(shelf);
    QVERIFY2(std::abs(int(shelf->firstIndex) - expectedFirst) <= 3,
             qPrintable(u"from bin %1, expected %2"_s.arg(shelf->firstIndex).arg(expectedFirst)));
    QCOMPARE(shelf->lastIndex, size_t(119));
    QVERIFY(std::abs(shelf->level - level) < 0.03 * level);
    QVERIFY(shelf->spread < 0.05);
    QCOMPARE(shelf->fromMs, t.times[shelf->firstIndex]);
    QCOMPARE(shelf->toMs, t.times.back() + 1000);
}

void TestPlateau::onlyThroughputAndUtilization()
{
    QVERIFY(mayShelve(info(u"a"_s, UseKind::Throughput)));
    QVERIFY(mayShelve(info(u"a"_s, UseKind::Utilization)));
    QVERIFY(!mayShelve(info(u"a"_s, UseKind::Saturation)));
    QVERIFY(!mayShelve(info(u"a"_s, UseKind::Errors)));
    QVERIFY(!mayShelve(info(u"a"_s, UseKind::Info)));
}

void TestPlateau::percentShelvesFromFivePercent_data()
{
    QTest::addColumn<double>("level");
    QTest::addColumn<bool>("shelf");
    // CPU steal of one tick a second on two CPUs: a step of counting, not a limit.
    QTest::newRow("0.5 %") << 0.5 << false;
    QTest::newRow("4.9 %") << 4.9 << false;
    QTest::newRow("5 %") << 5.0 << true;
    QTest::newRow("50 %, a CPU quota") << 50.0 << true;
}

void TestPlateau::percentShelvesFromFivePercent()
{
    QFETCH(double, level);
    QFETCH(bool, shelf);
    const auto value = [&](int i) { return i < 30 ? 0.0 : level; };
    const SeriesTrack percent
        = track(info(u"host.cpu.mode"_s, UseKind::Utilization, u"%"_s, u"cpu"_s), 120, value);
    QCOMPARE(bool(detectPlateau(percent)), shelf);
    // The same figures in another unit are a shelf whatever their size.
    const SeriesTrack rate = track(
        info(u"pg.table.tup_written.rate"_s, UseKind::Throughput, u"1/s"_s, u"db:x"_s), 120, value);
    QVERIFY(detectPlateau(rate));
}

QTEST_GUILESS_MAIN(TestPlateau)
#include "tst_plateau.moc"
