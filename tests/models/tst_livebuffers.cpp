// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Live ring buffers: histogram series keep their newest polls like value series do,
// wrap at the same capacity, read inclusive time ranges oldest first, and never mix
// with value series.
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

// A histogram that is recognisably poll n's: n + 1 samples of value n + 1.
LogHistogram histogramOf(int n)
{
    LogHistogram h;
    h.add(double(n + 1), quint64(n) + 1);
    return h;
}

SeriesInfo latency(const QString &metric)
{
    SeriesInfo info;
    info.key = { u"pg"_s, metric, {} };
    info.unit = u"ms"_s;
    info.kind = UseKind::Latency;
    info.histogram = true;
    return info;
}

} // namespace

class TestLiveBuffers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void histogramRingWraps_data();
    void histogramRingWraps();
    void readsInclusiveRanges_data();
    void readsInclusiveRanges();
    void consumesBatchesOfBothKinds();
    void kindsDoNotMix();
    void emptyHistogramsAreKept();
    void readIsSortedAfterClockStep();
};

void TestLiveBuffers::histogramRingWraps_data()
{
    QTest::addColumn<int>("capacity");
    QTest::addColumn<int>("appended");
    QTest::newRow("not yet full") << 5 << 3;
    QTest::newRow("exactly full") << 5 << 5;
    QTest::newRow("wrapped once and a bit") << 5 << 7;
    QTest::newRow("wrapped many times") << 5 << 23;
    QTest::newRow("capacity below 2 is 2") << 1 << 4;
    QTest::newRow("an hour at 1 s, plus a minute") << 3600 << 3660;
}

void TestLiveBuffers::histogramRingWraps()
{
    QFETCH(int, capacity);
    QFETCH(int, appended);
    LiveBuffers live(capacity);
    const int id = 7;
    for (int n = 0; n < appended; ++n)
        live.appendHistogram(id, 1000LL * n, histogramOf(n));

    const int kept = std::min(appended, live.capacity());
    const int first = appended - kept; // the oldest poll still held
    const auto all = live.readHistograms(id, 0, 1000LL * appended);
    QCOMPARE(int(all.size()), kept);
    for (int i = 0; i < kept; ++i) {
        QCOMPARE(all[size_t(i)].first, 1000LL * (first + i));
        QVERIFY(all[size_t(i)].second == histogramOf(first + i));
    }
    QCOMPARE(live.oldest(id), 1000LL * first);
    QCOMPARE(live.seriesIds(), QList<int> { id });
    // A value series of the same capacity keeps exactly as many polls.
    for (int n = 0; n < appended; ++n)
        live.append(id + 1, { 1000LL * n, double(n) });
    QCOMPARE(live.read(id + 1, 0, 1000LL * appended).size(), all.size());
}

void TestLiveBuffers::readsInclusiveRanges_data()
{
    // Ring of 10 holding polls 5..14 (ts 5000..14000) after 15 appends.
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("to");
    QTest::addColumn<int>("firstPoll"); // -1: nothing
    QTest::addColumn<int>("count");
    QTest::newRow("everything") << 0LL << 100'000LL << 5 << 10;
    QTest::newRow("both ends inclusive") << 7000LL << 9000LL << 7 << 3;
    QTest::newRow("between polls") << 7001LL << 8999LL << 8 << 1;
    QTest::newRow("one instant") << 12'000LL << 12'000LL << 12 << 1;
    QTest::newRow("older than the ring") << 0LL << 4999LL << -1 << 0;
    QTest::newRow("newer than the ring") << 14'001LL << 20'000LL << -1 << 0;
    QTest::newRow("reversed range") << 9000LL << 7000LL << -1 << 0;
    QTest::newRow("overlapping the oldest") << 3000LL << 6000LL << 5 << 2;
}

void TestLiveBuffers::readsInclusiveRanges()
{
    QFETCH(qint64, from);
    QFETCH(qint64, to);
    QFETCH(int, firstPoll);
    QFETCH(int, count);
    LiveBuffers live(10);
    for (int n = 0; n < 15; ++n)
        live.appendHistogram(1, 1000LL * n, histogramOf(n));
    const auto read = live.readHistograms(1, from, to);
    QCOMPARE(int(read.size()), count);
    for (int i = 0; i < count; ++i) {
        QCOMPARE(read[size_t(i)].first, 1000LL * (firstPoll + i));
        QCOMPARE(read[size_t(i)].second.count(), quint64(firstPoll + i + 1));
    }
}

void TestLiveBuffers::consumesBatchesOfBothKinds()
{
    // What SampleBus hands every sink: values and histograms of one poll, resolved.
    SeriesRegistry registry;
    SampleBus bus(&registry);
    LiveBuffers live(100);
    bus.addSink(&live);
    SampleBatch batch;
    batch.source = u"pg"_s;
    for (int n = 0; n < 3; ++n) {
        batch.tsMs = 10'000 + 1000LL * n;
        batch.values.clear();
        batch.histograms.clear();
        batch.add(SeriesInfo { { u"pg"_s, u"pg.sessions"_s, {} }, {}, {}, UseKind::Info, false },
                  double(n));
        batch.histograms.append({ latency(u"pg.latency.probe"_s), histogramOf(n) });
        batch.histograms.append({ latency(u"pg.latency.statements"_s), histogramOf(10 + n) });
        bus.publish(batch);
    }
    const int sessions = *registry.find({ u"pg"_s, u"pg.sessions"_s, {} });
    const int probe = *registry.find({ u"pg"_s, u"pg.latency.probe"_s, {} });
    const int statements = *registry.find({ u"pg"_s, u"pg.latency.statements"_s, {} });
    QCOMPARE(live.read(sessions, 0, 20'000).size(), size_t(3));
    const auto probes = live.readHistograms(probe, 0, 20'000);
    const auto statementHistograms = live.readHistograms(statements, 0, 20'000);
    QCOMPARE(probes.size(), size_t(3));
    QCOMPARE(statementHistograms.size(), size_t(3));
    QVERIFY(probes[2].second == histogramOf(2));
    QVERIFY(statementHistograms[0].second == histogramOf(10));
    QCOMPARE(statementHistograms[2].first, 12'000LL);
    QCOMPARE(live.oldest(probe), 10'000LL);
    QList<int> ids = live.seriesIds();
    std::sort(ids.begin(), ids.end());
    QList<int> expected { sessions, probe, statements };
    std::sort(expected.begin(), expected.end());
    QCOMPARE(ids, expected);
}

void TestLiveBuffers::kindsDoNotMix()
{
    LiveBuffers live(10);
    live.append(1, { 1000, 1.5 });
    live.appendHistogram(2, 2000, histogramOf(0));
    QVERIFY(live.readHistograms(1, 0, 10'000).empty());
    QVERIFY(live.read(2, 0, 10'000).empty());
    QCOMPARE(live.oldest(1), 1000LL);
    QCOMPARE(live.oldest(2), 2000LL);
    QCOMPARE(live.oldest(3), -1LL);
    QVERIFY(live.readHistograms(3, 0, 10'000).empty());
}

void TestLiveBuffers::emptyHistogramsAreKept()
{
    // A poll that saw no event is still a poll: the gap rules must not see an outage.
    LiveBuffers live(10);
    live.appendHistogram(1, 1000, histogramOf(0));
    live.appendHistogram(1, 2000, LogHistogram());
    live.appendHistogram(1, 3000, histogramOf(2));
    const auto read = live.readHistograms(1, 0, 10'000);
    QCOMPARE(read.size(), size_t(3));
    QVERIFY(read[1].second.isEmpty());
}

void TestLiveBuffers::readIsSortedAfterClockStep()
{
    LiveBuffers live(10);
    for (qint64 ts : { 5000, 6000, 3000, 4000 })
        live.appendHistogram(1, ts, histogramOf(int(ts / 1000)));
    const auto read = live.readHistograms(1, 0, 10'000);
    QCOMPARE(read.size(), size_t(4));
    for (size_t i = 0; i < read.size(); ++i) {
        QCOMPARE(read[i].first, 3000LL + 1000LL * qint64(i));
        QCOMPARE(read[i].second.count(), quint64(read[i].first / 1000 + 1));
    }
}

QTEST_GUILESS_MAIN(TestLiveBuffers)
#include "tst_livebuffers.moc"
