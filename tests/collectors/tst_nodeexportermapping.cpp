// node_exporter's page under the local collectors' series names (nodeexportermapping.h):
// a captured node_exporter 1.9 page scraped twice with known counter increments gives
// the figures the host and nic collectors would compute from the same counters.
#include "collectortestutil.h"
#include "nodeexportermapping.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

QByteArray page()
{
    return readFixture(u"prometheus/node_exporter-1.9.txt"_s);
}

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
