// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// SampleCache's days: blocks split at UTC midnight, whole days expired (and freed after
// a restart, while written again, with checkpoints off the writer), retention on open
// and changed live, readers while days are dropped.
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

class TestCacheRetention : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void midnightSplitsChunks();
    void expireDropsWholeDays();
    void expiredDaysFreedAfterARestart();
    void checkpointsOffTheWriter();
    void dayWrittenAgainWhileBeingFreed();
    void retentionOnOpen();
    void retentionDefaultAndLiveChange();
    void concurrentReadersDuringExpiry();

private:
    QTemporaryDir m_dir;
    int m_n = 0;
    QString freshPath() { return m_dir.filePath(u"c%1.sqlite"_s.arg(++m_n)); }
};

void TestCacheRetention::init()
{
    // Any warning (a failed read, a dropped row, a failed commit) fails the test.
    QTest::failOnWarning(QRegularExpression(u".*"_s));
}

void TestCacheRetention::midnightSplitsChunks()
{
    const QString path = freshPath();
    const SeriesInfo a = gauge(u"a"_s);
    const qint64 midnight = (Day + 1) * DayMs;
    const qint64 start = midnight - 150'000; // 23:57:30
    std::vector<Sample> expected;
    {
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < 300; ++i) {
            expected.push_back({ start + i * 1000, double(i) });
            cache->consume(valuesAt(registry, start + i * 1000, { { a, double(i) } }));
        }
        cache->flush();
        QCOMPARE(cache->chunkDays(), (QList<qint64> { Day, Day + 1 }));
        QCOMPARE(cache->read(1, start, midnight + DayMs), expected);
        QCOMPARE(cache->read(1, midnight - 1000, midnight),
                 (std::vector<Sample> { { midnight - 1000, 149 }, { midnight, 150 } }));
    }
    RawDb raw(path);
    const QByteArray today = "blocks_" + QByteArray::number(Day);
    const QByteArray tomorrow = "blocks_" + QByteArray::number(Day + 1);
    // 120 by size, then 30 sealed by the day change; tomorrow 120 + 30 in the tail.
    QCOMPARE(raw.scalar("SELECT count(*) FROM " + today), 2);
    QCOMPARE(raw.scalar("SELECT max(end_ts) FROM " + today), midnight - 1000);
    QCOMPARE(raw.scalar("SELECT sum(count) FROM " + today), 150);
    QCOMPARE(raw.scalar("SELECT min(start_ts) FROM " + tomorrow), midnight);
    QCOMPARE(raw.scalar("SELECT sum(count) FROM " + tomorrow), 120);
    QCOMPARE(raw.scalar("SELECT sum(count) FROM tail_chunks"), 30);
}

void TestCacheRetention::expireDropsWholeDays()
{
    const QString path = freshPath();
    const SeriesInfo a = gauge(u"a"_s);
    const SeriesInfo h = latency(u"lat"_s);
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    // Three days, a sample every 5 minutes (288 a day), and an hourly histogram.
    const qint64 start = Day * DayMs;
    for (qint64 ts = start; ts < start + 3 * DayMs; ts += 300'000) {
        cache->consume(valuesAt(registry, ts, { { a, double(ts) / 1000 } }));
        if (ts % 3'600'000 == 0) {
            SampleBatch batch;
            batch.tsMs = ts;
            batch.histograms.append({ h, {} });
            batch.histograms.back().histogram.add(double(ts % 1000 + 1));
            cache->consume(resolve(registry, batch));
        }
    }
    cache->flush();
    QCOMPARE(cache->chunkDays(), (QList<qint64> { Day, Day + 1, Day + 2 }));
    const auto third = cache->read(1, start + 2 * DayMs, start + 3 * DayMs);
    QCOMPARE(third.size(), size_t(288));

    // In the middle of the second day: only the first is entirely older.
    QCOMPARE(cache->expireBefore(start + DayMs + 5 * 3'600'000), 1);
    QCOMPARE(cache->chunkDays(), (QList<qint64> { Day + 1, Day + 2 }));
    QVERIFY(cache->read(1, start, start + DayMs - 1).empty());
    QVERIFY(cache->readHistograms(2, start, start + DayMs - 1).empty());
    QCOMPARE(cache->read(1, start + DayMs, start + 3 * DayMs).size(), size_t(2 * 288));
    QCOMPARE(cache->readHistograms(2, start, start + 3 * DayMs).size(), size_t(48));

    // Exactly at the end of the second day: it goes too, the third stays intact.
    QCOMPARE(cache->expireBefore(start + 2 * DayMs), 1);
    QCOMPARE(cache->expireBefore(start + 2 * DayMs), 0);
    QCOMPARE(cache->chunkDays(), QList<qint64> { Day + 2 });
    QCOMPARE(cache->read(1, start, start + 3 * DayMs), third);

    // Writing goes on after expiry.
    cache->consume(valuesAt(registry, start + 3 * DayMs, { { a, 1 } }));
    cache->flush();
    QCOMPARE(cache->read(1, start, start + 4 * DayMs).size(), third.size() + 1);
    // The expired days' rows are freed in slices after they left the catalogue.
    QTRY_COMPARE(cache->status().reclaimingDays, 0);
    cache.reset();

    RawDb raw(path);
    QCOMPARE(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'blocks_"
                        + QByteArray::number(Day) + "' OR name = 'hist_"
                        + QByteArray::number(Day + 1) + "'"),
             0);
    QCOMPARE(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'blocks_"
                        + QByteArray::number(Day + 2) + "'"),
             1);
}

// Two days of 40 series at 1 s over an hour each (2,400 blocks a day); nothing expires.
static void writeTwoDays(const QString &path, qint64 start)
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    for (qint64 day : { 0, 1 })
        for (int s = 0; s < 3600; ++s) {
            QList<std::pair<SeriesInfo, double>> values;
            for (int series = 0; series < 40; ++series)
                values.append({ gauge(u"g"_s, QString::number(series)), valueOf(series, s) });
            cache->consume(valuesAt(registry, start + day * DayMs + s * 1000, values));
        }
    cache->flush();
}

void TestCacheRetention::expiredDaysFreedAfterARestart()
{
    // A run stopped after a day left the catalogue but before its rows were freed (what
    // a crash or quit during the slices leaves): the next writer finds and frees them.
    const QString path = freshPath();
    const qint64 start = Day * DayMs;
    writeTwoDays(path, start);
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(
            sqlite3_exec(
                db,
                QByteArray("DELETE FROM chunks WHERE day = " + QByteArray::number(Day)).constData(),
                nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(db);
    }
    QByteArray kept;
    {
        RawDb raw(path);
        QCOMPARE(raw.scalar("SELECT count(*) FROM blocks_" + QByteArray::number(Day)), 40 * 30);
        kept = QByteArray::number(
            raw.scalar("SELECT sum(count) FROM blocks_" + QByteArray::number(Day + 1)));
    }
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    QTRY_COMPARE(cache->status().reclaimingDays, 0);
    const int id = *registry.find(gauge(u"g"_s, u"7"_s).key);
    QVERIFY(cache->read(id, start, start + DayMs - 1).empty());
    const auto second = cache->read(id, start + DayMs, start + 2 * DayMs);
    QCOMPARE(second.size(), size_t(3600));
    for (int s = 0; s < 3600; ++s)
        QCOMPARE(second[size_t(s)].value, valueOf(7, s));
    cache.reset();
    RawDb raw(path);
    QCOMPARE(raw.scalar("SELECT count(*) FROM sqlite_schema WHERE name LIKE '%_"
                        + QByteArray::number(Day) + "%'"),
             0);
    QCOMPARE(QByteArray::number(
                 raw.scalar("SELECT sum(count) FROM blocks_" + QByteArray::number(Day + 1))),
             kept);
    QCOMPARE(raw.scalar("SELECT count(*) FROM chunks"), 1);
}

void TestCacheRetention::checkpointsOffTheWriter()
{
    // The writer's commits run no checkpoint (WalCheckpointer does, on its own thread and
    // connection): the WAL is still copied back into the file and reused, not grown.
    const QString path = freshPath();
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    const qint64 emptyFile = QFileInfo(path).size();
    qint64 largestWal = 0;
    for (int flush = 0; flush < 100; ++flush) {
        for (int s = 0; s < 60; ++s) {
            QList<std::pair<SeriesInfo, double>> values;
            for (int series = 0; series < 200; ++series)
                values.append(
                    { gauge(u"w"_s, QString::number(series)), valueOf(series, s + flush) });
            cache->consume(valuesAt(registry, Base + (flush * 60 + s) * 1000LL, values));
        }
        cache->flush();
        largestWal = std::max(largestWal, QFileInfo(path + u"-wal"_s).size());
    }
    QTRY_VERIFY(cache->status().checkpoints > 0);
    QTRY_VERIFY2(QFileInfo(path).size() > emptyFile + (1 << 20),
                 qPrintable(QString::number(QFileInfo(path).size())));
    // 1,000 pages of 4 KiB start a checkpoint; a few commits more may come meanwhile.
    QVERIFY2(largestWal < 16 << 20, qPrintable(QString::number(largestWal)));
    const int id = *registry.find(gauge(u"w"_s, u"150"_s).key);
    QCOMPARE(cache->read(id, Base, Base + 6000 * 1000LL).size(), size_t(6000));
}

void TestCacheRetention::dayWrittenAgainWhileBeingFreed()
{
    // Samples of a day whose old rows are still being freed: the day is created anew,
    // and none of the expired rows comes back with it.
    const QString path = freshPath();
    const qint64 start = Day * DayMs;
    writeTwoDays(path, start);
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, testOptions());
    QVERIFY2(cache, qPrintable(error));
    QCOMPARE(cache->expireBefore(start + DayMs), 1);
    const SeriesInfo late = gauge(u"late"_s);
    // g/3's samples of the first day are older than its blocks of the second: refused.
    QTest::ignoreMessage(QtWarningMsg,
                         QRegularExpression(u"cache: series \\d+ sample at \\d+ is older than"_s));
    for (int s = 0; s < 130; ++s)
        cache->consume(valuesAt(registry, start + 7'200'000 + s * 1000,
                                { { late, 5 }, { gauge(u"g"_s, u"3"_s), 9 } }));
    cache->flush();
    QTRY_COMPARE(cache->status().reclaimingDays, 0);
    QCOMPARE(cache->chunkDays(), (QList<qint64> { Day, Day + 1 }));
    // Series g/3 had an hour of this day: gone, and its late samples are older than its
    // newest sealed block (the next day), so they are refused as always.
    const int old = *registry.find(gauge(u"g"_s, u"3"_s).key);
    QVERIFY(cache->read(old, start, start + DayMs - 1).empty());
    QCOMPARE(cache->read(*registry.find(late.key), start, start + DayMs - 1).size(), size_t(130));
    QCOMPARE(cache->read(old, start + DayMs, start + 2 * DayMs).size(), size_t(3600));
}

void TestCacheRetention::retentionOnOpen()
{
    const QString path = freshPath();
    const SeriesInfo old = gauge(u"old"_s), recent = gauge(u"recent"_s);
    // Noon today: never crosses midnight, never older than the 7 days kept.
    const qint64 today = QDateTime::currentMSecsSinceEpoch() / DayMs;
    const qint64 noon = today * DayMs + DayMs / 2;
    {
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        for (int i = 0; i < 130; ++i) {
            cache->consume(valuesAt(registry, noon - 10 * DayMs + i * 1000, { { old, 1 } }));
            cache->consume(valuesAt(registry, noon + i * 1000, { { recent, 2 } }));
        }
        cache->flush();
        QCOMPARE(cache->chunkDays(), (QList<qint64> { today - 10, today }));
    }
    SeriesRegistry registry;
    QString error;
    CacheOptions options = testOptions();
    options.retentionDays = 7;
    auto cache = SampleCache::open(path, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    cache->flush(); // the writer expires right after opening; flush waits for it
    QCOMPARE(cache->chunkDays(), QList<qint64> { today });
    QVERIFY(cache->read(*registry.find(old.key), 0, noon + DayMs).empty()); // tail too
    QCOMPARE(cache->read(*registry.find(recent.key), 0, noon + DayMs).size(), size_t(130));
}

void TestCacheRetention::retentionDefaultAndLiveChange()
{
    const QString path = freshPath();
    const SeriesInfo s = gauge(u"kept"_s);
    const qint64 today = QDateTime::currentMSecsSinceEpoch() / DayMs;
    const qint64 noon = today * DayMs + DayMs / 2;
    {
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, testOptions());
        QVERIFY2(cache, qPrintable(error));
        for (qint64 daysAgo : { 40, 20, 0 })
            for (int i = 0; i < 130; ++i)
                cache->consume(valuesAt(registry, noon - daysAgo * DayMs + i * 1000, { { s, 1 } }));
        cache->flush();
        QCOMPARE(cache->chunkDays(), (QList<qint64> { today - 40, today - 20, today }));
    }
    SeriesRegistry registry;
    QString error;
    CacheOptions options; // the default: 30 days
    QCOMPARE(options.retentionDays, 30);
    auto cache = SampleCache::open(path, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    cache->flush();
    QCOMPARE(cache->chunkDays(), (QList<qint64> { today - 20, today }));
    cache->setRetentionDays(7); // applies at once, not at the next hourly maintenance
    cache->flush();
    QCOMPARE(cache->chunkDays(), QList<qint64> { today });
    QCOMPARE(cache->read(*registry.find(s.key), 0, noon + DayMs).size(), size_t(130));
}

void TestCacheRetention::concurrentReadersDuringExpiry()
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(freshPath(), &registry, &error, testOptions(5));
    QVERIFY2(cache, qPrintable(error));
    const SeriesInfo a = gauge(u"a"_s);
    const int id = registry.idFor(a);
    const qint64 start = Day * DayMs;
    const int days = 8;
    for (qint64 ts = start; ts < start + days * DayMs; ts += 600'000)
        cache->consume(valuesAt(registry, ts, { { a, double(ts) } }));
    cache->flush();

    // Readers see each expiry entirely or not at all: a suffix of whole days.
    std::atomic<bool> done { false };
    std::atomic<int> failures { 0 };
    auto reader = [&] {
        while (!done.load()) {
            QString readError;
            const auto samples = cache->read(id, start, start + days * DayMs, &readError);
            bool ok = readError.isEmpty() && samples.size() % 144 == 0 && !samples.empty();
            for (size_t i = 0; ok && i < samples.size(); ++i)
                ok = samples[i].value == double(samples[i].tsMs)
                    && (i == 0 || samples[i].tsMs == samples[i - 1].tsMs + 600'000);
            if (!ok)
                ++failures;
        }
    };
    std::vector<std::thread> readers;
    readers.reserve(3);
    for (int r = 0; r < 3; ++r)
        readers.emplace_back(reader);
    for (int d = 1; d < days; ++d) {
        QCOMPARE(cache->expireBefore(start + d * DayMs), 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    done = true;
    for (auto &t : readers)
        t.join();
    QCOMPARE(failures.load(), 0);
    QCOMPARE(cache->chunkDays(), QList<qint64> { Day + days - 1 });
}

QTEST_GUILESS_MAIN(TestCacheRetention)
#include "tst_cacheretention.moc"
