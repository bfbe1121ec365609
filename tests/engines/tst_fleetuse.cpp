// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A fleet in one view (fleet-use.json), against a real Prometheus 2.53
// scraping a real node_exporter as two hosts (127.0.0.1:P and localhost:P, two
// `instance` values) and a third target that is down. The shipped fleet-use.json's
// USE matrix has a row per host and resource, the down host's exporter row first
// (worst first), figures equal to what the engine itself computes, a cell's chart kept
// to its host, an engine error beside the cells read before it; the real binary
// exports the shipped dashboard headless with --var prometheus= and --var host=.
#include "core/naturalsort.h"
#include "document/dashboardfile.h"
#include "engine/promqlengines.h"
#include "enginetestutil.h"
#include "query/promql/promqlpanelquery.h"
#include "query/promql/promqltable.h"
#include "query/promql/repeatvalues.h"
#include "query/use/promqlusematrix.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString FleetDashboard
    = QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards/fleet-use.json");

DashboardPanel fleetPanel()
{
    const DashboardLoadResult loaded = loadDashboard(FleetDashboard);
    if (!loaded.ok())
        qFatal("%s", qPrintable(loaded.error.toString()));
    const DashboardPanel *panel = loaded.dashboard->panel(u"fleet-use"_s);
    if (!panel)
        qFatal("fleet-use.json has no fleet-use panel");
    return *panel;
}

// The real binary with arguments, run to its end (60 s at most): its stderr, or why it
// failed, with ok false.
struct HeadlessRun
{
    bool ok = false;
    QString stderrText;
};

HeadlessRun runHeadless(const QStringList &arguments)
{
    QProcess headroom;
    dieWithTest(&headroom);
    headroom.start(headroomBinary(), arguments);
    if (!headroom.waitForFinished(60000))
        return { false, u"headroom did not finish within 60 s"_s };
    const QString stderrText = QString::fromUtf8(headroom.readAllStandardError());
    return { headroom.exitStatus() == QProcess::NormalExit && headroom.exitCode() == 0,
             u"exit %1: "_s.arg(headroom.exitCode()) + stderrText };
}

const UseMatrixRow *rowOf(const UseMatrix &matrix, const QString &source, const QString &resource)
{
    const int row = matrix.rowOf(source, resource);
    return row < 0 ? nullptr : &matrix.rows.at(row);
}

} // namespace

class TestFleetUse : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_hostA = startNodeExporter(
            &m_nodeExporter, { u"meminfo"_s, u"cpu"_s, u"loadavg"_s, u"netdev"_s, u"vmstat"_s });
        QVERIFY2(!m_hostA.isEmpty(), "prometheus-node-exporter did not start");
        m_hostB = u"localhost:"_s + m_hostA.section(u':', 1);
        m_down = u"127.0.0.1:%1"_s.arg(freeLoopbackPort()); // nothing listens
        m_prometheus = std::make_unique<ScrapeEngine>(ScrapeEngine::Kind::Prometheus,
                                                      QStringList { m_hostA, m_hostB, m_down });
        QString error;
        QVERIFY2(m_prometheus->waitReady(&error), qPrintable(error));
        m_engines.set({ { { u"prom"_s, QUrl(m_prometheus->url()) } }, { { u"host"_s, u".+"_s } } });
        // rate(...[1m]) needs two scrapes; a few more make the range worth reading.
        QTest::qWait(8000);
    }

    // A row per host and resource, the down host's exporter first, figures the engine's.
    void rowPerHostWorstFirst()
    {
        const DashboardPanel panel = fleetPanel();
        const UseMatrixOptions options = useMatrixOptions(panel.options);
        QCOMPARE(options.order, UseRowOrder::Worst);
        // Whole seconds: the matrix reads this minute at a 1 s step from the epoch, and
        // the engine's own range below then has its points at the same times.
        const qint64 now = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000;
        PanelData data = queryPromqlUseMatrix(panel, options, &m_engines, now - 60'000, now, now);
        QVERIFY2(data.message.isEmpty(), qPrintable(data.message));
        UseMatrix &matrix = std::get<UseMatrix>(data.payload);
        orderUseRowsWorstFirst(&matrix.rows);

        // The target that is down: `1 - up` is 1, critical, and it leads.
        QVERIFY(!matrix.rows.isEmpty());
        QCOMPARE(matrix.rows.first().source, m_down);
        QCOMPARE(matrix.rows.first().resource, u"exporter"_s);
        QCOMPARE(matrix.rows.first().cell(UseColumn::Errors).level, UseLevel::Critical);
        QCOMPARE(matrix.rows.first().label, m_down + u" · exporter"_s);
        QVERIFY(!rowOf(matrix, m_down, u"cpu"_s)); // no samples of a host that is down

        for (const QString &host : { m_hostA, m_hostB }) {
            const UseMatrixRow *cpu = rowOf(matrix, host, u"cpu"_s);
            QVERIFY2(cpu, qPrintable(host));
            QCOMPARE(cpu->label, host + u" · CPU"_s);
            const UseWorst *busy = cpu->cell(UseColumn::Utilization).worst();
            QVERIFY(busy);
            QVERIFY2(busy->sample.value >= 0 && busy->sample.value <= 100,
                     qPrintable(QString::number(busy->sample.value)));
            QVERIFY(cpu->cell(UseColumn::Saturation).hasValue()); // load per CPU
            QVERIFY(!cpu->cell(UseColumn::Utilization).stale);
            const UseMatrixRow *exporter = rowOf(matrix, host, u"exporter"_s);
            QVERIFY(exporter);
            QCOMPARE(exporter->cell(UseColumn::Errors).level, UseLevel::Ok);

            // Memory: the worst in range is the largest the engine itself gives for the
            // host over the same range.
            const UseMatrixRow *memory = rowOf(matrix, host, u"memory"_s);
            QVERIFY(memory);
            const UseWorst *used = memory->cell(UseColumn::Utilization).worst();
            QVERIFY(used);
            QString error;
            const auto points = m_prometheus->queryRange(
                u"100 * (1 - node_memory_MemAvailable_bytes{instance=\"%1\"} / "
                "node_memory_MemTotal_bytes{instance=\"%1\"})"_s.arg(host),
                u"instance"_s, now - 60'000, now, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY(points.contains(host));
            bool seen = false;
            for (const auto hostPoints = points.value(host); const RangePoint &p : hostPoints) {
                QVERIFY2(p.value <= used->sample.value + 1e-9,
                         qPrintable(u"%1 > worst %2"_s.arg(p.value).arg(used->sample.value)));
                seen = seen || p.tsMs == used->sample.tsMs;
                if (p.tsMs == used->sample.tsMs)
                    QCOMPARE(p.value, used->sample.value);
            }
            QVERIFY2(seen, "the worst sample is no point of the engine's own range");
        }
        // Network devices are rows of their own, named by the template "nic:{device}".
        bool nicRow = false;
        for (const UseMatrixRow &row : std::as_const(matrix.rows))
            nicRow = nicRow || (row.source == m_hostA && row.resource.startsWith(u"nic:"_s));
        QVERIFY(nicRow);
        // Worst first: no row after a row of a lower level.
        for (qsizetype i = 1; i < matrix.rows.size(); ++i) {
            const auto levelOf = [](const UseMatrixRow &row) {
                UseLevel worst = UseLevel::NotMeasured;
                for (const UseCell &cell : row.cells)
                    worst = std::max(worst, cell.level);
                return worst;
            };
            QVERIFY(levelOf(matrix.rows.at(i - 1)) >= levelOf(matrix.rows.at(i)));
        }
    }

    // A cell's chart reads the query that gave it, for that host alone.
    void cellChartKeepsToItsHost()
    {
        const DashboardPanel panel = fleetPanel();
        const UseMatrixOptions options = useMatrixOptions(panel.options);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const PanelData data
            = queryPromqlUseMatrix(panel, options, &m_engines, now - 60'000, now, now);
        const UseMatrix &matrix = data.as<UseMatrix>();
        const UseMatrixRow *memory = rowOf(matrix, m_hostB, u"memory"_s);
        QVERIFY(memory);
        const DashboardPanel chart = useCellChart(panel, *memory, UseColumn::Utilization);
        QCOMPARE(chart.type, PanelType::TimeSeries);
        QCOMPARE(chart.unit, u"%"_s);
        QVERIFY2(chart.query.contains(u"node_memory_MemAvailable_bytes"_s),
                 qPrintable(chart.query));
        const PanelData drawn = queryPromqlPanel(chart, &m_engines, now - 60'000, now, 200, now);
        QVERIFY2(drawn.message.isEmpty(), qPrintable(drawn.message + u"\n"_s + chart.query));
        QCOMPARE(drawn.series.size(), 1);
        QCOMPARE(drawn.series.first().info.key.labels.value(u"instance"_s), m_hostB);
        QVERIFY(drawn.series.first().rawCount > 0);
    }

    // The variable bar's choices: the instances the engine lists for a variable with
    // labelValues whatever its value (a single host here, no repeat), asked once for a
    // variable that is also repeated over "*"; an engine that is down says so.
    void variableValuesListed()
    {
        Dashboard dashboard;
        DashboardVariable host;
        host.name = u"host"_s;
        host.multi = true;
        host.defaultValue = m_hostA;
        host.labelValues.label = u"instance"_s;
        host.labelValues.match = u"up"_s;
        DashboardVariable job = host;
        job.name = u"job"_s;
        job.defaultValue = AllValues;
        job.labelValues.label = u"job"_s;
        dashboard.variables = { host, job };
        DashboardPanel repeated;
        repeated.id = u"per-job"_s;
        repeated.repeat = u"job"_s;
        dashboard.panels = { repeated };
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QStringList messages;
        const VariableValues values
            = resolveVariableValues(dashboard, &m_engines, now - 60'000, now, &messages);
        QVERIFY2(messages.isEmpty(), qPrintable(messages.join(u'\n')));
        QStringList hosts { m_hostA, m_hostB, m_down };
        std::sort(hosts.begin(), hosts.end(), [](const QString &a, const QString &b) {
            return naturalLess(a, b, Qt::CaseSensitive);
        });
        QCOMPARE(values.listed.value(u"host"_s), hosts);
        QVERIFY(!values.repeat.contains(u"host"_s)); // nothing repeats over it
        const QStringList jobs = values.listed.value(u"job"_s);
        QVERIFY2(!jobs.isEmpty(), "no job values");
        QCOMPARE(values.repeat.value(u"job"_s), jobs);
        QCOMPARE(variableChoices(host, values.listed.value(u"host"_s)),
                 QStringList { AllValues } + hosts);
        // The headless path asks only for what repeats.
        QCOMPARE(resolveRepeatValues(dashboard, &m_engines, now - 60'000, now, &messages),
                 values.repeat);

        PromqlEngines down;
        down.set({ { { u"prom"_s, QUrl(u"http://%1"_s.arg(m_down)) } }, {} });
        const VariableValues none
            = resolveVariableValues(dashboard, &down, now - 60'000, now, &messages);
        QVERIFY(none.listed.isEmpty());
        QCOMPARE(messages.size(), 2);
        QVERIFY2(messages.first().startsWith(u"variable host: "_s), qPrintable(messages.first()));
    }

    // A top-N table across hosts: an instant query at the range's end, a row per
    // series, the largest value first, cut to the limit; the values the engine's own;
    // an instant long past is asked once.
    void topNTableAcrossHosts()
    {
        DashboardPanel panel;
        panel.id = u"up"_s;
        panel.type = PanelType::Table;
        panel.query = u"up"_s;
        panel.options = QJsonObject { { u"limit"_s, 2 } };
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const PanelData data = queryPromqlTable(panel, &m_engines, now, now);
        QVERIFY2(data.message.isEmpty(), qPrintable(data.message));
        const PromqlTableData &table = data.as<PromqlTableData>();
        QCOMPARE(table.source, u"prom"_s);
        QCOMPARE(table.atMs, now);
        QCOMPARE(table.columns, (QStringList { u"instance"_s, u"job"_s }));
        // Both hosts answer (1); the down target (0) is the one past the limit.
        QCOMPARE(table.rows.size(), 2);
        QCOMPARE(table.leftOut, 1);
        QVERIFY2(data.warnings.join(u' ').contains(u"1 more rows"_s),
                 qPrintable(data.warnings.join(u' ')));
        QSet<QString> hosts;
        for (const PromqlTableRow &row : table.rows) {
            QCOMPARE(row.value, 1.0);
            QCOMPARE(row.labels.value(u"__name__"_s), u"up"_s);
            hosts.insert(row.labels.value(u"instance"_s));
        }
        QCOMPARE(hosts, (QSet<QString> { m_hostA, m_hostB }));

        // Ascending: the down target first, with the value the engine gives it.
        panel.options = QJsonObject { { u"sort"_s, u"asc"_s } };
        const PanelData ascending = queryPromqlTable(panel, &m_engines, now, now);
        const PromqlTableData &all = ascending.as<PromqlTableData>();
        QCOMPARE(all.rows.size(), 3);
        QCOMPARE(all.rows[0].labels.value(u"instance"_s), m_down);
        QString error;
        QCOMPARE(all.rows[0].value,
                 m_prometheus->queryOne(u"up{instance=\"%1\"}"_s.arg(m_down), &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));

        // The busiest NIC of the shipped table: the engine's own topk at that instant.
        DashboardPanel nics = *loadDashboard(FleetDashboard).dashboard->panel(u"busiest-nics"_s);
        QCOMPARE(nics.type, PanelType::Table);
        const qint64 at = now - 2000;
        const PanelData busiest = queryPromqlTable(nics, &m_engines, at, now);
        QVERIFY2(busiest.message.isEmpty(), qPrintable(busiest.message));
        const PromqlTableData &nicRows = busiest.as<PromqlTableData>();
        QCOMPARE(nicRows.columns, (QStringList { u"instance"_s, u"device"_s }));
        QVERIFY(!nicRows.rows.isEmpty());
        QUrlQuery query;
        query.addQueryItem(u"query"_s,
                           substitutePromqlVariables(nics.query, { { u"host"_s, u".+"_s } }));
        query.addQueryItem(u"time"_s, QString::number(double(at) / 1000, 'f', 3));
        const QJsonArray engine
            = m_prometheus->api("query", query, &error).value(u"result"_s).toArray();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(nicRows.rows.size(), engine.size());
        double largest = 0;
        for (const auto &row : engine)
            largest = std::max(largest, row[u"value"_s][1].toString().toDouble());
        QCOMPARE(nicRows.rows.first().value, largest);
        for (qsizetype i = 1; i < nicRows.rows.size(); ++i)
            QVERIFY(nicRows.rows[i - 1].value >= nicRows.rows[i].value);

        // An instant three minutes back is final: the second reading asks nothing.
        const qint64 before = m_engines.misses();
        queryPromqlTable(panel, &m_engines, now - 180'000, now);
        QCOMPARE(m_engines.misses(), before + 1);
        queryPromqlTable(panel, &m_engines, now - 180'000, now);
        QCOMPARE(m_engines.misses(), before + 1);
    }

    // The engine refuses one query: its message, and the cells of the queries before it.
    void engineErrorKeepsEarlierCells()
    {
        DashboardPanel panel = fleetPanel();
        UseMatrixOptions options = useMatrixOptions(panel.options);
        options.queries = { options.queries.at(3), options.queries.at(3) }; // memory, twice
        options.queries[1].query = u"rate(up["_s;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const PanelData data
            = queryPromqlUseMatrix(panel, options, &m_engines, now - 60'000, now, now);
        QVERIFY2(data.message.contains(u"parse error"_s), qPrintable(data.message));
        QVERIFY(rowOf(data.as<UseMatrix>(), m_hostA, u"memory"_s));

        // No engine running at all: a message, never a hang.
        PromqlEngines none;
        const PanelData nothing
            = queryPromqlUseMatrix(panel, options, &none, now - 60'000, now, now);
        QVERIFY(nothing.as<UseMatrix>().rows.isEmpty());
        QVERIFY2(nothing.message.contains(u"no promql source"_s), qPrintable(nothing.message));
    }

    // The shipped dashboard, headless, pointed at this engine by --var; --var host
    // narrows the fleet to one host.
    void shippedDashboardHeadless_data()
    {
        QTest::addColumn<bool>("oneHost");
        QTest::newRow("whole fleet") << false;
        QTest::newRow("--var host") << true;
    }
    void shippedDashboardHeadless()
    {
        QFETCH(bool, oneHost);
        QTemporaryDir dir;
        const QString csv = dir.filePath(u"fleet.csv"_s);
        QStringList arguments { u"--dashboard"_s,   u"fleet-use.json"_s,
                                u"--var"_s,         u"prometheus="_s + m_prometheus->url(),
                                u"--trust"_s,       u"--no-cache"_s,
                                u"--collect-for"_s, u"1"_s,
                                u"--range"_s,       u"1m"_s,
                                u"--export-csv"_s,  csv };
        if (oneHost)
            arguments << u"--var"_s << u"host="_s + m_hostB;
        const HeadlessRun run = runHeadless(arguments);
        QVERIFY2(run.ok, qPrintable(run.stderrText));
        const QString &stderrText = run.stderrText;
        QVERIFY2(!stderrText.contains(u"panel "_s), qPrintable(stderrText));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString rows = QString::fromUtf8(file.readAll());
        // The matrix's rows (panel fleet-use, source = the host) and the charts' lines.
        const auto has = [&](const QString &needle) { return rows.contains(needle); };
        QVERIFY2(has(u",fleet-use,"_s + m_hostB + u","_s), qPrintable(rows.left(3000)));
        QVERIFY(has(u"resource=memory,use=utilization"_s));
        QVERIFY(has(u",cpu-utilization,prom,"_s));
        QCOMPARE(has(u",fleet-use,"_s + m_hostA + u","_s), !oneHost);
        QCOMPARE(has(u"instance="_s + m_hostA), !oneHost);
        QVERIFY(has(u"instance="_s + m_hostB));
        // The top-N tables' rows: the busiest NICs of the fleet at the range's end.
        // The sum of two rates has no __name__: metric "promql", the NIC in the labels.
        QVERIFY2(has(u",busiest-nics,prom,promql,\"{device="_s), qPrintable(rows.left(3000)));
    }

    // A panel repeated per host, the hosts being every instance the engine lists
    // ("*" and labelValues), or the two given by --var; a panel over the multi-value
    // variable reads all of them through one regular expression.
    void repeatedPerHost_data()
    {
        QTest::addColumn<bool>("given");
        QTest::newRow("all the engine lists") << false;
        QTest::newRow("--var host=A,B") << true;
    }
    void repeatedPerHost()
    {
        QFETCH(bool, given);
        QTemporaryDir dir;
        const QString dashboard = dir.filePath(u"repeat.json"_s);
        QFile file(dashboard);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"schemaVersion\": 4, \"title\": \"Repeat\", \"timeRange\": \"1m\", "
                   "\"variables\": [{\"name\": \"prometheus\", \"default\": "
                   "\"http://127.0.0.1:9090\"}, {\"name\": \"host\", \"multi\": true, "
                   "\"default\": \"*\", \"labelValues\": {\"label\": \"instance\", "
                   "\"match\": \"up\"}}], "
                   "\"sources\": [{\"id\": \"prom\", \"plugin\": \"promql\", "
                   "\"intervalMs\": 1000, \"config\": {\"url\": \"${prometheus}\"}}], "
                   "\"panels\": [{\"id\": \"mem\", \"type\": \"timeseries\", \"title\": "
                   "\"Memory of $host\", \"unit\": \"B\", \"repeat\": \"host\", "
                   "\"query\": \"node_memory_MemTotal_bytes{instance=~\\\"$host\\\"}\", "
                   "\"layout\": {\"x\": 0, \"y\": 0, \"w\": 4, \"h\": 3}}, "
                   "{\"id\": \"count\", \"type\": \"timeseries\", "
                   "\"query\": \"count(up{instance=~\\\"$host\\\"})\", "
                   "\"layout\": {\"x\": 0, \"y\": 3, \"w\": 12, \"h\": 3}}]}");
        file.close();
        const QString csv = dir.filePath(u"repeat.csv"_s);
        QStringList arguments { u"--dashboard"_s,   dashboard,
                                u"--var"_s,         u"prometheus="_s + m_prometheus->url(),
                                u"--trust"_s,       u"--no-cache"_s,
                                u"--collect-for"_s, u"1"_s,
                                u"--range"_s,       u"30s"_s,
                                u"--export-csv"_s,  csv };
        if (given)
            arguments << u"--var"_s << u"host="_s + m_hostA + u", "_s + m_hostB;
        const HeadlessRun run = runHeadless(arguments);
        QVERIFY2(run.ok, qPrintable(run.stderrText));
        const QString &stderrText = run.stderrText;
        QVERIFY2(!stderrText.contains(u"panel "_s) && !stderrText.contains(u"variable "_s),
                 qPrintable(stderrText));
        QFile rows(csv);
        QVERIFY(rows.open(QIODevice::ReadOnly));
        // panel id -> the instances of its rows; the count panel's values.
        QMap<QString, QSet<QString>> instances;
        QList<double> counts;
        for (const auto allLines = rows.readAll().split('\n'); const QByteArray &line : allLines) {
            const QList<QByteArray> cells = line.trimmed().split(',');
            if (cells.size() < 7 || cells.at(0) == "time")
                continue;
            const QString panel = QString::fromUtf8(cells.at(1));
            if (panel == u"count"_s) {
                counts << cells.at(cells.size() - 2).toDouble();
                continue;
            }
            const QString labels = QString::fromUtf8(line);
            const qsizetype at = labels.indexOf(u"instance="_s);
            QVERIFY2(at >= 0, line.constData());
            instances[panel].insert(labels.mid(at + 9).section(u'}', 0, 0).section(u',', 0, 0));
        }
        // A copy per host, each with its own host's series only; the host that is down
        // has its copy (the engine lists it) and no rows.
        QCOMPARE(instances.value(u"mem/"_s + m_hostA), QSet<QString> { m_hostA });
        QCOMPARE(instances.value(u"mem/"_s + m_hostB), QSet<QString> { m_hostB });
        QCOMPARE(instances.size(), 2);
        QVERIFY(!counts.isEmpty());
        // Every target's up (the down one's too) for all; the two given for --var.
        // The newest point (the first ones may predate a target's first scrape).
        QCOMPARE(counts.last(), given ? 2.0 : 3.0);
        for (const double count : std::as_const(counts))
            QVERIFY(count <= (given ? 2.0 : 3.0));
    }

    void cleanupTestCase()
    {
        m_prometheus.reset();
        m_nodeExporter.kill();
        m_nodeExporter.waitForFinished(5000);
    }

private:
    QProcess m_nodeExporter;
    std::unique_ptr<ScrapeEngine> m_prometheus;
    PromqlEngines m_engines;
    QString m_hostA, m_hostB, m_down;
};

QTEST_GUILESS_MAIN(TestFleetUse)
#include "tst_fleetuse.moc"
