// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// SampleCache: write through consume()/flush(), read back exactly, special values, a
// schema 1 file migrated, block summaries for long ranges, reopen, the crash-safe tail,
// histograms, a second writer refused, readers during writes, storage cost.
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"
#include "samplecachetestutil.h"

#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <cmath>
#include <sqlite3.h>
#include <thread>

using namespace Headroom;
using namespace CacheTest;
using namespace Qt::StringLiterals;

class TestSampleCache : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void defaultPath();
    void createsDirectory();
    void writeAndReadBack();
    void specialValuesSurviveTailAndBlocks();
    void duplicateTimestampLastValueWins();
    void version1FileIsMigrated();
    void longRangesReadBlockSummaries();
    void reopenKeepsIdsAndData();
    void tailIsRecoveredAndSealedLater();
    void histograms();
    void secondOpenIsRefused();
    void concurrentReadersDuringWrites();
    void storageBytesPerSample();

private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString freshPath() { return m_dir.filePath(u"c%1.sqlite"_s.arg(++m_n)); }
};

void TestSampleCache::init()
{
    // Any warning (a failed read, a dropped row, a failed commit) fails the test.
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void TestSampleCache::defaultPath()
{
    QVERIFY(SampleCache::defaultPath().endsWith(QLatin1StringView("/headroom/cache.sqlite")));
}

void TestSampleCache::createsDirectory()
{
    const QString path = m_dir.filePath(u"a/b/c/cache.sqlite"_s);
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    QCOMPARE(cache->path(), path);
    QVERIFY(QFileInfo::exists(path));
}

void TestSampleCache::writeAndReadBack()
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(freshPath(), &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));

    const QString cpu = u"host.cpu.utilization"_s;
    const QList<SeriesInfo> infos { gauge(cpu), gauge(cpu, u"0"_s), gauge(u"host.load1"_s) };
    const int n = 300; // two sealed blocks and a tail of 60
    for (int i = 0; i < n; ++i) {
        QList<std::pair<SeriesInfo, double>> values;
        for (int s = 0; s < infos.size(); ++s)
            values.append({ infos[s], valueOf(s, i) });
        cache->consume(valuesAt(registry, Base + i * 1000, values));
    }
    cache->flush();

    for (int s = 0; s < infos.size(); ++s) {
        const int id = *registry.find(infos[s].key);
        std::vector<Sample> expected;
        expected.reserve(size_t(n));
        for (int i = 0; i < n; ++i)
            expected.push_back({ Base + i * 1000, valueOf(s, i) });
        QString readError;
        QCOMPARE(cache->read(id, Base, Base + n * 1000, &readError), expected);
        QVERIFY(readError.isEmpty());
        // Inclusive bounds, inside a block, across the block/tail border.
        QCOMPARE(cache->read(id, Base + 10'000, Base + 20'000),
                 std::vector<Sample>(expected.begin() + 10, expected.begin() + 21));
        QCOMPARE(cache->read(id, Base + 100'500, Base + 250'000),
                 std::vector<Sample>(expected.begin() + 101, expected.begin() + 251));
        QCOMPARE(cache->read(id, Base + 299'000, Base + 299'000),
                 std::vector<Sample> { expected.back() });
        QVERIFY(cache->read(id, Base - 10'000, Base - 1).empty());
        QVERIFY(cache->read(id, Base + 20'000, Base + 10'000).empty());
    }
    QVERIFY(cache->read(999, 0, std::numeric_limits<qint64>::max()).empty());
    QCOMPARE(cache->chunkDays(), QList<qint64> { Day });
}

void TestSampleCache::specialValuesSurviveTailAndBlocks()
{
    const double special[] = { std::numeric_limits<double>::quiet_NaN(),
                               -0.0,
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               ByteCoding::bitsDouble(0x7ff0'0000'0000'0badULL),
                               1e308,
                               0.1 };
    SeriesRegistry registry;
    QString error;
    const QString path = freshPath();
    std::vector<Sample> expected;
    const SeriesInfo info = gauge(u"odd"_s);
    {
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < 130; ++i) { // a sealed block, then 10 in the tail
            const double v = special[i % std::size(special)];
            expected.push_back({ Base + i * 1000, v });
            cache->consume(valuesAt(registry, Base + i * 1000, { { info, v } }));
        }
        cache->flush();
        QVERIFY(sameBits(cache->read(1, Base, Base + DayMs), expected));
    }
    SeriesRegistry registry2;
    auto cache = SampleCache::open(path, &registry2, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    QVERIFY(sameBits(cache->read(1, Base, Base + DayMs), expected));
}

void TestSampleCache::duplicateTimestampLastValueWins()
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(freshPath(), &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    const SeriesInfo info = gauge(u"dup"_s);
    cache->consume(valuesAt(registry, Base, { { info, 1 } }));
    cache->consume(valuesAt(registry, Base + 2000, { { info, 3 } }));
    cache->flush();
    cache->consume(valuesAt(registry, Base, { { info, 2 } }));
    cache->consume(valuesAt(registry, Base + 1000, { { info, 5 } })); // late, still unsealed
    cache->flush();
    QCOMPARE(cache->read(1, Base, Base + 10'000),
             (std::vector<Sample> { { Base, 2 }, { Base + 1000, 5 }, { Base + 2000, 3 } }));
}

void TestSampleCache::version1FileIsMigrated()
{
    // A cache as schema 1 wrote it: a block without summary, the tail as one row per
    // sample. Opening migrates it in place; nothing is lost and writing carries on.
    const QString path = freshPath();
    std::vector<Sample> expected;
    expected.reserve(130);
    for (int i = 0; i < 130; ++i)
        expected.push_back({ Base + i * 1000, valueOf(0, i) });
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        const QByteArray blocks = "blocks_" + QByteArray::number(Day);
        const QByteArray schema1
            = "PRAGMA journal_mode=WAL;"
              "CREATE TABLE series(id INTEGER PRIMARY KEY, source TEXT NOT NULL, metric TEXT NOT "
              "NULL, labels TEXT NOT NULL, unit TEXT NOT NULL, resource TEXT NOT NULL, kind TEXT "
              "NOT NULL, histogram INTEGER NOT NULL);"
              "CREATE TABLE chunks(day INTEGER PRIMARY KEY);"
              "CREATE TABLE tail(series_id INTEGER NOT NULL, ts INTEGER NOT NULL, bits INTEGER NOT "
              "NULL, PRIMARY KEY(series_id, ts)) WITHOUT ROWID;"
              "CREATE TABLE "
            + blocks
            + "(id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL, start_ts INTEGER NOT NULL,"
              " end_ts INTEGER NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL);"
              "CREATE INDEX "
            + blocks + "_series ON " + blocks
            + "(series_id, start_ts, end_ts);"
              "CREATE TABLE hist_"
            + QByteArray::number(Day)
            + "(id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL, ts INTEGER NOT NULL, data "
              "BLOB NOT NULL);"
              "INSERT INTO chunks VALUES("
            + QByteArray::number(Day)
            + ");"
              "INSERT INTO series VALUES(1, 'host', 'a', '{cpu=all}', '%', 'cpu', 'utilization', "
              "0);"
              "PRAGMA application_id = 1212437041; PRAGMA user_version = 1;";
        QCOMPARE(sqlite3_exec(db, schema1.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_stmt *st = nullptr;
        const std::vector<Sample> block(expected.begin(), expected.begin() + 120);
        const QByteArray data = BlockCodec::encode(block);
        const QByteArray insertBlock = "INSERT INTO " + blocks + " VALUES(1, 1, ?, ?, 120, ?)";
        sqlite3_prepare_v2(db, insertBlock.constData(), -1, &st, nullptr);
        sqlite3_bind_int64(st, 1, block.front().tsMs);
        sqlite3_bind_int64(st, 2, block.back().tsMs);
        sqlite3_bind_blob(st, 3, data.constData(), int(data.size()), SQLITE_TRANSIENT);
        QCOMPARE(sqlite3_step(st), SQLITE_DONE);
        sqlite3_finalize(st);
        sqlite3_prepare_v2(db, "INSERT INTO tail VALUES(1, ?, ?)", -1, &st, nullptr);
        for (int i = 120; i < 130; ++i) {
            sqlite3_bind_int64(st, 1, expected[size_t(i)].tsMs);
            sqlite3_bind_int64(st, 2, qint64(ByteCoding::doubleBits(expected[size_t(i)].value)));
            QCOMPARE(sqlite3_step(st), SQLITE_DONE);
            sqlite3_reset(st);
        }
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    {
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        QCOMPARE(registry.size(), 1);
        QCOMPARE(cache->read(1, Base, Base + DayMs), expected);
        // The old block has no summary: a summarized read decodes it.
        QCOMPARE(cache->readSummarized(1, Base - 1000, Base + DayMs, DayMs), expected);
        for (int i = 130; i < 250; ++i) {
            expected.push_back({ Base + i * 1000, valueOf(0, i) });
            cache->consume(
                valuesAt(registry, Base + i * 1000, { { gauge(u"a"_s), valueOf(0, i) } }));
        }
        cache->flush();
        QCOMPARE(cache->read(1, Base, Base + DayMs), expected);
    }
    RawDb raw(path);
    QCOMPARE(raw.scalar("PRAGMA user_version"), SampleCache::SchemaVersion);
    QCOMPARE(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'tail'"), 0);
    QCOMPARE(raw.scalar("SELECT sum(count) FROM tail_chunks"), 10); // 250 - 2 blocks
    const QByteArray blocks = "blocks_" + QByteArray::number(Day);
    QCOMPARE(raw.scalar("SELECT count(*) FROM " + blocks + " WHERE min IS NULL"), 1);
    QCOMPARE(raw.scalar("SELECT count(*) FROM " + blocks + " WHERE min IS NOT NULL"), 1);
}

void TestSampleCache::longRangesReadBlockSummaries()
{
    // Three days at 1 s: a summarized read gives two points per block inside the range
    // (its lowest and highest value), decodes the blocks at the range's edges and those
    // wider than the limit, and finds the same extremes as the full read.
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(freshPath(), &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    const SeriesInfo info = gauge(u"week"_s);
    constexpr int Seconds = 3 * 86'400;
    for (int i = 0; i < Seconds; ++i)
        cache->consume(valuesAt(registry, Base + i * 1000LL, { { info, valueOf(0, i) } }));
    cache->flush();
    const qint64 from = Base + 500'000, to = Base + (Seconds - 500) * 1000LL;
    const std::vector<Sample> full = cache->read(1, from, to);
    const std::vector<Sample> summarized = cache->readSummarized(1, from, to, 300'000);
    QVERIFY(std::is_sorted(summarized.begin(), summarized.end(),
                           [](const Sample &a, const Sample &b) { return a.tsMs < b.tsMs; }));
    const auto low = [](const std::vector<Sample> &v) {
        return std::ranges::min(v, {}, &Sample::value).value;
    };
    const auto high = [](const std::vector<Sample> &v) {
        return std::ranges::max(v, {}, &Sample::value).value;
    };
    QCOMPARE(low(summarized), low(full));
    QCOMPARE(high(summarized), high(full));
    // 2 points per 120-sample block, plus the partial blocks at both ends in full.
    QVERIFY2(summarized.size() < full.size() / 50,
             qPrintable(u"%1 of %2"_s.arg(summarized.size()).arg(full.size())));
    QVERIFY(summarized.front().tsMs >= from && summarized.back().tsMs <= to);
    // A limit below the blocks' span: every block is decoded, as read() does.
    QCOMPARE(cache->readSummarized(1, from, to, 60'000), full);
}

void TestSampleCache::reopenKeepsIdsAndData()
{
    const QString path = freshPath();
    const SeriesInfo a = gauge(u"a"_s), b = gauge(u"b"_s);
    SeriesInfo c = latency(u"pg.latency"_s);
    c.key.labels = { { u"x"_s, u"needs\\escaping,={}"_s } };
    int idA = 0, idB = 0, idC = 0;
    const int n = 250;
    {
        SeriesRegistry registry;
        registry.idFor(gauge(u"unused"_s)); // ids need not start at 1
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < n; ++i)
            cache->consume(valuesAt(registry, Base + i * 1000, { { a, i }, { b, -i } }));
        SampleBatch hist;
        hist.tsMs = Base;
        hist.histograms.append({ c, {} });
        hist.histograms.back().histogram.add(3.5);
        cache->consume(resolve(registry, hist));
        idA = *registry.find(a.key);
        idB = *registry.find(b.key);
        idC = *registry.find(c.key);
        // No flush: the destructor commits what is queued.
    }
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    QCOMPARE(registry.size(), 3);
    QCOMPARE(registry.find(a.key), idA);
    QCOMPARE(registry.find(b.key), idB);
    QCOMPARE(registry.find(c.key), idC);
    const SeriesInfo stored = *registry.info(idC);
    QCOMPARE(stored.key, c.key);
    QCOMPARE(stored.unit, c.unit);
    QCOMPARE(stored.resource, c.resource);
    QCOMPARE(stored.kind, c.kind);
    QCOMPARE(stored.histogram, true);

    auto all = cache->read(idA, Base, Base + DayMs);
    QCOMPARE(all.size(), size_t(n));
    for (int i = 0; i < n; ++i)
        QCOMPARE(all[i], (Sample { Base + i * 1000, double(i) }));

    // New series continue after the loaded ids; old ones keep theirs.
    const int idD = registry.idFor(gauge(u"d"_s));
    QVERIFY(idD > std::max({ idA, idB, idC }));
    const SeriesInfo d = gauge(u"d"_s);
    cache->consume(valuesAt(registry, Base + n * 1000, { { a, 1e6 }, { d, 4 } }));
    cache->flush();
    all = cache->read(idA, Base, Base + DayMs);
    QCOMPARE(all.size(), size_t(n + 1));
    QCOMPARE(all.back(), (Sample { Base + n * 1000, 1e6 }));
    QCOMPARE(cache->read(idD, Base, Base + DayMs),
             (std::vector<Sample> { { Base + n * 1000, 4 } }));
}

void TestSampleCache::tailIsRecoveredAndSealedLater()
{
    const QString path = freshPath();
    const SeriesInfo a = gauge(u"a"_s);
    std::vector<Sample> expected;
    {
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < 100; ++i) { // below one block: all of it is tail
            expected.push_back({ Base + i * 1000, valueOf(0, i) });
            cache->consume(valuesAt(registry, Base + i * 1000, { { a, valueOf(0, i) } }));
        }
    }
    {
        RawDb raw(path);
        QCOMPARE(raw.scalar("SELECT sum(count) FROM tail_chunks"), 100);
        QCOMPARE(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'blocks_%'"), 0);
    }
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    QCOMPARE(cache->read(1, Base, Base + DayMs), expected);
    for (int i = 100; i < 130; ++i) {
        expected.push_back({ Base + i * 1000, valueOf(0, i) });
        cache->consume(valuesAt(registry, Base + i * 1000, { { a, valueOf(0, i) } }));
    }
    cache->flush();
    QCOMPARE(cache->read(1, Base, Base + DayMs), expected);
    cache.reset();

    // The recovered 100 and the next 20 became one block; 10 remain in the tail.
    RawDb raw(path);
    const QByteArray blocks = "blocks_" + QByteArray::number(Day);
    QCOMPARE(raw.scalar("SELECT count(*) FROM " + blocks), 1);
    QCOMPARE(raw.scalar("SELECT count FROM " + blocks), 120);
    QCOMPARE(raw.scalar("SELECT sum(count) FROM tail_chunks"), 10);
    QCOMPARE(raw.scalar("SELECT min(first_ts) FROM tail_chunks"), Base + 120'000);
}

void TestSampleCache::histograms()
{
    SeriesRegistry registry;
    QString error;
    const QString path = freshPath();
    const SeriesInfo h = latency(u"pg.write.latency"_s);
    std::vector<std::pair<qint64, LogHistogram>> expected;
    {
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < 6; ++i) {
            const qint64 ts = Base + i * 4 * 3'600'000; // 10:00 to 06:00 next day
            LogHistogram histogram;
            for (int k = 1; k <= 50 + i; ++k)
                histogram.add(k * 0.37 * (i + 1), quint64(k % 5 + 1));
            if (i == 3)
                histogram = LogHistogram(); // an empty interval is stored too
            SampleBatch batch;
            batch.tsMs = ts;
            batch.histograms.append({ h, histogram });
            batch.add(gauge(u"rate"_s), i); // mixed with plain values
            cache->consume(resolve(registry, batch));
            expected.emplace_back(ts, histogram);
        }
        cache->flush();
        const int id = *registry.find(h.key);
        QString readError;
        QVERIFY(cache->readHistograms(id, Base, Base + 2 * DayMs, &readError) == expected);
        QVERIFY(readError.isEmpty());
        auto middle = cache->readHistograms(id, expected[1].first, expected[2].first);
        QCOMPARE(middle.size(), size_t(2));
        QVERIFY(middle[0] == expected[1]);
        QVERIFY(middle[1] == expected[2]);
        QCOMPARE(cache->chunkDays(), (QList<qint64> { Day, Day + 1 }));
    }
    SeriesRegistry registry2;
    auto cache = SampleCache::open(path, &registry2, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    QVERIFY(cache->readHistograms(*registry2.find(h.key), Base, Base + 2 * DayMs) == expected);
}

void TestSampleCache::secondOpenIsRefused()
{
    const QString path = freshPath();
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    SeriesRegistry other;
    QVERIFY(!SampleCache::open(path, &other, &error, testOptions()));
    QVERIFY2(error.startsWith(QDir::toNativeSeparators(path) + QLatin1StringView(": in use")),
             qPrintable(error));
    cache.reset();
    QVERIFY2(SampleCache::open(path, &other, &error, testOptions()), qPrintable(error));
}

void TestSampleCache::concurrentReadersDuringWrites()
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(freshPath(), &registry, &error, testOptions(5));
    QVERIFY2(cache, qPrintable(error));
    const SeriesInfo a = gauge(u"a"_s);
    const int id = registry.idFor(a);
    const int n = 3000;

    std::atomic<bool> done { false };
    std::atomic<int> failures { 0 }, reads { 0 };
    auto reader = [&] {
        size_t seen = 0;
        while (!done.load()) {
            QString readError;
            const auto samples = cache->read(id, Base, Base + DayMs, &readError);
            ++reads;
            // A committed prefix: never an error, never a gap or a duplicate (a block
            // sealed meanwhile is seen once), never shrinking.
            bool ok = readError.isEmpty() && samples.size() >= seen;
            for (size_t i = 0; ok && i < samples.size(); ++i)
                ok = samples[i] == Sample { Base + qint64(i) * 1000, double(i) };
            if (!ok)
                ++failures;
            seen = samples.size();
        }
    };
    std::vector<std::thread> readers;
    readers.reserve(3);
    for (int r = 0; r < 3; ++r)
        readers.emplace_back(reader);
    for (int i = 0; i < n; ++i) {
        cache->consume(valuesAt(registry, Base + i * 1000, { { a, double(i) } }));
        if (i % 200 == 0)
            cache->flush();
        if (i % 10 == 0)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    cache->flush();
    done = true;
    for (auto &t : readers)
        t.join();
    QCOMPARE(failures.load(), 0);
    QVERIFY(reads.load() > 10);
    QCOMPARE(cache->read(id, Base, Base + DayMs).size(), size_t(n));
}

void TestSampleCache::storageBytesPerSample()
{
    const QString path = freshPath();
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    // One hour of ten 1 s gauges with ~10 ms collector jitter: percentages with two
    // decimals (the common case) and five full-precision ratios (the worst case).
    QList<SeriesInfo> infos;
    for (int s = 0; s < 10; ++s)
        infos.append(gauge(u"g"_s, QString::number(s)));
    std::vector<double> v(10, 50.0);
    QRandomGenerator rng(1);
    auto next = [&] { return rng.generateDouble(); };
    const int seconds = 3600;
    for (int i = 0; i < seconds; ++i) {
        QList<std::pair<SeriesInfo, double>> values;
        for (int s = 0; s < 10; ++s) {
            v[s] = std::clamp(v[s] + next() - 0.5, 0.0, 100.0);
            values.append({ infos[s], s < 5 ? std::round(v[s] * 100) / 100 : v[s] });
        }
        cache->consume(valuesAt(registry, Base + i * 1000 + qint64(next() * 20) - 10, values));
    }
    cache->flush();
    cache.reset();

    RawDb raw(path);
    const QByteArray blocks = "blocks_" + QByteArray::number(Day);
    auto perSample = [&](const char *where) {
        return double(raw.scalar("SELECT sum(length(data)) FROM " + blocks + where))
            / double(raw.scalar("SELECT sum(count) FROM " + blocks + where));
    };
    const double decimal = perSample(" WHERE series_id <= 5");
    const double precise = perSample(" WHERE series_id > 5");
    const double file = double(QFileInfo(path).size()) / (10.0 * seconds);
    qInfo("bytes/sample for 1 s gauges: 2-decimal %.2f, full precision %.2f in blocks; "
          "whole file %.2f (incl. SQLite pages and indexes)",
          decimal, precise, file);
    QVERIFY(decimal < 6);
    QVERIFY(precise < 10); // random mantissas: XOR cannot beat their entropy
}

QTEST_GUILESS_MAIN(TestSampleCache)
#include "tst_samplecache.moc"
