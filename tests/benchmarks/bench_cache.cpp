// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cache's figures beside plain-SQLite baselines measured in the same run
// (docs/PERFORMANCE.md, "Cache"). Prints "name: value" lines:
//  ingest_samples_per_s, ingest_vs_plain_ratio, ingest_flatness_ratio,
//  bytes_per_sample, read_7d_ms, dashboard_open_ms, expiry_vs_delete_ratio,
//  writer_p99_during_expiry_ms, tier_bytes_per_raw_sample, read_30d_mean_ms, and the
//  baselines and inputs behind them.
// The plain baseline is a prepared INSERT of one row per sample (series_id, ts, value)
// into a WITHOUT ROWID table keyed (series_id, ts), WAL, synchronous=NORMAL, one
// transaction per batch (a second of the fleet).
// HEADROOM_BENCH_CACHE_SAMPLES sets how many samples the flatness run stores first
// (default 100 million); HEADROOM_BENCH_DIR where the files go (default a temp dir).
#include "benchutil.h"
#include "cacheworkload.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/downsample.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <sqlite3.h>
#include <thread>

using namespace Headroom;
using namespace Headroom::Bench;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 Day = 86'400'000;
constexpr qint64 Base = 20'000LL * Day; // a UTC midnight (2024-10-04)
constexpr int Columns = 2000;

qint64 fileBytes(const QString &path)
{
    return QFileInfo(path).size() + QFileInfo(path + u"-wal"_s).size();
}

CacheOptions keepAll()
{
    CacheOptions options;
    options.retentionDays = 0; // the benchmark's data is old; expiry is explicit
    return options;
}

// A cache with its registry and bus, as the app wires them.
struct Store
{
    SeriesRegistry registry;
    SampleBus bus { &registry };
    std::unique_ptr<SampleCache> cache;

    explicit Store(const QString &path)
    {
        QString error;
        cache = SampleCache::open(path, &registry, &error, keepAll());
        if (!cache)
            qFatal("%s", qPrintable(error));
        bus.addSink(cache.get());
    }
    ~Store() { bus.removeSink(cache.get()); }
};

// Flushes the cache on another thread while the caller publishes more, as the app's
// writer commits while collectors go on: at most one flush in flight.
struct BackgroundFlush
{
    Store &store;
    std::future<void> committed;

    void start()
    {
        wait();
        committed = std::async(std::launch::async, [this] { store.cache->flush(); });
    }
    void wait()
    {
        if (committed.valid())
            committed.wait();
    }
    void finish()
    {
        wait();
        store.cache->flush();
    }
};

// Publishes `seconds` of the mix from *ts on through the bus, in chunks of 5 minutes,
// with at most two chunks waiting for the writer (a flush on another thread says when
// one is committed), so memory stays bounded and publishing overlaps writing. Returns
// samples per second, everything committed.
double ingest(Store &store, CacheWorkload &mix, qint64 *ts, qint64 seconds)
{
    constexpr qint64 Chunk = 300; // 230k samples of the mix
    QElapsedTimer timer;
    timer.start();
    BackgroundFlush flush { store, {} };
    for (qint64 done = 0; done < seconds; done += Chunk) {
        for (qint64 s = done; s < std::min(seconds, done + Chunk); ++s) {
            for (const SampleBatch &batch : mix.second(*ts))
                store.bus.publish(batch);
            *ts += 1000;
        }
        flush.start();
    }
    flush.finish();
    return double(seconds * mix.samplesPerSecond()) / (double(timer.nsecsElapsed()) / 1e9);
}

void exec(sqlite3 *db, const char *sql)
{
    char *message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK)
        qFatal("%s: %s", sql, message);
}

// The plain baseline table.
struct PlainTable
{
    sqlite3 *db = nullptr;
    sqlite3_stmt *insert = nullptr;
    SeriesRegistry registry; // ids as the cache gets them

    explicit PlainTable(const QString &path)
    {
        sqlite3_open(path.toUtf8().constData(), &db);
        exec(db, "PRAGMA journal_mode=WAL");
        exec(db, "PRAGMA synchronous=NORMAL");
        exec(db,
             "CREATE TABLE IF NOT EXISTS plain(series_id INTEGER, ts INTEGER, value REAL,"
             " PRIMARY KEY(series_id, ts)) WITHOUT ROWID");
        sqlite3_prepare_v2(db, "INSERT INTO plain VALUES(?, ?, ?)", -1, &insert, nullptr);
    }
    ~PlainTable()
    {
        sqlite3_finalize(insert);
        sqlite3_close(db);
    }
    // One transaction per second of batches.
    void write(const QList<SampleBatch> &batches)
    {
        exec(db, "BEGIN");
        for (const SampleBatch &batch : batches) {
            for (const SeriesValue &v : batch.values) {
                sqlite3_bind_int(insert, 1, registry.idFor(v.info));
                sqlite3_bind_int64(insert, 2, batch.tsMs);
                sqlite3_bind_double(insert, 3, v.value);
                sqlite3_step(insert);
                sqlite3_reset(insert);
            }
        }
        exec(db, "COMMIT");
    }
};

// A week of `series` gauges at 1 s, in the cache and (when plain is set) the plain table.
QList<SeriesInfo> weekOfSeries(int series)
{
    QList<SeriesInfo> infos;
    for (int s = 0; s < series; ++s)
        infos.append(SeriesInfo {
            { u"host:week"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, QString::number(s) } } },
            u"%"_s,
            u"cpu"_s,
            UseKind::Utilization,
            false });
    return infos;
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, size_t(p / 100.0 * double(values.size())))];
}
} // namespace

class BenchCache : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void ingestAndFlatness();
    void bytesPerSample();
    void readsAndExpiry();
    void monthOfMeansFromTiers();

private:
    QString file(const QString &name) const { return m_dir.filePath(name); }

    QDir m_dir;
    std::unique_ptr<QTemporaryDir> m_temp;
};

void BenchCache::initTestCase()
{
    if (qEnvironmentVariableIsSet("HEADROOM_BENCH_DIR")) {
        m_dir = QDir(qEnvironmentVariable("HEADROOM_BENCH_DIR"));
        QVERIFY(m_dir.mkpath(u"."_s));
    } else {
        m_temp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_temp->isValid());
        m_dir = QDir(m_temp->path());
    }
    for (const QString &name : m_dir.entryList({ u"bench-*"_s }, QDir::Files))
        m_dir.remove(name);
}

void BenchCache::ingestAndFlatness()
{
    constexpr int FlatnessPairs = 3;
    const qint64 target = qEnvironmentVariableIsSet("HEADROOM_BENCH_CACHE_SAMPLES")
        ? qEnvironmentVariable("HEADROOM_BENCH_CACHE_SAMPLES").toLongLong()
        : 100'000'000LL;
    CacheWorkload mix;
    // 8.4 million samples of the mix, about 4 s of ingest, per window.
    constexpr qint64 Seconds = 3 * 3600;
    const qint64 measured = Seconds * mix.samplesPerSecond();

    // The plain baseline on the same number of samples of the same mix.
    double plainRate = 0;
    {
        PlainTable plain(file(u"bench-plain-ingest.sqlite"_s));
        CacheWorkload plainMix;
        QElapsedTimer timer;
        timer.start();
        // 10 minutes are enough for a steady rate (the plain path is slow).
        constexpr qint64 PlainSeconds = 600;
        for (qint64 s = 0; s < PlainSeconds; ++s)
            plain.write(plainMix.second(Base + s * 1000));
        plainRate = double(PlainSeconds * plainMix.samplesPerSecond())
            / (double(timer.nsecsElapsed()) / 1e9);
    }

    Store store(file(u"bench-ingest.sqlite"_s));
    qint64 ts = Base;
    const double emptyRate = ingest(store, mix, &ts, Seconds);
    print("ingest_series", mix.seriesCount());
    print("ingest_plain_samples_per_s", plainRate);
    print("ingest_samples_per_s", emptyRate);
    print("ingest_vs_plain_ratio", emptyRate / plainRate);

    // Fill up to the target through the same path.
    qint64 stored = measured;
    const qint64 perSecond = mix.samplesPerSecond();
    while (stored < target) {
        const qint64 seconds = std::min<qint64>(6 * 3600, (target - stored) / perSecond + 1);
        ingest(store, mix, &ts, seconds);
        stored += seconds * perSecond;
    }
    print("ingest_samples_stored_before_flatness_run", double(stored));

    // Then the full cache against an empty one, window by window, side by side: this VM
    // runs a whole process 20-40 % faster at times (2.1-2.4 M or 3.0-3.4 M samples/s
    // on an empty cache, and both windows of one process alike), so an empty window
    // minutes before a full one measured the VM as much as the cache. Each pair is a
    // fresh cache and the full one, in alternating order; the ratio is the pairs'
    // median.
    std::vector<double> ratios, fullRates;
    for (int pair = 0; pair < FlatnessPairs; ++pair) {
        const auto emptyWindow = [&] {
            const QString path = file(u"bench-ingest-empty-%1.sqlite"_s.arg(pair));
            double rate = 0;
            {
                Store empty(path);
                CacheWorkload fresh;
                qint64 at = Base;
                rate = ingest(empty, fresh, &at, Seconds);
            }
            for (const QString &suffix : { u""_s, u"-wal"_s, u"-shm"_s })
                QFile::remove(path + suffix);
            return rate;
        };
        double empty = 0, full = 0;
        if (pair % 2 == 0) {
            empty = emptyWindow();
            full = ingest(store, mix, &ts, Seconds);
        } else {
            full = ingest(store, mix, &ts, Seconds);
            empty = emptyWindow();
        }
        fullRates.push_back(full);
        ratios.push_back(full / empty);
        printf("flatness pair %d: empty %.0f, full %.0f samples/s, ratio %.3f\n", pair + 1, empty,
               full, full / empty);
    }
    print("ingest_samples_per_s_when_full", percentile(fullRates, 50));
    print("ingest_flatness_ratio", percentile(ratios, 50));

    // A batch committed every 10 ms while the oldest day expires.
    std::atomic<bool> stop = false;
    std::vector<std::pair<qint64, double>> latencies; // (start ns, ms)
    QElapsedTimer clock;
    clock.start();
    std::thread writer([&] {
        CacheWorkload small(false);
        qint64 at = ts;
        while (!stop) {
            const qint64 started = clock.nsecsElapsed();
            for (const SampleBatch &batch : small.second(at))
                store.bus.publish(batch);
            store.cache->flush();
            latencies.emplace_back(started, double(clock.nsecsElapsed() - started) / 1e6);
            at += 1000;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const qint64 expiryStart = clock.nsecsElapsed();
    const int dropped = store.cache->expireBefore(Base + Day);
    const qint64 uncatalogued = clock.nsecsElapsed();
    // The day's rows are freed in slices after it left the catalogue: the window the
    // writer's latency is judged over lasts until the last slice.
    while (store.cache->status().reclaimingDays > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const qint64 expiryEnd = clock.nsecsElapsed();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
    writer.join();
    QCOMPARE(dropped, 1);
    std::vector<double> during, outside;
    for (const auto &[started, ms] : latencies) {
        // Every batch whose commit overlapped the expiry, and the others.
        if (started <= expiryEnd && double(started) + ms * 1e6 >= double(expiryStart))
            during.push_back(ms);
        else
            outside.push_back(ms);
    }
    print("expiry_out_of_catalogue_ms", double(uncatalogued - expiryStart) / 1e6);
    print("expiry_of_a_full_day_ms", double(expiryEnd - expiryStart) / 1e6);
    print("writer_batches_during_expiry", double(during.size()));
    print("writer_p99_outside_expiry_ms", percentile(outside, 99));
    print("writer_p99_during_expiry_ms", percentile(during, 99));
}

void BenchCache::bytesPerSample()
{
    // Gauges at 1 s as the collectors round them, no histograms: the file once closed
    // (the WAL checkpointed away) over the samples in it.
    CacheWorkload gauges(false);
    const qint64 seconds = 4 * 3600;
    const QString path = file(u"bench-bytes.sqlite"_s);
    {
        Store store(path);
        qint64 ts = Base;
        ingest(store, gauges, &ts, seconds);
    }
    const double samples = double(seconds * gauges.samplesPerSecond());
    print("bytes_per_sample_samples", samples);
    print("bytes_per_sample", double(fileBytes(path)) / samples);
    // Of which the rollup tiers: their table's pages (four whole hours of minutes, the
    // day's hours so far) over the raw samples.
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr),
                 SQLITE_OK);
        sqlite3_stmt *st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "SELECT sum(pgsize) FROM dbstat WHERE name = 'rollup'", -1,
                                    &st, nullptr),
                 SQLITE_OK);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        const double tierBytes = double(sqlite3_column_int64(st, 0));
        sqlite3_finalize(st);
        sqlite3_close(db);
        QVERIFY(tierBytes > 0);
        print("tier_bytes", tierBytes);
        print("tier_bytes_per_raw_sample", tierBytes / samples);
    }
    // The same with each poll up to 10 ms off the second: the timestamps' share.
    CacheWorkload jittered(false);
    jittered.setJitterMs(10);
    const QString jitteredPath = file(u"bench-bytes-jittered.sqlite"_s);
    {
        Store store(jitteredPath);
        qint64 ts = Base;
        ingest(store, jittered, &ts, seconds);
    }
    print("bytes_per_sample_jittered_10ms", double(fileBytes(jitteredPath)) / samples);
    // The plain row for comparison: the same gauges, one row each.
    const QString plainPath = file(u"bench-bytes-plain.sqlite"_s);
    {
        PlainTable plain(plainPath);
        CacheWorkload plainGauges(false);
        for (qint64 s = 0; s < 600; ++s)
            plain.write(plainGauges.second(Base + s * 1000));
        exec(plain.db, "PRAGMA wal_checkpoint(TRUNCATE)");
    }
    print("bytes_per_sample_plain",
          double(fileBytes(plainPath)) / (600.0 * gauges.samplesPerSecond()));
}

void BenchCache::readsAndExpiry()
{
    // 24 series x 7 days at 1 s in the cache and in the plain table.
    constexpr int Series = 24;
    constexpr qint64 Seconds = 7 * 86'400;
    const QList<SeriesInfo> infos = weekOfSeries(Series);
    Store store(file(u"bench-week.sqlite"_s));
    PlainTable plain(file(u"bench-week-plain.sqlite"_s));
    BackgroundFlush flush { store, {} };
    for (qint64 s = 0; s < Seconds; ++s) {
        SampleBatch batch;
        batch.source = u"host:week"_s;
        batch.tsMs = Base + s * 1000;
        for (int i = 0; i < Series; ++i)
            batch.add(infos.at(i), std::round(500 + 400 * std::sin(double(s) / (600 + i))) / 10);
        store.bus.publish(batch);
        if (s % 600 == 599)
            flush.start();
        if (s % 60 == 0)
            exec(plain.db, "BEGIN");
        for (const SeriesValue &v : std::as_const(batch.values)) {
            sqlite3_bind_int(plain.insert, 1, plain.registry.idFor(v.info));
            sqlite3_bind_int64(plain.insert, 2, batch.tsMs);
            sqlite3_bind_double(plain.insert, 3, v.value);
            sqlite3_step(plain.insert);
            sqlite3_reset(plain.insert);
        }
        if (s % 60 == 59)
            exec(plain.db, "COMMIT");
    }
    flush.finish();
    const qint64 end = Base + Seconds * 1000;

    // As a panel reads it: SeriesStore::readForColumns, which takes a range over a day
    // from the block summaries (the rollup), then the reduction to pixel columns.
    const int one = *store.registry.find(infos.at(0).key);
    const SeriesStore series(nullptr, store.cache.get());
    size_t points = 0, read = 0;
    const double read7d = medianMs(5, [&] {
        const std::vector<Sample> samples = series.readForColumns(one, Base, end, Columns);
        read = samples.size();
        points = downsampleMinMax(samples, Base, end, Columns).size();
    });
    QVERIFY(points > 0 && points <= 4 * Columns);
    const double read7dRaw = medianMs(3, [&] {
        const std::vector<Sample> samples = store.cache->read(one, Base, end);
        QCOMPARE(samples.size(), size_t(Seconds));
        points = downsampleMinMax(samples, Base, end, Columns).size();
    });
    print("read_7d_points_read", double(read));
    print("read_7d_ms", read7d);
    print("read_7d_every_sample_ms", read7dRaw);

    const double open = medianMs(3, [&] {
        for (const SeriesInfo &info : infos) {
            const int id = *store.registry.find(info.key);
            const std::vector<Sample> samples = series.readForColumns(id, end - Day, end, Columns);
            points = downsampleMinMax(samples, end - Day, end, Columns).size();
        }
    });
    print("dashboard_open_ms", open);

    // Expire the oldest day: dropping its chunk against DELETE on the plain table.
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(store.cache->expireBefore(Base + Day), 1);
    const double expiryMs = double(timer.nsecsElapsed()) / 1e6;
    while (store.cache->status().reclaimingDays > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const double freedMs = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    exec(plain.db, "BEGIN");
    sqlite3_stmt *remove = nullptr;
    sqlite3_prepare_v2(plain.db, "DELETE FROM plain WHERE ts < ?", -1, &remove, nullptr);
    sqlite3_bind_int64(remove, 1, Base + Day);
    QCOMPARE(sqlite3_step(remove), SQLITE_DONE);
    const int deleted = sqlite3_changes(plain.db);
    sqlite3_finalize(remove);
    exec(plain.db, "COMMIT");
    const double deleteMs = double(timer.nsecsElapsed()) / 1e6;
    QCOMPARE(deleted, Series * 86'400);
    QCOMPARE(store.cache->read(one, Base, Base + Day - 1).size(), size_t(0));
    print("expiry_day_samples", double(deleted));
    print("expiry_ms", expiryMs);
    print("expiry_plain_delete_ms", deleteMs);
    print("expiry_vs_delete_ratio", expiryMs / deleteMs);
    // The pages freed too, slices and the gaps between them included.
    print("expiry_until_freed_ms", freedMs);
    print("expiry_until_freed_vs_delete_ratio", freedMs / deleteMs);
}

void BenchCache::monthOfMeansFromTiers()
{
    // One gauge at 1 s for 30 days, drawn as 2,000 column means (a stacked panel, the
    // legend's mean): from the minute tier against every sample in the same run.
    constexpr qint64 Seconds = 30 * 86'400;
    const SeriesInfo info = weekOfSeries(1).at(0);
    Store store(file(u"bench-month.sqlite"_s));
    BackgroundFlush flush { store, {} };
    for (qint64 s = 0; s < Seconds; ++s) {
        SampleBatch batch;
        batch.source = u"host:week"_s;
        batch.tsMs = Base + s * 1000;
        batch.add(info, std::round(500 + 400 * std::sin(double(s) / 600)) / 10);
        store.bus.publish(batch);
        if (s % 3600 == 3599)
            flush.start();
    }
    flush.finish();
    const qint64 end = Base + Seconds * 1000 - 1;
    const int id = *store.registry.find(info.key);
    const SeriesStore series(nullptr, store.cache.get());
    std::vector<Sample> fromTiers, fromSamples;
    std::vector<Aggregate> read;
    const double tiers = medianMs(5, [&] {
        read = series.readAggregates(id, Base, end, Columns);
        fromTiers = downsampleMean(read, Base, end, Columns);
    });
    double monthSum = 0;
    const double every = medianMs(3, [&] {
        const std::vector<Sample> samples = store.cache->read(id, Base, end);
        QCOMPARE(samples.size(), size_t(Seconds));
        fromSamples = downsampleMean(samples, Base, end, Columns);
        monthSum = 0;
        for (const Sample &sample : samples)
            monthSum += sample.value;
    });
    // Both give a mean per column (a minute slot counts in the column of its middle, a
    // sample in its own), and the tiers hold every sample: the month's mean is exact.
    QCOMPARE(fromTiers.size(), size_t(Columns));
    QCOMPARE(fromSamples.size(), size_t(Columns));
    double tierSum = 0;
    qint64 tierCount = 0;
    for (const Aggregate &a : read) {
        tierSum += a.sum;
        tierCount += a.count;
    }
    QCOMPARE(tierCount, Seconds);
    QVERIFY(std::fabs(tierSum - monthSum) <= 1e-9 * std::fabs(monthSum));
    const size_t aggregates = read.size();
    print("read_30d_aggregates_read", double(aggregates));
    print("read_30d_mean_ms", tiers);
    print("read_30d_mean_every_sample_ms", every);
}

QTEST_GUILESS_MAIN(BenchCache)
#include "bench_cache.moc"
