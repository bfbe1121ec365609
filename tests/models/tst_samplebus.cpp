#include "livebuffers.h"
#include "samplebus.h"
#include "seriesregistry.h"
#include "seriesstore.h"

#include <QSignalSpy>
#include <QTest>

using namespace Headroom;

class TestSampleBus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fanOutAndResolve();
    void ringKeepsNewest();
    void storeWithoutCacheReadsLive();
};

namespace {
SeriesInfo gauge(const QString &metric)
{
    return SeriesInfo { { QStringLiteral("src"), metric, {} },
                        QStringLiteral("%"),
                        QStringLiteral("cpu"),
                        UseKind::Utilization,
                        false };
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
    batch.source = QStringLiteral("src");
    batch.tsMs = 1000;
    batch.add(gauge(QStringLiteral("a")), 1.5);
    batch.add(gauge(QStringLiteral("b")), 2.5);
    bus.publish(batch);
    batch.tsMs = 2000;
    bus.publish(batch);

    QCOMPARE(spy.count(), 2);
    QCOMPARE(sink.batches.size(), 2);
    QCOMPARE(sink.batches[0].newSeriesIds.size(), 2); // first sighting
    QCOMPARE(sink.batches[1].newSeriesIds.size(), 0);
    const int idA = sink.batches[0].valueIds[0];
    QCOMPARE(registry.info(idA)->key.metric, QStringLiteral("a"));
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

QTEST_GUILESS_MAIN(TestSampleBus)
#include "tst_samplebus.moc"
