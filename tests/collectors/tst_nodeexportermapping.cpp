// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// node_exporter's page under the local collectors' series names (nodeexportermapping.h):
// a captured node_exporter 1.9 page scraped twice with known counter increments gives
// the figures the host and nic collectors would compute from the same counters, and
// series that look the same as theirs (the metric catalogues, hostmetrics.h and
// nicmetrics.h): every name both publish has the same unit, USE kind and resource.
#include "collectortestutil.h"
#include "hostcollector.h"
#include "hostmetrics.h"
#include "niccollector.h"
#include "nicmetrics.h"
#include "nodeexportermapping.h"
#include "qdiscfixture.h"

#include <QSet>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

// The captured page and, captured later from the same node_exporter 1.9 in ./dev's root,
// its filesystem, file handle and TCP socket families.
QByteArray page()
{
    return readFixture(u"prometheus/node_exporter-1.9.txt"_s)
        + readFixture(u"prometheus/node_exporter-1.9-filesystems.txt"_s);
}

const QByteArray RootAvailable
    = R"(node_filesystem_avail_bytes{device="/dev/vda",device_error="",fstype="ext4",mountpoint="/"})";
const QByteArray RootFree
    = R"(node_filesystem_free_bytes{device="/dev/vda",device_error="",fstype="ext4",mountpoint="/"})";

// Adds delta to the sample line that starts with `prefix ` (its value).
void bump(QByteArray &text, const QByteArray &prefix, double delta)
{
    const qsizetype at = text.indexOf(QByteArray("\n" + prefix + " "));
    QVERIFY2(at >= 0, prefix.constData());
    const qsizetype start = at + 1 + prefix.size() + 1;
    const qsizetype end = text.indexOf('\n', start);
    const double value = text.mid(start, end - start).toDouble();
    text.replace(start, end - start, QByteArray::number(value + delta, 'g', 17));
}

SampleBatch scrape(NodeExporterMapping &mapping, const QByteArray &text, qint64 tsMs)
{
    SampleBatch batch;
    batch.source = u"web1"_s;
    batch.tsMs = tsMs;
    mapping.map(parseExposition(text, ExpositionFormat::Text004), &batch);
    return batch;
}

// What a series looks like, apart from its values: unit, USE kind, and the resource with
// the label it is formed from written as a pattern ("disk:<device>"), so that two
// machines with different devices compare equal. Independent of the catalogue, which is
// what is under test.
struct Identity
{
    QString unit;
    UseKind kind;
    QString resource;
    friend bool operator==(const Identity &, const Identity &) = default;
};

QString describe(const Identity &identity)
{
    return u"unit \"%1\", %2, resource %3"_s.arg(identity.unit, useKindName(identity.kind),
                                                 identity.resource);
}

Identity identityOf(const SeriesInfo &info)
{
    QString resource = info.resource;
    for (auto it = info.key.labels.cbegin(); it != info.key.labels.cend(); ++it) {
        if (resource.endsWith(u':' + it.value())) {
            resource.chop(it.value().size());
            resource += u'<' + it.key() + u'>';
            break;
        }
    }
    return { info.unit, info.kind, resource };
}

// metric name -> the identities its series have in `batch` (one, unless it is broken).
QHash<QString, QList<Identity>> identities(const SampleBatch &batch)
{
    QHash<QString, QList<Identity>> found;
    for (const SeriesValue &value : batch.values) {
        QList<Identity> &list = found[value.info.key.metric];
        const Identity identity = identityOf(value.info);
        if (!list.contains(identity))
            list.append(identity);
    }
    return found;
}

// Polls of the local host or nic collector over the hand-written fixture trees: the
// host's five, the last two seconds after the one before (rates), with a filesystem
// that grows by 10 MB a poll (its growth and time to full need 4 readings, the first
// poll reads the mount table).
SampleBatch localHost()
{
    FixtureHarness h(u"host/procs/t0"_s,
                     [](std::unique_ptr<FileSource> source, const FakeClock &clock) {
                         CollectorConfig config;
                         config.sourceId = u"h"_s;
                         return std::make_unique<HostCollector>(config, std::move(source), clock);
                     });
    constexpr quint64 Mb = 1'000'000;
    PollResult last;
    for (int i = 0; i < 5; ++i) {
        const quint64 free = (1000 - 10 * quint64(i)) * Mb;
        h.source().filesystems
            = { { u"/"_s, { 2000 * Mb, free, free, 1000, 900 } },
                { u"/dev/shm"_s, { 100 * Mb, 100 * Mb, 100 * Mb, 10, 9 } },
                { u"/media/usb stick"_s, { 100 * Mb, 100 * Mb, 100 * Mb, 10, 9 } },
                { u"/run/user/1000"_s, { 100 * Mb, 100 * Mb, 100 * Mb, 10, 9 } },
                { u"/var/lib/postgresql"_s, { 100 * Mb, 100 * Mb, 100 * Mb, 10, 9 } } };
        last = h.poll(i < 4 ? u"host/procs/t0"_s : u"host/procs/t1"_s, 1'000'000 + i * 2000);
    }
    return last.batch;
}

SampleBatch localNic()
{
    FixtureHarness h(
        u"nic/known/t0"_s, [](std::unique_ptr<FileSource> source, const FakeClock &clock) {
            CollectorConfig config;
            config.sourceId = u"n"_s;
            NicOptions options;
            options.defaultSpeedMbps = 1000;
            // The qdisc series come from netlink, which a fixture tree does not have: a
            // captured dump, its tbf root standing for eth0.
            const QString dump = u"netns/t1"_s;
            auto qdiscs = std::make_unique<CapturedQdiscSource>(
                qdiscDump(dump),
                QHash<int, QString> { { qdiscInterfaceIndex(dump, u"ta"_s), u"eth0"_s } });
            return std::make_unique<NicCollector>(config, options, std::move(source), clock,
                                                  std::move(qdiscs));
        });
    h.poll(u"nic/known/t0"_s, 1'000'000);
    return h.poll(u"nic/known/t1"_s, 1'002'000).batch;
}

// Four scrapes of the captured page, with swap added (that machine had none), every
// counter the mapping reads moved on, so that each rate is published, and the root
// filesystem filling (its growth and time to full need 4 readings).
SampleBatch exporter(NodeExporterMapping::Part part)
{
    QByteArray base = page();
    bump(base, "node_memory_SwapTotal_bytes", 1 << 30);
    bump(base, "node_memory_SwapFree_bytes", 1 << 29);
    NodeExporterMapping mapping(part, 1000);
    SampleBatch last;
    for (int i = 0; i < 4; ++i) {
        QByteArray text = base;
        bump(text, R"(node_cpu_seconds_total{cpu="0",mode="user"})", 1.5 * i);
        bump(text, R"(node_cpu_seconds_total{cpu="0",mode="idle"})", 0.5 * i);
        bump(text, "node_netstat_Tcp_RetransSegs", 3 * i);
        bump(text, "node_netstat_Tcp_OutSegs", 300 * i);
        bump(text, RootAvailable, -10e6 * i);
        bump(text, RootFree, -10e6 * i);
        last = scrape(mapping, text, 1'000'000 + i * 2000);
    }
    return last;
}

// "host" or "nic": the catalogue, and its two producers' second poll.
const QList<const MetricSpec *> &catalogue(const QString &part)
{
    return part == "host"_L1 ? HostMetrics::all() : NicMetrics::all();
}

SampleBatch local(const QString &part)
{
    return part == "host"_L1 ? localHost() : localNic();
}

SampleBatch remote(const QString &part)
{
    return exporter(part == "host"_L1 ? NodeExporterMapping::Part::Host
                                      : NodeExporterMapping::Part::Nic);
}

} // namespace

class TestNodeExporterMapping : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void host()
    {
        QByteArray before = page();
        QVERIFY(!before.isEmpty());
        QByteArray after = before;
        // Two seconds: CPU 0 busy 1.5 s of 2 (user), CPU 1 idle; the disk busy 0.5 s with
        // 1.5 s of weighted I/O; 4 MiB read; 10 pages swapped in; memory PSI 0.1 s.
        bump(after, R"(node_cpu_seconds_total{cpu="0",mode="user"})", 1.5);
        bump(after, R"(node_cpu_seconds_total{cpu="0",mode="idle"})", 0.5);
        bump(after, R"(node_cpu_seconds_total{cpu="1",mode="idle"})", 2.0);
        bump(after, R"(node_disk_io_time_seconds_total{device="vda"})", 0.5);
        bump(after, R"(node_disk_io_time_weighted_seconds_total{device="vda"})", 1.5);
        bump(after, R"(node_disk_read_bytes_total{device="vda"})", 4 << 20);
        bump(after, R"(node_pressure_memory_waiting_seconds_total)", 0.1);
        NodeExporterMapping mapping(NodeExporterMapping::Part::Host);
        const SampleBatch first = scrape(mapping, before, 1'000'000);
        QVERIFY(!valueOf(first, u"host.cpu.utilization"_s,
                         { { u"cpu"_s, u"all"_s } })); // rates need two
        QCOMPARE(valueOf(first, u"host.load.1"_s), 2.16);
        QCOMPARE(valueOf(first, u"host.cpu.count"_s), 2.0);
        QCOMPARE(valueOf(first, u"host.load.per_cpu"_s), 1.08);
        // MemTotal 25,276,063,744, MemAvailable 23,940,075,520.
        QVERIFY(qFuzzyCompare(*valueOf(first, u"host.mem.utilization"_s),
                              100.0 * (25276063744.0 - 23940075520.0) / 25276063744.0));
        QVERIFY(!valueOf(first, u"host.mem.swap_used"_s)); // no swap on that machine

        const SampleBatch second = scrape(mapping, after, 1'002'000);
        QCOMPARE(valueOf(second, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }),
                 37.5); // 1.5 of 4 s
        QCOMPARE(valueOf(second, u"host.cpu.utilization"_s, { { u"cpu"_s, u"cpu0"_s } }), 75.0);
        QCOMPARE(valueOf(second, u"host.cpu.utilization"_s, { { u"cpu"_s, u"cpu1"_s } }), 0.0);
        QCOMPARE(valueOf(second, u"host.cpu.mode"_s, { { u"mode"_s, u"user"_s } }), 37.5);
        const Labels vda { { u"device"_s, u"vda"_s } };
        QCOMPARE(valueOf(second, u"host.disk.utilization"_s, vda), 25.0);
        QCOMPARE(valueOf(second, u"host.disk.queue"_s, vda), 0.75);
        QCOMPARE(valueOf(second, u"host.disk.read_bytes"_s, vda), double(2 << 20));
        QVERIFY(
            qFuzzyCompare(*valueOf(second, u"host.mem.psi"_s, { { u"kind"_s, u"some"_s } }), 5.0));
        // The root filesystem as df shows it: 270.55 GB, 226.72 GB free, 58.92 GB of it
        // available to unprivileged writers; 16,777,216 inodes, 16,256,722 free.
        const Labels root { { u"mountpoint"_s, u"/"_s },
                            { u"device"_s, u"/dev/vda"_s },
                            { u"fstype"_s, u"ext4"_s } };
        const double used = 2.70553174016e+11 - 2.26724614144e+11;
        QVERIFY(qFuzzyCompare(*valueOf(second, u"host.fs.used"_s, root),
                              100.0 * used / (used + 5.891672064e+10)));
        QCOMPARE(valueOf(second, u"host.fs.free"_s, root), 5.891672064e+10);
        QVERIFY(qFuzzyCompare(*valueOf(second, u"host.fs.inodes_used"_s, root),
                              100.0 * (1.6777216e+07 - 1.6256722e+07) / 1.6777216e+07));
        QVERIFY(
            qFuzzyCompare(*valueOf(second, u"host.fd.utilization"_s), 100.0 * 1341 / 2.466239e+06));
        // Same identity as the local collector's: unit, resource, USE kind.
        for (const SeriesValue &v : second.values) {
            if (v.info.key.metric == "host.disk.utilization"_L1) {
                QCOMPARE(v.info.unit, u"%"_s);
                QCOMPARE(v.info.resource, u"disk:vda"_s);
                QCOMPARE(v.info.kind, UseKind::Utilization);
            }
        }
    }

    void nic()
    {
        QByteArray before = page();
        QByteArray after = before;
        // eth0 (driver speed unknown: -125000) received 25 MB in 2 s; 3 retransmits of
        // 300 segments sent.
        bump(after, R"(node_network_receive_bytes_total{device="eth0"})", 25e6);
        bump(after, R"(node_cpu_seconds_total{cpu="0",mode="user"})", 1.5);
        bump(after, R"(node_cpu_seconds_total{cpu="0",mode="idle"})", 0.5);
        bump(after, "node_netstat_Tcp_RetransSegs", 3);
        bump(after, "node_netstat_Tcp_OutSegs", 300);
        NodeExporterMapping mapping(NodeExporterMapping::Part::Nic, 1000); // assume 1 Gbit/s
        scrape(mapping, before, 1'000'000);
        const SampleBatch second = scrape(mapping, after, 1'002'000);
        const Labels eth0 { { u"interface"_s, u"eth0"_s } };
        QCOMPARE(valueOf(second, u"nic.rx.bytes"_s, eth0), 12.5e6);
        QCOMPARE(valueOf(second, u"nic.speed"_s, eth0), 1000.0);
        QCOMPARE(valueOf(second, u"nic.utilization"_s,
                         { { u"direction"_s, u"rx"_s }, { u"interface"_s, u"eth0"_s } }),
                 10.0);
        QCOMPARE(valueOf(second, u"tcp.retransmits"_s), 1.5);
        QCOMPARE(valueOf(second, u"tcp.retransmit_ratio"_s), 1.0);
        QVERIFY(!valueOf(second, u"nic.rx.bytes"_s,
                         { { u"interface"_s, u"lo"_s } })); // loopback left out
        QCOMPARE(valueOf(second, u"host.load.1"_s), std::nullopt); // the host part's, not the nic's
    }

    // Every producer's series are catalogue entries, with the entry's unit, kind and
    // resource.
    void producersFollowTheCatalogue_data()
    {
        QTest::addColumn<QString>("part");
        QTest::addColumn<bool>("viaExporter");
        QTest::newRow("local host") << u"host"_s << false;
        QTest::newRow("local nic") << u"nic"_s << false;
        QTest::newRow("node_exporter host") << u"host"_s << true;
        QTest::newRow("node_exporter nic") << u"nic"_s << true;
    }

    void producersFollowTheCatalogue()
    {
        QFETCH(QString, part);
        QFETCH(bool, viaExporter);
        const SampleBatch batch = viaExporter ? remote(part) : local(part);
        QVERIFY(!batch.values.isEmpty());
        QHash<QString, const MetricSpec *> byName;
        for (const MetricSpec *metric : catalogue(part))
            byName.insert(metric->name, metric);
        QCOMPARE(byName.size(), catalogue(part).size()); // no name twice
        for (const SeriesValue &value : std::as_const(batch.values)) {
            const MetricSpec *metric = byName.value(value.info.key.metric);
            QVERIFY2(metric, qPrintable(value.info.key.metric + u" is not in the catalogue"_s));
            QCOMPARE(value.info.unit, metric->unit);
            QCOMPARE(value.info.kind, metric->kind);
            QCOMPARE(value.info.resource, metric->resourceFor(value.info.key.labels));
        }
    }

    // The local collectors and node_exporter give every name they both publish the same
    // unit, USE kind and resource; node_exporter lacks only what it does not export.
    void sameSeriesAsLocalCollectors_data()
    {
        QTest::addColumn<QString>("part");
        QTest::addColumn<QStringList>("localOnly");
        // pgscan is not among node_exporter's default vmstat fields; it has no ioerr_cnt
        // and no per-process figures.
        QTest::newRow("host") << u"host"_s
                              << QStringList {
                                     u"host.disk.errors"_s,        u"host.mem.page_scan"_s,
                                     u"host.process.count"_s,      u"host.process.cpu"_s,
                                     u"host.process.open_files"_s, u"host.process.read_bytes"_s,
                                     u"host.process.rss"_s,        u"host.process.write_bytes"_s
                                 };
        // node_exporter's qdisc collector is off by default; the mapping reads none.
        QTest::newRow("nic") << u"nic"_s
                             << QStringList { u"nic.qdisc.backlog"_s, u"nic.qdisc.drops"_s,
                                              u"nic.qdisc.overlimits"_s, u"nic.qdisc.requeues"_s };
    }

    void sameSeriesAsLocalCollectors()
    {
        QFETCH(QString, part);
        QFETCH(QStringList, localOnly);
        const auto localIdentities = identities(local(part));
        const auto remoteIdentities = identities(remote(part));
        QStringList both;
        QStringList onlyLocal;
        for (const MetricSpec *metric : catalogue(part)) {
            const QString &name = metric->name;
            QVERIFY2(localIdentities.contains(name),
                     qPrintable(name + u": the fixtures do not exercise it locally"_s));
            if (!remoteIdentities.contains(name)) {
                onlyLocal << name;
                continue;
            }
            both << name;
            const QList<Identity> mine = localIdentities.value(name);
            const QList<Identity> theirs = remoteIdentities.value(name);
            QCOMPARE(mine.size(), 1);
            QCOMPARE(theirs.size(), 1);
            QVERIFY2(mine.first() == theirs.first(),
                     qPrintable(u"%1: local %2, node_exporter %3"_s.arg(
                         name, describe(mine.first()), describe(theirs.first()))));
        }
        onlyLocal.sort();
        QCOMPARE(onlyLocal.join(u", "_s), localOnly.join(u", "_s));
        QCOMPARE(both.size() + localOnly.size(), catalogue(part).size());
    }

    void counterResetIsAGap()
    {
        QByteArray before = page();
        QByteArray after = before;
        bump(after, R"(node_network_receive_bytes_total{device="eth0"})",
             -1000); // exporter restarted
        NodeExporterMapping mapping(NodeExporterMapping::Part::Nic);
        scrape(mapping, before, 1'000'000);
        QVERIFY(!valueOf(scrape(mapping, after, 1'002'000), u"nic.rx.bytes"_s,
                         { { u"interface"_s, u"eth0"_s } }));
    }
};

QTEST_GUILESS_MAIN(TestNodeExporterMapping)
#include "tst_nodeexportermapping.moc"
