// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The rollup tiers (engine/cache/rollup*.h): the row codec on good and hostile input,
// tiers made as blocks seal equal to aggregates taken from the raw samples (across a
// restart in the middle of an hour), their own retention, and reads that take true
// means from them (SeriesStore, the stacked time-series panel).
#include "cachetestutil.h"
#include "document/dashboard.h"
#include "engine/cache/rollup.h"
#include "engine/seriesstore.h"
#include "query/downsample.h"
#include "query/panels/timeseriespanel.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <map>
#include <sqlite3.h>

using namespace Headroom;
using namespace CacheTest;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 DayMs = 86'400'000;
constexpr qint64 Base = 19'700 * DayMs; // 2023-12-09 00:00 UTC

CacheOptions keepEverything()
{
    CacheOptions options;
    options.retentionDays = 0; // old timestamps: nothing may expire on its own
    return options;
}

// A two-decimal random walk, as the collectors round gauges, with a NaN now and then.
struct Walk
{
    QRandomGenerator rng;
    double value = 50;
    explicit Walk(quint32 seed)
        : rng(seed)
    {
    }
    double next()
    {
        value = std::round((value + rng.generateDouble() * 2 - 1) * 100) / 100;
        return rng.bounded(500) == 0 ? qQNaN() : value;
    }
};

// Publishes one sample of `info` every stepMs in [fromMs, toMs) (skipping [gapFrom,
// gapTo)), in batches, and returns them.
std::vector<Sample> publish(SampleCache &cache, SeriesRegistry &registry, const SeriesInfo &info,
                            Walk &walk, qint64 fromMs, qint64 toMs, qint64 stepMs,
                            qint64 gapFrom = 0, qint64 gapTo = 0)
{
    std::vector<Sample> written;
    for (qint64 ts = fromMs; ts < toMs; ts += stepMs) {
        if (ts >= gapFrom && ts < gapTo)
            continue;
        const double v = walk.next();
        cache.consume(valuesAt(registry, ts, { { info, v } }));
        written.push_back({ ts, v });
    }
    cache.flush();
    return written;
}

// The tier's slots computed from raw samples, keyed by slot start.
std::map<qint64, Aggregate> expectedSlots(const std::vector<Sample> &raw, qint64 stepMs)
{
    std::map<qint64, Aggregate> slots;
    for (const Sample &s : raw) {
        const qint64 start = floorTo(s.tsMs, stepMs);
        Aggregate &a = slots[start];
        a.startMs = start;
        a.endMs = start + stepMs - 1;
        a.add(s.value);
    }
    std::erase_if(slots, [](const auto &entry) { return entry.second.count == 0; });
    return slots;
}

bool closeTo(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

// Every slot the tier has equals the one from raw (count, min, max exactly, the sum to
// storedSum's tolerance), and the tier covers [fromMs, coveredTo).
void compareTier(const RollupRead &tier, const std::vector<Sample> &raw, qint64 stepMs,
                 qint64 fromMs, qint64 coveredTo)
{
    // Whole slots only: the one fromMs falls inside is read from the blocks.
    const qint64 firstWhole = floorTo(fromMs + stepMs - 1, stepMs);
    std::map<qint64, Aggregate> expected = expectedSlots(raw, stepMs);
    std::erase_if(expected,
                  [&](const auto &e) { return e.first >= coveredTo || e.first < firstWhole; });
    QCOMPARE(tier.slots.size(), expected.size());
    size_t i = 0;
    for (const auto &[start, want] : expected) {
        const Aggregate &got = tier.slots[i++];
        QCOMPARE(got.startMs, start);
        QCOMPARE(got.count, want.count);
        QCOMPARE(got.min, want.min);
        QCOMPARE(got.max, want.max);
        QVERIFY2(
            closeTo(got.sum, want.sum),
            qPrintable(u"slot %1: sum %2, from raw %3"_s.arg(start).arg(got.sum).arg(want.sum)));
    }
    QVERIFY(!tier.covered.empty());
    QCOMPARE(tier.covered.front().first, firstWhole);
    QCOMPARE(tier.covered.back().second, coveredTo);
}

} // namespace

class TestRollup : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void codecRoundTrip_data();
    void codecRoundTrip();
    void codecRefusesDamage();
    void decimalSumsPackSmall();
    void tiersEqualAggregatesOfRaw();
    void restartInTheMiddleOfAnHour();
    void tiersKeptLongerThanRaw();
    void trueMeansFromTiers();
    void fileWithoutTiersReadsBlocks();
    void histogramTiersMergeThePolls();
    void tiersAndBlocksAddUpAcrossRestarts();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString path() const { return m_dir->filePath(u"cache.sqlite"_s); }
};

void TestRollup::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestRollup::codecRoundTrip_data()
{
    QTest::addColumn<int>("tier");
    QTest::addColumn<bool>("decimal");
    QTest::addColumn<bool>("sameCounts");
    QTest::addColumn<int>("everyNth"); // slots kept
    QTest::newRow("minute, decimal, full") << 1 << true << true << 1;
    QTest::newRow("minute, decimal, gaps") << 1 << true << true << 3;
    QTest::newRow("minute, full precision") << 1 << false << true << 1;
    QTest::newRow("minute, uneven counts") << 1 << true << false << 2;
    QTest::newRow("hour, decimal") << 2 << true << false << 1;
    QTest::newRow("hour, one slot") << 2 << false << false << 24;
}

void TestRollup::codecRoundTrip()
{
    QFETCH(int, tier);
    QFETCH(bool, decimal);
    QFETCH(bool, sameCounts);
    QFETCH(int, everyNth);
    const auto t = RollupTier(tier);
    const qint64 rowStart = Base + rollupRowSpanMs(t) * 3;
    QRandomGenerator rng(42 + tier);
    std::vector<Aggregate> slots;
    for (int i = 0; i < rollupSlotsPerRow(t); i += everyNth) {
        Aggregate a;
        a.startMs = rowStart + i * rollupStepMs(t);
        a.endMs = a.startMs + rollupStepMs(t) - 1;
        const int n = sameCounts ? 60 : 1 + int(rng.bounded(120));
        for (int k = 0; k < n; ++k) {
            const double v = rng.generateDouble() * 100;
            a.add(decimal ? std::round(v * 100) / 100 : v);
        }
        slots.push_back(a);
    }
    const QByteArray row = RollupCodec::encode(t, rowStart, slots);
    std::vector<Aggregate> decoded;
    QString error;
    QVERIFY2(RollupCodec::decode(t, rowStart, row, &decoded, &error), qPrintable(error));
    QCOMPARE(decoded.size(), slots.size());
    for (size_t i = 0; i < slots.size(); ++i) {
        Aggregate want = slots[i];
        want.sum = RollupCodec::storedSum(want.sum);
        QCOMPARE(decoded[i], want);
        QVERIFY(closeTo(decoded[i].sum, slots[i].sum));
    }
}

void TestRollup::codecRefusesDamage()
{
    std::vector<Aggregate> slots;
    for (int i = 0; i < 60; ++i) {
        Aggregate a { Base + i * MinuteMs, Base + i * MinuteMs + MinuteMs - 1 };
        a.add(i * 0.5);
        a.add(i * 0.25);
        slots.push_back(a);
    }
    const QByteArray row = RollupCodec::encode(RollupTier::Minute, Base, slots);
    QRandomGenerator rng(7);
    int refused = 0;
    for (int round = 0; round < 20'000; ++round) {
        QByteArray damaged = row;
        switch (round % 3) {
        case 0:
            damaged.truncate(qsizetype(rng.bounded(int(row.size()))));
            break;
        case 1:
            for (int k = 0; k < 3; ++k)
                damaged[qsizetype(rng.bounded(int(row.size())))] = char(rng.bounded(256));
            break;
        default:
            damaged.append(char(rng.bounded(256)));
        }
        std::vector<Aggregate> out { Aggregate {} };
        QString error;
        if (!RollupCodec::decode(RollupTier::Minute, Base, damaged, &out, &error)) {
            ++refused;
            QCOMPARE(out.size(), size_t(1)); // unchanged
            QVERIFY(!error.isEmpty());
            continue;
        }
        // What is accepted is well formed: slots inside the row, in order, counted.
        QVERIFY(out.size() <= 61);
        for (size_t i = 2; i < out.size(); ++i)
            QVERIFY(out[i].startMs > out[i - 1].startMs);
        for (size_t i = 1; i < out.size(); ++i) {
            QVERIFY(out[i].startMs >= Base && out[i].startMs < Base + HourMs);
            QVERIFY(out[i].count >= 1);
        }
    }
    QVERIFY(refused > 10'000);
}

void TestRollup::decimalSumsPackSmall()
{
    // 60 two-decimal values add up with float noise (0.1 + 0.2 != 0.3); stored as the
    // decimal they stand for, a row of a slowly moving gauge packs in a few bytes a slot.
    QCOMPARE(RollupCodec::storedSum(0.1 + 0.2), 0.3);
    QCOMPARE(RollupCodec::storedSum(1.0 / 3), 1.0 / 3); // not near a short decimal: kept
    QVERIFY(std::isinf(RollupCodec::storedSum(qInf())));
    Walk walk(3);
    std::vector<Aggregate> slots;
    for (int i = 0; i < 60; ++i) {
        Aggregate a { Base + i * MinuteMs, Base + i * MinuteMs + MinuteMs - 1 };
        for (int k = 0; k < 60; ++k) {
            const double v = walk.next();
            a.add(std::isnan(v) ? walk.value : v);
        }
        slots.push_back(a);
    }
    const QByteArray row = RollupCodec::encode(RollupTier::Minute, Base, slots);
    qInfo("a minute row of a two-decimal 1 s gauge: %lld bytes for 3600 samples (%.3f per sample)",
          qint64(row.size()), double(row.size()) / 3600);
    QVERIFY2(row.size() < 360, "over 0.1 byte per raw sample");
}

void TestRollup::tiersEqualAggregatesOfRaw()
{
    SeriesRegistry registry;
    const SeriesInfo info = gauge(u"host.cpu.utilization"_s);
    std::vector<Sample> raw;
    const qint64 from = Base + 22 * HourMs + 17 * MinuteMs + 3000; // into the next day
    const qint64 to = from + 30 * HourMs;
    {
        QString error;
        auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
        QVERIFY2(cache, qPrintable(error));
        Walk walk(11);
        // 1 s with a 17-minute outage that leaves whole minutes out.
        raw = publish(*cache, registry, info, walk, from, to, 1000, from + 5 * HourMs,
                      from + 5 * HourMs + 17 * MinuteMs);
    } // stopping writes the unfinished hour and day as rows so far
    QString error;
    auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
    QVERIFY2(cache, qPrintable(error));
    const int id = *registry.find(info.key);
    // Rows cover up to the newest slot of the last sealed block (the rest is in the tail).
    std::vector<Sample> stored = cache->read(id, from, to);
    QVERIFY(sameBits(stored, raw));
    const RollupRead minutes = cache->readRollup(id, RollupTier::Minute, from, to);
    const qint64 coveredTo = minutes.covered.back().second;
    QVERIFY(coveredTo > to - 3 * MinuteMs);
    QCOMPARE(minutes.covered.size(), size_t(1)); // the outage is inside covered hours
    compareTier(minutes, raw, MinuteMs, from, coveredTo);
    // The hour tier covers the finished hours; the minute tier has the newest one.
    const RollupRead hours = cache->readRollup(id, RollupTier::Hour, from, to);
    QCOMPARE(hours.covered.back().second, floorTo(coveredTo, HourMs));
    std::vector<Sample> sealed = raw;
    std::erase_if(sealed, [&](const Sample &s) {
        return s.tsMs >= hours.covered.back().second || s.tsMs < floorTo(from + HourMs - 1, HourMs);
    });
    QCOMPARE(hours.slots.size(), expectedSlots(sealed, HourMs).size());
    const auto wantHours = expectedSlots(sealed, HourMs);
    size_t i = 0;
    for (const auto &[start, want] : wantHours) {
        QCOMPARE(hours.slots[i].startMs, start);
        QCOMPARE(hours.slots[i].count, want.count);
        QCOMPARE(hours.slots[i].max, want.max);
        QVERIFY(closeTo(hours.slots[i].sum, want.sum));
        ++i;
    }
}

void TestRollup::restartInTheMiddleOfAnHour()
{
    SeriesRegistry registry;
    const SeriesInfo info = gauge(u"host.cpu.utilization"_s);
    const qint64 from = Base + 10 * HourMs;
    const qint64 restartAt = from + 37 * MinuteMs + 20'000;
    const qint64 to = from + 2 * HourMs + 10 * MinuteMs;
    Walk walk(5);
    std::vector<Sample> raw;
    for (const auto &[a, b] : { std::pair { from, restartAt }, std::pair { restartAt, to } }) {
        QString error;
        auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
        QVERIFY2(cache, qPrintable(error));
        const auto part = publish(*cache, registry, info, walk, a, b, 1000);
        raw.insert(raw.end(), part.begin(), part.end());
    }
    QString error;
    auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
    QVERIFY2(cache, qPrintable(error));
    const int id = *registry.find(info.key);
    const RollupRead minutes = cache->readRollup(id, RollupTier::Minute, from, to);
    // Both complete hours as full rows: the one the restart split was rebuilt from its
    // blocks, not left with the second run's part only.
    QVERIFY(minutes.covered.back().second >= from + 2 * HourMs);
    compareTier(minutes, raw, MinuteMs, from, minutes.covered.back().second);
    QCOMPARE(minutes.slots.front().count, 60);
    QCOMPARE(minutes.slots[37].count, 60); // the minute of the restart, from both runs
}

void TestRollup::tiersKeptLongerThanRaw()
{
    // Timestamps relative to now: retention is measured from the clock.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = floorTo(now, DayMs) - 6 * DayMs;
    SeriesRegistry registry;
    const SeriesInfo info = gauge(u"host.cpu.utilization"_s);
    std::vector<Sample> raw;
    {
        QString error;
        auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
        QVERIFY2(cache, qPrintable(error));
        Walk walk(9);
        raw = publish(*cache, registry, info, walk, from, now - HourMs, 60'000);
    }
    CacheOptions options;
    options.retentionDays = 1;
    options.minuteRetentionDays = 2;
    options.hourRetentionDays = 4;
    QString error;
    auto cache = SampleCache::open(path(), &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    cache->flush(); // retention runs at open
    const int id = *registry.find(info.key);
    const qint64 rawCutoff = (floorTo(now - DayMs, DayMs));
    QVERIFY(cache->read(id, from, rawCutoff - 1).empty());
    QVERIFY(!cache->read(id, rawCutoff, now).empty());
    const RollupRead minutes = cache->readRollup(id, RollupTier::Minute, from, now);
    const RollupRead hours = cache->readRollup(id, RollupTier::Hour, from, now);
    QVERIFY(!minutes.slots.empty() && !hours.slots.empty());
    // Each tier starts within a row span of its retention, and hours reach further back.
    QVERIFY(minutes.slots.front().startMs >= now - 2 * DayMs - 2 * HourMs);
    QVERIFY(minutes.slots.front().startMs <= now - 2 * DayMs + HourMs);
    QVERIFY(hours.slots.front().startMs >= now - 4 * DayMs - 2 * DayMs);
    QVERIFY(hours.slots.front().startMs <= now - 4 * DayMs + DayMs);
    // A week drawn 300 px wide (34 min columns) still shows the days raw data lost.
    SeriesStore store(nullptr, cache.get());
    const std::vector<Aggregate> week = store.readAggregates(id, now - 7 * DayMs, now, 300);
    QVERIFY(!week.empty());
    QVERIFY(week.front().startMs <= hours.slots.front().startMs);
    QVERIFY(week.front().startMs < rawCutoff - DayMs);
}

void TestRollup::trueMeansFromTiers()
{
    SeriesRegistry registry;
    const SeriesInfo info = gauge(u"host.cpu.utilization"_s);
    const qint64 from = Base;
    const qint64 to = Base + 30 * DayMs;
    std::vector<Sample> raw;
    QString error;
    auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
    QVERIFY2(cache, qPrintable(error));
    Walk walk(21);
    // 30 days at 10 s, with a day-long outage; uneven: every 7th poll twice as dense.
    for (qint64 ts = from; ts < to; ts += (ts / 10'000) % 7 == 0 ? 5000 : 10'000) {
        if (ts >= from + 12 * DayMs && ts < from + 13 * DayMs)
            continue;
        const double v = walk.next();
        cache->consume(valuesAt(registry, ts, { { info, v } }));
        raw.push_back({ ts, v });
    }
    cache->flush();
    const int id = *registry.find(info.key);
    SeriesStore store(nullptr, cache.get());
    // The month up to the last day, whose hours are all finished (the writer is still
    // open: the newest hour's minutes are only in blocks and the tail yet).
    const qint64 end = to - DayMs - 1;
    std::erase_if(raw, [&](const Sample &s) { return s.tsMs > end; });
    for (int columns : { 2000, 400 }) { // minute tier, hour tier
        const std::vector<Aggregate> aggregates = store.readAggregates(id, from, end, columns);
        // Far fewer than the samples: read from tier slots, not from raw.
        QVERIFY2(aggregates.size() < raw.size() / 5,
                 qPrintable(QString::number(aggregates.size())));
        const std::vector<Sample> means = downsampleMean(aggregates, from, end, columns);
        // Expected: every raw sample's column mean, by the slot the sample is in.
        std::map<int, std::pair<double, qint64>> byColumn;
        const qint64 step = (end - from) / columns >= HourMs ? HourMs : MinuteMs;
        for (const Sample &s : raw) {
            if (std::isnan(s.value))
                continue;
            const qint64 middle = floorTo(s.tsMs, step) + (step - 1) / 2;
            auto &[sum, n] = byColumn[pixelColumn(middle, from, end, columns)];
            sum += s.value;
            ++n;
        }
        QCOMPARE(means.size(), byColumn.size());
        size_t i = 0;
        for (const auto &[column, sn] : byColumn) {
            const double want = sn.first / double(sn.second);
            QVERIFY2(
                std::fabs(means[i].value - want) <= 1e-9 * std::fabs(want),
                qPrintable(
                    u"column %1: %2, from raw %3"_s.arg(column).arg(means[i].value).arg(want)));
            ++i;
        }
    }
    // The stacked panel draws those means, its legend the true mean of the month.
    DashboardPanel panel;
    panel.id = u"cpu"_s;
    panel.series = { SeriesSelector { info.key.source, info.key.metric, {} } };
    panel.options = QJsonObject { { u"stacked"_s, true } };
    const PanelData data = queryTimeSeries(panel, registry, store, from, end, 2000);
    QCOMPARE(data.series.size(), 1);
    double sum = 0;
    qint64 n = 0;
    for (const Sample &s : raw) {
        if (!std::isnan(s.value)) {
            sum += s.value;
            ++n;
        }
    }
    QCOMPARE(data.series[0].stats.count, n);
    QVERIFY(std::fabs(data.series[0].stats.mean - sum / double(n)) <= 1e-9 * std::fabs(sum / n));
    QVERIFY(data.series[0].segmentStarts.size() >= 2); // the outage is a gap
}

void TestRollup::fileWithoutTiersReadsBlocks()
{
    SeriesRegistry registry;
    const SeriesInfo info = gauge(u"host.cpu.utilization"_s);
    const qint64 from = Base, to = Base + 3 * DayMs;
    std::vector<Sample> raw;
    {
        QString error;
        auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
        QVERIFY2(cache, qPrintable(error));
        Walk walk(2);
        raw = publish(*cache, registry, info, walk, from, to, 10'000);
    }
    // As a schema-5 file: no rollup table.
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path().toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, "DROP TABLE rollup; DROP TABLE rollup_hist; PRAGMA user_version = 5;",
                          nullptr, nullptr, nullptr),
             SQLITE_OK);
    sqlite3_close(db);
    {
        SeriesRegistry readRegistry;
        QString error;
        auto recording = SampleCache::openRecording(path(), &readRegistry, &error);
        QVERIFY2(recording, qPrintable(error));
        const int id = *readRegistry.find(info.key);
        QVERIFY(recording->readRollup(id, RollupTier::Minute, from, to).slots.empty());
        SeriesStore store(nullptr, recording.get());
        const auto aggregates = store.readAggregates(id, from, to, 1000); // 4.3 min columns
        qint64 count = 0;
        for (const Aggregate &a : aggregates)
            count += a.count;
        qint64 numbers = 0;
        for (const Sample &s : raw)
            numbers += std::isnan(s.value) ? 0 : 1;
        QCOMPARE(count, numbers); // every sample, from block summaries
    }
    // Opened to collect, it is migrated: the table is back, nothing stored is lost.
    QString error;
    auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
    QVERIFY2(cache, qPrintable(error));
    QVERIFY(sameBits(cache->read(*registry.find(info.key), from, to), raw));
    QVERIFY(
        cache->readRollup(*registry.find(info.key), RollupTier::Minute, from, to).slots.empty());
}

void TestRollup::histogramTiersMergeThePolls()
{
    // Latency polls every 10 s for 3 days, the writer restarted in the middle of a
    // minute and of an hour: each finished minute and hour is the merge of its polls.
    SeriesRegistry registry;
    const SeriesInfo info = latency(u"pg.latency"_s);
    const qint64 from = Base, restartAt = Base + 26 * HourMs + 31 * MinuteMs + 40'000;
    const qint64 to = Base + 3 * DayMs;
    std::map<qint64, LogHistogram> polls;
    QRandomGenerator rng(17);
    for (const auto &[a, b] : { std::pair { from, restartAt }, std::pair { restartAt, to } }) {
        QString error;
        auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
        QVERIFY2(cache, qPrintable(error));
        for (qint64 ts = a; ts < b; ts += 10'000) {
            LogHistogram h;
            for (int k = 0; k < 20; ++k)
                h.add(0.2 + rng.generateDouble() * rng.generateDouble() * 400);
            SampleBatch batch;
            batch.source = info.key.source;
            batch.tsMs = ts;
            batch.histograms.append({ info, h });
            cache->consume(resolve(registry, batch));
            polls[ts] = h;
        }
        cache->flush();
    }
    QString error;
    auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
    QVERIFY2(cache, qPrintable(error));
    const int id = *registry.find(info.key);
    for (const RollupTier tier : { RollupTier::Minute, RollupTier::Hour }) {
        const qint64 step = rollupStepMs(tier);
        std::map<qint64, LogHistogram> expected;
        for (const auto &[ts, h] : polls)
            expected[floorTo(ts, step)].merge(h);
        // The newest slot too: its rows were written as they were when the writer stopped.
        const HistogramRollupRead read = cache->readHistogramRollup(id, tier, from, to);
        QCOMPARE(read.slots.size(), expected.size());
        QCOMPARE(read.covered.size(), size_t(1));
        QCOMPARE(read.covered.front(),
                 (std::pair { from, std::prev(expected.end())->first + step }));
        size_t i = 0;
        for (const auto &[start, merged] : expected) {
            QCOMPARE(read.slots[i].first, start + step / 2);
            const LogHistogram &got = read.slots[i].second;
            // The same buckets and extremes; the sum added up in another order.
            QCOMPARE(got.count(), merged.count());
            QCOMPARE(got.buckets(), merged.buckets());
            QCOMPARE(got.min(), merged.min());
            QCOMPARE(got.max(), merged.max());
            QVERIFY(closeTo(got.sum(), merged.sum()));
            ++i;
        }
    }
    // Three days drawn 1,000 px wide (4.3 min columns): minute slots, then the polls of
    // the unfinished minute; every latency counted once.
    SeriesStore store(nullptr, cache.get());
    const std::vector<TimedHistogram> drawn = store.readHistogramsForColumns(id, from, to, 1000);
    quint64 drawnCount = 0, polled = 0;
    for (const auto &[ts, h] : drawn)
        drawnCount += h.count();
    for (const auto &[ts, h] : polls)
        polled += h.count();
    QCOMPARE(drawnCount, polled);
    QVERIFY(drawn.size() < polls.size() / 5);
    QVERIFY(std::is_sorted(drawn.begin(), drawn.end(),
                           [](const auto &a, const auto &b) { return a.first < b.first; }));
}

void TestRollup::tiersAndBlocksAddUpAcrossRestarts()
{
    // Runs with gaps between them (a restart hours later, one the next day), and the
    // first hours without tier rows (as if written before schema 6): however a range
    // splits between tiers, blocks and edges, every sample counts once.
    SeriesRegistry registry;
    const SeriesInfo info = gauge(u"host.cpu.utilization"_s);
    const SeriesInfo lat = latency(u"pg.latency"_s);
    const qint64 d = Base;
    std::vector<Sample> raw;
    std::map<qint64, LogHistogram> polls;
    Walk walk(31);
    QRandomGenerator rng(5);
    const std::pair<qint64, qint64> runs[] = {
        { d, d + 5 * HourMs + 20 * MinuteMs + 30'000 },
        { d + 7 * HourMs + 45 * MinuteMs + 5000, d + DayMs + HourMs + 10 * MinuteMs },
    };
    for (const auto &[a, b] : runs) {
        QString error;
        auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
        QVERIFY2(cache, qPrintable(error));
        for (qint64 ts = a; ts < b; ts += 10'000) {
            SampleBatch batch;
            batch.source = info.key.source;
            batch.tsMs = ts;
            const double v = walk.next();
            batch.add(info, v);
            raw.push_back({ ts, v });
            LogHistogram h;
            for (int k = 0; k < 5; ++k)
                h.add(1 + rng.generateDouble() * 100);
            batch.histograms.append({ lat, h });
            polls[ts] = h;
            cache->consume(resolve(registry, batch));
        }
        cache->flush();
        if (a == d) { // the first three hours have no tier rows
            cache.reset();
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(path().toUtf8().constData(), &db), SQLITE_OK);
            const QByteArray sql = "DELETE FROM rollup WHERE start_ts < "
                + QByteArray::number(d + 3 * HourMs) + "; DELETE FROM rollup WHERE tier = 2;"
                + " DELETE FROM rollup_hist WHERE start_ts < " + QByteArray::number(d + 3 * HourMs);
            QCOMPARE(sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
            sqlite3_close(db);
        }
    }
    QString error;
    auto cache = SampleCache::open(path(), &registry, &error, keepEverything());
    QVERIFY2(cache, qPrintable(error));
    const int id = *registry.find(info.key);
    const int latId = *registry.find(lat.key);
    SeriesStore store(nullptr, cache.get());
    const qint64 end = runs[1].second;
    const std::pair<qint64, qint64> ranges[]
        = { { d, end },
            { d + 2 * HourMs + 17 * MinuteMs + 30'000, d + 23 * HourMs + 40 * MinuteMs + 10'000 } };
    for (const auto &[from, to] : ranges) {
        Aggregate want;
        for (const Sample &sample : raw) {
            if (sample.tsMs >= from && sample.tsMs <= to)
                want.add(sample.value);
        }
        quint64 wantPolls = 0;
        for (const auto &[ts, h] : polls)
            wantPolls += ts >= from && ts <= to ? h.count() : 0;
        for (int columns : { 500, 20 }) { // minute tier, hour tier
            const QString where = u"range %1..%2 at %3 columns"_s.arg(from).arg(to).arg(columns);
            Aggregate got;
            for (const Aggregate &a : store.readAggregates(id, from, to, columns))
                got.merge(a);
            QVERIFY2(got.count == want.count,
                     qPrintable(where + u": count %1, raw %2"_s.arg(got.count).arg(want.count)));
            QVERIFY2(closeTo(got.sum, want.sum), qPrintable(where));
            QCOMPARE(got.min, want.min);
            QCOMPARE(got.max, want.max);
            quint64 gotPolls = 0;
            for (const auto &[ts, h] : store.readHistogramsForColumns(latId, from, to, columns))
                gotPolls += h.count();
            QVERIFY2(
                gotPolls == wantPolls,
                qPrintable(where + u": latencies %1, polled %2"_s.arg(gotPolls).arg(wantPolls)));
        }
    }
    // The restarted day's hour row covers from the first hour with minute rows only.
    const RollupRead hours = cache->readRollup(id, RollupTier::Hour, d, d + DayMs - 1);
    QVERIFY(!hours.covered.empty());
    QCOMPARE(hours.covered.front().first, d + 3 * HourMs);
}

QTEST_GUILESS_MAIN(TestRollup)
#include "tst_rollup.moc"
