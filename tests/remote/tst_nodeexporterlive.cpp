// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host and nic plugins reading a real prometheus-node-exporter on loopback (the
// "host": "http://..." path) against this machine's local collectors, polled side by
// side: the series node_exporter can give are the local ones, with the same figures
// within what two reads a few milliseconds apart can differ by.
#include "hostcollector.h"
#include "niccollector.h"
#include "nodeexportercollector.h"
#include "remotetestutil.h"

#include <QElapsedTimer>
#include <QSet>
#include <QTest>
#include <QThread>
#include <csignal>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestNodeExporterLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void hostMatchesLocal();
    void nicMatchesLocal();
    void exporterGoneAndBack();

private:
    SideBySide pollWithLocal(NodeExporterMapping::Part part, int polls);
    NodeExporter m_exporter;
};

void TestNodeExporterLive::initTestCase()
{
    QString error;
    QVERIFY2(m_exporter.start(&error), qPrintable(error));
}

SideBySide TestNodeExporterLive::pollWithLocal(NodeExporterMapping::Part part, int polls)
{
    CollectorConfig config;
    config.sourceId = u"live"_s;
    config.options = { { u"host"_s, m_exporter.url() } };
    QString error;
    const auto exporter = NodeExporterCollector::create(config, part, &error);
    if (!exporter)
        qFatal("%s", qPrintable(error));
    const auto local
        = createCollector(part == NodeExporterMapping::Part::Host ? u"host"_s : u"nic"_s, {});
    return pollSideBySide(*exporter, *local, polls);
}

void TestNodeExporterLive::hostMatchesLocal()
{
    const auto [e, l] = pollWithLocal(NodeExporterMapping::Part::Host, 3);
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    // Filesystems are compared apart (node_exporter reads the mount table of pid 1, the
    // local collector its own, which differ in ./dev's mount namespace); processes only
    // the local collector has (its status says so).
    QVERIFY(e.warnings.contains(NodeExporterMapping::processWarning()));
    const auto apart = [](QSet<QString> keys) {
        keys.removeIf([](const QString &key) {
            return key.startsWith("host.fs."_L1) || key.startsWith("host.process."_L1);
        });
        return keys;
    };
    const QSet<QString> exporterKeys = apart(seriesKeys(e));
    const QSet<QString> localKeys = apart(seriesKeys(l));
    qInfo("series: %d from node_exporter, %d local; only local: %s", int(exporterKeys.size()),
          int(localKeys.size()), qPrintable(sortedText(localKeys - exporterKeys)));
    // node_exporter adds its scrape's health; it has no "full" line for CPU pressure, and
    // its default vmstat fields leave out pgscan (docs/sources.md, "Remote hosts").
    QCOMPARE(sortedText(exporterKeys - localKeys), u"up{}"_s);
    const QSet<QString> notExported { u"host.cpu.psi{kind=full}"_s, u"host.mem.page_scan{}"_s };
    QVERIFY2((localKeys - exporterKeys - notExported).isEmpty(),
             qPrintable(sortedText(localKeys - exporterKeys - notExported)));
    QVERIFY(exporterKeys.size() > 20);

    QCOMPARE(seriesValue(e, u"host.cpu.count"_s), seriesValue(l, u"host.cpu.count"_s));
    QCOMPARE(seriesValue(e, u"host.mem.total"_s), seriesValue(l, u"host.mem.total"_s));
    qInfo("cpu all %.1f / %.1f %%, mem %.2f / %.2f %%, load1 %.2f / %.2f (node_exporter / local)",
          seriesValue(e, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }),
          seriesValue(l, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }),
          seriesValue(e, u"host.mem.utilization"_s), seriesValue(l, u"host.mem.utilization"_s),
          seriesValue(e, u"host.load.1"_s), seriesValue(l, u"host.load.1"_s));
    QVERIFY(std::abs(seriesValue(e, u"host.mem.utilization"_s)
                     - seriesValue(l, u"host.mem.utilization"_s))
            < 2.0);
    QVERIFY(std::abs(seriesValue(e, u"host.load.1"_s) - seriesValue(l, u"host.load.1"_s)) < 0.5);
    // Every percentage (CPU, per CPU and mode, disks, PSI) within 15 points: the two
    // read their counters a few milliseconds apart over 1 s intervals.
    int percentages = 0;
    for (const SeriesValue &value : e.batch.values) {
        if (value.info.unit != "%"_L1)
            continue;
        const double local = seriesValue(l, value.info.key.metric, value.info.key.labels);
        if (std::isnan(local))
            continue;
        ++percentages;
        QVERIFY2(std::abs(value.value - local) <= 15.0,
                 qPrintable(u"%1: node_exporter %2, local %3"_s.arg(value.info.key.toString())
                                .arg(value.value)
                                .arg(local)));
    }
    qInfo("%d percentages compared", percentages);
    QVERIFY(percentages >= 5);
}

void TestNodeExporterLive::nicMatchesLocal()
{
    const auto [e, l] = pollWithLocal(NodeExporterMapping::Part::Nic, 2);
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(sortedText(seriesKeys(e) - seriesKeys(l)), u"up{}"_s);
    QCOMPARE(sortedText(remotelyReadableKeys(l) - seriesKeys(e)), QString());
    QVERIFY(!seriesKeys(l).isEmpty());
    // Link speeds and utilizations agree (the same speed, assumed or reported).
    for (const SeriesValue &value : e.batch.values) {
        if (value.info.unit == "%"_L1) {
            const double local = seriesValue(l, value.info.key.metric, value.info.key.labels);
            QVERIFY2(std::abs(value.value - local) <= 5.0, qPrintable(value.info.key.toString()));
        }
    }
}

void TestNodeExporterLive::exporterGoneAndBack()
{
    CollectorConfig config;
    config.sourceId = u"live"_s;
    config.options = { { u"host"_s, m_exporter.url() } };
    QString error;
    const auto collector
        = NodeExporterCollector::create(config, NodeExporterMapping::Part::Host, &error);
    QVERIFY(collector->poll(QDeadlineTimer(2000)).error.isEmpty());
    // Frozen: connections are accepted (by the kernel) and never answered.
    m_exporter.signal(SIGSTOP);
    QElapsedTimer took;
    took.start();
    const PollResult frozen = collector->poll(QDeadlineTimer(1000));
    qInfo("exporter frozen: \"%s\" after %lld ms (deadline 1000 ms)", qPrintable(frozen.error),
          took.elapsed());
    QVERIFY(!frozen.error.isEmpty());
    QVERIFY(took.elapsed() <= 1300);
    m_exporter.signal(SIGCONT);
    QVERIFY(collector->poll(QDeadlineTimer(2000)).error.isEmpty());

    m_exporter.kill();
    took.start();
    const PollResult down = collector->poll(QDeadlineTimer(2000));
    qInfo("exporter killed: \"%s\" after %lld ms", qPrintable(down.error), took.elapsed());
    QVERIFY(!down.error.isEmpty());
    QVERIFY(took.elapsed() < 2000);
    QVERIFY(std::isnan(seriesValue(down, u"host.cpu.count"_s))); // a gap, nothing made up
    QVERIFY2(m_exporter.start(&error), qPrintable(error));
    const PollResult back = collector->poll(QDeadlineTimer(2000));
    QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
    QVERIFY(seriesValue(back, u"host.cpu.count"_s) >= 1);
}

QTEST_GUILESS_MAIN(TestNodeExporterLive)
#include "tst_nodeexporterlive.moc"
