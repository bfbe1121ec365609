// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A full file system under the cache: a small tmpfs (the tests run as root in a private
// mount namespace; skipped with the reason where mounting is refused), filled by a
// filler file while the cache is open. The status says "disk full", pending memory
// stays under the cap (the oldest pending blocks dropped and counted), room is made by
// dropping the oldest day chunks and never today's, and everything committed before the
// disk filled is read back bit for bit once there is space again, also after reopening.
// The disk fills with the whole cache still in its WAL (4 MB is below the automatic
// checkpoint), so the drop itself needs the space reserve: without it the drop failed
// about one run in three, whenever the fill ended exactly at the end of the WAL.
#include "cachetestutil.h"

#include <QDateTime>
#include <QDebug>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <cstring>
#include <map>
#include <sys/mount.h>

using namespace Headroom;
using namespace CacheTest;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 DayMs = 86'400'000;
constexpr int Series = 10;
constexpr qsizetype PendingCap = 256 << 10;
constexpr qint64 ReserveBytes = 192 << 10;

CacheOptions options()
{
    CacheOptions o;
    o.retentionDays = 0; // only the disk decides what goes
    o.flushIntervalMs = 200;
    o.maxPendingBytes = PendingCap;
    o.reserveBytes = ReserveBytes;
    return o;
}

SeriesInfo series(int s)
{
    return gauge(u"disk.fill"_s, QString::number(s));
}

// Random doubles: the XOR coding cannot shrink them, so bytes on disk grow fast.
// Appends what it fed to *fed (per series), when given.
void feed(SampleCache &cache, SeriesRegistry &registry, QRandomGenerator &random, qint64 fromMs,
          int seconds, std::vector<std::vector<Sample>> *fed = nullptr)
{
    for (int i = 0; i < seconds; ++i) {
        QList<std::pair<SeriesInfo, double>> values;
        for (int s = 0; s < Series; ++s) {
            const double value = random.generateDouble() * 1000;
            values.append({ series(s), value });
            if (fed)
                (*fed)[size_t(s)].push_back({ fromMs + i * 1000LL, value });
        }
        cache.consume(valuesAt(registry, fromMs + i * 1000LL, values));
    }
}

// Fills the file system until a write fails, then gives back `slack` bytes, so that
// small transactions fit and a commit of many blocks does not.
bool fill(const QString &path, qsizetype slack)
{
    QFile filler(path);
    if (!filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return false;
    const QByteArray chunk(64 << 10, 'x');
    while (filler.write(chunk) == chunk.size()) { }
    const qint64 size = filler.size();
    filler.close();
    return QFile::resize(path, std::max<qint64>(0, size - slack));
}

using Stored = std::map<std::pair<int, qint64>, std::vector<Sample>>; // (series, day)

} // namespace

class TestCacheDiskFull : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void fullDiskDropsOldestDaysAndKeepsCommitted();
    void cacheOfOnlyTodayExpiresNothing();

private:
    // Writes oldDays old days and today's first minutes, fills the disk, then feeds
    // until the pending cap is reached, checking along the way and after space is back.
    void run(int oldDays);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_mount;
};

void TestCacheDiskFull::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_mount = m_dir->filePath(u"small"_s);
    QVERIFY(QDir().mkdir(m_mount));
    if (::mount("tmpfs", QFile::encodeName(m_mount).constData(), "tmpfs", MS_NOSUID | MS_NODEV,
                "size=4m,mode=0700")
        != 0) {
        const QString reason = QString::fromLocal8Bit(std::strerror(errno));
        m_mount.clear();
        QSKIP(qPrintable(u"cannot mount a small tmpfs (%1): run the tests as root in a private "
                         u"mount namespace, as ./dev test does"_s.arg(reason)));
    }
}

void TestCacheDiskFull::cleanup()
{
    if (!m_mount.isEmpty())
        ::umount2(QFile::encodeName(m_mount).constData(), MNT_DETACH);
    m_mount.clear();
    m_dir.reset();
}

void TestCacheDiskFull::run(int oldDays)
{
    const QString path = m_mount + u"/cache.sqlite"_s;
    const QString filler = m_mount + u"/filler"_s;
    const qint64 today = QDateTime::currentMSecsSinceEpoch() / DayMs;
    const qint64 todayStart = today * DayMs + 1000;
    QRandomGenerator random(16);
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, options());
    QVERIFY2(cache, qPrintable(error));

    for (int d = oldDays; d >= 1; --d) {
        feed(*cache, registry, random, (today - d) * DayMs + 1000, 3000);
        cache->flush();
    }
    // Today before the disk fills: 5 blocks and 50 samples in the tail per series, so the
    // first block sealed while failing holds samples that are on disk only as tail chunks.
    std::vector<std::vector<Sample>> todayFed(Series);
    feed(*cache, registry, random, todayStart, 650, &todayFed);
    cache->flush();
    QVERIFY2(!cache->status().hadWriteErrors(), qPrintable(cache->status().summary()));

    Stored committed;
    for (int s = 0; s < Series; ++s) {
        const int id = *registry.find(series(s).key);
        for (int d = oldDays; d >= 0; --d) {
            const qint64 day = today - d;
            std::vector<Sample> samples = cache->read(id, day * DayMs, day * DayMs + DayMs - 1);
            QVERIFY(!samples.empty());
            committed[std::make_pair(id, day)] = std::move(samples);
        }
    }
    const QString reserve = path + u"-reserve"_s;
    QCOMPARE(QFileInfo(reserve).size(), ReserveBytes);
    QCOMPARE(QFileInfo(reserve).permissions()
                 & ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser),
             QFileDevice::Permissions());
    QVERIFY(fill(filler, 128 << 10));

    // Today's samples up to here are committed: each round that flushes without a
    // failure moves this on (the first rounds may still fit into the slack).
    size_t todayCommitted = todayFed.front().size();
    bool sawDiskFull = false;
    qint64 maxPending = 0;
    qint64 from = todayStart + 650'000;
    for (int round = 0; round < 70 && cache->status().droppedBlocks == 0; ++round) {
        feed(*cache, registry, random, from, 1000, &todayFed);
        from += 1000'000;
        cache->flush(); // a commit attempt, whatever the backoff
        const CacheStatus status = cache->status();
        if (!status.hadWriteErrors())
            todayCommitted = todayFed.front().size();
        sawDiskFull = sawDiskFull || (status.writeFailing && status.diskFull);
        maxPending = std::max(maxPending, status.pendingBytes);
        QVERIFY2(cache->chunkDays().contains(today), "the day being written was dropped");
    }
    const CacheStatus full = cache->status();
    qDebug().noquote() << "while full:" << full.summary();
    QVERIFY2(sawDiskFull, qPrintable(full.summary()));
    QVERIFY(full.reason.contains(u"full"_s));
    QVERIFY2(full.droppedBlocks > 0, qPrintable(full.summary()));
    QVERIFY(full.droppedSamples >= full.droppedBlocks);
    // The cap, plus the one block per series that must be kept (about 1.2 KB each).
    QVERIFY2(maxPending <= PendingCap + 64 * 1024, qPrintable(QString::number(maxPending)));
    QVERIFY(full.summary().contains(u"dropped"_s));

    // Room dropped the oldest days first, never today.
    const QList<qint64> days = cache->chunkDays();
    if (oldDays > 0) {
        QVERIFY2(full.daysExpiredForSpace >= 1, qPrintable(full.summary()));
        QVERIFY2(!QFileInfo::exists(reserve), "the reserve was kept while a day was dropped");
    } else {
        // Nothing to drop: the reserve is kept for when there is.
        QCOMPARE(QFileInfo(reserve).size(), ReserveBytes);
    }
    QCOMPARE(full.daysExpiredForSpace, oldDays - int(days.size() - 1));
    for (int d = oldDays; d >= 0; --d) {
        const bool expired = d > oldDays - full.daysExpiredForSpace;
        QCOMPARE(days.contains(today - d), !expired);
    }

    // Space again: the pending blocks go in, and nothing committed before was lost.
    QVERIFY(QFile::remove(filler));
    cache->flush();
    QVERIFY2(!cache->status().writeFailing, qPrintable(cache->status().summary()));
    QCOMPARE(QFileInfo(reserve).size(), ReserveBytes); // made again once there is room
    const auto checkCommitted = [&](SampleCache &c, const SeriesRegistry &ids) {
        for (const auto &[key, samples] : committed) {
            const auto &[id, day] = key;
            if (!c.chunkDays().contains(day))
                continue; // dropped to make room, counted above
            if (day == today)
                continue; // below
            const std::vector<Sample> now = c.read(id, day * DayMs, day * DayMs + DayMs - 1);
            QVERIFY2(sameBits(now, samples),
                     qPrintable(u"series %1 day %2: %3 of %4 samples"_s.arg(id)
                                    .arg(day)
                                    .arg(now.size())
                                    .arg(samples.size())));
        }
        // Today: everything committed before the first failure, in full, including the
        // samples that were only in tail chunks when the disk filled.
        for (int s = 0; s < Series; ++s) {
            const int id = *ids.find(series(s).key);
            std::vector<Sample> now = c.read(id, todayStart, todayStart + DayMs - 1);
            const std::vector<Sample> expected(todayFed[size_t(s)].begin(),
                                               todayFed[size_t(s)].begin()
                                                   + qsizetype(todayCommitted));
            now.resize(std::min(now.size(), expected.size())); // and what came since
            QVERIFY2(sameBits(now, expected),
                     qPrintable(u"series %1 today: %2 of %3 committed samples"_s.arg(id)
                                    .arg(now.size())
                                    .arg(expected.size())));
        }
    };
    checkCommitted(*cache, registry);
    cache.reset();
    SeriesRegistry again;
    cache = SampleCache::open(path, &again, &error, options());
    QVERIFY2(cache, qPrintable(error));
    checkCommitted(*cache, again);
}

void TestCacheDiskFull::fullDiskDropsOldestDaysAndKeepsCommitted()
{
    run(3);
}

void TestCacheDiskFull::cacheOfOnlyTodayExpiresNothing()
{
    run(0);
}

QTEST_GUILESS_MAIN(TestCacheDiskFull)
#include "tst_cachediskfull.moc"
