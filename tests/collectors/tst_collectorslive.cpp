// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Polls this machine's real /proc and /sys twice, one second apart, and checks that
// what comes out is sane. Exact numbers are the fixture tests' job; this one catches a
// kernel format the fixtures do not cover.
#include "hostcollector.h"
#include "niccollector.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>
#include <QThread>
#include <cmath>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestCollectorsLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void host();
    void nic();

private:
    static void checkFinite(const SampleBatch &batch);
};

void TestCollectorsLive::checkFinite(const SampleBatch &batch)
{
    for (const SeriesValue &value : batch.values) {
        QVERIFY2(std::isfinite(value.value) && value.value >= 0,
                 qPrintable(value.info.key.toString() + u" = "_s + QString::number(value.value)));
        QCOMPARE(value.info.key.source, u"live"_s);
    }
}

void TestCollectorsLive::host()
{
    CollectorConfig config;
    config.sourceId = u"live"_s;
    QString error;
    const auto collector = HostCollector::create(config, &error);
    QVERIFY2(collector, qPrintable(error));
    const PollResult first = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    QThread::msleep(1000);
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const PollResult second = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    QVERIFY(std::abs(second.batch.tsMs - before) < 1000);
    checkFinite(second.batch);

    const bool psi = QFileInfo::exists(u"/proc/pressure/cpu"_s);
    // Other users' processes (or, in a container, the host's) may keep their io and open
    // files from us: one line says so, and is the only other warning there may be.
    QStringList warnings = second.warnings;
    warnings.removeIf([](const QString &w) {
        return w.startsWith("I/O and open files of "_L1) && w.endsWith("reads them)"_L1);
    });
    QCOMPARE(warnings,
             psi ? QStringList() : QStringList { u"PSI not available (/proc/pressure missing)"_s });

    QHash<QString, QList<SeriesValue>> byMetric;
    for (const SeriesValue &value : second.batch.values)
        byMetric[value.info.key.metric].append(value);

    const auto percent = [&](const QString &metric, int minimumCount) {
        const auto values = byMetric.value(metric);
        QVERIFY2(values.size() >= minimumCount, qPrintable(metric));
        for (const SeriesValue &value : values)
            QVERIFY2(value.value >= 0 && value.value <= 100, qPrintable(value.info.key.toString()));
    };
    QCOMPARE(byMetric.value(u"host.cpu.count"_s).size(), 1);
    const int cpus = int(byMetric.value(u"host.cpu.count"_s).constFirst().value);
    QVERIFY(cpus >= 1);
    percent(u"host.cpu.utilization"_s, cpus + 1); // {cpu=all} and one per CPU
    percent(u"host.cpu.mode"_s, 4); // iowait may be missing for one interval (it can go back)
    double modeSum = 0;
    for (const auto valueList = byMetric.value(u"host.cpu.mode"_s);
         const SeriesValue &value : valueList)
        modeSum += value.value;
    QVERIFY2(modeSum <= 100.0 + 1e-6 && modeSum > 50, qPrintable(QString::number(modeSum)));
    percent(u"host.mem.utilization"_s, 1);
    QVERIFY(byMetric.value(u"host.mem.total"_s).constFirst().value > 0);
    QVERIFY(byMetric.value(u"host.mem.available"_s).constFirst().value
            <= byMetric.value(u"host.mem.total"_s).constFirst().value);
    QCOMPARE(byMetric.value(u"host.load.1"_s).size(), 1);
    QCOMPARE(byMetric.value(u"host.cpu.runnable"_s).size(), 1);
    QVERIFY(byMetric.value(u"host.cpu.runnable"_s).constFirst().value >= 0); // the reader left out
    QCOMPARE(byMetric.value(u"host.mem.swap_in"_s).size(), 1);
    if (psi) {
        percent(u"host.cpu.psi"_s, 1);
        percent(u"host.mem.psi"_s, 2);
        percent(u"host.io.psi"_s, 2);
    }
    percent(u"host.disk.utilization"_s, 0);
    for (const auto allValues = byMetric.value(u"host.disk.utilization"_s);
         const SeriesValue &value : allValues) {
        const QString device = value.info.key.labels.value(u"device"_s);
        QVERIFY2(QFileInfo::exists(u"/sys/block/"_s + device), qPrintable(device));
        QVERIFY(!device.startsWith("loop"_L1) && !device.startsWith("ram"_L1)
                && !device.startsWith("zram"_L1));
    }
}

void TestCollectorsLive::nic()
{
    CollectorConfig config;
    config.sourceId = u"live"_s;
    QString error;
    const auto collector = NicCollector::create(config, &error);
    QVERIFY2(collector, qPrintable(error));
    QVERIFY(collector->poll(QDeadlineTimer(5000)).error.isEmpty());
    QThread::msleep(1000);
    const PollResult second = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    checkFinite(second.batch);

    const QStringList present
        = QDir(u"/sys/class/net"_s)
              .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System);
    QVERIFY(!present.isEmpty());
    QSet<QString> seen;
    for (const SeriesValue &value : second.batch.values) {
        if (value.info.key.metric.startsWith("nic."_L1))
            seen.insert(value.info.key.labels.value(u"interface"_s));
    }
    // Every interface but the loopback, each with its throughput.
    QSet<QString> expected(present.cbegin(), present.cend());
    expected.remove(u"lo"_s);
    QCOMPARE(seen, expected);
    for (const QString &name : std::as_const(expected)) {
        bool found = false;
        for (const SeriesValue &value : second.batch.values)
            found |= value.info.key.metric == "nic.rx.bytes"_L1
                && value.info.key.labels.value(u"interface"_s) == name;
        QVERIFY2(found, qPrintable(name));
    }
    // Each interface has either a utilization (speed known) or a warning saying why not.
    for (const QString &name : std::as_const(expected)) {
        bool utilization = false;
        for (const SeriesValue &value : second.batch.values)
            utilization |= value.info.key.metric == "nic.utilization"_L1
                && value.info.key.labels.value(u"interface"_s) == name;
        const bool warned = second.warnings.contains(
            u"nic: %1: link speed unknown; set speedMbps to get utilization"_s.arg(name));
        QVERIFY2(utilization != warned, qPrintable(name));
    }
    QVERIFY2(second.warnings.size() <= expected.size(), qPrintable(second.warnings.join(u'\n')));
    bool tcp = false;
    for (const SeriesValue &value : second.batch.values)
        tcp |= value.info.key.metric == "tcp.retransmits"_L1;
    QVERIFY(tcp);
}

QTEST_GUILESS_MAIN(TestCollectorsLive)
#include "tst_collectorslive.moc"
