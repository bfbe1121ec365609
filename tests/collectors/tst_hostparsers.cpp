// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host parsers over captured (real) and hand-written fixtures, including truncated
// and non-numeric input: a bad line is skipped and reported, never trusted.
#include "collector/filesystems.h"
#include "collector/processparsers.h"
#include "collectortestutil.h"
#include "diskstatsparser.h"
#include "filenrparser.h"
#include "hostfilesystems.h"
#include "loadavgparser.h"
#include "meminfoparser.h"
#include "mountinfoparser.h"
#include "pressureparser.h"
#include "procstatparser.h"
#include "vmstatparser.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestHostParsers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void procStat_data();
    void procStat();
    void loadAvg_data();
    void loadAvg();
    void pressure_data();
    void pressure();
    void memInfo_data();
    void memInfo();
    void vmStat_data();
    void vmStat();
    void diskStats_data();
    void diskStats();
    void ioErrCount_data();
    void ioErrCount();
    void mountInfo_data();
    void mountInfo();
    void watchedMounts_data();
    void watchedMounts();
    void pidStat_data();
    void pidStat();
    void pidStatus_data();
    void pidStatus();
    void pidIo_data();
    void pidIo();
    void cgroupUnit_data();
    void cgroupUnit();
    void passwd();
    void fileNr_data();
    void fileNr();
    void fillForecast_data();
    void fillForecast();
};

void TestHostParsers::procStat_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("cpuCount");
    QTest::addColumn<quint64>("allTotal");
    QTest::addColumn<quint64>("allNotBusy");
    QTest::addColumn<quint64>("cpu1User");
    QTest::addColumn<qint64>("procsRunning"); // -1: absent
    QTest::addColumn<QStringList>("problems");

    // Real capture: cpu 22984 0 8002 43443 1284 0 519 1264 0 0.
    QTest::newRow("real t0") << readFixture(u"host/t0/proc/stat"_s) << true << 2 << quint64(77496)
                             << quint64(44727) << quint64(12009) << qint64(3) << QStringList();
    // guest (40) is part of user already and must not be counted twice.
    QTest::newRow("known t0") << readFixture(u"host/known/t0/proc/stat"_s) << true << 2
                              << quint64(10000) << quint64(8200) << quint64(500) << qint64(3)
                              << QStringList();
    // Kernels before 2.6.11 print only user nice system idle (iowait, irq...).
    QTest::newRow("four columns") << "cpu 10 20 30 40\ncpu0 10 20 30 40\n"_ba << true << 1
                                  << quint64(100) << quint64(40) << quint64(0) << qint64(-1)
                                  << QStringList();
    QTest::newRow("garbage") << readFixture(u"host/garbage/proc/stat"_s) << true << 0
                             << quint64(10000) << quint64(8200) << quint64(0) << qint64(-1)
                             << QStringList {
                                    u"line 2: cpu line has 3 fields, expected at least 4"_s,
                                    u"line 3: non-numeric cpu field \"abc\""_s,
                                    u"line 4: malformed procs_running line"_s
                                };
    QTest::newRow("truncated aggregate")
        << "cpu  1000 10"_ba << false << 0 << quint64(0) << quint64(0) << quint64(0) << qint64(-1)
        << QStringList { u"line 1: cpu line has 2 fields, expected at least 4"_s,
                         u"no aggregate \"cpu\" line"_s };
    QTest::newRow("empty") << QByteArray() << false << 0 << quint64(0) << quint64(0) << quint64(0)
                           << qint64(-1) << QStringList { u"no aggregate \"cpu\" line"_s };
    QTest::newRow("negative") << "cpu -1 2 3 4\n"_ba << false << 0 << quint64(0) << quint64(0)
                              << quint64(0) << qint64(-1)
                              << QStringList { u"line 1: non-numeric cpu field \"-1\""_s,
                                               u"no aggregate \"cpu\" line"_s };
}

void TestHostParsers::procStat()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, valid);
    QFETCH(QStringList, problems);
    QStringList actualProblems;
    const auto stat = parseProcStat(content, &actualProblems);
    QCOMPARE(actualProblems, problems);
    QCOMPARE(stat.has_value(), valid);
    if (!stat)
        return;
    QFETCH(int, cpuCount);
    QFETCH(quint64, allTotal);
    QFETCH(quint64, allNotBusy);
    QFETCH(quint64, cpu1User);
    QFETCH(qint64, procsRunning);
    QCOMPARE(stat->cpus.size(), cpuCount);
    QCOMPARE(stat->all.total(), allTotal);
    QCOMPARE(stat->all.notBusy(), allNotBusy);
    if (cpuCount > 1) {
        QCOMPARE(stat->cpus[1].name, u"cpu1"_s);
        QCOMPARE(stat->cpus[1].times.user, cpu1User);
    }
    QCOMPARE(stat->procsRunning.has_value(), procsRunning >= 0);
    if (procsRunning >= 0)
        QCOMPARE(*stat->procsRunning, quint64(procsRunning));
}

void TestHostParsers::loadAvg_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("load1");
    QTest::addColumn<double>("load15");
    QTest::addColumn<QStringList>("problems");
    QTest::newRow("real t0") << readFixture(u"host/t0/proc/loadavg"_s) << true << 1.37 << 0.39
                             << QStringList();
    QTest::newRow("known t1") << readFixture(u"host/known/t1/proc/loadavg"_s) << true << 1.5 << 0.5
                              << QStringList();
    QTest::newRow("garbage") << readFixture(u"host/garbage/proc/loadavg"_s) << false << 0.0 << 0.0
                             << QStringList { u"line 1: expected 3 load averages, got 1 fields"_s };
    QTest::newRow("empty") << QByteArray() << false << 0.0 << 0.0
                           << QStringList { u"line 1: expected 3 load averages, got 0 fields"_s };
    QTest::newRow("text") << "0.5 x 0.1 1/2 3\n"_ba << false << 0.0 << 0.0
                          << QStringList { u"line 1: bad load average \"x\""_s };
    QTest::newRow("nan") << "nan 0.1 0.1 1/2 3\n"_ba << false << 0.0 << 0.0
                         << QStringList { u"line 1: bad load average \"nan\""_s };
}

void TestHostParsers::loadAvg()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, valid);
    QFETCH(QStringList, problems);
    QStringList actualProblems;
    const auto load = parseLoadAvg(content, &actualProblems);
    QCOMPARE(actualProblems, problems);
    QCOMPARE(load.has_value(), valid);
    if (!load)
        return;
    QFETCH(double, load1);
    QFETCH(double, load15);
    QCOMPARE(load->load1, load1);
    QCOMPARE(load->load15, load15);
}

void TestHostParsers::pressure_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("some"); // -1: absent
    QTest::addColumn<qint64>("full");
    QTest::addColumn<QStringList>("problems");
    QTest::newRow("real cpu t0") << readFixture(u"host/t0/proc/pressure/cpu"_s) << true
                                 << qint64(34540509) << qint64(0) << QStringList();
    QTest::newRow("known memory t1") << readFixture(u"host/known/t1/proc/pressure/memory"_s) << true
                                     << qint64(300000) << qint64(140000) << QStringList();
    // Before Linux 5.13, /proc/pressure/cpu has no "full" line.
    QTest::newRow("some only") << "some avg10=0.00 avg60=0.00 avg300=0.00 total=42\n"_ba << true
                               << qint64(42) << qint64(-1) << QStringList();
    QTest::newRow("garbage total")
        << readFixture(u"host/garbage/proc/pressure/cpu"_s) << true << qint64(-1) << qint64(0)
        << QStringList { u"line 1: no numeric total="_s };
    QTest::newRow("truncated") << readFixture(u"host/garbage/proc/pressure/memory"_s) << false
                               << qint64(-1) << qint64(-1)
                               << QStringList { u"line 1: no numeric total="_s,
                                                u"no \"some\" or \"full\" total"_s };
    QTest::newRow("empty") << QByteArray() << false << qint64(-1) << qint64(-1)
                           << QStringList { u"no \"some\" or \"full\" total"_s };
    QTest::newRow("unknown line") << "most total=1\nsome total=2\n"_ba << true << qint64(2)
                                  << qint64(-1)
                                  << QStringList { u"line 1: unknown line \"most\""_s };
}

void TestHostParsers::pressure()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, valid);
    QFETCH(qint64, some);
    QFETCH(qint64, full);
    QFETCH(QStringList, problems);
    QStringList actualProblems;
    const auto pressure = parsePressure(content, &actualProblems);
    QCOMPARE(actualProblems, problems);
    QCOMPARE(pressure.has_value(), valid);
    if (!pressure)
        return;
    QCOMPARE(pressure->someTotalUs.has_value(), some >= 0);
    if (some >= 0)
        QCOMPARE(*pressure->someTotalUs, quint64(some));
    QCOMPARE(pressure->fullTotalUs.has_value(), full >= 0);
    if (full >= 0)
        QCOMPARE(*pressure->fullTotalUs, quint64(full));
}

void TestHostParsers::memInfo_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<quint64>("total");
    QTest::addColumn<quint64>("available");
    QTest::addColumn<quint64>("swapTotal");
    QTest::addColumn<quint64>("swapFree");
    QTest::addColumn<int>("problemCount");
    QTest::newRow("real t0") << readFixture(u"host/t0/proc/meminfo"_s) << true
                             << quint64(24683656) * 1024 << quint64(24002764) * 1024 << quint64(0)
                             << quint64(0) << 0;
    QTest::newRow("known") << readFixture(u"host/known/t0/proc/meminfo"_s) << true
                           << quint64(8192000000) << quint64(2048000000) << quint64(1024000000)
                           << quint64(768000000) << 0;
    // Linux < 3.14: no MemAvailable, approximated as MemFree + Buffers + Cached.
    QTest::newRow("no MemAvailable")
        << "MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 10 kB\nCached: 200 kB\n"_ba << true
        << quint64(1024000) << quint64(310 * 1024) << quint64(0) << quint64(0) << 0;
    QTest::newRow("garbage") << readFixture(u"host/garbage/proc/meminfo"_s) << false << quint64(0)
                             << quint64(0) << quint64(0) << quint64(0) << 3;
    QTest::newRow("truncated") << "MemTotal:  2048 kB\nMemAvail"_ba << true << quint64(2048 * 1024)
                               << quint64(0) << quint64(0) << quint64(0) << 1;
}

void TestHostParsers::memInfo()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, valid);
    QFETCH(int, problemCount);
    QStringList problems;
    const auto mem = parseMemInfo(content, &problems);
    QCOMPARE(problems.size(), problemCount);
    QCOMPARE(mem.has_value(), valid);
    if (!mem)
        return;
    QFETCH(quint64, total);
    QFETCH(quint64, available);
    QFETCH(quint64, swapTotal);
    QFETCH(quint64, swapFree);
    QCOMPARE(mem->totalBytes, total);
    QCOMPARE(mem->availableBytes, available);
    QCOMPARE(mem->swapTotalBytes, swapTotal);
    QCOMPARE(mem->swapFreeBytes, swapFree);
}

void TestHostParsers::vmStat_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("pswpin"); // -1: absent
    QTest::addColumn<qint64>("pswpout");
    QTest::addColumn<qint64>("pageScan");
    QTest::addColumn<qint64>("oomKill");
    QTest::addColumn<QStringList>("problems");
    QTest::newRow("real t0") << readFixture(u"host/t0/proc/vmstat"_s) << qint64(0) << qint64(0)
                             << qint64(0) << qint64(0) << QStringList();
    QTest::newRow("known t1") << readFixture(u"host/known/t1/proc/vmstat"_s) << qint64(300)
                              << qint64(450) << qint64(1600 + 210 + 200) << qint64(3)
                              << QStringList();
    // Linux < 4.13 has no oom_kill, < 5.17 no pgscan_khugepaged.
    QTest::newRow("old kernel") << "pswpin 1\npswpout 2\npgscan_kswapd 3\npgscan_direct 4\n"_ba
                                << qint64(1) << qint64(2) << qint64(7) << qint64(-1)
                                << QStringList();
    QTest::newRow("garbage") << readFixture(u"host/garbage/proc/vmstat"_s) << qint64(-1)
                             << qint64(3) << qint64(-1) << qint64(-1)
                             << QStringList { u"line 1: malformed pswpin line"_s,
                                              u"line 3: malformed oom_kill line"_s };
}

void TestHostParsers::vmStat()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, pswpin);
    QFETCH(qint64, pswpout);
    QFETCH(qint64, pageScan);
    QFETCH(qint64, oomKill);
    QFETCH(QStringList, problems);
    QStringList actualProblems;
    const VmStat vm = parseVmStat(content, &actualProblems);
    QCOMPARE(actualProblems, problems);
    const auto check = [](std::optional<quint64> actual, qint64 expected) {
        return expected < 0 ? !actual.has_value() : actual == quint64(expected);
    };
    QVERIFY(check(vm.pswpin, pswpin));
    QVERIFY(check(vm.pswpout, pswpout));
    QVERIFY(check(vm.pageScan(), pageScan));
    QVERIFY(check(vm.oomKill, oomKill));
}

void TestHostParsers::diskStats_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QString>("device"); // the one whose fields are checked
    QTest::addColumn<QList<quint64>>("fields"); // reads rsect writes wsect ioticks weighted
    QTest::addColumn<bool>("everUsed");
    QTest::addColumn<int>("problemCount");
    QTest::newRow("real t0") << readFixture(u"host/t0/proc/diskstats"_s)
                             << QStringList { u"loop0"_s, u"loop1"_s, u"loop2"_s, u"loop3"_s,
                                              u"loop4"_s, u"loop5"_s, u"loop6"_s, u"loop7"_s,
                                              u"vda"_s,   u"zram0"_s }
                             << u"vda"_s
                             << QList<quint64> { 27231, 940954, 148513, 4808320, 25776, 78963 }
                             << true << 0;
    // nvme0n1 has the 14-column layout of kernels before 4.18 (no discard columns).
    QTest::newRow("known t1") << readFixture(u"host/known/t1/proc/diskstats"_s)
                              << QStringList { u"loop0"_s, u"sda"_s, u"sda1"_s, u"sdb"_s,
                                               u"nvme0n1"_s }
                              << u"nvme0n1"_s << QList<quint64> { 500, 4000, 300, 1600, 4400, 500 }
                              << true << 0;
    QTest::newRow("never used") << readFixture(u"host/known/t1/proc/diskstats"_s)
                                << QStringList { u"loop0"_s, u"sda"_s, u"sda1"_s, u"sdb"_s,
                                                 u"nvme0n1"_s }
                                << u"sdb"_s << QList<quint64> { 0, 0, 0, 0, 0, 0 } << false << 0;
    QTest::newRow("garbage") << readFixture(u"host/garbage/proc/diskstats"_s)
                             << QStringList { u"sda"_s } << u"sda"_s
                             << QList<quint64> { 1000, 80000, 2000, 160000, 3000, 4000 } << true
                             << 2;
    QTest::newRow("non-numeric")
        << "8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n8 1 sdb 1 2 3 4 5 6 7 8 9 x 11\n"_ba
        << QStringList { u"sda"_s } << u"sda"_s << QList<quint64> { 1, 3, 5, 7, 10, 11 } << true
        << 1;
}

void TestHostParsers::diskStats()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, names);
    QFETCH(QString, device);
    QFETCH(QList<quint64>, fields);
    QFETCH(bool, everUsed);
    QFETCH(int, problemCount);
    QStringList problems;
    const QList<DiskStat> disks = parseDiskStats(content, &problems);
    QCOMPARE(problems.size(), problemCount);
    QStringList actualNames;
    for (const DiskStat &disk : disks)
        actualNames << disk.name;
    QCOMPARE(actualNames, names);
    const DiskStat &disk = disks.at(names.indexOf(device));
    QCOMPARE((QList<quint64> { disk.reads, disk.readSectors, disk.writes, disk.writeSectors,
                               disk.ioTicksMs, disk.weightedIoMs }),
             fields);
    QCOMPARE(disk.everUsed(), everUsed);
}

void TestHostParsers::ioErrCount_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("expected"); // -1: invalid
    QTest::newRow("known t0") << readFixture(u"host/known/t0/sys/block/sda/device/ioerr_cnt"_s)
                              << qint64(3);
    QTest::newRow("hex digits") << "0x1f\n"_ba << qint64(31);
    QTest::newRow("no prefix") << "10\n"_ba << qint64(16);
    QTest::newRow("garbage") << readFixture(u"host/garbage/sys/block/sda/device/ioerr_cnt"_s)
                             << qint64(-1);
    QTest::newRow("prefix only") << "0x"_ba << qint64(-1);
    QTest::newRow("empty") << QByteArray() << qint64(-1);
}

void TestHostParsers::ioErrCount()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, expected);
    const auto count = parseIoErrCount(content);
    QCOMPARE(count.has_value(), expected >= 0);
    if (count)
        QCOMPARE(*count, quint64(expected));
}

void TestHostParsers::mountInfo_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("mounts"); // "mount point|type|source|device|root|ro"
    QTest::addColumn<QStringList>("problems");
    // Captured in ./dev's Debian root: bind mounts of one ext4, cgroup v1 and v2.
    const QByteArray captured = readFixture(u"host/captured/mountinfo"_s);
    QTest::newRow("captured") << captured
                              << QStringList { u"/proc|proc|proc|0:40|/|rw"_s,
                                               u"/sys|sysfs|sysfs|0:22|/|rw"_s,
                                               u"/sys/fs/cgroup|tmpfs|tmpfs|0:28|/|rw"_s }
                              << QStringList();
    QTest::newRow("escaped") << QByteArray("29 22 8:3 /17/main/pg_wal /mnt/wal\\040archive\\134x "
                                           "ro,noatime shared:31 - xfs /dev/sda3 rw\n")
                             << QStringList { u"/mnt/wal archive\\x|xfs|/dev/sda3|8:3|"
                                              "/17/main/pg_wal|ro"_s }
                             << QStringList();
    QTest::newRow("no optional fields")
        << QByteArray("30 1 0:5 / /run rw - tmpfs tmpfs rw\n")
        << QStringList { u"/run|tmpfs|tmpfs|0:5|/|rw"_s } << QStringList();
    QTest::newRow("garbage") << readFixture(u"host/garbage/proc/self/mountinfo"_s) << QStringList()
                             << QStringList { u"line 1: not a mountinfo line (8 fields)"_s,
                                              u"line 2: not a mountinfo line (3 fields)"_s,
                                              u"line 3: bad device number \"x:y\""_s,
                                              u"line 4: mount point \"relative\" is not "
                                              "absolute"_s };
    QTest::newRow("empty") << QByteArray() << QStringList() << QStringList();
}

void TestHostParsers::mountInfo()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, mounts);
    QFETCH(QStringList, problems);
    QStringList actualProblems;
    const QList<MountEntry> parsed = parseMountInfo(content, &actualProblems);
    QCOMPARE(actualProblems, problems);
    QStringList actual;
    for (const MountEntry &m : parsed)
        actual << QStringList { m.mountPoint, m.type, m.source,
                                m.device,     m.root, m.readOnly ? u"ro"_s : u"rw"_s }
                      .join(u'|');
    QCOMPARE(actual.mid(0, mounts.size()), mounts);
}

void TestHostParsers::watchedMounts_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("watched"); // "mount point|source|type"
    // The bind mounts of /dev/vda show it once (the first: none mounts its root), the
    // pseudo and cgroup filesystems not at all, /dev/shm is watched though under /dev.
    QTest::newRow("captured") << readFixture(u"host/captured/mountinfo"_s)
                              << QStringList { u"/dev/shm|tmpfs|tmpfs"_s, u"/tmp|/dev/vda|ext4"_s };
    // Read-only, squashfs, NFS, overlay, devtmpfs and credentials are left out; the
    // WAL archive is a bind mount of the data filesystem; fuseblk is a disk.
    QTest::newRow("known") << readFixture(u"host/procs/t0/proc/self/mountinfo"_s)
                           << QStringList { u"/|/dev/sda2|ext4"_s, u"/dev/shm|tmpfs|tmpfs"_s,
                                            u"/media/usb stick|/dev/sdb1|fuseblk"_s,
                                            u"/run/user/1000|tmpfs|tmpfs"_s,
                                            u"/var/lib/postgresql|/dev/sda3|xfs"_s };
    // A later mount on the same point hides the earlier one; a bind mount of a
    // filesystem's root wins over one of a subdirectory.
    QTest::newRow("over and bind")
        << QByteArray("1 0 8:1 / /data rw - ext4 /dev/sdc1 rw\n"
                      "2 0 8:2 / /data rw - xfs /dev/sdd1 rw\n"
                      "3 0 8:5 /sub /srv/b rw - ext4 /dev/sde1 rw\n"
                      "4 0 8:5 / /srv/a rw - ext4 /dev/sde1 rw\n")
        << QStringList { u"/data|/dev/sdd1|xfs"_s, u"/srv/a|/dev/sde1|ext4"_s };
}

void TestHostParsers::watchedMounts()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, watched);
    QStringList actual;
    for (const auto mounts = HostFilesystems::watchedMounts(parseMountInfo(content));
         const auto &w : mounts)
        actual << w.mountPoint + u'|' + w.source + u'|' + w.type;
    QCOMPARE(actual, watched);
}

void TestHostParsers::pidStat_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("comm"); // empty: refused
    QTest::addColumn<quint64>("cpuTicks");
    QTest::addColumn<quint64>("startTicks");
    QTest::addColumn<quint64>("rssPages");
    QTest::addColumn<bool>("kernelThread");
    QTest::addColumn<QString>("problem");
    // Captured: a copy of sleep named "a) b", and kthreadd.
    QTest::newRow("captured paren")
        << readFixture(u"host/captured/stat-paren"_s) << u"a) b"_s << quint64(0) << quint64(986257)
        << quint64(421) << false << QString();
    QTest::newRow("captured kthread")
        << readFixture(u"host/captured/stat-kthread"_s) << u"kthreadd"_s << quint64(0)
        << quint64(25) << quint64(0) << true << QString();
    QTest::newRow("known") << readFixture(u"host/procs/t1/proc/4242/stat"_s) << u"hr (burn)"_s
                           << quint64(6600) << quint64(90000) << quint64(1000) << false
                           << QString();
    QTest::newRow("no name") << QByteArray("12 S 1 2 3\n") << QString() << quint64(0) << quint64(0)
                             << quint64(0) << false << u"no command name in parentheses"_s;
    QTest::newRow("cut short") << QByteArray("12 (x) S 1 2 3 4 5 6 7\n") << QString() << quint64(0)
                               << quint64(0) << quint64(0) << false
                               << u"8 fields after the command name, expected at least 22"_s;
    QTest::newRow("negative") << QByteArray("12 (x) S 1 1 1 0 -1 0 0 0 0 0 -5 0 0 0 20 0 1 0 9 "
                                            "1 1 1\n")
                              << QString() << quint64(0) << quint64(0) << quint64(0) << false
                              << u"non-numeric field"_s;
}

void TestHostParsers::pidStat()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, comm);
    QFETCH(QString, problem);
    QString actualProblem;
    const auto stat = parsePidStat(content, &actualProblem);
    QCOMPARE(actualProblem, problem);
    QCOMPARE(stat.has_value(), !comm.isEmpty());
    if (!stat)
        return;
    QFETCH(quint64, cpuTicks);
    QFETCH(quint64, startTicks);
    QFETCH(quint64, rssPages);
    QFETCH(bool, kernelThread);
    QCOMPARE(stat->comm, comm);
    QCOMPARE(stat->cpuTicks(), cpuTicks);
    QCOMPARE(stat->startTicks, startTicks);
    QCOMPARE(stat->rssPages, rssPages);
    QCOMPARE(stat->kernelThread, kernelThread);
}

void TestHostParsers::pidStatus_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("uid"); // -1: refused
    QTest::addColumn<qint64>("rssBytes"); // -1: none
    QTest::newRow("captured") << readFixture(u"host/captured/status"_s) << qint64(0)
                              << qint64(1792 * 1024);
    QTest::newRow("kernel thread")
        << QByteArray("Name:\tkthreadd\nUid:\t0\t0\t0\t0\n") << qint64(0) << qint64(-1);
    QTest::newRow("other user") << QByteArray("Uid:\t112\t0\t0\t0\nVmRSS:\t  10 kB\n")
                                << qint64(112) << qint64(10240);
    QTest::newRow("no uid") << QByteArray("Name:\tx\nVmRSS:\t10 kB\n") << qint64(-1) << qint64(-1);
    QTest::newRow("bad uid") << QByteArray("Uid:\tabc\n") << qint64(-1) << qint64(-1);
}

void TestHostParsers::pidStatus()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, uid);
    QFETCH(qint64, rssBytes);
    const auto status = parsePidStatus(content);
    QCOMPARE(status.has_value(), uid >= 0);
    if (!status)
        return;
    QCOMPARE(qint64(status->uid), uid);
    QCOMPARE(status->rssBytes.has_value(), rssBytes >= 0);
    if (status->rssBytes)
        QCOMPARE(qint64(*status->rssBytes), rssBytes);
}

void TestHostParsers::pidIo_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("readBytes"); // -1: refused
    QTest::addColumn<qint64>("writeBytes");
    QTest::newRow("captured") << readFixture(u"host/captured/io"_s) << qint64(0) << qint64(0);
    QTest::newRow("known") << readFixture(u"host/procs/t1/proc/4300/io"_s)
                           << qint64(4096 + 2 * 1048576) << qint64(10 * 1048576);
    QTest::newRow("no storage lines")
        << QByteArray("rchar: 1\nwchar: 2\n") << qint64(-1) << qint64(-1);
    QTest::newRow("empty") << QByteArray() << qint64(-1) << qint64(-1);
}

void TestHostParsers::pidIo()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, readBytes);
    QFETCH(qint64, writeBytes);
    const auto io = parsePidIo(content);
    QCOMPARE(io.has_value(), readBytes >= 0);
    if (!io)
        return;
    QCOMPARE(qint64(io->readBytes), readBytes);
    QCOMPARE(qint64(io->writeBytes), writeBytes);
}

void TestHostParsers::cgroupUnit_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("unit");
    QTest::newRow("captured v1 root") << readFixture(u"host/captured/cgroup"_s) << QString();
    QTest::newRow("v2 service") << QByteArray(
        "0::/system.slice/system-postgresql.slice/postgresql@17-main.service\n")
                                << u"postgresql@17-main.service"_s;
    QTest::newRow("v2 user app") << QByteArray(
        "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-foo.scope\n")
                                 << u"app-foo.scope"_s;
    QTest::newRow("v1 systemd") << QByteArray(
        "4:memory:/x\n1:name=systemd:/system.slice/cron.service\n")
                                << u"cron.service"_s;
    QTest::newRow("plain cgroup") << QByteArray("0::/batch/job7\n") << u"job7"_s;
    QTest::newRow("garbage") << QByteArray("no colons here\n") << QString();
}

void TestHostParsers::cgroupUnit()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, unit);
    QCOMPARE(unitFromCgroup(content), unit);
}

void TestHostParsers::passwd()
{
    const auto users = parsePasswd(readFixture(u"host/procs/t0/etc/passwd"_s));
    QCOMPARE(users.value(0), u"root"_s);
    QCOMPARE(users.value(112), u"postgres"_s);
    QCOMPARE(users.value(1000), u"ops"_s);
    QCOMPARE(users.size(), 4); // the comment and the broken line are skipped
}

void TestHostParsers::fileNr_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("allocated"); // -1: refused
    QTest::addColumn<qint64>("maximum");
    QTest::addColumn<QStringList>("problems");
    QTest::newRow("real t0") << readFixture(u"host/t0/proc/sys/fs/file-nr"_s) << qint64(1698)
                             << qint64(2466239) << QStringList();
    QTest::newRow("unlimited") << QByteArray("1344\t0\t9223372036854775807\n") << qint64(1344)
                               << qint64(9223372036854775807LL) << QStringList();
    QTest::newRow("garbage") << readFixture(u"host/garbage/proc/sys/fs/file-nr"_s) << qint64(-1)
                             << qint64(-1)
                             << QStringList { u"line 1: expected 3 numbers, got 2 fields"_s };
    QTest::newRow("zero max") << QByteArray("1 0 0\n") << qint64(-1) << qint64(-1)
                              << QStringList { u"line 1: bad file handle counts"_s };
}

void TestHostParsers::fileNr()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, allocated);
    QFETCH(qint64, maximum);
    QFETCH(QStringList, problems);
    QStringList actualProblems;
    const auto nr = parseFileNr(content, &actualProblems);
    QCOMPARE(actualProblems, problems);
    QCOMPARE(nr.has_value(), allocated >= 0);
    if (!nr)
        return;
    QCOMPARE(qint64(nr->allocated), allocated);
    QCOMPARE(qint64(nr->maximum), maximum);
}

void TestHostParsers::fillForecast_data()
{
    // Used bytes per poll (1 s apart) of a 1000 MB filesystem; the growth and hours to
    // full after the last one (-1: none).
    QTest::addColumn<QList<double>>("usedMb");
    QTest::addColumn<double>("growthMbPerS");
    QTest::addColumn<double>("hoursToFull");
    QTest::newRow("too few polls") << QList<double> { 100, 110, 120 } << -1.0 << -1.0;
    QTest::newRow("steady growth")
        << QList<double> { 100, 110, 120, 130 } << 10.0 << 870.0 / 10 / 3600;
    QTest::newRow("flat") << QList<double> { 100, 100, 100, 100, 100 } << 0.0 << -1.0;
    // A file written and deleted again, and one burst: the median does not move.
    QTest::newRow("written and deleted")
        << QList<double> { 100, 100, 600, 600, 100, 100, 100, 100 } << 0.0 << -1.0;
    QTest::newRow("one burst") << QList<double> { 100, 100, 400, 400, 400, 400 } << 0.0 << -1.0;
    QTest::newRow("shrinking") << QList<double> { 500, 490, 480, 470 } << -10.0 << -1.0;
    // The window keeps the last 8 polls: an old fill is forgotten.
    QTest::newRow("fill stopped") << QList<double> { 100, 200, 300, 400, 400, 400,
                                                     400, 400, 400, 400, 400, 400 }
                                  << 0.0 << -1.0;
    QTest::newRow("full") << QList<double> { 1000, 1000, 1000, 1000 } << 0.0 << 0.0;
    // Growth so slow that it would take more than a year: no forecast.
    QTest::newRow("beyond a year")
        << QList<double> { 100, 100.00001, 100.00002, 100.00003 } << 0.00001 << -1.0;
}

void TestHostParsers::fillForecast()
{
    QFETCH(QList<double>, usedMb);
    QFETCH(double, growthMbPerS);
    QFETCH(double, hoursToFull);
    constexpr double Mb = 1e6;
    FillForecast forecast;
    FillForecast::Reading reading;
    qint64 ts = 1'700'000'000'000;
    for (const double used : std::as_const(usedMb)) {
        reading = forecast.update(u"/data"_s, ts, used * Mb, (1000 - used) * Mb, 1000 * Mb);
        ts += 1000;
    }
    QCOMPARE(reading.growthBytesPerSecond.has_value(), growthMbPerS != -1.0);
    if (reading.growthBytesPerSecond)
        QVERIFY2(qAbs(*reading.growthBytesPerSecond / Mb - growthMbPerS) < 1e-6,
                 qPrintable(QString::number(*reading.growthBytesPerSecond / Mb)));
    QCOMPARE(reading.hoursToFull.has_value(), hoursToFull >= 0);
    if (reading.hoursToFull)
        QVERIFY2(qAbs(*reading.hoursToFull - hoursToFull) < 1e-9,
                 qPrintable(QString::number(*reading.hoursToFull)));
}

QTEST_GUILESS_MAIN(TestHostParsers)
#include "tst_hostparsers.moc"
