// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The prometheus collector against a real HTTP server on loopback (a QTcpServer on its
// own thread, answering as told): a captured node_exporter 1.9 page, OpenMetrics
// histograms into histogram series, counters into rates, garbage lines counted in the
// status, declared shard sets, and dead servers: refused, silent, HTTP errors, each a
// bounded poll with up = 0, then recovery.
#include "collectortestutil.h"
#include "loopbackhttpserver.h"
#include "nodeexportercollector.h"
#include "prometheuscollector.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<PrometheusCollector> collectorFor(quint16 port, QJsonObject options = {},
                                                  PrometheusCollector::Clock clock = {})
{
    CollectorConfig config;
    config.sourceId = u"web1"_s;
    if (!options.contains(u"url"_s))
        options.insert(u"url"_s, u"http://127.0.0.1:%1/metrics"_s.arg(port));
    config.options = options;
    QString error;
    auto collector = PrometheusCollector::create(config, &error, std::move(clock));
    if (!collector)
        qWarning("%s", qPrintable(error));
    return collector;
}

} // namespace

class TestPrometheusCollector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void nodeExporterPage()
    {
        LoopbackHttpServer server;
        QByteArray page = readFixture(u"prometheus/node_exporter-1.9.txt"_s);
        QVERIFY(page.contains("node_context_switches_total 6.6452717e+07\n"));
        server.setReply({ 200, "text/plain; version=0.0.4; charset=utf-8; escaping=underscores",
                          page, true, false });
        auto collector = collectorFor(server.port());
        QVERIFY(collector);
        const PollResult first = collector->poll(QDeadlineTimer(3000));
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(first.warnings, QStringList());
        QCOMPARE(valueOf(first.batch, u"up"_s), 1.0);
        QCOMPARE(valueOf(first.batch, u"node_load1"_s), 2.16);
        const auto load = std::find_if(
            first.batch.values.cbegin(), first.batch.values.cend(), [](const SeriesValue &v) {
                return v.info.key.metric == "node_memory_MemTotal_bytes"_L1;
            });
        QVERIFY(load != first.batch.values.cend());
        QCOMPARE(load->info.unit, u"B"_s);
        QVERIFY(!valueOf(first.batch, u"node_context_switches_total:rate"_s)); // needs two scrapes
        // A second scrape 1000 context switches later: a rate.
        QTest::qWait(200);
        page.replace("node_context_switches_total 6.6452717e+07\n",
                     "node_context_switches_total 6.6453717e+07\n");
        server.setReply(
            { 200, "text/plain; version=0.0.4", page, false, false }); // length-delimited this time
        const PollResult second = collector->poll(QDeadlineTimer(3000));
        QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
        const double seconds = double(second.batch.tsMs - first.batch.tsMs) / 1000.0;
        const auto rate = valueOf(second.batch, u"node_context_switches_total:rate"_s);
        QVERIFY(rate);
        QVERIFY2(std::abs(*rate - 1000.0 / seconds) < 1e-6 * *rate,
                 qPrintable(QString::number(*rate)));
        QCOMPARE(valueOf(second.batch, u"node_cpu_seconds_total:rate"_s,
                         { { u"cpu"_s, u"0"_s }, { u"mode"_s, u"idle"_s } }),
                 0.0);
    }

    void openMetricsHistogramAndShards()
    {
        LoopbackHttpServer server;
        const auto page = [](int fast, int slow, double load) -> QByteArray {
            return QByteArray("# TYPE rpc_seconds histogram\n"
                              "rpc_seconds_bucket{le=\"0.002\"} ")
                + QByteArray::number(fast) + "\nrpc_seconds_bucket{le=\"0.128\"} "
                + QByteArray::number(fast + slow) + "\nrpc_seconds_bucket{le=\"+Inf\"} "
                + QByteArray::number(fast + slow) + "\nrpc_seconds_sum 1\nrpc_seconds_count "
                + QByteArray::number(fast + slow)
                + "\n# TYPE tablet_load gauge\ntablet_load{tablet=\"t1\"} "
                + QByteArray::number(load) + "\ntablet_load{tablet=\"t2\"} 5\n# EOF\n";
        };
        server.setReply({ 200, "application/openmetrics-text; version=1.0.0; charset=utf-8",
                          page(100, 0, 20), true, false });
        auto collector
            = collectorFor(server.port(),
                           { { u"shardSets"_s,
                               QJsonArray { QJsonObject { { u"name"_s, u"ydb"_s },
                                                          { u"metric"_s, u"tablet_load"_s },
                                                          { u"shardLabel"_s, u"tablet"_s } } } } });
        QVERIFY(collector);
        const PollResult first = collector->poll(QDeadlineTimer(3000));
        QVERIFY2(first.error.isEmpty() && first.warnings.isEmpty(),
                 qPrintable(first.error + first.warnings.join(u' ')));
        QCOMPARE(first.batch.histograms.size(), 0); // increments need two scrapes
        QCOMPARE(valueOf(first.batch, u"shard.load"_s,
                         { { u"set"_s, u"ydb"_s }, { u"shard"_s, u"t1"_s } }),
                 20.0);
        server.setReply(
            { 200, "application/openmetrics-text; version=1.0.0", page(190, 10, 73), true, false });
        const PollResult second = collector->poll(QDeadlineTimer(3000));
        QCOMPARE(second.batch.histograms.size(), 1);
        const SeriesHistogram &h = second.batch.histograms.first();
        QCOMPARE(h.info.key.metric, u"rpc_seconds"_s);
        QCOMPARE(h.info.unit, u"ms"_s);
        QVERIFY(h.info.histogram);
        QCOMPARE(h.histogram.count(), 100u); // 90 fast + 10 slow in this interval
        // p50 in the first bucket (<= 2 ms), p95 in the second (2-128 ms, at its middle 16).
        QVERIFY(h.histogram.quantile(0.5) <= 2.0 * 1.01);
        QVERIFY(std::abs(h.histogram.quantile(0.95) - 16.0) < 16.0 * 0.02);
        const auto shard = std::find_if(
            second.batch.values.cbegin(), second.batch.values.cend(),
            [](const SeriesValue &v) { return v.info.key.metric == "shard.load"_L1; });
        QCOMPARE(shard->value, 73.0);
        QCOMPARE(shard->info.kind, UseKind::Utilization);
        QCOMPARE(shard->info.resource, u"shardset:ydb"_s);
    }

    void garbageLinesAreCounted()
    {
        LoopbackHttpServer server;
        server.setReply({ 200, "text/plain",
                          "ok_metric 1\nbroken{ 2\nalso bad value\n\x01\x02\nfine 3\n", true,
                          false });
        auto collector = collectorFor(server.port());
        const PollResult r = collector->poll(QDeadlineTimer(3000));
        QVERIFY(r.error.isEmpty());
        QCOMPARE(valueOf(r.batch, u"ok_metric"_s), 1.0);
        QCOMPARE(valueOf(r.batch, u"fine"_s), 3.0);
        QCOMPARE(r.warnings.size(), 1);
        QVERIFY2(r.warnings.first().contains(u"3 line(s) skipped ("_s)
                     && r.warnings.first().contains(u"first: line 2: bad label name"_s),
                 qPrintable(r.warnings.first()));
    }

    void deadServersAreBoundedAndRecover()
    {
        LoopbackHttpServer server;
        auto collector = collectorFor(server.port());
        // Silent: the poll ends at its deadline with up = 0.
        server.setReply({ 200, "text/plain", {}, true, true });
        QElapsedTimer timer;
        timer.start();
        PollResult r = collector->poll(QDeadlineTimer(800));
        qInfo("a silent server: poll returned after %lld ms (deadline 800)", timer.elapsed());
        QVERIFY(timer.elapsed() < 800 + 200);
        QVERIFY2(r.error.contains(u"timed out"_s), qPrintable(r.error));
        QCOMPARE(valueOf(r.batch, u"up"_s), 0.0);
        // An HTTP error.
        server.setReply({ 503, "text/plain", "busy", false, false });
        r = collector->poll(QDeadlineTimer(3000));
        QCOMPARE(r.error, u"http://127.0.0.1:%1/metrics: HTTP 503"_s.arg(server.port()));
        // Back: figures again.
        server.setReply({ 200, "text/plain", "m 1\n", true, false });
        r = collector->poll(QDeadlineTimer(3000));
        QVERIFY(r.error.isEmpty());
        QCOMPARE(valueOf(r.batch, u"up"_s), 1.0);
        // Nobody listening.
        const quint16 port = server.port();
        server.quit();
        server.wait();
        auto refused = collectorFor(port);
        timer.restart();
        r = refused->poll(QDeadlineTimer(3000));
        QVERIFY(!r.error.isEmpty());
        QVERIFY(timer.elapsed() < 3000);
        QCOMPARE(valueOf(r.batch, u"up"_s), 0.0);
    }

    // Rates divide by the injected clock's interval (steadyWallClockMs in production),
    // never by the wall clock's: 10 s of the steady clock apart, whatever the wall clock
    // did meanwhile (here: a few ms passed), 1000 more switches are 100/s.
    void ratesUseTheSteadyClock()
    {
        LoopbackHttpServer server;
        FakeClock clock;
        auto collector = collectorFor(server.port(), {}, clock);
        QVERIFY(collector);
        *clock.now = 1'000'000;
        server.setReply({ 200, "text/plain", "# TYPE switches_total counter\nswitches_total 5000\n",
                          true, false });
        const PollResult first = collector->poll(QDeadlineTimer(3000));
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(first.batch.tsMs, 1'000'000);
        *clock.now = 1'010'000;
        server.setReply({ 200, "text/plain", "# TYPE switches_total counter\nswitches_total 6000\n",
                          true, false });
        const PollResult second = collector->poll(QDeadlineTimer(3000));
        QCOMPARE(second.batch.tsMs, 1'010'000);
        QCOMPARE(valueOf(second.batch, u"switches_total:rate"_s), 100.0);
    }

    void nodeExporterRatesUseTheSteadyClock()
    {
        LoopbackHttpServer server;
        FakeClock clock;
        CollectorConfig config;
        config.sourceId = u"host"_s;
        config.options = { { u"host"_s, u"http://127.0.0.1:%1/metrics"_s.arg(server.port()) } };
        QString error;
        auto collector
            = NodeExporterCollector::create(config, NodeExporterMapping::Part::Host, &error, clock);
        QVERIFY2(collector, qPrintable(error));
        *clock.now = 2'000'000;
        server.setReply({ 200, "text/plain", "node_vmstat_pswpin 100\n", true, false });
        QVERIFY(collector->poll(QDeadlineTimer(3000)).error.isEmpty());
        *clock.now = 2'004'000;
        server.setReply({ 200, "text/plain", "node_vmstat_pswpin 500\n", true, false });
        const PollResult second = collector->poll(QDeadlineTimer(3000));
        QCOMPARE(second.batch.tsMs, 2'004'000);
        QCOMPARE(valueOf(second.batch, u"host.mem.swap_in"_s), 100.0);
        // No per-process figures in node_exporter: the status says so.
        QCOMPARE(second.warnings, QStringList { NodeExporterMapping::processWarning() });
        QCOMPARE(NodeExporterMapping::processWarning(),
                 u"no top processes: node_exporter has no per-process figures (read the host "
                 "over ssh:// for them)"_s);
    }

    // Credentials and query tokens in the URL appear in no status: not in errors of the
    // scrape, not in warnings, not in the refusal of a bad URL.
    void credentialsAreMasked()
    {
        LoopbackHttpServer server;
        const QString url
            = u"http://scraper:s3cret@127.0.0.1:%1/metrics?token=t0ken"_s.arg(server.port());
        auto collector = collectorFor(server.port(), { { u"url"_s, url } });
        QVERIFY(collector);
        const QString shown = u"http://127.0.0.1:%1/metrics"_s.arg(server.port());
        server.setReply({ 503, "text/plain", "busy", false, false });
        PollResult r = collector->poll(QDeadlineTimer(3000));
        QCOMPARE(r.error, shown + u": HTTP 503"_s);
        server.setReply({ 200, "text/plain", "ok 1\nbroken{ 2\n", true, false });
        r = collector->poll(QDeadlineTimer(3000));
        QCOMPARE(r.warnings.size(), 1);
        QVERIFY2(r.warnings.first().startsWith(shown + u": "_s), qPrintable(r.warnings.first()));
        server.setReply({ 200, "text/plain", {}, true, true });
        r = collector->poll(QDeadlineTimer(300));
        QVERIFY2(r.error.startsWith(shown + u": "_s), qPrintable(r.error));

        CollectorConfig config;
        config.sourceId = u"host"_s;
        config.options = { { u"host"_s, u"http://ops:s3cret@nosuchhost.invalid:9100/metrics"_s } };
        QString error;
        auto exporter
            = NodeExporterCollector::create(config, NodeExporterMapping::Part::Nic, &error);
        QVERIFY(exporter);
        r = exporter->poll(QDeadlineTimer(2000));
        QVERIFY2(r.error.startsWith(u"http://nosuchhost.invalid:9100/metrics: cannot resolve "_s),
                 qPrintable(r.error));
        QVERIFY2(!r.error.contains(u"s3cret"_s) && !r.error.contains(u"ops"_s),
                 qPrintable(r.error));

        config.options = { { u"url"_s, u"ftp://ops:s3cret@x/metrics"_s } };
        QVERIFY(!PrometheusCollector::create(config, &error));
        QCOMPARE(error,
                 u"\"url\" must be an http:// or https:// URL with a host, e.g. "
                 "http://server:9100/metrics, got \"ftp://x/metrics\""_s);
    }

    void badConfig_data()
    {
        QTest::addColumn<QJsonObject>("options");
        QTest::addColumn<QString>("error");
        QTest::newRow("no url")
            << QJsonObject {}
            << u"\"url\" must be an http:// or https:// URL with a host, e.g. http://server:9100/metrics, got \"\""_s;
        QTest::newRow("ftp") << QJsonObject {
            { u"url"_s, u"ftp://x/metrics"_s }
        } << u"\"url\" must be an http:// or https:// URL with a host, e.g. http://server:9100/metrics, got \"ftp://x/metrics\""_s;
        QTest::newRow("shard set")
            << QJsonObject { { u"url"_s, u"http://x/"_s },
                             { u"shardSets"_s, QJsonArray { QJsonObject {} } } }
            << u"shardSets[0]: needs \"name\", \"metric\" and \"shardLabel\""_s;
    }

    void badConfig()
    {
        QFETCH(QJsonObject, options);
        QFETCH(QString, error);
        CollectorConfig config;
        config.sourceId = u"p"_s;
        config.options = options;
        QString message;
        QVERIFY(!PrometheusCollector::create(config, &message));
        QCOMPARE(message, error);
    }
};

QTEST_GUILESS_MAIN(TestPrometheusCollector)
#include "tst_prometheuscollector.moc"
