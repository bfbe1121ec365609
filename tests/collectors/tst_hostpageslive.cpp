// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host collector against real things on this machine: a tmpfs mounted for the test
// and filled while it is polled (its use, growth and time to full, named by mount point
// and device), and a process that burns a CPU under a name of its own (a copy of
// /bin/sh called hrburn-<pid>), found among the top processes with its pid, user and CPU
// share. Mounting needs root (./dev's Debian root runs as root): skipped, saying so,
// where it cannot.
#include "collectortestutil.h"
#include "hostcollector.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <cmath>
#include <optional>
#include <sys/mount.h>
#include <unistd.h>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

// utime + stime of pid, in clock ticks (/proc/PID/stat fields 14 and 15).
std::optional<qint64> cpuTicksOf(pid_t pid)
{
    QFile file(u"/proc/%1/stat"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray stat = file.readAll();
    // The command name may hold spaces: the fields after it start past its ')'.
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return std::nullopt;
    return fields.at(11).toLongLong() + fields.at(12).toLongLong();
}

std::unique_ptr<HostCollector> localCollector()
{
    CollectorConfig config;
    config.sourceId = u"live"_s;
    QString error;
    auto collector = HostCollector::create(config, &error);
    if (!collector)
        qFatal("%s", qPrintable(error));
    return collector;
}

std::optional<SeriesValue> findWith(const SampleBatch &batch, const QString &metric,
                                    const QString &label, const QString &value)
{
    for (const SeriesValue &v : batch.values)
        if (v.info.key.metric == metric && v.info.key.labels.value(label) == value)
            return v;
    return std::nullopt;
}

} // namespace

class TestHostPagesLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void filesystemFilling();
    void processBurningCpu();
};

void TestHostPagesLive::filesystemFilling()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray point = QFile::encodeName(dir.path());
    if (::mount("tmpfs", point.constData(), "tmpfs", 0, "size=64m") != 0)
        QSKIP(qPrintable(u"cannot mount a tmpfs here (%1): needs root"_s.arg(
            QString::fromLocal8Bit(strerror(errno)))));
    const auto unmount = qScopeGuard([&] { ::umount2(point.constData(), MNT_DETACH); });

    const auto collector = localCollector();
    const QString mountPoint = QDir(dir.path()).canonicalPath();
    QByteArray chunk(2 << 20, 'x');
    PollResult result;
    // The first poll reads the mount table; then 2 MiB a poll, 250 ms apart.
    for (int poll = 0; poll < 8; ++poll) {
        if (poll > 1) {
            QFile file(dir.filePath(u"fill-%1"_s.arg(poll)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            QCOMPARE(file.write(chunk), qint64(chunk.size()));
        }
        result = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QThread::msleep(250);
    }
    const auto used = findWith(result.batch, u"host.fs.used"_s, u"mountpoint"_s, mountPoint);
    QVERIFY2(used, qPrintable(u"no host.fs.used for "_s + mountPoint));
    QCOMPARE(used->info.key.labels.value(u"device"_s), u"tmpfs"_s);
    QCOMPARE(used->info.key.labels.value(u"fstype"_s), u"tmpfs"_s);
    QCOMPARE(used->info.resource, u"fs:"_s + mountPoint);
    // 12 MiB of 64 MiB written.
    QVERIFY2(used->value > 15 && used->value < 25, qPrintable(QString::number(used->value)));
    const auto growth = findWith(result.batch, u"host.fs.growth"_s, u"mountpoint"_s, mountPoint);
    QVERIFY(growth);
    // 2 MiB per ~250 ms (the polls take some time too).
    QVERIFY2(growth->value > 2e6 && growth->value < 10e6,
             qPrintable(QString::number(growth->value)));
    const auto left
        = findWith(result.batch, u"host.fs.time_to_full"_s, u"mountpoint"_s, mountPoint);
    QVERIFY(left);
    // 52 MiB left at 2-10 MB/s: seconds, far below the critical hour.
    QVERIFY2(left->value > 0 && left->value < 0.01, qPrintable(QString::number(left->value)));
    qInfo("%s: used %.1f %%, growth %.2f MB/s, full in %.0f s", qPrintable(mountPoint), used->value,
          growth->value / 1e6, left->value * 3600);

    // Not growing any more: no forecast after the window has forgotten the fill.
    for (int poll = 0; poll < 9; ++poll) {
        result = collector->poll(QDeadlineTimer(5000));
        QThread::msleep(100);
    }
    QVERIFY(!findWith(result.batch, u"host.fs.time_to_full"_s, u"mountpoint"_s, mountPoint));
    QCOMPARE(findWith(result.batch, u"host.fs.growth"_s, u"mountpoint"_s, mountPoint)->value, 0.0);
}

void TestHostPagesLive::processBurningCpu()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A copy of the shell under a name of its own: the kernel's command name is the
    // file's (at most 15 characters).
    const QString name = u"hrburn-%1"_s.arg(getpid() % 100000);
    const QString burner = dir.filePath(name);
    QVERIFY(QFile::copy(u"/bin/sh"_s, burner));
    QVERIFY(QFile::setPermissions(burner, QFile::ExeOwner | QFile::ReadOwner));
    QProcess process;
    process.start(burner, { u"-c"_s, u"while :; do :; done"_s });
    QVERIFY(process.waitForStarted());
    const auto stop = qScopeGuard([&] {
        process.kill();
        process.waitForFinished();
    });

    const auto collector = localCollector();
    std::optional<SeriesValue> found;
    for (int poll = 0; poll < 8 && !found; ++poll) {
        const PollResult result = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        found = findWith(result.batch, u"host.process.cpu"_s, u"comm"_s, name);
        QThread::msleep(500);
    }
    QVERIFY2(found, qPrintable(name + u" not among the top processes by CPU"_s));
    QCOMPARE(found->info.key.labels.value(u"pid"_s), QString::number(process.processId()));
    if (getuid() == 0)
        QCOMPARE(found->info.key.labels.value(u"user"_s), u"root"_s);
    QCOMPARE(found->info.unit, u"%"_s);

    // Its share over one poll interval, against what the kernel counted for it over the
    // same second: the share itself depends on what else the machine runs.
    const pid_t pid = pid_t(process.processId());
    collector->poll(QDeadlineTimer(5000));
    const std::optional<qint64> ticksBefore = cpuTicksOf(pid);
    QElapsedTimer interval;
    interval.start();
    QThread::msleep(1000);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    const std::optional<qint64> ticksAfter = cpuTicksOf(pid);
    const double seconds = double(interval.nsecsElapsed()) / 1e9;
    QVERIFY(ticksBefore && ticksAfter);
    const double counted
        = 100.0 * double(*ticksAfter - *ticksBefore) / double(sysconf(_SC_CLK_TCK)) / seconds;
    found = findWith(result.batch, u"host.process.cpu"_s, u"comm"_s, name);
    QVERIFY2(found, qPrintable(name + u" left the top processes"_s));
    // A spinning shell runs whenever it can: some CPU in any second, never more than one
    // (one thread).
    QVERIFY2(counted > 2, qPrintable(QString::number(counted)));
    QVERIFY2(found->value > 0 && found->value <= 100, qPrintable(QString::number(found->value)));
    // The collector's interval and the test's differ by the poll's own time.
    QVERIFY2(
        std::abs(found->value - counted) <= 5 + 0.25 * counted,
        qPrintable(
            u"collector %1 %, kernel over the same second %2 %"_s.arg(found->value).arg(counted)));
    qInfo("%s (pid %lld): %.0f %% of one CPU (the kernel counted %.0f %%), unit %s",
          qPrintable(name), process.processId(), found->value, counted,
          qPrintable(found->info.key.labels.value(u"unit"_s)));
}

QTEST_GUILESS_MAIN(TestHostPagesLive)
#include "tst_hostpageslive.moc"
