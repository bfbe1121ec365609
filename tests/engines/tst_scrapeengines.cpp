// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Headroom feeding the engines teams run: a real Prometheus 2.53 and a real
// VictoriaMetrics 1.112 scrape `headroom --serve-metrics` (the shipped PostgreSQL
// dashboard against the test server, with one hot partition) and a real node_exporter,
// every second. What is read back through their query APIs is what Headroom served:
// every shard load point Prometheus returns is exactly one of the values Headroom
// served for that shard (VictoriaMetrics: within its 12-digit rounding), the hot
// partition is the busiest in both, and a node_exporter series agrees between them.
#include "enginetestutil.h"
#include "expositionparser.h"

#include <QSet>
#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {
// A database of this test's own: its partitions must not show in the shard tables of
// the other PostgreSQL tests, which read the server's "postgres" database.
constexpr char Database[] = "headroom_engines";

std::unique_ptr<QProcess> psql(const QByteArray &script, const char *database = Database)
{
    auto p = std::make_unique<QProcess>();
    dieWithTest(p.get());
    p->start(qEnvironmentVariable("HEADROOM_TEST_PGBIN") + u"/psql"_s,
             { u"-X"_s, u"-q"_s, u"-v"_s, u"ON_ERROR_STOP=1"_s, u"-d"_s,
               QString::fromLatin1(database) });
    p->waitForStarted();
    p->write(script);
    p->waitForBytesWritten();
    p->closeWriteChannel();
    return p;
}

bool servedNear(const QList<double> &served, double value, double relative)
{
    return std::any_of(served.cbegin(), served.cend(), [&](double s) {
        return relative == 0 ? s == value
                             : std::abs(s - value) <= relative * std::max(1.0, std::abs(s));
    });
}
} // namespace

class TestScrapeEngines : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shardLoadReadBackThroughBothEngines()
    {
        if (qEnvironmentVariableIsEmpty("HEADROOM_TEST_PGHOST"))
            QSKIP("no test PostgreSQL (run through ./dev test)");
        qputenv("PGHOST", qgetenv("HEADROOM_TEST_PGHOST"));
        qputenv("PGPORT", qgetenv("HEADROOM_TEST_PGPORT"));
        qputenv("PGUSER", "postgres");
        qputenv("PGDATABASE", Database);
        auto database = psql(QByteArray("DROP DATABASE IF EXISTS ") + Database
                                 + "; CREATE DATABASE " + Database + ";",
                             "postgres");
        QVERIFY(database->waitForFinished(30000));
        QVERIFY2(database->exitCode() == 0, database->readAllStandardError().constData());
        auto setup
            = psql("DROP TABLE IF EXISTS eng_orders;"
                   "CREATE TABLE eng_orders (region int, id int) PARTITION BY LIST (region);"
                   "CREATE TABLE eng_orders_p0 PARTITION OF eng_orders FOR VALUES IN (0);"
                   "CREATE TABLE eng_orders_p1 PARTITION OF eng_orders FOR VALUES IN (1);"
                   "CREATE TABLE eng_orders_p2 PARTITION OF eng_orders FOR VALUES IN (2);"
                   "CREATE TABLE eng_orders_p3 PARTITION OF eng_orders FOR VALUES IN (3);"
                   "INSERT INTO eng_orders SELECT g % 4, g FROM generate_series(1, 4000) g;");
        QVERIFY(setup->waitForFinished(30000));
        QVERIFY2(setup->exitCode() == 0, setup->readAllStandardError().constData());

        QProcess nodeExporter;
        dieWithTest(&nodeExporter);
        const quint16 nodePort = freeLoopbackPort();
        nodeExporter.start(u"/usr/bin/prometheus-node-exporter"_s,
                           { u"--web.listen-address=127.0.0.1:%1"_s.arg(nodePort),
                             u"--collector.disable-defaults"_s, u"--collector.meminfo"_s });
        QVERIFY2(nodeExporter.waitForStarted(5000), "prometheus-node-exporter did not start");

        ServedHeadroom served(
            { u"--no-cache"_s, u"--dashboard"_s, u"postgres-use.json"_s, u"--var"_s, u"pg="_s });
        QVERIFY2(served.port != 0, qPrintable(served.stderrText));
        const QStringList targets { u"127.0.0.1:%1"_s.arg(served.port),
                                    u"127.0.0.1:%1"_s.arg(nodePort) };
        ScrapeEngine prometheus(ScrapeEngine::Kind::Prometheus, targets);
        ScrapeEngine victoria(ScrapeEngine::Kind::VictoriaMetrics, targets);
        QString error;
        QVERIFY2(prometheus.waitReady(&error), qPrintable(error));
        QVERIFY2(victoria.waitReady(&error), qPrintable(error));

        // Partition 2 is hot: ten scans of it for each of another, flushed every round
        // so each 1 s poll sees some.
        QByteArray scans;
        for (int i = 0; i < 150; ++i) {
            for (int hot = 0; hot < 10; ++hot)
                scans += "SELECT count(*) FROM eng_orders WHERE region = 2;";
            scans += "SELECT count(*) FROM eng_orders WHERE region = " + QByteArray::number(i % 4)
                + "; SELECT pg_stat_force_next_flush(); SELECT pg_sleep(0.1);";
        }
        auto scanner = psql(scans);

        // Everything Headroom serves for the shards, read 5 times a second (it polls
        // once a second), while the engines scrape it.
        QMap<QString, QList<double>> servedLoads;
        QTest::qWait(3000); // the collector's first rates
        const qint64 fromMs = QDateTime::currentMSecsSinceEpoch();
        QElapsedTimer watching;
        watching.start();
        while (watching.elapsed() < 12000) {
            const Exposition page = parseExposition(bodyOf(httpGet(served.port, "/metrics")),
                                                    ExpositionFormat::Text004);
            for (const ExpositionFamily &family : page.families) {
                if (family.name != u"headroom_pg_shard_load"_s)
                    continue;
                for (const ExpositionSample &sample : family.samples) {
                    if (sample.labels.value(u"set"_s) == u"public.eng_orders"_s)
                        servedLoads[sample.labels.value(u"shard"_s)].append(sample.value);
                }
            }
            QTest::qWait(200);
        }
        const qint64 toMs = QDateTime::currentMSecsSinceEpoch() - 1000;
        QVERIFY2(servedLoads.size() == 4,
                 qPrintable(QString::number(servedLoads.size()) + u" loads served\n"_s
                            + served.stderrText));
        QTest::qWait(1500); // the last scrapes reach the engines' storage

        const QString query = u"headroom_pg_shard_load{set=\"public.eng_orders\",source=\"pg\"}"_s;
        for (ScrapeEngine *engine : { &prometheus, &victoria }) {
            const auto points = engine->queryRange(query, u"shard"_s, fromMs + 1000, toMs, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(points.size(), 4);
            // Prometheus keeps float64 as scraped; VictoriaMetrics rounds to 12 digits.
            const double tolerance = engine->kind == ScrapeEngine::Kind::Prometheus ? 0 : 1e-11;
            QMap<QString, double> mean;
            for (auto shard = points.cbegin(); shard != points.cend(); ++shard) {
                QVERIFY2(shard->size() >= 8,
                         qPrintable(u"%1: %2 points of %3"_s.arg(engine->name())
                                        .arg(shard->size())
                                        .arg(shard.key())));
                for (const RangePoint &point : *shard) {
                    QVERIFY2(servedNear(servedLoads.value(shard.key()), point.value, tolerance),
                             qPrintable(u"%1: %2 = %3 at %4, never served"_s.arg(
                                 engine->name(), shard.key(), QString::number(point.value, 'g', 17),
                                 QString::number(point.tsMs))));
                    mean[shard.key()] += point.value / double(shard->size());
                }
            }
            qInfo("%s: shard load means p0 %.1f, p1 %.1f, p2 %.1f, p3 %.1f %%, %d points of p2",
                  qPrintable(engine->name()), mean.value(u"public.eng_orders_p0"_s),
                  mean.value(u"public.eng_orders_p1"_s), mean.value(u"public.eng_orders_p2"_s),
                  mean.value(u"public.eng_orders_p3"_s),
                  int(points.value(u"public.eng_orders_p2"_s).size()));
            const double hot = mean.value(u"public.eng_orders_p2"_s);
            for (auto it = mean.cbegin(); it != mean.cend(); ++it) {
                if (it.key() != u"public.eng_orders_p2"_s)
                    QVERIFY2(hot > 2 * it.value(), qPrintable(engine->name() + u": "_s + it.key()));
            }
        }
        // The same node_exporter series read from both engines.
        const double total = prometheus.queryOne(u"node_memory_MemTotal_bytes"_s, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(total > 0);
        QCOMPARE(victoria.queryOne(u"node_memory_MemTotal_bytes"_s, &error), total);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        // The load ran to its end without an error (waitForFinished is false once done).
        QVERIFY(scanner->state() == QProcess::NotRunning || scanner->waitForFinished(60000));
        QVERIFY2(scanner->exitCode() == 0, scanner->readAllStandardError().constData());
        QCOMPARE(served.terminate(), 0);
        nodeExporter.kill();
        nodeExporter.waitForFinished(5000);
    }
};

QTEST_GUILESS_MAIN(TestScrapeEngines)
#include "tst_scrapeengines.moc"
