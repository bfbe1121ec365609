// The host parsers over captured (real) and hand-written fixtures, including truncated
// and non-numeric input: a bad line is skipped and reported, never trusted.
#include "collectortestutil.h"
#include "diskstatsparser.h"
#include "loadavgparser.h"
#include "meminfoparser.h"
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

QTEST_GUILESS_MAIN(TestHostParsers)
#include "tst_hostparsers.moc"
