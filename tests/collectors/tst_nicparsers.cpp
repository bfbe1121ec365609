// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The nic parsers over captured and hand-written sysfs values and /proc/net/snmp.
#include "collectortestutil.h"
#include "netsnmpparser.h"
#include "sockstatparser.h"
#include "sysfsvalueparser.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

using ColumnValues = QHash<QString, qint64>;

class TestNicParsers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sysfsInteger_data();
    void sysfsInteger();
    void linkSpeed_data();
    void linkSpeed();
    void netSnmp_data();
    void netSnmp();
    void netstatListen();
    void sockStat_data();
    void sockStat();
};

void TestNicParsers::sysfsInteger_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("real rx_bytes")
        << readFixture(u"nic/t0/sys/class/net/eth0/statistics/rx_bytes"_s) << true
        << qint64(316910921);
    QTest::newRow("real speed -1")
        << readFixture(u"nic/t0/sys/class/net/eth0/speed"_s) << true << qint64(-1);
    QTest::newRow("real lo type") << readFixture(u"nic/t0/sys/class/net/lo/type"_s) << true
                                  << qint64(772);
    QTest::newRow("64-bit") << "18446744073709551\n"_ba << true << qint64(18446744073709551);
    QTest::newRow("no newline") << "42"_ba << true << qint64(42);
    QTest::newRow("garbage") << readFixture(u"nic/garbage/sys/class/net/eth0/statistics/rx_bytes"_s)
                             << false << qint64(0);
    QTest::newRow("empty") << readFixture(u"nic/garbage/sys/class/net/eth0/statistics/tx_bytes"_s)
                           << false << qint64(0);
    QTest::newRow("two numbers") << "12 34\n"_ba << false << qint64(0);
    QTest::newRow("plus sign") << "+5\n"_ba << false << qint64(0);
}

void TestNicParsers::sysfsInteger()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, valid);
    QFETCH(qint64, expected);
    const auto value = parseSysfsInteger(content);
    QCOMPARE(value.has_value(), valid);
    if (value)
        QCOMPARE(*value, expected);
}

void TestNicParsers::linkSpeed_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<double>("expected"); // -1: unknown
    QTest::newRow("known 1G") << readFixture(u"nic/known/t0/sys/class/net/eth0/speed"_s) << 1000.0;
    QTest::newRow("100G") << "100000\n"_ba << 100000.0;
    // virtio on this machine reports -1 (SPEED_UNKNOWN).
    QTest::newRow("real virtio") << readFixture(u"nic/t0/sys/class/net/eth0/speed"_s) << -1.0;
    QTest::newRow("zero") << "0\n"_ba << -1.0;
    QTest::newRow("old unknown 65535") << "65535\n"_ba << -1.0;
    QTest::newRow("garbage") << readFixture(u"nic/garbage/sys/class/net/eth0/speed"_s) << -1.0;
    QTest::newRow("empty") << QByteArray() << -1.0;
}

void TestNicParsers::linkSpeed()
{
    QFETCH(QByteArray, content);
    QFETCH(double, expected);
    const auto speed = parseLinkSpeedMbps(content);
    QCOMPARE(speed.has_value(), expected > 0);
    if (speed)
        QCOMPARE(*speed, expected);
}

void TestNicParsers::netSnmp_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QByteArray>("protocol");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<ColumnValues>("expected"); // a subset of the columns
    QTest::addColumn<int>("columns"); // how many were parsed
    QTest::addColumn<QStringList>("problems");
    using Map = ColumnValues;
    QTest::newRow("real t0") << readFixture(u"nic/t0/proc/net/snmp"_s) << "Tcp"_ba << true
                             << Map { { u"RetransSegs"_s, 0 },
                                      { u"OutSegs"_s, 4078 },
                                      { u"MaxConn"_s, -1 },
                                      { u"InCsumErrors"_s, 0 } }
                             << 15 << QStringList();
    QTest::newRow("known t1") << readFixture(u"nic/known/t1/proc/net/snmp"_s) << "Tcp"_ba << true
                              << Map { { u"RetransSegs"_s, 150 }, { u"OutSegs"_s, 12000 } } << 15
                              << QStringList();
    QTest::newRow("real udp") << readFixture(u"nic/t0/proc/net/snmp"_s) << "Udp"_ba << true
                              << Map { { u"InDatagrams"_s, 194 }, { u"OutDatagrams"_s, 195 } } << 9
                              << QStringList();
    QTest::newRow("UdpLite is not Udp")
        << "UdpLite: InDatagrams\nUdpLite: 7\nUdp: InDatagrams\nUdp: 5\n"_ba << "Udp"_ba << true
        << Map { { u"InDatagrams"_s, 5 } } << 1 << QStringList();
    QTest::newRow("truncated values")
        << readFixture(u"nic/garbage/proc/net/snmp"_s) << "Tcp"_ba << false << Map() << 0
        << QStringList { u"line 2: 6 values for 12 columns of line 1"_s };
    QTest::newRow("header only") << "Tcp: RtoAlgorithm RetransSegs\n"_ba << "Tcp"_ba << false
                                 << Map() << 0
                                 << QStringList { u"line 1: Tcp header without a value line"_s };
    QTest::newRow("no tcp") << "Ip: Forwarding\nIp: 1\n"_ba << "Tcp"_ba << false << Map() << 0
                            << QStringList { u"no Tcp lines"_s };
    QTest::newRow("non-numeric column")
        << "Tcp: OutSegs RetransSegs\nTcp: 12 many\n"_ba << "Tcp"_ba << true
        << Map { { u"OutSegs"_s, 12 } } << 1
        << QStringList { u"line 2: non-numeric RetransSegs \"many\""_s };
    QTest::newRow("empty") << QByteArray() << "Tcp"_ba << false << Map() << 0
                           << QStringList { u"no Tcp lines"_s };
}

void TestNicParsers::netSnmp()
{
    QFETCH(QByteArray, content);
    QFETCH(QByteArray, protocol);
    QFETCH(bool, valid);
    QFETCH(QStringList, problems);
    QStringList actualProblems;
    const auto table = parseNetSnmp(content, protocol, &actualProblems);
    QCOMPARE(actualProblems, problems);
    QCOMPARE(table.has_value(), valid);
    if (!table)
        return;
    QFETCH(ColumnValues, expected);
    QFETCH(int, columns);
    QCOMPARE(table->size(), columns);
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        QVERIFY2(table->contains(it.key()), qPrintable(it.key()));
        QCOMPARE(table->value(it.key()), it.value());
    }
}

// /proc/net/netstat has /proc/net/snmp's layout: TcpExt's listen queue counters by name.
void TestNicParsers::netstatListen()
{
    QStringList problems;
    const auto ext = parseNetSnmp(readFixture(u"nic/t0/proc/net/netstat"_s), "TcpExt", &problems);
    QVERIFY(ext);
    QCOMPARE(problems, QStringList());
    QVERIFY(ext->contains(u"ListenOverflows"_s));
    QVERIFY(ext->contains(u"ListenDrops"_s));
    const auto known = parseNetSnmp(readFixture(u"nic/known/t1/proc/net/netstat"_s), "TcpExt");
    QCOMPARE(known->value(u"ListenOverflows"_s), 30);
    QCOMPARE(known->value(u"ListenDrops"_s), 40);
}

void TestNicParsers::sockStat_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("inUse"); // -1: refused
    QTest::addColumn<qint64>("orphan");
    QTest::addColumn<qint64>("timeWait");
    QTest::addColumn<QStringList>("problems");
    QTest::newRow("captured") << readFixture(u"nic/t0/proc/net/sockstat"_s) << qint64(1)
                              << qint64(0) << qint64(0) << QStringList();
    QTest::newRow("known") << readFixture(u"nic/known/t1/proc/net/sockstat"_s) << qint64(22)
                           << qint64(0) << qint64(7) << QStringList();
    // Names are matched: a field the kernel adds later changes nothing.
    QTest::newRow("more fields") << QByteArray("TCP: inuse 5 orphan 1 tw 2 alloc 6 mem 1 new 9\n")
                                 << qint64(5) << qint64(1) << qint64(2) << QStringList();
    QTest::newRow("garbage") << readFixture(u"nic/garbage/proc/net/sockstat"_s) << qint64(-1)
                             << qint64(0) << qint64(0)
                             << QStringList { u"line 1: non-numeric value \"lots\""_s };
    QTest::newRow("odd") << QByteArray("TCP: inuse 5 orphan\n") << qint64(-1) << qint64(0)
                         << qint64(0)
                         << QStringList {
                                u"line 1: TCP line has an odd number of names and values"_s
                            };
    QTest::newRow("no TCP") << QByteArray("UDP: inuse 3 mem 2\n") << qint64(-1) << qint64(0)
                            << qint64(0) << QStringList { u"no TCP line"_s };
}

void TestNicParsers::sockStat()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, inUse);
    QFETCH(qint64, orphan);
    QFETCH(qint64, timeWait);
    QFETCH(QStringList, problems);
    QStringList actual;
    const auto stat = parseTcpSockStat(content, &actual);
    QCOMPARE(actual, problems);
    QCOMPARE(stat.has_value(), inUse >= 0);
    if (!stat)
        return;
    QCOMPARE(qint64(stat->inUse), inUse);
    QCOMPARE(qint64(stat->orphan), orphan);
    QCOMPARE(qint64(stat->timeWait), timeWait);
}

QTEST_GUILESS_MAIN(TestNicParsers)
#include "tst_nicparsers.moc"
