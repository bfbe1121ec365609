// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The status bar's cache entry: hidden while writes work, red "disk full" with the
// reason while a real cache on a full tmpfs cannot commit (skipped where mounting is
// refused), orange once it writes again after dropping pending blocks.
#include "engine/cache/samplecache.h"
#include "engine/runtime/seriesregistry.h"
#include "sourcestatusbar.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <cstring>
#include <sys/mount.h>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestSourceStatusBar : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cacheEntryFollowsStatus();
    void fullDiskShowsInTheStatusBar();
};

void TestSourceStatusBar::cacheEntryFollowsStatus()
{
    SourceStatusBar bar;
    bar.setCacheStatus({});
    QVERIFY(bar.cacheText().isEmpty());

    CacheStatus failing;
    failing.writeFailing = true;
    failing.diskFull = true;
    failing.reason = u"database or disk is full"_s;
    failing.failedCommits = 3;
    failing.droppedBlocks = 2;
    failing.droppedSamples = 240;
    bar.setCacheStatus(failing);
    QVERIFY2(bar.cacheText().contains(u"cache: disk full"_s), qPrintable(bar.cacheText()));
    QVERIFY(bar.cacheText().contains(u"#d62728"_s)); // red, as a source in error
    QVERIFY2(bar.cacheToolTip().contains(u"database or disk is full"_s)
                 && bar.cacheToolTip().contains(u"2 pending block(s) (240 samples) dropped"_s),
             qPrintable(bar.cacheToolTip()));

    CacheStatus recovered = failing;
    recovered.writeFailing = false;
    recovered.diskFull = false;
    bar.setCacheStatus(recovered);
    QVERIFY2(bar.cacheText().contains(u"data dropped"_s), qPrintable(bar.cacheText()));
    QVERIFY(bar.cacheText().contains(u"#ff7f0e"_s)); // orange

    CacheStatus recoveredWithoutLoss;
    recoveredWithoutLoss.failedCommits = 1;
    bar.setCacheStatus(recoveredWithoutLoss);
    QVERIFY(bar.cacheText().isEmpty());
}

void TestSourceStatusBar::fullDiskShowsInTheStatusBar()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString mountPoint = dir.filePath(u"small"_s);
    QVERIFY(QDir().mkdir(mountPoint));
    const QByteArray native = QFile::encodeName(mountPoint);
    if (::mount("tmpfs", native.constData(), "tmpfs", MS_NOSUID | MS_NODEV, "size=2m") != 0)
        QSKIP(qPrintable(u"cannot mount a small tmpfs (%1): run through ./dev test"_s.arg(
            QString::fromLocal8Bit(std::strerror(errno)))));
    const auto unmount = qScopeGuard([&] { ::umount2(native.constData(), MNT_DETACH); });

    SeriesRegistry registry;
    QString error;
    CacheOptions options;
    options.retentionDays = 0;
    options.maxPendingBytes = 64 << 10;
    auto cache = SampleCache::open(mountPoint + u"/cache.sqlite"_s, &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    SourceStatusBar bar;
    bar.followCache(cache.get());

    // Fill the file system, then collect: random values, so nothing compresses.
    const QString fillerPath = mountPoint + u"/filler"_s;
    QFile filler(fillerPath);
    QVERIFY(filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
    const QByteArray chunk(16 << 10, 'x');
    while (filler.write(chunk) == chunk.size()) { }
    filler.close();
    SeriesInfo info;
    info.key.source = u"host"_s;
    info.key.metric = u"disk.fill"_s;
    QRandomGenerator random(7);
    const qint64 start = QDateTime::currentMSecsSinceEpoch() / 86'400'000 * 86'400'000;
    for (int i = 0; i < 20000; ++i) {
        SampleBatch batch;
        batch.source = info.key.source;
        batch.tsMs = start + i * 1000LL;
        for (int s = 0; s < 5; ++s) {
            info.key.labels = { { u"n"_s, QString::number(s) } };
            batch.add(info, random.generateDouble());
        }
        ResolvedBatch resolved;
        resolved.batch = batch;
        for (const SeriesValue &v : std::as_const(batch.values))
            resolved.valueIds.append(registry.idFor(v.info));
        cache->consume(resolved);
    }
    cache->flush();
    QTRY_VERIFY2_WITH_TIMEOUT(bar.cacheText().contains(u"disk full"_s), qPrintable(bar.cacheText()),
                              5000);
    QVERIFY2(bar.cacheToolTip().contains(u"database or disk is full"_s),
             qPrintable(bar.cacheToolTip()));
    QVERIFY2(bar.cacheToolTip().contains(u"dropped"_s), qPrintable(bar.cacheToolTip()));

    // Room again: the next commit goes through and the entry says what was given up.
    QVERIFY(QFile::remove(fillerPath));
    cache->flush();
    QTRY_VERIFY2_WITH_TIMEOUT(bar.cacheText().contains(u"writing again"_s),
                              qPrintable(bar.cacheText()), 5000);
    bar.followCache(nullptr);
}

QTEST_MAIN(TestSourceStatusBar)
#include "tst_sourcestatusbar.moc"
