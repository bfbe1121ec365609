// HostCollector over fixture trees polled in sequence with a fake clock, so that every
// rate is exact: hand-written numbers (known), a real capture, a reboot between polls
// (reset), a kernel without PSI, and garbage files.
#include "collectortestutil.h"
#include "hostcollector.h"

#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 T0 = 1'700'000'000'000;
constexpr qint64 Interval = 2000; // 2 s, so that a delta mistaken for a rate shows

struct Harness : FixtureHarness
{
    explicit Harness(const QString &root)
        : FixtureHarness(root, [](std::unique_ptr<FileSource> source, const FakeClock &clock) {
            CollectorConfig config;
            config.sourceId = u"myhost"_s;
            return std::make_unique<HostCollector>(config, std::move(source), clock);
        })
    {
    }
};

QSet<QString> metricNames(const SampleBatch &batch)
{
    QSet<QString> names;
    for (const SeriesValue &value : batch.values)
        names.insert(value.info.key.metric);
    return names;
}

const QSet<QString> Gauges {
    u"host.cpu.count"_s,     u"host.cpu.runnable"_s,    u"host.cpu.runqueue_per_cpu"_s,
    u"host.load.1"_s,        u"host.load.5"_s,          u"host.load.15"_s,
    u"host.load.per_cpu"_s,  u"host.mem.utilization"_s, u"host.mem.total"_s,
    u"host.mem.available"_s, u"host.mem.swap_used"_s,
};

} // namespace

class TestHostCollector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void known_data();
    void known();
    void knownSeriesSet();
    void metadata_data();
    void metadata();
    void realCapture_data();
    void realCapture();
    void counterReset();
    void noPressure();
    void garbage();
    void unreadableRoot();
    void create_data();
    void create();
};

void TestHostCollector::known_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("labels");
    QTest::addColumn<double>("expected");

    // /proc/stat deltas: all 2000 ticks of which idle+iowait 1400; cpu0 1000/550;
    // cpu1 1000/850. cpu0's guest column (part of user) must not be counted twice.
    QTest::newRow("cpu all") << u"host.cpu.utilization"_s << u"{cpu=all}"_s << 30.0;
    QTest::newRow("cpu0") << u"host.cpu.utilization"_s << u"{cpu=cpu0}"_s << 45.0;
    QTest::newRow("cpu1") << u"host.cpu.utilization"_s << u"{cpu=cpu1}"_s << 15.0;
    QTest::newRow("user") << u"host.cpu.mode"_s << u"{mode=user}"_s << 20.0;
    QTest::newRow("nice") << u"host.cpu.mode"_s << u"{mode=nice}"_s << 0.0;
    QTest::newRow("system") << u"host.cpu.mode"_s << u"{mode=system}"_s << 7.5;
    QTest::newRow("idle") << u"host.cpu.mode"_s << u"{mode=idle}"_s << 65.0;
    QTest::newRow("iowait") << u"host.cpu.mode"_s << u"{mode=iowait}"_s << 5.0;
    QTest::newRow("irq") << u"host.cpu.mode"_s << u"{mode=irq}"_s << 1.25;
    QTest::newRow("softirq") << u"host.cpu.mode"_s << u"{mode=softirq}"_s << 1.25;
    QTest::newRow("steal") << u"host.cpu.mode"_s << u"{mode=steal}"_s << 0.0;
    QTest::newRow("cpu count") << u"host.cpu.count"_s << QString() << 2.0;
    // procs_running 5, less the reader itself.
    QTest::newRow("runnable") << u"host.cpu.runnable"_s << QString() << 4.0;
    QTest::newRow("runqueue per cpu") << u"host.cpu.runqueue_per_cpu"_s << QString() << 2.0;
    QTest::newRow("load1") << u"host.load.1"_s << QString() << 1.5;
    QTest::newRow("load5") << u"host.load.5"_s << QString() << 1.0;
    QTest::newRow("load15") << u"host.load.15"_s << QString() << 0.5;
    QTest::newRow("load per cpu") << u"host.load.per_cpu"_s << QString() << 0.75;
    // PSI: stalled µs over 2 000 000 µs of wall time.
    QTest::newRow("cpu psi some") << u"host.cpu.psi"_s << u"{kind=some}"_s << 25.0;
    QTest::newRow("cpu psi full") << u"host.cpu.psi"_s << u"{kind=full}"_s << 0.0;
    QTest::newRow("mem psi some") << u"host.mem.psi"_s << u"{kind=some}"_s << 5.0;
    QTest::newRow("mem psi full") << u"host.mem.psi"_s << u"{kind=full}"_s << 2.0;
    QTest::newRow("io psi some") << u"host.io.psi"_s << u"{kind=some}"_s << 20.0;
    QTest::newRow("io psi full") << u"host.io.psi"_s << u"{kind=full}"_s << 10.0;
    QTest::newRow("mem utilization") << u"host.mem.utilization"_s << QString() << 75.0;
    QTest::newRow("mem total") << u"host.mem.total"_s << QString() << 8192000000.0;
    QTest::newRow("mem available") << u"host.mem.available"_s << QString() << 2048000000.0;
    QTest::newRow("swap used") << u"host.mem.swap_used"_s << QString() << 25.0;
    QTest::newRow("swap in") << u"host.mem.swap_in"_s << QString() << 100.0;
    QTest::newRow("swap out") << u"host.mem.swap_out"_s << QString() << 200.0;
    QTest::newRow("page scan") << u"host.mem.page_scan"_s << QString() << 500.0;
    QTest::newRow("oom kills") << u"host.mem.oom_kills"_s << QString() << 1.0;
    // sda: io_ticks +1000 ms, weighted +3000 ms, 400 reads / 40000 sectors,
    // 600 writes / 80000 sectors, ioerr_cnt 0x3 -> 0x7.
    QTest::newRow("sda utilization") << u"host.disk.utilization"_s << u"{device=sda}"_s << 50.0;
    QTest::newRow("sda queue") << u"host.disk.queue"_s << u"{device=sda}"_s << 1.5;
    QTest::newRow("sda read bytes") << u"host.disk.read_bytes"_s << u"{device=sda}"_s << 10240000.0;
    QTest::newRow("sda write bytes")
        << u"host.disk.write_bytes"_s << u"{device=sda}"_s << 20480000.0;
    QTest::newRow("sda reads") << u"host.disk.reads"_s << u"{device=sda}"_s << 200.0;
    QTest::newRow("sda writes") << u"host.disk.writes"_s << u"{device=sda}"_s << 300.0;
    QTest::newRow("sda errors") << u"host.disk.errors"_s << u"{device=sda}"_s << 2.0;
    // nvme0n1: io_ticks +4200 ms in 2000 ms (merged accounting) is clamped to 100 %.
    QTest::newRow("nvme utilization clamped")
        << u"host.disk.utilization"_s << u"{device=nvme0n1}"_s << 100.0;
    QTest::newRow("nvme queue") << u"host.disk.queue"_s << u"{device=nvme0n1}"_s << 0.1;
    QTest::newRow("nvme write bytes")
        << u"host.disk.write_bytes"_s << u"{device=nvme0n1}"_s << 204800.0;
    QTest::newRow("nvme reads") << u"host.disk.reads"_s << u"{device=nvme0n1}"_s << 0.0;
    QTest::newRow("nvme writes") << u"host.disk.writes"_s << u"{device=nvme0n1}"_s << 100.0;
}

void TestHostCollector::known()
{
    QFETCH(QString, metric);
    QFETCH(QString, labels);
    QFETCH(double, expected);
    Harness h(u"host/known/t0"_s);
    h.poll(u"host/known/t0"_s, T0);
    const PollResult result = h.poll(u"host/known/t1"_s, T0 + Interval);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings, QStringList());
    const auto value = find(result.batch, metric, Test::labels(labels));
    QVERIFY2(value, qPrintable(metric + labels + u" missing"_s));
    QVERIFY2(nearlyEqual(value->value, expected),
             qPrintable(u"%1 != expected %2"_s.arg(value->value).arg(expected)));
}

void TestHostCollector::knownSeriesSet()
{
    Harness h(u"host/known/t0"_s);
    const PollResult first = h.poll(u"host/known/t0"_s, T0);
    QCOMPARE(first.batch.source, u"myhost"_s);
    QCOMPARE(first.batch.tsMs, T0);
    // No rate without a previous value: the first poll carries gauges only.
    QCOMPARE(metricNames(first.batch), Gauges);
    QCOMPARE(first.batch.values.size(), Gauges.size());

    const PollResult second = h.poll(u"host/known/t1"_s, T0 + Interval);
    QCOMPARE(second.batch.tsMs, T0 + Interval);
    QSet<QString> keys;
    for (const SeriesValue &value : second.batch.values) {
        QCOMPARE(value.info.key.source, u"myhost"_s);
        QVERIFY2(!keys.contains(value.info.key.toString()), qPrintable(value.info.key.toString()));
        keys.insert(value.info.key.toString());
    }
    // 3 cpu utilizations, 8 modes, 3 cpu gauges, 4 loads, 6 PSI, 4 memory gauges,
    // 4 vmstat rates, 7 series for sda and 6 for nvme0n1 (no ioerr_cnt).
    QCOMPARE(second.batch.values.size(), 45);
    // loop0 and ram0 are virtual, sda1 a partition, sdb never did any I/O.
    QSet<QString> devices;
    for (const SeriesValue &value : second.batch.values) {
        if (value.info.key.metric.startsWith("host.disk."_L1))
            devices.insert(value.info.key.labels.value(u"device"_s));
    }
    QCOMPARE(devices, (QSet<QString> { u"sda"_s, u"nvme0n1"_s }));
}

void TestHostCollector::metadata_data()
{
    addMetadataColumns();
    const auto row = metadataRow;
    row(u"host.cpu.utilization"_s, u"{cpu=cpu1}"_s, u"%"_s, u"cpu"_s, UseKind::Utilization);
    row(u"host.cpu.mode"_s, u"{mode=steal}"_s, u"%"_s, u"cpu"_s, UseKind::Info);
    row(u"host.cpu.count"_s, QString(), QString(), u"cpu"_s, UseKind::Info);
    row(u"host.cpu.runnable"_s, QString(), u"tasks"_s, u"cpu"_s, UseKind::Saturation);
    row(u"host.cpu.runqueue_per_cpu"_s, QString(), QString(), u"cpu"_s, UseKind::Saturation);
    row(u"host.load.15"_s, QString(), u"tasks"_s, u"cpu"_s, UseKind::Saturation);
    row(u"host.load.per_cpu"_s, QString(), QString(), u"cpu"_s, UseKind::Saturation);
    row(u"host.cpu.psi"_s, u"{kind=some}"_s, u"%"_s, u"cpu"_s, UseKind::Saturation);
    row(u"host.mem.psi"_s, u"{kind=full}"_s, u"%"_s, u"memory"_s, UseKind::Saturation);
    row(u"host.io.psi"_s, u"{kind=some}"_s, u"%"_s, u"disk"_s, UseKind::Saturation);
    row(u"host.mem.utilization"_s, QString(), u"%"_s, u"memory"_s, UseKind::Utilization);
    row(u"host.mem.total"_s, QString(), u"B"_s, u"memory"_s, UseKind::Info);
    row(u"host.mem.available"_s, QString(), u"B"_s, u"memory"_s, UseKind::Info);
    row(u"host.mem.swap_used"_s, QString(), u"%"_s, u"memory"_s, UseKind::Saturation);
    row(u"host.mem.swap_in"_s, QString(), u"pages/s"_s, u"memory"_s, UseKind::Saturation);
    row(u"host.mem.swap_out"_s, QString(), u"pages/s"_s, u"memory"_s, UseKind::Saturation);
    row(u"host.mem.page_scan"_s, QString(), u"pages/s"_s, u"memory"_s, UseKind::Saturation);
    row(u"host.mem.oom_kills"_s, QString(), u"1/s"_s, u"memory"_s, UseKind::Errors);
    row(u"host.disk.utilization"_s, u"{device=sda}"_s, u"%"_s, u"disk:sda"_s, UseKind::Utilization);
    row(u"host.disk.queue"_s, u"{device=sda}"_s, QString(), u"disk:sda"_s, UseKind::Saturation);
    row(u"host.disk.read_bytes"_s, u"{device=sda}"_s, u"B/s"_s, u"disk:sda"_s, UseKind::Throughput);
    row(u"host.disk.write_bytes"_s, u"{device=sda}"_s, u"B/s"_s, u"disk:sda"_s,
        UseKind::Throughput);
    row(u"host.disk.reads"_s, u"{device=nvme0n1}"_s, u"1/s"_s, u"disk:nvme0n1"_s,
        UseKind::Throughput);
    row(u"host.disk.writes"_s, u"{device=sda}"_s, u"1/s"_s, u"disk:sda"_s, UseKind::Throughput);
    row(u"host.disk.errors"_s, u"{device=sda}"_s, u"1/s"_s, u"disk:sda"_s, UseKind::Errors);
}

void TestHostCollector::metadata()
{
    QFETCH(QString, metric);
    QFETCH(QString, labels);
    QFETCH(QString, unit);
    QFETCH(QString, resource);
    QFETCH(UseKind, kind);
    Harness h(u"host/known/t0"_s);
    h.poll(u"host/known/t0"_s, T0);
    const PollResult result = h.poll(u"host/known/t1"_s, T0 + Interval);
    const auto value = find(result.batch, metric, Test::labels(labels));
    QVERIFY(value);
    QCOMPARE(value->info.unit, unit);
    QCOMPARE(value->info.resource, resource);
    QCOMPARE(value->info.kind, kind);
    QCOMPARE(value->info.histogram, false);
}

void TestHostCollector::realCapture_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("labels");
    QTest::addColumn<double>("expected");
    // Captured on the build VM 1280 ms apart while it was busy (idle did not advance);
    // expected values worked out by hand from the two captures.
    QTest::newRow("cpu all") << u"host.cpu.utilization"_s << u"{cpu=all}"_s << 100.0;
    QTest::newRow("cpu1") << u"host.cpu.utilization"_s << u"{cpu=cpu1}"_s << 100.0;
    QTest::newRow("user") << u"host.cpu.mode"_s << u"{mode=user}"_s << 226.0 / 258 * 100;
    QTest::newRow("system") << u"host.cpu.mode"_s << u"{mode=system}"_s << 23.0 / 258 * 100;
    QTest::newRow("steal") << u"host.cpu.mode"_s << u"{mode=steal}"_s << 9.0 / 258 * 100;
    QTest::newRow("idle") << u"host.cpu.mode"_s << u"{mode=idle}"_s << 0.0;
    QTest::newRow("cpu psi some") << u"host.cpu.psi"_s << u"{kind=some}"_s
                                  << 644853.0 / 1280000 * 100;
    QTest::newRow("io psi some") << u"host.io.psi"_s << u"{kind=some}"_s << 80288.0 / 1280000 * 100;
    QTest::newRow("io psi full") << u"host.io.psi"_s << u"{kind=full}"_s << 610.0 / 1280000 * 100;
    QTest::newRow("mem psi some") << u"host.mem.psi"_s << u"{kind=some}"_s << 0.0;
    QTest::newRow("mem utilization")
        << u"host.mem.utilization"_s << QString() << (24683656.0 - 23912344.0) / 24683656.0 * 100;
    QTest::newRow("mem available") << u"host.mem.available"_s << QString() << 23912344.0 * 1024;
    QTest::newRow("load per cpu") << u"host.load.per_cpu"_s << QString() << 1.37 / 2;
    QTest::newRow("swap in") << u"host.mem.swap_in"_s << QString() << 0.0;
    // vda: +84 reads / +30688 sectors, +67 writes / +131640 sectors, io_ticks +156 ms,
    // weighted +185 ms.
    QTest::newRow("vda reads") << u"host.disk.reads"_s << u"{device=vda}"_s << 84 / 1.28;
    QTest::newRow("vda read bytes")
        << u"host.disk.read_bytes"_s << u"{device=vda}"_s << 30688 * 512 / 1.28;
    QTest::newRow("vda writes") << u"host.disk.writes"_s << u"{device=vda}"_s << 67 / 1.28;
    QTest::newRow("vda write bytes")
        << u"host.disk.write_bytes"_s << u"{device=vda}"_s << 131640 * 512 / 1.28;
    QTest::newRow("vda utilization")
        << u"host.disk.utilization"_s << u"{device=vda}"_s << 156 / 1280.0 * 100;
    QTest::newRow("vda queue") << u"host.disk.queue"_s << u"{device=vda}"_s << 185 / 1280.0;
}

void TestHostCollector::realCapture()
{
    QFETCH(QString, metric);
    QFETCH(QString, labels);
    QFETCH(double, expected);
    Harness h(u"host/t0"_s);
    QVERIFY(h.poll(u"host/t0"_s, captureTime(u"host/t0"_s)).error.isEmpty());
    const PollResult result = h.poll(u"host/t1"_s, captureTime(u"host/t1"_s));
    QCOMPARE(result.warnings, QStringList());
    const auto value = find(result.batch, metric, Test::labels(labels));
    QVERIFY2(value, qPrintable(metric + labels + u" missing"_s));
    QVERIFY2(nearlyEqual(value->value, expected),
             qPrintable(u"%1 != expected %2"_s.arg(value->value).arg(expected)));
    // loop*, zram0 are excluded; this machine has no swap, so no swap_used.
    for (const SeriesValue &v : result.batch.values)
        QCOMPARE(v.info.key.labels.value(u"device"_s, u"vda"_s), u"vda"_s);
    QVERIFY(!find(result.batch, u"host.mem.swap_used"_s));
}

void TestHostCollector::counterReset()
{
    Harness h(u"host/known/t0"_s);
    h.poll(u"host/known/t0"_s, T0);
    // Every counter went down (reboot): no rate at all for this interval, only gauges,
    // and nothing negative.
    const PollResult afterReset = h.poll(u"host/reset/t1"_s, T0 + Interval);
    QVERIFY(afterReset.error.isEmpty());
    QVERIFY(!afterReset.batch.values.isEmpty());
    for (const SeriesValue &value : afterReset.batch.values) {
        QVERIFY2(Gauges.contains(value.info.key.metric), qPrintable(value.info.key.toString()));
        QVERIFY2(value.value >= 0, qPrintable(value.info.key.toString()));
    }
    // The reset poll is the new baseline: the next interval has plain rates again.
    const PollResult next = h.poll(u"host/reset/t2"_s, T0 + 2 * Interval);
    const struct
    {
        QString metric;
        QString labels;
        double expected;
    } rows[] = {
        { u"host.cpu.utilization"_s, u"{cpu=all}"_s, 34.0 },
        { u"host.cpu.utilization"_s, u"{cpu=cpu0}"_s, 34.0 },
        { u"host.cpu.mode"_s, u"{mode=user}"_s, 20.0 },
        { u"host.cpu.psi"_s, u"{kind=some}"_s, 5.0 },
        { u"host.mem.swap_in"_s, QString(), 5.0 },
        { u"host.mem.page_scan"_s, QString(), 15.0 },
        { u"host.mem.oom_kills"_s, QString(), 0.0 },
        { u"host.disk.reads"_s, u"{device=sda}"_s, 100.0 },
        { u"host.disk.read_bytes"_s, u"{device=sda}"_s, 512000.0 },
        { u"host.disk.utilization"_s, u"{device=sda}"_s, 25.0 },
        { u"host.disk.queue"_s, u"{device=sda}"_s, 0.5 },
        { u"host.disk.errors"_s, u"{device=sda}"_s, 0.5 },
    };
    for (const auto &row : rows) {
        const auto value = find(next.batch, row.metric, Test::labels(row.labels));
        QVERIFY2(value, qPrintable(row.metric + row.labels));
        QVERIFY2(nearlyEqual(value->value, row.expected),
                 qPrintable(u"%1%2: %3 != %4"_s.arg(row.metric, row.labels)
                                .arg(value->value)
                                .arg(row.expected)));
    }
}

void TestHostCollector::noPressure()
{
    Harness h(u"host/nopsi/t0"_s);
    const PollResult first = h.poll(u"host/nopsi/t0"_s, T0);
    QCOMPARE(first.warnings, QStringList { u"PSI not available (/proc/pressure missing)"_s });
    const PollResult second = h.poll(u"host/nopsi/t1"_s, T0 + Interval);
    QVERIFY(second.error.isEmpty());
    QCOMPARE(second.warnings, QStringList { u"PSI not available (/proc/pressure missing)"_s });
    for (const SeriesValue &value : second.batch.values)
        QVERIFY2(!value.info.key.metric.endsWith(".psi"_L1), qPrintable(value.info.key.toString()));
    // Everything else is unaffected: same numbers as with PSI.
    QCOMPARE(find(second.batch, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } })->value,
             30.0);
    QCOMPARE(second.batch.values.size(), 45 - 6);
}

void TestHostCollector::garbage()
{
    Harness h(u"host/garbage"_s);
    h.poll(u"host/garbage"_s, T0);
    const PollResult result = h.poll(u"host/garbage"_s, T0 + Interval);
    QVERIFY(result.error.isEmpty());
    const QStringList expected {
        u"/proc/stat: line 2: cpu line has 3 fields, expected at least 4"_s,
        u"/proc/stat: line 3: non-numeric cpu field \"abc\""_s,
        u"/proc/stat: line 4: malformed procs_running line"_s,
        u"/proc/loadavg: line 1: expected 3 load averages, got 1 fields"_s,
        u"/proc/pressure/cpu: line 1: no numeric total="_s,
        u"/proc/pressure/memory: line 1: no numeric total="_s,
        u"/proc/pressure/memory: no \"some\" or \"full\" total"_s,
        u"/proc/pressure/io: no \"some\" or \"full\" total"_s,
        u"/proc/meminfo: line 1: non-numeric value \"lots\""_s,
        u"/proc/meminfo: line 2: expected \"Name: value [kB]\""_s,
        u"/proc/meminfo: no MemTotal"_s,
        u"/proc/vmstat: line 1: malformed pswpin line"_s,
        u"/proc/vmstat: line 3: malformed oom_kill line"_s,
        u"/proc/diskstats: line 2: 6 fields, expected at least 14"_s,
        u"/proc/diskstats: line 3: 3 fields, expected at least 14"_s,
        u"/sys/block/sda/device/ioerr_cnt: line 1: not a hexadecimal count"_s,
    };
    QCOMPARE(result.warnings, expected);
    // What could be parsed still comes through (the cpu "full" pressure, sda's
    // counters: unchanged, so zero rates); what could not is left out, not guessed.
    QVERIFY(!find(result.batch, u"host.cpu.count"_s));
    QVERIFY(!find(result.batch, u"host.mem.utilization"_s));
    QCOMPARE(find(result.batch, u"host.disk.reads"_s, { { u"device"_s, u"sda"_s } })->value, 0.0);
    QCOMPARE(find(result.batch, u"host.cpu.psi"_s, { { u"kind"_s, u"full"_s } })->value, 0.0);
    QVERIFY(!find(result.batch, u"host.cpu.psi"_s, { { u"kind"_s, u"some"_s } }));
}

void TestHostCollector::unreadableRoot()
{
    Harness h(u"host/does-not-exist"_s);
    const PollResult result = h.poll(u"host/does-not-exist"_s, T0);
    QVERIFY(result.error.startsWith("cannot read /proc on local:"_L1));
    QVERIFY(result.batch.values.isEmpty());
}

void TestHostCollector::create_data()
{
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("error"); // empty: valid
    QTest::newRow("default") << QJsonObject() << QString();
    QTest::newRow("local") << QJsonObject { { u"host"_s, u"local"_s } } << QString();
    QTest::newRow("empty host") << QJsonObject { { u"host"_s, u""_s } } << QString();
    addSshCreateRows();
    QTest::newRow("hostname") << QJsonObject { { u"host"_s, u"db1"_s } }
                              << u"\"host\": db1 is not a host this collector can read; use "
                                 "local, ssh://user@server[:port] or http://server:9100/metrics "
                                 "(node_exporter)"_s;
    QTest::newRow("number") << QJsonObject { { u"host"_s, 5 } } << u"\"host\" must be a string"_s;
}

void TestHostCollector::create()
{
    verifyCreate<HostCollector>(u"h"_s);
}

QTEST_GUILESS_MAIN(TestHostCollector)
#include "tst_hostcollector.moc"
