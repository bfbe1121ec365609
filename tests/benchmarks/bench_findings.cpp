// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The analysis on the cache benchmark's fleet (cacheworkload.h: 776 series at 1 s, the
// 768 value series analysed, histograms are not), 24 h in the cache:
//  - findings_24h_776_series_ms: findings of the whole day, single thread, as
//    --export-findings runs them (SeriesStore::readForBins from block summaries, then
//    the detectors), beside its two parts (findings_24h_read_ms, findings_24h_detect_ms)
//    and beside the same read with every sample decoded (findings_24h_every_sample_ms);
//  - what_changed_1h_ms: the last hour against the 4 hours before it.
// HEADROOM_BENCH_DIR=DIR keeps the cache file (and reuses it when it is complete).
#include "benchutil.h"
#include "cacheworkload.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/analysis/analysisrun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <future>

using namespace Headroom;
using namespace Headroom::Bench;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 Day = 86'400'000;
constexpr qint64 Base = 20'000LL * Day; // a UTC midnight
} // namespace

class BenchFindings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dayOfTheFleet();
};

void BenchFindings::dayOfTheFleet()
{
    std::unique_ptr<QTemporaryDir> temp;
    QString dir = qEnvironmentVariable("HEADROOM_BENCH_DIR");
    if (dir.isEmpty()) {
        temp = std::make_unique<QTemporaryDir>();
        dir = temp->path();
    }
    QVERIFY(QDir().mkpath(dir));
    const QString path = dir + u"/bench-findings-day.sqlite"_s;
    QFile::remove(path);
    QFile::remove(path + u"-wal"_s);
    SeriesRegistry registry;
    SampleBus bus(&registry);
    QString error;
    CacheOptions options;
    options.retentionDays = 0;
    auto cache = SampleCache::open(path, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    bus.addSink(cache.get());

    CacheWorkload mix;
    QElapsedTimer timer;
    timer.start();
    std::future<void> committed;
    qint64 ts = Base;
    for (qint64 s = 0; s < Day / 1000; ++s) {
        for (const SampleBatch &batch : mix.second(ts))
            bus.publish(batch);
        ts += 1000;
        if (s % 300 == 299) {
            if (committed.valid())
                committed.wait();
            committed = std::async(std::launch::async, [&] { cache->flush(); });
        }
    }
    if (committed.valid())
        committed.wait();
    cache->flush();
    bus.removeSink(cache.get());
    print("findings_fleet_series", mix.seriesCount());
    print("findings_fleet_write_s", double(timer.elapsed()) / 1000);

    const SeriesStore store(nullptr, cache.get());
    const QList<int> ids = Analysis::seriesOfSources(registry, {});
    print("findings_24h_value_series", double(ids.size()));
    const qint64 from = Base, to = Base + Day - 1;
    const qint64 bin = Analysis::binWidthFor(from, to);

    Analysis::FindingsReport report;
    const double total = medianMs(
        3, [&] { report = Analysis::analyseRange(store, registry, ids, from, to, 1000); });
    QCOMPARE(report.seriesAnalysed, int(ids.size()));
    std::vector<Analysis::SeriesTrack> tracks;
    const double read
        = medianMs(3, [&] { tracks = Analysis::readTracks(store, registry, ids, from, to, bin); });
    const double detect = medianMs(3, [&] { (void)Analysis::findFindings(tracks); });
    print("findings_24h_776_series_ms", total);
    print("findings_24h_read_ms", read);
    print("findings_24h_detect_ms", detect);
    print("findings_24h_findings", double(report.findings.size()));

    // The same read, every sample decoded (bins under a minute skip the summaries).
    const double everySample = medianMs(1, [&] {
        size_t samples = 0;
        for (int id : ids)
            samples += store.read(id, from, to).size();
        QVERIFY(samples > 60'000'000);
    });
    print("findings_24h_every_sample_ms", everySample);

    std::vector<Analysis::ChangeRank> ranks;
    const double whatChanged = medianMs(5, [&] {
        ranks = Analysis::explainWindow(store, registry, ids, to - 3'600'000, to, 1000);
    });
    QVERIFY(!ranks.empty());
    print("what_changed_1h_ms", whatChanged);
    print("what_changed_1h_series_ranked", double(ranks.size()));
}

QTEST_GUILESS_MAIN(BenchFindings)
#include "bench_findings.moc"
