// SampleCache: write through consume()/flush(), read back exactly, reopen, day chunks,
// retention, histograms, concurrent readers, storage cost.
#include "cachetestutil.h"
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"

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

namespace {

constexpr qint64 DayMs = 86'400'000;
constexpr qint64 Day = 19'700; // 2023-12-09, a UTC day number
constexpr qint64 Base = Day * DayMs + 10 * 3'600'000; // 10:00 UTC that day

CacheOptions testOptions(int flushIntervalMs = 1000)
{
    CacheOptions options;
    options.retentionDays = 0; // timestamps are from 2023: nothing may expire on its own
    options.flushIntervalMs = flushIntervalMs;
    return options;
}

double valueOf(int series, int i)
{
    return series * 1000 + std::round(std::sin(i / 10.0) * 5000) / 100.0;
}

// Small read-only queries against the file, to check the storage shape itself.
struct RawDb
{
    sqlite3 *db = nullptr;
    explicit RawDb(const QString &path)
    {
        sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
    }
    ~RawDb() { sqlite3_close(db); }
    qint64 scalar(const QByteArray &sql) const
    {
        sqlite3_stmt *st = nullptr;
        qint64 v = -1;
        if (sqlite3_prepare_v2(db, sql.constData(), -1, &st, nullptr) == SQLITE_OK
            && sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return v;
    }
};

} // namespace

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
    void midnightSplitsChunks();
    void expireDropsWholeDays();
    void expiredDaysFreedAfterARestart();
    void checkpointsOffTheWriter();
    void dayWrittenAgainWhileBeingFreed();
    void retentionOnOpen();
    void retentionDefaultAndLiveChange();
    void histograms();
    void secondOpenIsRefused();
    void concurrentReadersDuringWrites();
    void concurrentReadersDuringExpiry();
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

void TestSampleCache::midnightSplitsChunks()
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

void TestSampleCache::expireDropsWholeDays()
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
        cache->consume(valuesAt(registry, ts, { { a, double(ts / 1000) } }));
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

void TestSampleCache::expiredDaysFreedAfterARestart()
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

void TestSampleCache::dayWrittenAgainWhileBeingFreed()
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

void TestSampleCache::checkpointsOffTheWriter()
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

void TestSampleCache::retentionOnOpen()
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

void TestSampleCache::retentionDefaultAndLiveChange()
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

void TestSampleCache::concurrentReadersDuringExpiry()
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

void TestSampleCache::version1FileIsMigrated()
{
    // A cache as schema 1 wrote it: a block without summary, the tail as one row per
    // sample. Opening migrates it in place; nothing is lost and writing carries on.
    const QString path = freshPath();
    std::vector<Sample> expected;
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

QTEST_GUILESS_MAIN(TestSampleCache)
#include "tst_samplecache.moc"
