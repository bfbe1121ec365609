// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// NicCollector over fixture trees polled in sequence with a fake clock: exact rates
// and utilization for hand-written numbers, speed overrides, loopback selection, a
// driver reload (counter reset), garbage files and a real capture. The qdisc series:
// tst_nicqdiscs.
#include "collectortestutil.h"
#include "niccollector.h"
#include "nictestutil.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QJsonObject KnownOptions { { u"speedMbps"_s, QJsonObject { { u"virt1"_s, 100 } } } };

struct Harness : FixtureHarness
{
    explicit Harness(const QString &root, const QJsonObject &options = KnownOptions)
        : FixtureHarness(
              root, [&options](std::unique_ptr<FileSource> source, const FakeClock &clock) {
                  CollectorConfig config;
                  config.sourceId = u"net"_s;
                  QString error;
                  const auto parsed = NicCollector::parseOptions(options, &error);
                  if (!parsed)
                      qFatal("bad options: %s", qPrintable(error));
                  return std::make_unique<NicCollector>(config, *parsed, std::move(source), clock);
              })
    {
    }
    // Polls known/t0 then known/t1 and returns the second result.
    PollResult knownInterval()
    {
        poll(u"nic/known/t0"_s, T0);
        return poll(u"nic/known/t1"_s, T0 + Interval);
    }
};

QSet<QString> interfaces(const SampleBatch &batch)
{
    QSet<QString> names;
    for (const SeriesValue &value : batch.values) {
        if (value.info.key.labels.contains(u"interface"_s))
            names.insert(value.info.key.labels.value(u"interface"_s));
    }
    return names;
}

QString assumedWarning(const QString &name, int mbps)
{
    return u"nic: %1: driver reports no link speed; assuming %2 Mbit/s"_s.arg(name).arg(mbps);
}

} // namespace

class TestNicCollector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void known_data();
    void known();
    void knownSeriesSet();
    void firstPollHasNoRates();
    void metadata_data();
    void metadata();
    void options_data();
    void options();
    void counterReset();
    void garbage();
    void realCapture();
    void idleTcpRatioIsZero();
    void create_data();
    void create();
    void listingCap();
};

void TestNicCollector::known_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("labels");
    QTest::addColumn<double>("expected");
    // eth0, 1000 Mbit/s: +50 MB received and +10 MB sent in 2 s.
    QTest::newRow("eth0 rx bytes") << u"nic.rx.bytes"_s << u"{interface=eth0}"_s << 25e6;
    QTest::newRow("eth0 tx bytes") << u"nic.tx.bytes"_s << u"{interface=eth0}"_s << 5e6;
    QTest::newRow("eth0 rx packets") << u"nic.rx.packets"_s << u"{interface=eth0}"_s << 10000.0;
    QTest::newRow("eth0 tx packets") << u"nic.tx.packets"_s << u"{interface=eth0}"_s << 4000.0;
    QTest::newRow("eth0 rx drops") << u"nic.rx.drops"_s << u"{interface=eth0}"_s << 10.0;
    QTest::newRow("eth0 tx drops") << u"nic.tx.drops"_s << u"{interface=eth0}"_s << 0.0;
    QTest::newRow("eth0 rx errors") << u"nic.rx.errors"_s << u"{interface=eth0}"_s << 2.0;
    QTest::newRow("eth0 tx errors") << u"nic.tx.errors"_s << u"{interface=eth0}"_s << 0.0;
    QTest::newRow("eth0 speed") << u"nic.speed"_s << u"{interface=eth0}"_s << 1000.0;
    QTest::newRow("eth0 rx util") << u"nic.utilization"_s << u"{direction=rx,interface=eth0}"_s
                                  << 20.0;
    QTest::newRow("eth0 tx util") << u"nic.utilization"_s << u"{direction=tx,interface=eth0}"_s
                                  << 4.0;
    // veth0 reports -1: throughput but no speed or utilization.
    QTest::newRow("veth0 rx bytes") << u"nic.rx.bytes"_s << u"{interface=veth0}"_s << 1000.0;
    QTest::newRow("veth0 tx packets") << u"nic.tx.packets"_s << u"{interface=veth0}"_s << 20.0;
    // virt1 has no speed file; the 100 Mbit/s override applies.
    QTest::newRow("virt1 speed") << u"nic.speed"_s << u"{interface=virt1}"_s << 100.0;
    QTest::newRow("virt1 rx util")
        << u"nic.utilization"_s << u"{direction=rx,interface=virt1}"_s << 10.0;
    QTest::newRow("virt1 tx util")
        << u"nic.utilization"_s << u"{direction=tx,interface=virt1}"_s << 1.0;
    QTest::newRow("virt1 rx drops") << u"nic.rx.drops"_s << u"{interface=virt1}"_s << 2.0;
    QTest::newRow("virt1 tx drops") << u"nic.tx.drops"_s << u"{interface=virt1}"_s << 1.0;
    // TCP: +50 retransmitted of +2000 sent segments.
    QTest::newRow("retransmits") << u"tcp.retransmits"_s << QString() << 25.0;
    QTest::newRow("retransmit ratio") << u"tcp.retransmit_ratio"_s << QString() << 2.5;
    // Listen queues: +20 overflows and +28 drops in 2 s; sockets by state as they are.
    QTest::newRow("listen overflows") << u"tcp.listen_overflows"_s << QString() << 10.0;
    QTest::newRow("listen drops") << u"tcp.listen_drops"_s << QString() << 14.0;
    QTest::newRow("established") << u"tcp.connections"_s << u"{state=established}"_s << 3.0;
    QTest::newRow("time_wait") << u"tcp.connections"_s << u"{state=time_wait}"_s << 7.0;
    QTest::newRow("orphan") << u"tcp.connections"_s << u"{state=orphan}"_s << 0.0;
    QTest::newRow("in use") << u"tcp.connections"_s << u"{state=in_use}"_s << 22.0;
}

void TestNicCollector::known()
{
    QFETCH(QString, metric);
    QFETCH(QString, labels);
    QFETCH(double, expected);
    Harness h(u"nic/known/t0"_s);
    const PollResult result = h.knownInterval();
    const auto value = find(result.batch, metric, Test::labels(labels));
    QVERIFY2(value, qPrintable(metric + labels + u" missing"_s));
    QVERIFY2(nearlyEqual(value->value, expected),
             qPrintable(u"%1 != expected %2"_s.arg(value->value).arg(expected)));
}

void TestNicCollector::knownSeriesSet()
{
    Harness h(u"nic/known/t0"_s);
    const PollResult result = h.knownInterval();
    QVERIFY(result.error.isEmpty());
    QCOMPARE(result.batch.source, u"net"_s);
    QCOMPARE(result.batch.tsMs, T0 + Interval);
    QCOMPARE(result.warnings, QStringList { speedWarning(u"veth0"_s) });
    // lo is left out by default.
    QCOMPARE(interfaces(result.batch), (QSet<QString> { u"eth0"_s, u"veth0"_s, u"virt1"_s }));
    QVERIFY(!find(result.batch, u"nic.speed"_s, { { u"interface"_s, u"veth0"_s } }));
    QCOMPARE(findAll(result.batch, u"nic.utilization"_s).size(), 4);
    // 8 counters each, speed and 2 utilizations for eth0 and virt1, 2 TCP retransmit
    // series, 2 listen queue rates and 4 socket states.
    QCOMPARE(result.batch.values.size(), 3 * 8 + 2 * 3 + 2 + 2 + 4);
}

void TestNicCollector::firstPollHasNoRates()
{
    Harness h(u"nic/known/t0"_s);
    const PollResult first = h.poll(u"nic/known/t0"_s, T0);
    QSet<QString> metrics;
    for (const SeriesValue &value : first.batch.values)
        metrics.insert(value.info.key.metric);
    QCOMPARE(metrics, (QSet<QString> { u"nic.speed"_s, u"tcp.connections"_s }));
    // eth0 (sysfs) and virt1 (override); the 4 socket states are gauges.
    QCOMPARE(first.batch.values.size(), 2 + 4);
}

void TestNicCollector::metadata_data()
{
    addMetadataColumns();
    const auto row = metadataRow;
    const QString eth0 = u"{interface=eth0}"_s;
    const QString nic = u"nic:eth0"_s;
    row(u"nic.rx.bytes"_s, eth0, u"B/s"_s, nic, UseKind::Throughput);
    row(u"nic.tx.bytes"_s, eth0, u"B/s"_s, nic, UseKind::Throughput);
    row(u"nic.rx.packets"_s, eth0, u"1/s"_s, nic, UseKind::Throughput);
    row(u"nic.tx.packets"_s, eth0, u"1/s"_s, nic, UseKind::Throughput);
    row(u"nic.speed"_s, eth0, u"Mbit/s"_s, nic, UseKind::Info);
    row(u"nic.utilization"_s, u"{direction=tx,interface=eth0}"_s, u"%"_s, nic,
        UseKind::Utilization);
    row(u"nic.rx.drops"_s, eth0, u"1/s"_s, nic, UseKind::Saturation);
    row(u"nic.tx.drops"_s, eth0, u"1/s"_s, nic, UseKind::Saturation);
    row(u"nic.rx.errors"_s, eth0, u"1/s"_s, nic, UseKind::Errors);
    row(u"nic.tx.errors"_s, eth0, u"1/s"_s, nic, UseKind::Errors);
    row(u"tcp.retransmits"_s, QString(), u"1/s"_s, u"tcp"_s, UseKind::Errors);
    row(u"tcp.retransmit_ratio"_s, QString(), u"%"_s, u"tcp"_s, UseKind::Errors);
    row(u"tcp.listen_overflows"_s, QString(), u"1/s"_s, u"tcp"_s, UseKind::Saturation);
    row(u"tcp.listen_drops"_s, QString(), u"1/s"_s, u"tcp"_s, UseKind::Errors);
    row(u"tcp.connections"_s, u"{state=time_wait}"_s, u"sockets"_s, u"tcp"_s, UseKind::Info);
}

void TestNicCollector::metadata()
{
    QFETCH(QString, metric);
    QFETCH(QString, labels);
    QFETCH(QString, unit);
    QFETCH(QString, resource);
    QFETCH(UseKind, kind);
    Harness h(u"nic/known/t0"_s);
    const auto value = find(h.knownInterval().batch, metric, Test::labels(labels));
    QVERIFY(value);
    QCOMPARE(value->info.key.source, u"net"_s);
    QCOMPARE(value->info.unit, unit);
    QCOMPARE(value->info.resource, resource);
    QCOMPARE(value->info.kind, kind);
}

void TestNicCollector::options_data()
{
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QStringList>("interfaces");
    QTest::addColumn<QStringList>("warnings");
    QTest::addColumn<QString>("checkLabels"); // one extra value to check
    QTest::addColumn<QString>("checkMetric");
    QTest::addColumn<double>("checkValue"); // -1: must be absent

    QTest::newRow("include loopback")
        << QJsonObject { { u"includeLoopback"_s, true },
                         { u"speedMbps"_s, QJsonObject { { u"virt1"_s, 100 } } } }
        << QStringList { u"eth0"_s, u"lo"_s, u"veth0"_s, u"virt1"_s }
        << QStringList { speedWarning(u"veth0"_s) } // none for lo: it has no link
        << u"{interface=lo}"_s << u"nic.rx.bytes"_s << 450000.0;
    QTest::newRow("explicit list")
        << QJsonObject { { u"interfaces"_s, QJsonArray { u"eth0"_s, u"nope"_s } } }
        << QStringList { u"eth0"_s } << QStringList { u"nic: nope: no such interface"_s }
        << u"{direction=rx,interface=eth0}"_s << u"nic.utilization"_s << 20.0;
    QTest::newRow("explicit loopback")
        << QJsonObject { { u"interfaces"_s, QJsonArray { u"lo"_s } } } << QStringList { u"lo"_s }
        << QStringList() << u"{interface=lo}"_s << u"nic.tx.packets"_s << 450.0;
    // The override is for drivers that report nothing; a real link speed wins.
    QTest::newRow("override ignored when sysfs knows")
        << QJsonObject { { u"interfaces"_s, QJsonArray { u"eth0"_s } },
                         { u"speedMbps"_s, QJsonObject { { u"eth0"_s, 10 } } } }
        << QStringList { u"eth0"_s } << QStringList() << u"{interface=eth0}"_s << u"nic.speed"_s
        << 1000.0;
    // veth0's -1 is replaced by the override: 1000 B/s * 8 / 10 Mbit/s.
    QTest::newRow("override for -1")
        << QJsonObject { { u"interfaces"_s, QJsonArray { u"veth0"_s } },
                         { u"speedMbps"_s, QJsonObject { { u"veth0"_s, 10 } } } }
        << QStringList { u"veth0"_s } << QStringList() << u"{direction=rx,interface=veth0}"_s
        << u"nic.utilization"_s << 0.08;
    // The dashboard's assumed speed covers every interface without one of its own.
    QTest::newRow("default speed")
        << QJsonObject { { u"defaultSpeedMbps"_s, u"10"_s } }
        << QStringList { u"eth0"_s, u"veth0"_s, u"virt1"_s }
        << QStringList { assumedWarning(u"veth0"_s, 10), assumedWarning(u"virt1"_s, 10) }
        << u"{direction=rx,interface=virt1}"_s << u"nic.utilization"_s
        << 100.0; // 1.25 MB/s on 10 Mbit/s
    QTest::newRow("per-interface speed beats the default")
        << QJsonObject { { u"defaultSpeedMbps"_s, 10 },
                         { u"speedMbps"_s, QJsonObject { { u"virt1"_s, 100 } } } }
        << QStringList { u"eth0"_s, u"veth0"_s, u"virt1"_s }
        << QStringList { assumedWarning(u"veth0"_s, 10) } << u"{interface=virt1}"_s
        << u"nic.speed"_s << 100.0;
    QTest::newRow("empty default is none")
        << QJsonObject { { u"defaultSpeedMbps"_s, u""_s } }
        << QStringList { u"eth0"_s, u"veth0"_s, u"virt1"_s }
        << QStringList { speedWarning(u"veth0"_s), speedWarning(u"virt1"_s) }
        << u"{direction=rx,interface=virt1}"_s << u"nic.utilization"_s << -1.0;
    QTest::newRow("no override") << QJsonObject()
                                 << QStringList { u"eth0"_s, u"veth0"_s, u"virt1"_s }
                                 << QStringList { speedWarning(u"veth0"_s),
                                                  speedWarning(u"virt1"_s) }
                                 << u"{direction=rx,interface=virt1}"_s << u"nic.utilization"_s
                                 << -1.0;
}

void TestNicCollector::options()
{
    QFETCH(QJsonObject, options);
    QFETCH(QStringList, interfaces);
    QFETCH(QStringList, warnings);
    QFETCH(QString, checkLabels);
    QFETCH(QString, checkMetric);
    QFETCH(double, checkValue);
    Harness h(u"nic/known/t0"_s, options);
    const PollResult result = h.knownInterval();
    QCOMPARE(result.warnings, warnings);
    QStringList actual = ::interfaces(result.batch).values();
    actual.sort();
    QCOMPARE(actual, interfaces);
    const auto value = find(result.batch, checkMetric, Test::labels(checkLabels));
    QCOMPARE(value.has_value(), checkValue >= 0);
    if (value)
        QVERIFY2(nearlyEqual(value->value, checkValue),
                 qPrintable(u"%1 != expected %2"_s.arg(value->value).arg(checkValue)));
}

void TestNicCollector::counterReset()
{
    Harness h(u"nic/known/t0"_s);
    h.poll(u"nic/known/t0"_s, T0);
    // eth0's driver was reloaded and the TCP counters restarted: their counters went
    // down, which must give a gap, never a negative or huge value.
    const PollResult result = h.poll(u"nic/reset/t1"_s, T0 + Interval);
    for (const SeriesValue &value : result.batch.values) {
        QVERIFY2(value.value >= 0 && value.value <= 1e9, qPrintable(value.info.key.toString()));
    }
    const Labels eth0 { { u"interface"_s, u"eth0"_s } };
    for (const QString &metric :
         { u"nic.rx.bytes"_s, u"nic.tx.bytes"_s, u"nic.rx.packets"_s, u"nic.tx.packets"_s,
           u"nic.rx.drops"_s, u"nic.rx.errors"_s, u"nic.tx.errors"_s, u"tcp.retransmits"_s,
           u"tcp.retransmit_ratio"_s, u"tcp.listen_overflows"_s, u"tcp.listen_drops"_s })
        QVERIFY2(!find(result.batch, metric, metric.startsWith("tcp"_L1) ? Labels() : eth0),
                 qPrintable(metric));
    QVERIFY(!find(result.batch, u"nic.utilization"_s,
                  { { u"interface"_s, u"eth0"_s }, { u"direction"_s, u"rx"_s } }));
    // tx_dropped stayed 0: an unchanged counter is a plain zero rate.
    QCOMPARE(find(result.batch, u"nic.tx.drops"_s, eth0)->value, 0.0);
    // Other interfaces are unaffected.
    QCOMPARE(find(result.batch, u"nic.rx.bytes"_s, { { u"interface"_s, u"veth0"_s } })->value,
             1000.0);
    // The reset values are the new baseline.
    const PollResult next = h.poll(u"nic/known/t1"_s, T0 + 2 * Interval);
    QCOMPARE(find(next.batch, u"nic.rx.bytes"_s, eth0)->value, (51000000.0 - 300) / 2);
    QCOMPARE(find(next.batch, u"tcp.retransmits"_s)->value, 75.0);
}

void TestNicCollector::garbage()
{
    Harness h(u"nic/garbage"_s);
    h.poll(u"nic/garbage"_s, T0);
    const PollResult result = h.poll(u"nic/garbage"_s, T0 + Interval);
    QVERIFY(result.error.isEmpty());
    const QStringList expected {
        u"/sys/class/net/eth0/statistics/rx_bytes: line 1: not a counter: \"garbage\""_s,
        u"/sys/class/net/eth0/statistics/tx_bytes: line 1: not a counter: \"\""_s,
        u"/sys/class/net/eth0/speed: line 1: not a number: \"fast\""_s,
        speedWarning(u"eth0"_s),
        u"/proc/net/netstat: line 2: 3 values for 8 columns of line 1"_s,
        u"/proc/net/sockstat: line 1: non-numeric value \"lots\""_s,
        u"/proc/net/snmp: line 2: 6 values for 12 columns of line 1"_s,
    };
    QCOMPARE(result.warnings, expected);
    const Labels eth0 { { u"interface"_s, u"eth0"_s } };
    QVERIFY(!find(result.batch, u"nic.rx.bytes"_s, eth0));
    QCOMPARE(find(result.batch, u"nic.rx.packets"_s, eth0)->value, 0.0);
    QCOMPARE(result.batch.values.size(), 6); // the six readable counters
}

void TestNicCollector::realCapture()
{
    // Captured on the build VM 1278 ms apart: virtio eth0 (speed -1), two ifb devices
    // without a speed file, lo.
    Harness h(u"nic/t0"_s, QJsonObject());
    QVERIFY(h.poll(u"nic/t0"_s, captureTime(u"nic/t0"_s)).error.isEmpty());
    const PollResult result = h.poll(u"nic/t1"_s, captureTime(u"nic/t1"_s));
    QCOMPARE(result.warnings,
             (QStringList { speedWarning(u"eth0"_s), speedWarning(u"ifb0"_s),
                            speedWarning(u"ifb1"_s) }));
    QCOMPARE(::interfaces(result.batch), (QSet<QString> { u"eth0"_s, u"ifb0"_s, u"ifb1"_s }));
    const Labels eth0 { { u"interface"_s, u"eth0"_s } };
    QVERIFY(nearlyEqual(find(result.batch, u"nic.rx.bytes"_s, eth0)->value, 595 / 1.278));
    QVERIFY(nearlyEqual(find(result.batch, u"nic.tx.bytes"_s, eth0)->value, 672 / 1.278));
    QVERIFY(nearlyEqual(find(result.batch, u"nic.rx.packets"_s, eth0)->value, 7 / 1.278));
    QVERIFY(nearlyEqual(find(result.batch, u"nic.tx.packets"_s, eth0)->value, 9 / 1.278));
    QCOMPARE(find(result.batch, u"tcp.retransmits"_s)->value, 0.0);
    QCOMPARE(find(result.batch, u"tcp.retransmit_ratio"_s)->value, 0.0); // 6 segments out
    QVERIFY(findAll(result.batch, u"nic.utilization"_s).isEmpty());
}

void TestNicCollector::idleTcpRatioIsZero()
{
    Harness h(u"nic/known/t0"_s);
    h.poll(u"nic/known/t0"_s, T0);
    const PollResult result = h.poll(u"nic/known/t0"_s, T0 + Interval); // no segment moved
    const auto ratio = find(result.batch, u"tcp.retransmit_ratio"_s);
    QVERIFY(ratio.has_value());
    QCOMPARE(ratio->value, 0.0);
    QCOMPARE(find(result.batch, u"tcp.retransmits"_s)->value, 0.0);
}

void TestNicCollector::create_data()
{
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("error"); // empty: valid
    QTest::newRow("default") << QJsonObject() << QString();
    QTest::newRow("full") << QJsonObject { { u"host"_s, u"local"_s },
                                           { u"interfaces"_s, QJsonArray { u"eth0"_s } },
                                           { u"speedMbps"_s, QJsonObject { { u"eth0"_s, 2500 } } },
                                           { u"includeLoopback"_s, false } }
                          << QString();
    addSshCreateRows();
    QTest::newRow("interfaces string") << QJsonObject { { u"interfaces"_s, u"eth0"_s } }
                                       << u"\"interfaces\" must be an array of interface names"_s;
    QTest::newRow("interfaces number") << QJsonObject { { u"interfaces"_s, QJsonArray { 1 } } }
                                       << u"\"interfaces\" must be an array of interface names"_s;
    QTest::newRow("interface path") << QJsonObject { { u"interfaces"_s, QJsonArray { u"../x"_s } } }
                                    << u"\"interfaces\" must be an array of interface names"_s;
    QTest::newRow("speed text") << QJsonObject { { u"speedMbps"_s,
                                                   QJsonObject { { u"eth0"_s, u"fast"_s } } } }
                                << u"\"speedMbps\": eth0: expected a positive number of Mbit/s"_s;
    QTest::newRow("speed negative")
        << QJsonObject { { u"speedMbps"_s, QJsonObject { { u"eth0"_s, -5 } } } }
        << u"\"speedMbps\": eth0: expected a positive number of Mbit/s"_s;
    QTest::newRow("speed array") << QJsonObject { { u"speedMbps"_s, QJsonArray { 1000 } } }
                                 << u"\"speedMbps\" must map interface names to Mbit/s"_s;
    QTest::newRow("default speed text")
        << QJsonObject { { u"defaultSpeedMbps"_s, u"fast"_s } }
        << u"\"defaultSpeedMbps\": expected a positive number of Mbit/s"_s;
    QTest::newRow("default speed zero")
        << QJsonObject { { u"defaultSpeedMbps"_s, 0 } }
        << u"\"defaultSpeedMbps\": expected a positive number of Mbit/s"_s;
    QTest::newRow("default speed from a variable")
        << QJsonObject { { u"defaultSpeedMbps"_s, u" 1000 "_s } } << QString();
    QTest::newRow("loopback text") << QJsonObject { { u"includeLoopback"_s, u"yes"_s } }
                                   << u"\"includeLoopback\" must be true or false"_s;
}

void TestNicCollector::create()
{
    verifyCreate<NicCollector>(u"n"_s);
}

// A host listing more interfaces than the cap: the first MaxEntries by name are read,
// the rest left out, and the status says so, naming the directory and the cap. (The
// listing itself, at and around the cap: tst_filesource.)
void TestNicCollector::listingCap()
{
    const int entries = DirectoryListing::MaxEntries + 1;
    // On tmpfs when there is one: 4097 directories on a busy disk take long.
    const QFileInfo shm(u"/dev/shm"_s);
    QTemporaryDir root((shm.isDir() && shm.isWritable() ? shm.filePath() : QDir::tempPath())
                       + u"/headroom-nic-XXXXXX"_s);
    QVERIFY(root.isValid());
    const QString net = root.path() + u"/sys/class/net/"_s;
    const auto write = [](const QString &path, const QByteArray &bytes) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    };
    QVERIFY(QDir().mkpath(root.path() + u"/proc/net"_s));
    write(root.path() + u"/proc/net/snmp"_s, readFixture(u"nic/known/t0/proc/net/snmp"_s));
    QVERIFY(QDir().mkpath(net));
    QDir netDir(net);
    for (int i = 0; i < entries; ++i)
        QVERIFY(netDir.mkdir(u"e%1"_s.arg(i, 5, 10, QChar(u'0'))));
    // The first and the last by name are real interfaces with a link speed.
    const QString first = u"e00000"_s;
    const QString last = u"e%1"_s.arg(entries - 1, 5, 10, QChar(u'0'));
    for (const QString &name : { first, last }) {
        write(net + name + u"/type"_s, "1\n");
        write(net + name + u"/speed"_s, "1000\n");
    }

    CollectorConfig config;
    config.sourceId = u"net"_s;
    NicCollector collector(config, NicOptions {}, std::make_unique<LocalFileSource>(root.path()));
    const PollResult result = collector.poll(QDeadlineTimer(60'000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const QString warning
        = u"nic: /sys/class/net: %1 entries, only the first %2 by name are read (listing cap %2)"_s
              .arg(entries)
              .arg(DirectoryListing::MaxEntries);
    QVERIFY2(result.warnings.contains(warning), qPrintable(result.warnings.join(u'\n')));
    QVERIFY(valueOf(result.batch, u"nic.speed"_s, { { u"interface"_s, first } }));
    QVERIFY(!valueOf(result.batch, u"nic.speed"_s, { { u"interface"_s, last } }));
}

QTEST_GUILESS_MAIN(TestNicCollector)
#include "tst_niccollector.moc"
