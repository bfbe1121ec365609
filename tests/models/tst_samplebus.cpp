// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/livebuffers.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

using namespace Headroom;

class TestSampleBus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fanOutAndResolve();
    void ringKeepsNewest();
    void storeWithoutCacheReadsLive();
    void seriesCap_data();
    void seriesCap();
    void capIsPerSource();
    void cacheLoadedSeriesDoNotCount();
};

namespace {
SeriesInfo gauge(const QString &metric)
{
    return SeriesInfo { { u"src"_s, metric, {} }, u"%"_s, u"cpu"_s, UseKind::Utilization, false };
}

struct RecordingSink : SampleSink
{
    QList<ResolvedBatch> batches;
    void consume(const ResolvedBatch &batch) override { batches.append(batch); }
};
} // namespace

void TestSampleBus::fanOutAndResolve()
{
    SeriesRegistry registry;
    SampleBus bus(&registry);
    RecordingSink sink;
    LiveBuffers live(10);
    bus.addSink(&sink);
    bus.addSink(&live);
    QSignalSpy spy(&bus, &SampleBus::published);

    SampleBatch batch;
    batch.source = u"src"_s;
    batch.tsMs = 1000;
    batch.add(gauge(u"a"_s), 1.5);
    batch.add(gauge(u"b"_s), 2.5);
    bus.publish(batch);
    batch.tsMs = 2000;
    bus.publish(batch);

    QCOMPARE(spy.count(), 2);
    QCOMPARE(sink.batches.size(), 2);
    QCOMPARE(sink.batches[0].newSeriesIds.size(), 2); // first sighting
    QCOMPARE(sink.batches[1].newSeriesIds.size(), 0);
    const int idA = sink.batches[0].valueIds[0];
    QCOMPARE(registry.info(idA)->key.metric, u"a"_s);
    const auto samples = live.read(idA, 0, 5000);
    QCOMPARE(samples.size(), size_t(2));
    QCOMPARE(samples[1], (Sample { 2000, 1.5 }));

    bus.removeSink(&sink);
    bus.publish(batch);
    QCOMPARE(sink.batches.size(), 2);
    bus.publish(SampleBatch {}); // empty batches are dropped
    QCOMPARE(spy.count(), 3);
}

void TestSampleBus::ringKeepsNewest()
{
    LiveBuffers live(5);
    for (int i = 0; i < 12; ++i)
        live.append(1, { i * 1000LL, double(i) });
    const auto samples = live.read(1, 0, 100000);
    QCOMPARE(samples.size(), size_t(5));
    QCOMPARE(samples.front().value, 7.0);
    QCOMPARE(samples.back().value, 11.0);
    QCOMPARE(live.oldest(1), 7000);
    QCOMPARE(live.read(1, 8000, 9000).size(), size_t(2));
    QCOMPARE(live.oldest(2), -1);
}

void TestSampleBus::storeWithoutCacheReadsLive()
{
    LiveBuffers live(100);
    for (int i = 0; i < 10; ++i)
        live.append(3, { i * 1000LL, double(i) });
    SeriesStore store(&live, nullptr);
    QCOMPARE(store.read(3, 2000, 4000).size(), size_t(3));
}

namespace {
// A batch of `count` gauges "m{i=first..first+count-1}" of source src.
SampleBatch labelSets(const QString &source, int first, int count, qint64 tsMs)
{
    SampleBatch batch;
    batch.source = source;
    batch.tsMs = tsMs;
    for (int i = first; i < first + count; ++i)
        batch.add({ { source, u"m"_s, { { u"i"_s, QString::number(i) } } },
                    QString(),
                    QString(),
                    UseKind::Info,
                    false },
                  double(i));
    return batch;
}
} // namespace

void TestSampleBus::seriesCap_data()
{
    QTest::addColumn<int>("cap");
    QTest::addColumn<QList<int>>("perPoll"); // new label sets per poll, never repeated
    QTest::addColumn<QList<int>>("dropped"); // expected new series refused per poll
    QTest::newRow("under the cap") << 10 << QList<int> { 4, 4 } << QList<int> { 0, 0 };
    QTest::newRow("exactly the cap") << 8 << QList<int> { 4, 4, 0 } << QList<int> { 0, 0, 0 };
    QTest::newRow("over in one poll") << 5 << QList<int> { 12 } << QList<int> { 7 };
    QTest::newRow("over later, then every poll")
        << 6 << QList<int> { 4, 4, 4 } << QList<int> { 0, 2, 6 };
    QTest::newRow("cap 0 admits nothing") << 0 << QList<int> { 3 } << QList<int> { 3 };
}

// New series beyond the cap reach no sink and are counted; the admitted ones keep
// flowing in every later poll.
void TestSampleBus::seriesCap()
{
    QFETCH(int, cap);
    QFETCH(QList<int>, perPoll);
    QFETCH(QList<int>, dropped);
    SeriesRegistry registry;
    registry.setSeriesCap(u"src"_s, cap);
    SampleBus bus(&registry);
    RecordingSink sink;
    LiveBuffers live(10);
    bus.addSink(&sink);
    bus.addSink(&live);

    int sent = 0;
    for (qsizetype poll = 0; poll < perPoll.size(); ++poll) {
        // Every label set sent so far again, plus the new ones.
        const int total = sent + perPoll.at(poll);
        bus.publish(labelSets(u"src"_s, 0, total, 1000 * (poll + 1)));
        sent = total;
        QCOMPARE(bus.takeDroppedSeries(u"src"_s), dropped.at(poll));
        QCOMPARE(bus.takeDroppedSeries(u"src"_s), 0); // taken
        const int admitted = std::min(total, cap);
        QCOMPARE(registry.size(), admitted);
        if (admitted == 0)
            continue;
        const ResolvedBatch &seen = sink.batches.constLast();
        QCOMPARE(seen.valueIds.size(), qsizetype(admitted));
        QCOMPARE(seen.batch.values.size(), qsizetype(admitted));
        for (qsizetype i = 0; i < seen.valueIds.size(); ++i) {
            // ids and values stay parallel after the refused ones are taken out
            QCOMPARE(registry.info(seen.valueIds.at(i))->key, seen.batch.values.at(i).info.key);
            QVERIFY(seen.valueIds.at(i) > 0);
        }
    }
    QCOMPARE(live.seriesIds().size(), qsizetype(std::min(sent, cap)));
    // The first series admitted is still fed at every poll.
    const int first = *registry.find({ u"src"_s, u"m"_s, { { u"i"_s, u"0"_s } } });
    if (cap > 0)
        QCOMPARE(live.read(first, 0, 1'000'000).size(), size_t(perPoll.size()));
}

void TestSampleBus::capIsPerSource()
{
    SeriesRegistry registry;
    QCOMPARE(registry.seriesCap(u"any"_s), SeriesRegistry::DefaultSeriesCap);
    registry.setSeriesCap(u"noisy"_s, 3);
    SampleBus bus(&registry);
    bus.publish(labelSets(u"noisy"_s, 0, 10, 1000));
    bus.publish(labelSets(u"quiet"_s, 0, 10, 1000));
    QCOMPARE(bus.takeDroppedSeries(u"noisy"_s), 7);
    QCOMPARE(bus.takeDroppedSeries(u"quiet"_s), 0);
    QCOMPARE(registry.size(), 13);
    // idFor() (tests, tools) is not capped; admit() counts what it registered.
    registry.idFor({ { u"noisy"_s, u"x"_s, {} }, {}, {}, UseKind::Info, false });
    QCOMPARE(registry.size(), 14);
}

void TestSampleBus::cacheLoadedSeriesDoNotCount()
{
    SeriesRegistry registry;
    registry.setSeriesCap(u"src"_s, 2);
    // Yesterday's series, loaded from the cache, flow and leave the cap to new ones.
    const SampleBatch old = labelSets(u"src"_s, 100, 3, 1000);
    for (qsizetype i = 0; i < old.values.size(); ++i)
        registry.insert(int(i) + 1, old.values.at(i).info);
    SampleBus bus(&registry);
    RecordingSink sink;
    bus.addSink(&sink);
    bus.publish(old);
    QCOMPARE(bus.takeDroppedSeries(u"src"_s), 0);
    bus.publish(labelSets(u"src"_s, 0, 3, 2000));
    QCOMPARE(bus.takeDroppedSeries(u"src"_s), 1);
    QCOMPARE(sink.batches.constLast().valueIds.size(), qsizetype(2));
    QCOMPARE(registry.size(), 5);
}

QTEST_GUILESS_MAIN(TestSampleBus)
#include "tst_samplebus.moc"
