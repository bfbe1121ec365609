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
#include <signal.h>

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
    struct Polled
    {
        PollResult exporter;
        PollResult local;
    };
    Polled pollSideBySide(NodeExporterMapping::Part part, int polls);
    NodeExporter m_exporter;
};

namespace {

QSet<QString> keysOf(const PollResult &result)
{
    QSet<QString> keys;
    for (const SeriesValue &value : result.batch.values)
        keys.insert(value.info.key.metric + labelsToString(value.info.key.labels));
    return keys;
}

double valueOf(const PollResult &result, const QString &metric, const Labels &labels = {})
{
    for (const SeriesValue &value : result.batch.values) {
        if (value.info.key.metric == metric && value.info.key.labels == labels)
            return value.value;
    }
    return qQNaN();
}

QString sorted(const QSet<QString> &keys)
{
    QStringList list(keys.cbegin(), keys.cend());
    list.sort();
    return list.join(u' ');
}

} // namespace

void TestNodeExporterLive::initTestCase()
{
    QString error;
    QVERIFY2(m_exporter.start(&error), qPrintable(error));
}

TestNodeExporterLive::Polled TestNodeExporterLive::pollSideBySide(NodeExporterMapping::Part part,
                                                                  int polls)
{
    CollectorConfig config;
    config.sourceId = u"live"_s;
    config.options = { { u"host"_s, m_exporter.url() } };
    QString error;
    const auto exporter = NodeExporterCollector::create(config, part, &error);
    if (!exporter)
        qFatal("%s", qPrintable(error));
    config.options = {};
    std::unique_ptr<Collector> local;
    if (part == NodeExporterMapping::Part::Host)
        local = HostCollector::create(config, &error);
    else
        local = NicCollector::create(config, &error);
    Polled polled;
    for (int i = 0; i < polls; ++i) {
        if (i > 0)
            QThread::msleep(1000);
        polled.exporter = exporter->poll(QDeadlineTimer(5000));
        polled.local = local->poll(QDeadlineTimer(5000));
    }
    return polled;
}

void TestNodeExporterLive::hostMatchesLocal()
{
    const Polled polled = pollSideBySide(NodeExporterMapping::Part::Host, 3);
    const PollResult &e = polled.exporter;
    const PollResult &l = polled.local;
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    const QSet<QString> exporterKeys = keysOf(e);
    const QSet<QString> localKeys = keysOf(l);
    qInfo("series: %d from node_exporter, %d local; only local: %s", int(exporterKeys.size()),
          int(localKeys.size()), qPrintable(sorted(localKeys - exporterKeys)));
    // node_exporter adds its scrape's health; it has no "full" line for CPU pressure, and
    // its default vmstat fields leave out pgscan (README: node_exporter).
    QCOMPARE(sorted(exporterKeys - localKeys), u"up{}"_s);
    const QSet<QString> notExported { u"host.cpu.psi{kind=full}"_s, u"host.mem.page_scan{}"_s };
    QVERIFY2((localKeys - exporterKeys - notExported).isEmpty(),
             qPrintable(sorted(localKeys - exporterKeys - notExported)));
    QVERIFY(exporterKeys.size() > 20);

    QCOMPARE(valueOf(e, u"host.cpu.count"_s), valueOf(l, u"host.cpu.count"_s));
    QCOMPARE(valueOf(e, u"host.mem.total"_s), valueOf(l, u"host.mem.total"_s));
    qInfo("cpu all %.1f / %.1f %%, mem %.2f / %.2f %%, load1 %.2f / %.2f (node_exporter / local)",
          valueOf(e, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }),
          valueOf(l, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }),
          valueOf(e, u"host.mem.utilization"_s), valueOf(l, u"host.mem.utilization"_s),
          valueOf(e, u"host.load.1"_s), valueOf(l, u"host.load.1"_s));
    QVERIFY(std::abs(valueOf(e, u"host.mem.utilization"_s) - valueOf(l, u"host.mem.utilization"_s))
            < 2.0);
    QVERIFY(std::abs(valueOf(e, u"host.load.1"_s) - valueOf(l, u"host.load.1"_s)) < 0.5);
    // Every percentage (CPU, per CPU and mode, disks, PSI) within 15 points: the two
    // read their counters a few milliseconds apart over 1 s intervals.
    int percentages = 0;
    for (const SeriesValue &value : e.batch.values) {
        if (value.info.unit != "%"_L1)
            continue;
        const double local = valueOf(l, value.info.key.metric, value.info.key.labels);
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
    const Polled polled = pollSideBySide(NodeExporterMapping::Part::Nic, 2);
    const PollResult &e = polled.exporter;
    const PollResult &l = polled.local;
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(sorted(keysOf(e) - keysOf(l)), u"up{}"_s);
    QCOMPARE(sorted(keysOf(l) - keysOf(e)), QString());
    QVERIFY(!keysOf(l).isEmpty());
    // Link speeds and utilizations agree (the same speed, assumed or reported).
    for (const SeriesValue &value : e.batch.values) {
        if (value.info.unit == "%"_L1) {
            const double local = valueOf(l, value.info.key.metric, value.info.key.labels);
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
    QVERIFY(std::isnan(valueOf(down, u"host.cpu.count"_s))); // a gap, nothing made up
    QVERIFY2(m_exporter.start(&error), qPrintable(error));
    const PollResult back = collector->poll(QDeadlineTimer(2000));
    QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
    QVERIFY(valueOf(back, u"host.cpu.count"_s) >= 1);
}

QTEST_GUILESS_MAIN(TestNodeExporterLive)
#include "tst_nodeexporterlive.moc"
