// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Durability and concurrency of the cache under load:
//  - a writer process killed with SIGKILL at random moments, 50 times over the same
//    file, loses at most about the last second (the flush interval) each time; the
//    cache opens and reads after every kill, and the recovered samples are a gap-free
//    prefix that the next writer continues;
//  - readers during heavy ingest never get an error (SQLITE_BUSY or other);
//  - the WAL stays bounded while readers read without pause.
#include "cachetestutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>

using namespace Qt::StringLiterals;

using namespace Headroom;
using namespace CacheTest;

namespace {

constexpr qint64 Base = 1'700'000'000'000;
constexpr int Kills = 50;
constexpr int KillSeries = 4;

SeriesInfo killSeries(int s)
{
    return gauge(u"durability"_s, QString::number(s));
}

double killValue(int s, qint64 i)
{
    return s * 100000 + double(i) * 0.5;
}

// The child: continue every series from where the cache ends, publishing a second of
// data every 2 ms and printing each index once published, until killed.
int runWriterChild(const QString &path)
{
    SeriesRegistry registry;
    QString error;
    CacheOptions options; // the default flush interval: what users get
    options.retentionDays = 0;
    auto cache = SampleCache::open(path, &registry, &error, options);
    if (!cache) {
        std::fprintf(stderr, "child: %s\n", qPrintable(error));
        return 2;
    }
    const std::optional<int> first = registry.find(killSeries(0).key);
    qint64 start = first ? qint64(cache->read(*first, Base, Base + 400LL * 86'400'000).size()) : 0;
    std::printf("start %lld\n", static_cast<long long>(start));
    std::fflush(stdout);
    for (qint64 i = start;; ++i) {
        QList<std::pair<SeriesInfo, double>> values;
        for (int s = 0; s < KillSeries; ++s)
            values.append({ killSeries(s), killValue(s, i) });
        cache->consume(valuesAt(registry, Base + i * 1000, values));
        std::printf("%lld\n", static_cast<long long>(i));
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

// Many series written as fast as possible by one thread, for the concurrency tests.
void ingestFor(SampleCache &cache, SeriesRegistry &registry, std::atomic<bool> &stop,
               std::atomic<qint64> &published)
{
    QList<SeriesInfo> infos;
    for (int s = 0; s < 200; ++s)
        infos.append(gauge(u"load"_s, QString::number(s)));
    for (qint64 i = 0; !stop; ++i) {
        QList<std::pair<SeriesInfo, double>> values;
        for (int s = 0; s < infos.size(); ++s)
            values.append({ infos.at(s), double((i * 7 + s) % 1000) / 10 });
        cache.consume(valuesAt(registry, Base + i * 1000, values));
        published += infos.size();
    }
}

} // namespace

class TestCacheDurability : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void killedFiftyTimesLosesAtMostASecond();
    void readersDuringHeavyIngestSeeNoErrors();
};

void TestCacheDurability::killedFiftyTimesLosesAtMostASecond()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"killed.sqlite"_s);
    // Published more than the flush interval (1 s) and a commit's time before the kill
    // means committed.
    constexpr qint64 MustHaveBeforeKillMs = 1000 + 500;
    qint64 recovered = 0;
    qint64 worstLossMs = 0;
    for (int round = 0; round < Kills; ++round) {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), { u"--writer-child"_s, path });
        QVERIFY(child.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        std::vector<std::pair<qint64, qint64>> received; // (index, when)
        qint64 start = -1;
        QByteArray pending;
        const auto readLines = [&] {
            pending += child.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(nl);
                pending.remove(0, nl + 1);
                if (line.startsWith("start "))
                    start = line.mid(6).toLongLong();
                else
                    received.emplace_back(line.toLongLong(), clock.elapsed());
            }
        };
        while (start < 0 && clock.elapsed() < 30'000) {
            child.waitForReadyRead(50);
            readLines();
        }
        QCOMPARE(start, recovered); // the writer continues where the last one ended
        // A random moment: mid-block, mid-commit, between commits.
        const qint64 killAt = clock.elapsed() + QRandomGenerator::global()->bounded(300, 2500);
        while (clock.elapsed() < killAt) {
            child.waitForReadyRead(5);
            readLines();
            QVERIFY2(child.state() == QProcess::Running, "the writer died on its own");
        }
        const qint64 killedAt = clock.elapsed();
        child.kill();
        QVERIFY(child.waitForFinished());
        readLines();

        SeriesRegistry registry;
        QString error;
        CacheOptions options;
        options.retentionDays = 0;
        auto cache = SampleCache::open(path, &registry, &error, options);
        QVERIFY2(cache, qPrintable(u"round %1: %2"_s.arg(round).arg(error)));
        qint64 count = -1;
        for (int s = 0; s < KillSeries; ++s) {
            // Killed before its first commit (at most a second in), the writer left no
            // series behind: nothing recovered, which is within the promise.
            const std::optional<int> id = registry.find(killSeries(s).key);
            const std::vector<Sample> samples
                = id ? cache->read(*id, Base, Base + 400LL * 86'400'000) : std::vector<Sample> {};
            for (size_t i = 0; i < samples.size(); ++i) {
                if (samples[i] != Sample { Base + qint64(i) * 1000, killValue(s, qint64(i)) })
                    QFAIL(qPrintable(
                        u"round %1, series %2: sample %3 wrong or missing"_s.arg(round).arg(s).arg(
                            i)));
            }
            // All series of a batch are committed together.
            if (count >= 0)
                QCOMPARE(qint64(samples.size()), count);
            count = qint64(samples.size());
        }
        for (const auto &[index, when] : received) {
            if (when <= killedAt - MustHaveBeforeKillMs && index >= count)
                QFAIL(qPrintable(u"round %1: sample %2, published %3 ms before the "
                                 "kill, was lost"_s.arg(round)
                                     .arg(index)
                                     .arg(killedAt - when)));
            if (index >= count)
                worstLossMs = std::max(worstLossMs, killedAt - when);
        }
        QVERIFY(count >= recovered);
        recovered = count;
    }
    qInfo("%d kills: %lld samples per series recovered in total; the oldest lost sample was "
          "published %lld ms before its kill",
          Kills, static_cast<long long>(recovered), static_cast<long long>(worstLossMs));
}

void TestCacheDurability::readersDuringHeavyIngestSeeNoErrors()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"busy.sqlite"_s);
    SeriesRegistry registry;
    QString error;
    CacheOptions options;
    options.retentionDays = 0;
    options.flushIntervalMs = 200; // many commits, many chances to collide
    auto cache = SampleCache::open(path, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));

    std::atomic<bool> stop = false;
    std::atomic<qint64> published = 0;
    std::thread writer([&] { ingestFor(*cache, registry, stop, published); });
    // Readers without pause: each read is a short transaction, but there is nearly
    // always one open, which is what keeps a WAL from being reset.
    std::atomic<int> reads = 0, failures = 0;
    QStringList errors;
    std::mutex errorsLock;
    std::vector<std::thread> readers;
    readers.reserve(4);
    for (int r = 0; r < 4; ++r) {
        readers.emplace_back([&, r] {
            while (!stop) {
                const std::optional<int> id
                    = registry.find(gauge(u"load"_s, QString::number(r * 7)).key);
                if (!id) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    continue;
                }
                QString readError;
                cache->read(*id, Base, Base + 400LL * 86'400'000, &readError);
                ++reads;
                if (!readError.isEmpty()) {
                    ++failures;
                    std::lock_guard lock(errorsLock);
                    errors.append(readError);
                }
            }
        });
    }
    qint64 maxWal = 0;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 6000) {
        maxWal = std::max(maxWal, QFileInfo(path + u"-wal"_s).size());
        QTest::qWait(20);
    }
    stop = true;
    writer.join();
    for (std::thread &t : readers)
        t.join();
    cache->flush();
    qInfo("%lld samples written, %d reads, %d failed, largest WAL %lld KiB",
          static_cast<long long>(published.load()), reads.load(), failures.load(),
          static_cast<long long>(maxWal / 1024));
    QVERIFY2(failures == 0, qPrintable(errors.mid(0, 3).join(u"; ")));
    QVERIFY(reads > 100);
    QVERIFY(published > 50'000); // far above a real fleet's rate, even under ASan
    // Bounded: journal_size_limit is 64 MiB; a WAL that never resets grows with the
    // data (several hundred MiB an hour at this rate).
    QVERIFY2(maxWal <= 80LL << 20, qPrintable(QString::number(maxWal)));
}

int main(int argc, char **argv)
{
    if (argc == 3 && std::strcmp(argv[1], "--writer-child") == 0) {
        QCoreApplication app(argc, argv);
        return runWriterChild(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    TestCacheDurability test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_cachedurability.moc"
