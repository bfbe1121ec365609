// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a poll of the host collector costs on a host of 2,000 processes, at 1 Hz: the
// whole poll (CPU, memory, disks, filesystems, file handles and the top processes),
// with most of its cost in reading each process's /proc/PID/stat. Measured twice:
//  - on a fixture tree of 2,000 fake /proc/PID entries (stat, status, io, cgroup, fd;
//    their CPU times moved on between polls, outside the timing), on tmpfs when there is
//    one: the collector's own work with files that cost the kernel little;
//  - on this machine's real /proc with 2,000 sleeping children started for it (and
//    whatever else runs), where the kernel formats every stat and io file.
// Printed, for each (fixture_ and real_): wall_median_ms, wall_p90_ms, cpu_median_ms
// (the polling thread's CPU time), core_percent_at_1hz (cpu median / 1,000 ms), and the
// processes the poll saw. The budget: 20 ms wall and 2 % of a core at 1 Hz.
#include "benchutil.h"
#include "hostcollector.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QThread>
#include <csignal>
#include <ctime>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace Headroom;
using namespace Headroom::Bench;
using namespace Qt::StringLiterals;

namespace {

constexpr int Processes = 2000;
constexpr int Polls = 30;

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(content) != content.size())
        qFatal("cannot write %s", qPrintable(path));
}

// The fake /proc/PID/stat of poll `round`: CPU times that move on, some faster.
QByteArray statLine(int pid, int round)
{
    const int utime = 1000 + round * (pid % 97);
    return u"%1 (worker-%2) S 1 %1 %1 0 -1 4194560 1200 0 3 0 %3 %4 0 0 20 0 %5 0 %6 "
           "123456789 %7 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"_s.arg(pid)
               .arg(pid % 40)
               .arg(utime)
               .arg(utime / 4)
               .arg(1 + pid % 8)
               .arg(100000 + pid)
               .arg(500 + pid * 3)
               .toLatin1();
}

void writeFixture(const QString &root, int round)
{
    const QString proc = root + u"/proc"_s;
    // The host's figures: a 2-CPU /proc/stat whose total moves on by 200 ticks a poll.
    const qint64 total = 100000 + qint64(round) * 200;
    write(proc + u"/stat"_s,
          u"cpu  %1 0 %2 %3 0 0 0 0 0 0\ncpu0 %4 0 0 %4 0 0 0 0 0 0\ncpu1 %4 0 0 %4 0 0 0 0 0 "
          "0\nprocs_running 3\n"_s.arg(total / 4)
              .arg(total / 4)
              .arg(total / 2)
              .arg(total / 4)
              .toLatin1());
    if (round > 0) {
        for (int pid = 1000; pid < 1000 + Processes; ++pid)
            write(proc + u"/%1/stat"_s.arg(pid), statLine(pid, round));
        return;
    }
    write(proc + u"/loadavg"_s, "1.00 0.80 0.50 3/2100 5000\n");
    write(proc + u"/meminfo"_s,
          "MemTotal: 16000000 kB\nMemFree: 8000000 kB\nMemAvailable: 9000000 kB\n");
    write(proc + u"/vmstat"_s, "pswpin 0\npswpout 0\noom_kill 0\n");
    write(proc + u"/diskstats"_s,
          "   8       0 sda 100 0 800 50 200 0 1600 100 0 300 150 0 0 0 0\n");
    write(proc + u"/sys/fs/file-nr"_s, "20000\t0\t1000000\n");
    write(proc + u"/self/mountinfo"_s, "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n");
    write(root + u"/etc/passwd"_s, "root:x:0:0:root:/root:/bin/sh\n");
    write(root + u"/sys/block/sda/dev"_s, "8:0\n");
    for (int pid = 1000; pid < 1000 + Processes; ++pid) {
        const QString dir = proc + u'/' + QString::number(pid);
        write(dir + u"/stat"_s, statLine(pid, 0));
        write(dir + u"/status"_s,
              u"Name:\tworker\nUid:\t%1\t%1\t%1\t%1\nVmRSS:\t%2 kB\n"_s.arg(pid % 3 * 1000)
                  .arg((500 + pid * 3) * 4)
                  .toLatin1());
        write(dir + u"/io"_s,
              u"rchar: 1\nwchar: 1\nsyscr: 1\nsyscw: 1\nread_bytes: %1\nwrite_bytes: %2\n"
              "cancelled_write_bytes: 0\n"_s.arg(pid * 4096)
                  .arg(pid * 8192)
                  .toLatin1());
        write(dir + u"/cgroup"_s, "0::/system.slice/worker.service\n");
        for (int fd = 0; fd < 3 + pid % 5; ++fd)
            write(dir + u"/fd/"_s + QString::number(fd), {});
    }
}

struct Figures
{
    double wallMedian = 0;
    double wallP90 = 0;
    double cpuMedian = 0;
    double processes = 0;
};

// Polls `collector` (two polls first: baselines, details), each after prepare(round).
template<typename Prepare> Figures measure(HostCollector &collector, Prepare prepare)
{
    std::vector<double> walls;
    std::vector<double> cpus;
    Figures f;
    for (int round = 0; round < Polls + 2; ++round) {
        prepare(round);
        const double cpu0 = threadCpuMs();
        QElapsedTimer timer;
        timer.start();
        const PollResult result = collector.poll(QDeadlineTimer(10'000));
        const double wall = double(timer.nsecsElapsed()) / 1e6;
        const double cpu = threadCpuMs() - cpu0;
        if (!result.error.isEmpty())
            qFatal("poll failed: %s", qPrintable(result.error));
        for (const SeriesValue &v : result.batch.values)
            if (v.info.key.metric == "host.process.count"_L1)
                f.processes = v.value;
        if (round >= 2) {
            walls.push_back(wall);
            cpus.push_back(cpu);
        }
        if (round + 1 < Polls + 2)
            QThread::msleep(50);
    }
    std::sort(walls.begin(), walls.end());
    std::sort(cpus.begin(), cpus.end());
    f.wallMedian = walls[walls.size() / 2];
    f.wallP90 = walls[walls.size() * 9 / 10];
    f.cpuMedian = cpus[cpus.size() / 2];
    return f;
}

void report(const char *prefix, const Figures &f)
{
    const auto name = [&](const char *what) { return QByteArray(QByteArray(prefix) + what); };
    print(name("wall_median_ms").constData(), f.wallMedian);
    print(name("wall_p90_ms").constData(), f.wallP90);
    print(name("cpu_median_ms").constData(), f.cpuMedian);
    print(name("core_percent_at_1hz").constData(), f.cpuMedian / 1000 * 100);
    print(name("processes").constData(), f.processes);
}

CollectorConfig config()
{
    CollectorConfig c;
    c.sourceId = u"bench"_s;
    return c;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);

    // Fixture tree, on tmpfs when there is one.
    const QFileInfo shm(u"/dev/shm"_s);
    QTemporaryDir dir((shm.isDir() && shm.isWritable() ? shm.filePath() : QDir::tempPath())
                      + u"/headroom-bench-XXXXXX"_s);
    if (!dir.isValid())
        qFatal("no temporary directory");
    writeFixture(dir.path(), 0);
    HostCollector fixture(config(), std::make_unique<LocalFileSource>(dir.path()));
    report("processpoll_fixture_", measure(fixture, [&](int round) {
               if (round > 0)
                   writeFixture(dir.path(), round);
           }));

    // This machine, with 2,000 sleeping children (each ends with its parent or at once
    // when signalled; SIGKILL at the end).
    std::vector<pid_t> children;
    children.reserve(Processes);
    for (int i = 0; i < Processes; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            for (;;)
                pause();
        }
        if (pid < 0) {
            std::fprintf(stderr, "bench_processpoll: fork failed after %d children\n", i);
            break;
        }
        children.push_back(pid);
    }
    HostCollector real(config(), std::make_unique<LocalFileSource>());
    report("processpoll_real_", measure(real, [](int) { }));
    for (const pid_t pid : children)
        kill(pid, SIGKILL);
    for (const pid_t pid : children)
        waitpid(pid, nullptr, 0);
    return 0;
}
