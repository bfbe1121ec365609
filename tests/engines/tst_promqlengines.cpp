// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// PromQL panels against real engines: Prometheus 2.53 and VictoriaMetrics 1.112
// (Debian's packages) scraping a real node_exporter every second. A panel draws history
// that began before the reading Headroom started (the real binary, headless, exports
// it); both engines give the same series; a re-render of a complete range asks the
// engine nothing; an engine that is down, slow,
// or refuses the query gives the panel a message and a gap within the deadline, never
// a hang.
#include "../collectors/loopbackhttpserver.h"
#include "collector/promql/promqlclient.h"
#include "engine/promqlengines.h"
#include "enginetestutil.h"
#include "query/promql/promqlpanelquery.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {
DashboardPanel promqlPanel(const QString &query)
{
    DashboardPanel panel;
    panel.id = u"p"_s;
    panel.query = query;
    return panel;
}

void setEngine(PromqlEngines *engines, const QString &url)
{
    engines->set({ { { u"prom"_s, QUrl(url) } }, {} });
}

// A dashboard of one PromQL panel (MemTotal) over the engine in variable "prometheus".
QString writeEngineDashboard(const QTemporaryDir &dir)
{
    QString dashboard = dir.filePath(u"fleet.json"_s);
    QFile file(dashboard);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write("{\"schemaVersion\": 3, \"title\": \"Engine\", \"timeRange\": \"1m\", "
               "\"variables\": [{\"name\": \"prometheus\", \"label\": \"Engine\", \"default\": "
               "\"http://127.0.0.1:9090\"}], "
               "\"sources\": [{\"id\": \"prom\", \"plugin\": \"promql\", \"intervalMs\": 1000, "
               "\"config\": {\"url\": \"${prometheus}\"}}], "
               "\"panels\": [{\"id\": \"mem\", \"type\": \"timeseries\", \"title\": "
               "\"Memory\", \"unit\": \"B\", "
               "\"query\": \"node_memory_MemTotal_bytes\", \"legend\": \"{{instance}}\"}]}");
    file.close();
    return dashboard;
}

// MemTotal as node_exporter reports it: /proc/meminfo's kB in bytes.
double memTotalBytes()
{
    QFile meminfo(u"/proc/meminfo"_s);
    if (!meminfo.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = meminfo.readLine().simplified().split(' ');
    return fields.value(1).toDouble() * 1024;
}
} // namespace

class TestPromqlEngines : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString node = startNodeExporter(&m_nodeExporter, { u"meminfo"_s, u"cpu"_s });
        QVERIFY2(!node.isEmpty(), "prometheus-node-exporter did not start");
        const QStringList targets { node };
        m_prometheus = std::make_unique<ScrapeEngine>(ScrapeEngine::Kind::Prometheus, targets);
        m_prometheusPort = m_prometheus->port;
        m_victoria = std::make_unique<ScrapeEngine>(ScrapeEngine::Kind::VictoriaMetrics, targets);
        QString error;
        QVERIFY2(m_prometheus->waitReady(&error), qPrintable(error));
        QVERIFY2(m_victoria->waitReady(&error), qPrintable(error));
        m_scrapingSinceMs = QDateTime::currentMSecsSinceEpoch();
        QTest::qWait(8000); // history for the reading Headroom to find
    }

    // (a) The real binary, started now, draws what the engines scraped before it.
    void historyBeforeTheReaderStarted_data()
    {
        QTest::addColumn<int>("engine");
        QTest::newRow("Prometheus") << 0;
        QTest::newRow("VictoriaMetrics") << 1;
    }
    void historyBeforeTheReaderStarted()
    {
        QFETCH(int, engine);
        const ScrapeEngine &scraper = engine == 0 ? *m_prometheus : *m_victoria;
        QTemporaryDir dir;
        const QString dashboard = writeEngineDashboard(dir);
        const QString csv = dir.filePath(u"out.csv"_s);
        const qint64 startedMs = QDateTime::currentMSecsSinceEpoch();
        QProcess headroom;
        dieWithTest(&headroom);
        headroom.start(headroomBinary(),
                       { u"--dashboard"_s, dashboard, u"--var"_s, u"prometheus="_s + scraper.url(),
                         u"--trust"_s, u"--no-cache"_s, u"--collect-for"_s, u"1"_s, u"--range"_s,
                         u"1m"_s, u"--export-csv"_s, csv });
        QVERIFY(headroom.waitForFinished(60000));
        QVERIFY2(headroom.exitCode() == 0, headroom.readAllStandardError().constData());
        QFile rows(csv);
        QVERIFY(rows.open(QIODevice::ReadOnly));
        int before = 0, all = 0;
        const double total = memTotalBytes();
        for (const auto lines = rows.readAll().split('\n'); const QByteArray &line : lines) {
            const QList<QByteArray> fields = line.split(',');
            if (fields.value(1) != "mem")
                continue;
            const qint64 ts
                = QDateTime::fromString(QString::fromLatin1(fields[0]), Qt::ISODateWithMs)
                      .toMSecsSinceEpoch();
            QVERIFY2(fields.value(fields.size() - 2).toDouble() == total, line.constData());
            ++all;
            if (ts < startedMs)
                ++before;
        }
        qInfo("%s: %d points, %d of them before the reading headroom started",
              qPrintable(scraper.name()), all, before);
        QVERIFY2(before >= 5, qPrintable(QString::number(before)));
    }

    // An engine that is down: the export is written (without the panel's rows) and
    // says which panel could not be read, and why.
    void headlessExportSaysWhyAPanelIsEmpty()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(u"out.csv"_s);
        QProcess headroom;
        dieWithTest(&headroom);
        headroom.start(headroomBinary(),
                       { u"--dashboard"_s, writeEngineDashboard(dir), u"--var"_s,
                         u"prometheus=http://127.0.0.1:%1"_s.arg(freeLoopbackPort()), u"--trust"_s,
                         u"--no-cache"_s, u"--collect-for"_s, u"1"_s, u"--export-csv"_s, csv });
        QVERIFY(headroom.waitForFinished(60000));
        const QString stderrText = QString::fromUtf8(headroom.readAllStandardError());
        QVERIFY2(headroom.exitCode() == 0, qPrintable(stderrText));
        QVERIFY2(stderrText.contains(u"panel mem: http://127.0.0.1:"_s)
                     && stderrText.contains(u"refused"_s),
                 qPrintable(stderrText));
        QFile rows(csv);
        QVERIFY(rows.open(QIODevice::ReadOnly));
        QVERIFY(!rows.readAll().contains(",mem,"));
    }

    // (b) The same series from both engines, point for point where both have one.
    void bothEnginesAgree()
    {
        QTest::qWait(3000); // both have scraped a while longer
        const qint64 to = QDateTime::currentMSecsSinceEpoch() - 1000;
        const qint64 from = std::max(m_scrapingSinceMs + 2000, to - 30'000);
        QMap<qint64, double> values[2];
        for (int engine = 0; engine < 2; ++engine) {
            PromqlEngines engines;
            setEngine(&engines, engine == 0 ? m_prometheus->url() : m_victoria->url());
            const PanelData data = queryPromqlPanel(
                promqlPanel(u"sum(node_memory_MemTotal_bytes) + count(node_cpu_seconds_total)"_s),
                &engines, from, to, 0, QDateTime::currentMSecsSinceEpoch());
            QVERIFY2(data.message.isEmpty(), qPrintable(data.message));
            QCOMPARE(data.series.size(), 1);
            for (const Sample &point : data.series[0].points)
                values[engine].insert(point.tsMs, point.value);
        }
        int compared = 0;
        for (auto it = values[0].cbegin(); it != values[0].cend(); ++it) {
            if (!values[1].contains(it.key()))
                continue;
            QCOMPARE(values[1].value(it.key()), it.value());
            ++compared;
        }
        qInfo("%d points compared (Prometheus %d, VictoriaMetrics %d)", compared,
              int(values[0].size()), int(values[1].size()));
        QVERIFY(compared >= 5);
    }

    // A complete range is asked once; its re-render asks the engine nothing.
    void completeRangesAreNotAskedAgain()
    {
        PromqlEngines engines;
        setEngine(&engines, m_prometheus->url());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const DashboardPanel panel = promqlPanel(u"up"_s);
        const qint64 from = now - 30 * 60'000, to = now - 5 * 60'000;
        const PanelData first = queryPromqlPanel(panel, &engines, from, to, 800, now);
        QVERIFY2(first.message.isEmpty(), qPrintable(first.message));
        const qint64 asked = engines.misses();
        QVERIFY(asked >= 1);
        const PanelData again = queryPromqlPanel(panel, &engines, from, to, 800, now);
        QCOMPARE(engines.misses(), asked);
        QVERIFY(engines.hits() >= asked);
        QCOMPARE(again.series.size(), first.series.size());
        // The range at "now" is always asked: it is still being written.
        const PanelData live = queryPromqlPanel(panel, &engines, now - 60'000, now, 800, now);
        QVERIFY2(live.message.isEmpty(), qPrintable(live.message));
        QVERIFY(engines.misses() > asked);
        QVERIFY(!live.series.isEmpty() && !live.series[0].points.empty());
    }

    // (d) Down, slow, refusing: a message within the deadline, never a hang.
    void enginesThatFail()
    {
        PromqlEngines engines;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QElapsedTimer timer;

        setEngine(&engines, u"http://127.0.0.1:%1"_s.arg(freeLoopbackPort()));
        timer.start();
        PanelData down
            = queryPromqlPanel(promqlPanel(u"up"_s), &engines, now - 60'000, now, 800, now);
        QVERIFY2(down.message.contains(u"refused"_s), qPrintable(down.message));
        QVERIFY(down.series.isEmpty());
        QVERIFY(timer.elapsed() < 3000);

        // Accepts, never answers.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        setEngine(&engines, u"http://127.0.0.1:%1"_s.arg(silent.serverPort()));
        timer.restart();
        PanelData slow
            = queryPromqlPanel(promqlPanel(u"up"_s), &engines, now - 60'000, now, 800, now);
        const qint64 waited = timer.elapsed();
        QVERIFY2(slow.message.contains(u"timed out"_s), qPrintable(slow.message));
        QVERIFY2(waited >= PromqlPanelDeadlineMs - 500 && waited < PromqlPanelDeadlineMs + 2000,
                 qPrintable(QString::number(waited)));

        for (ScrapeEngine *engine : { m_prometheus.get(), m_victoria.get() }) {
            setEngine(&engines, engine->url());
            PanelData bad = queryPromqlPanel(promqlPanel(u"rate(up["_s), &engines, now - 60'000,
                                             now, 800, now);
            qInfo("%s: %s", qPrintable(engine->name()), qPrintable(bad.message));
            QVERIFY2(bad.message.startsWith(engine->url() + u": "_s) && bad.message.size() > 30,
                     qPrintable(bad.message));
            QVERIFY(bad.series.isEmpty());
        }
    }

    // Basic auth from the user's engines.json (a VictoriaMetrics asking for it): without
    // the file the engine's 401; with it the answer; a password in the file itself is
    // refused; no message holds a secret.
    void credentialsComeFromTheUsersFile()
    {
        ScrapeEngine guarded(
            ScrapeEngine::Kind::VictoriaMetrics, {},
            { u"-httpAuth.username=alice"_s, u"-httpAuth.password=Op3n-S3same"_s });
        QString error;
        QVERIFY2(guarded.waitReady(&error), qPrintable(error));
        QTemporaryDir config;
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
        QVERIFY(QDir(config.path()).mkpath(u"headroom"_s));
        PromqlEngines engines;
        setEngine(&engines, guarded.url());
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto ask = [&] {
            return queryPromqlPanel(promqlPanel(u"vector(1)"_s), &engines, now - 60'000, now, 100,
                                    now);
        };
        const PanelData anonymous = ask();
        QVERIFY2(anonymous.message.contains(u"401"_s), qPrintable(anonymous.message));

        const QString passwordFile = config.filePath(u"vm-password"_s);
        const auto writeFile = [](const QString &path, const QByteArray &content) {
            QFile file(path);
            return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
        };
        const QString entries = config.filePath(u"headroom/engines.json"_s);
        const QByteArray entry = "{\"engines\": [{\"url\": \"" + guarded.url().toUtf8()
            + "\", \"username\": \"alice\", \"passwordFile\": \"" + passwordFile.toUtf8() + "\"}]}";
        QVERIFY(writeFile(entries, entry));
        QVERIFY(writeFile(passwordFile, "Wrong-One\n"));
        const PanelData wrong = ask();
        QVERIFY2(wrong.message.contains(u"401"_s) && !wrong.message.contains(u"Wrong-One"_s),
                 qPrintable(wrong.message));
        QVERIFY(writeFile(passwordFile, "Op3n-S3same\n"));
        const PanelData allowed = ask();
        QVERIFY2(allowed.message.isEmpty(), qPrintable(allowed.message));
        QCOMPARE(allowed.series.size(), 1);

        QVERIFY(writeFile(entries,
                          "{\"engines\": [{\"url\": \"" + guarded.url().toUtf8()
                              + "\", \"username\": \"alice\", \"password\": "
                                "\"Op3n-S3same\"}]}"));
        const PanelData inline_ = ask();
        QVERIFY2(inline_.message.contains(u"secrets go in files of their own"_s)
                     && !inline_.message.contains(u"Op3n-S3same"_s),
                 qPrintable(inline_.message));
        qunsetenv("XDG_CONFIG_HOME");
    }

    // An engines.json entry for /prom goes to /prom and below, as the engine reads the
    // path: an engine URL whose path climbs out with a dot segment (plain,
    // percent-encoded, or encoded twice) is refused before anything is sent, and a path
    // that only starts alike (/prometheus) is asked without the token.
    void credentialsStayUnderTheirPath()
    {
        LoopbackHttpServer engine;
        engine.setReply({ 200, "application/json",
                          R"({"status":"success","data":{"resultType":"vector","result":[]}})",
                          false, false });
        QTemporaryDir config;
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(config.path()));
        QVERIFY(QDir(config.path()).mkpath(u"headroom"_s));
        const QString base = u"http://127.0.0.1:%1"_s.arg(engine.port());
        const QString tokenFile = config.filePath(u"token"_s);
        QFile token(tokenFile);
        QVERIFY(token.open(QIODevice::WriteOnly));
        token.write("T0ken-Secret\n");
        token.close();
        QFile entries(config.filePath(u"headroom/engines.json"_s));
        QVERIFY(entries.open(QIODevice::WriteOnly));
        entries.write("{\"engines\": [{\"url\": \"" + base.toUtf8()
                      + "/prom\", \"bearerTokenFile\": \"" + tokenFile.toUtf8() + "\"}]}");
        entries.close();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto ask = [&](const QString &path) {
            return promqlInstantQuery(QUrl(base + path), u"vector(1)"_s, now, QDeadlineTimer(3000));
        };

        const PromqlResult own = ask(u"/prom"_s);
        QVERIFY2(own.error.isEmpty(), qPrintable(own.error));
        QVERIFY2(engine.lastRequest().startsWith("GET /prom/api/v1/query?")
                     && engine.lastRequest().contains("Authorization: Bearer T0ken-Secret"),
                 engine.lastRequest().constData());
        for (const QString &path :
             { u"/prom/../x"_s, u"/prom/%2e%2e/x"_s, u"/prom/%2E%2E/x"_s, u"/prom/.%2e/x"_s,
               u"/prom/%252e%252e/x"_s, u"/prom/..%2fx"_s, u"/prom/./x"_s }) {
            const int before = engine.requests();
            const PromqlResult refused = ask(path);
            QVERIFY2(refused.error.contains(u"segment"_s),
                     qPrintable(path + u": "_s + refused.error));
            QVERIFY(!refused.error.contains(u"T0ken"_s));
            QCOMPARE(engine.requests(), before); // nothing sent at all
        }
        const PromqlResult other = ask(u"/prometheus"_s);
        QVERIFY2(other.error.isEmpty(), qPrintable(other.error));
        QVERIFY2(engine.lastRequest().startsWith("GET /prometheus/api/v1/query?")
                     && !engine.lastRequest().contains("Authorization"),
                 engine.lastRequest().constData());
        qunsetenv("XDG_CONFIG_HOME");
    }

    // A complete range drawn once is drawn again from the answers on disk by a new
    // session's engines, with the engine gone (last: it stops Prometheus).
    void answersOnDiskOutliveTheEngine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"cache-promql.sqlite"_s);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 from = now - 20 * 60'000, to = now - 3 * 60'000;
        const DashboardPanel panel = promqlPanel(u"up"_s);
        {
            auto store = std::make_shared<PromqlAnswerStore>();
            QString error;
            QVERIFY2(store->open(path, &error), qPrintable(error));
            PromqlEngines engines;
            engines.setAnswerStore(store);
            setEngine(&engines, m_prometheus->url());
            const PanelData first = queryPromqlPanel(panel, &engines, from, to, 800, now);
            QVERIFY2(first.message.isEmpty(), qPrintable(first.message));
            QVERIFY(engines.misses() >= 1);
        }
        m_prometheus.reset(); // the engine is gone
        auto store = std::make_shared<PromqlAnswerStore>();
        QString error;
        QVERIFY2(store->open(path, &error), qPrintable(error));
        PromqlEngines reopened;
        reopened.setAnswerStore(store);
        setEngine(&reopened, u"http://127.0.0.1:%1"_s.arg(m_prometheusPort));
        const PanelData again = queryPromqlPanel(panel, &reopened, from, to, 800, now);
        QVERIFY2(again.message.isEmpty(), qPrintable(again.message));
        QCOMPARE(reopened.misses(), 0);
        QVERIFY(reopened.hits() >= 1);
        // A range it never drew does need the engine, and says it is gone.
        const PanelData live = queryPromqlPanel(panel, &reopened, now - 60'000, now, 800, now);
        QVERIFY2(live.message.contains(u"refused"_s), qPrintable(live.message));
    }

    void cleanupTestCase()
    {
        m_nodeExporter.kill();
        m_nodeExporter.waitForFinished(5000);
    }

private:
    QProcess m_nodeExporter;
    std::unique_ptr<ScrapeEngine> m_prometheus;
    quint16 m_prometheusPort = 0;
    std::unique_ptr<ScrapeEngine> m_victoria;
    qint64 m_scrapingSinceMs = 0;
};

QTEST_GUILESS_MAIN(TestPromqlEngines)
#include "tst_promqlengines.moc"
