// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Crash safety: a child process (this binary with --crash-child) writes with a 200 ms
// flush interval and is killed with SIGKILL; the cache must then open and hold every
// sample the child published more than about one flush interval before the kill,
// as a gap-free prefix, both the sealed blocks and the recovered tail.
#include "cachetestutil.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <cstring>
#include <thread>

using namespace Qt::StringLiterals;

using namespace Headroom;
using namespace CacheTest;

namespace {

constexpr qint64 Base = 1'700'000'000'000;
constexpr int FlushIntervalMs = 200;
constexpr int SeriesCount = 3;

SeriesInfo seriesInfo(int s)
{
    return gauge(u"crash"_s, QString::number(s));
}

double valueOf(int s, int i)
{
    return s * 10000 + i * 0.25;
}

CacheOptions crashOptions()
{
    CacheOptions o;
    o.retentionDays = 0;
    o.flushIntervalMs = FlushIntervalMs;
    return o;
}

// The child: publish forever, one line per published sample index, until killed.
int runChild(const QString &path)
{
    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, crashOptions());
    if (!cache) {
        std::fprintf(stderr, "child: %s\n", qPrintable(error));
        return 2;
    }
    for (int i = 0;; ++i) {
        QList<std::pair<SeriesInfo, double>> values;
        for (int s = 0; s < SeriesCount; ++s)
            values.append({ seriesInfo(s), valueOf(s, i) });
        cache->consume(valuesAt(registry, Base + i * 1000LL, values));
        std::printf("%d\n", i);
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::milliseconds(4));
    }
}

} // namespace

class TestCacheCrash : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void killedWriterLosesAtMostOneInterval();
};

void TestCacheCrash::killedWriterLosesAtMostOneInterval()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"crash.sqlite"_s);
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(), { u"--crash-child"_s, path });
    QVERIFY(child.waitForStarted());

    // When each index reached us: never earlier than the child published it.
    QElapsedTimer clock;
    clock.start();
    std::vector<qint64> receivedAt;
    QByteArray pending;
    auto readLines = [&] {
        pending += child.readAllStandardOutput();
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const int index = pending.left(nl).toInt();
            pending.remove(0, nl + 1);
            QCOMPARE(index, int(receivedAt.size()));
            receivedAt.push_back(clock.elapsed());
        }
    };
    // Long enough for two sealed blocks per series (120 samples each) and a tail.
    while (receivedAt.size() < 300 && clock.elapsed() < 60'000) {
        child.waitForReadyRead(100);
        readLines();
        QVERIFY2(child.state() == QProcess::Running, "the child died on its own");
    }
    QVERIFY(receivedAt.size() >= 300);
    // Let a few more flushes happen mid-block, then kill at an arbitrary point.
    const qint64 until = clock.elapsed() + 3 * FlushIntervalMs / 2;
    while (clock.elapsed() < until) {
        child.waitForReadyRead(10);
        readLines();
    }
    const qint64 killedAt = clock.elapsed();
    child.kill(); // SIGKILL: no destructor, no final flush
    QVERIFY(child.waitForFinished());
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    readLines();

    // Published more than one interval (plus commit time on a loaded machine) before
    // the kill means committed.
    const qint64 slackMs = 400;
    size_t mustHave = 0;
    while (mustHave < receivedAt.size()
           && receivedAt[mustHave] <= killedAt - FlushIntervalMs - slackMs)
        ++mustHave;

    SeriesRegistry registry;
    QString error;
    auto cache = SampleCache::open(path, &registry, &error, crashOptions());
    QVERIFY2(cache, qPrintable(error));
    QCOMPARE(registry.size(), SeriesCount);
    for (int s = 0; s < SeriesCount; ++s) {
        const std::optional<int> id = registry.find(seriesInfo(s).key);
        QVERIFY(id);
        const auto samples = cache->read(*id, Base, Base + 86'400'000LL * 2);
        for (size_t i = 0; i < samples.size(); ++i)
            QCOMPARE(samples[i], (Sample { Base + qint64(i) * 1000, valueOf(s, int(i)) }));
        qInfo("series %d: %zu of %zu published samples recovered, %zu required", s, samples.size(),
              receivedAt.size(), mustHave);
        QVERIFY(samples.size() >= mustHave);
        QVERIFY(samples.size() <= receivedAt.size() + 1); // +1: published, not yet printed
        QVERIFY(samples.size() >= 240);
    }

    // Writing continues where the recovered data ends.
    const size_t recovered = cache->read(1, Base, Base + 86'400'000LL).size();
    cache->consume(valuesAt(registry, Base + qint64(recovered) * 1000,
                            { { seriesInfo(0), valueOf(0, int(recovered)) } }));
    cache->flush();
    QCOMPARE(cache->read(1, Base, Base + 86'400'000LL).size(), recovered + 1);
}

int main(int argc, char **argv)
{
    if (argc == 3 && std::strcmp(argv[1], "--crash-child") == 0) {
        QCoreApplication app(argc, argv);
        return runChild(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    TestCacheCrash test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_cachecrash.moc"
