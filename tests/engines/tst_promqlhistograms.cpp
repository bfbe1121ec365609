// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Histograms from an engine: Prometheus 2.53 (Debian's package) scraping itself every
// second with native histograms on and the classic buckets kept, so one histogram,
// prometheus_http_request_duration_seconds, is read both ways while the test loads its
// query API. Percentile lines equal the engine's own histogram_quantile at every step,
// native and classic; the heatmaps of the two forms hold the same events per column;
// the real binary exports both panel kinds headless.
#include "engine/promqlengines.h"
#include "enginetestutil.h"
#include "query/downsample.h" // pixelColumn
#include "query/promql/promqlheatmap.h"
#include "query/promql/promqlhistograms.h"
#include "query/promql/promqlpanelquery.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {
const QString Native = u"sum(rate(prometheus_http_request_duration_seconds[10s]))"_s;
const QString Classic
    = u"sum by (le) (rate(prometheus_http_request_duration_seconds_bucket[10s]))"_s;

DashboardPanel panelOf(PanelType type, const QString &query)
{
    DashboardPanel panel;
    panel.id = u"p"_s;
    panel.type = type;
    panel.query = query;
    panel.unit = u"s"_s;
    return panel;
}

// Events per second in column c of the grid, all rows.
double columnTotal(const HeatmapGrid &grid, int c)
{
    double total = 0;
    for (int r = 0; r < grid.rows(); ++r)
        total += grid.at(r, c);
    return total;
}
} // namespace

class TestPromqlHistograms : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_prometheus = std::make_unique<ScrapeEngine>(
            ScrapeEngine::Kind::Prometheus, QStringList { u"self"_s },
            QStringList { u"--enable-feature=native-histograms"_s },
            "    scrape_classic_histograms: true\n");
        QString error;
        QVERIFY2(m_prometheus->waitReady(&error), qPrintable(error));
        m_engines.set({ { { u"prom"_s, QUrl(m_prometheus->url()) } }, {} });
        // Requests of different costs, so the latencies spread over buckets.
        QElapsedTimer timer;
        timer.start();
        int requests = 0;
        while (timer.elapsed() < 15'000) {
            QUrlQuery query;
            query.addQueryItem(
                u"query"_s, requests % 3 ? u"up"_s : u"count_over_time({__name__=~\".+\"}[10s])"_s);
            m_prometheus->api("query", query, &error);
            ++requests;
            QTest::qWait(requests % 7 == 0 ? 40 : 5);
        }
        qInfo("%d requests in %lld ms", requests, qint64(timer.elapsed()));
        // Scrapes that started before the end have been written (one started at t is
        // written when it is read, later): the range is the same for every query.
        QTest::qWait(3000);
        m_toMs = (QDateTime::currentMSecsSinceEpoch() - 3000) / 1000 * 1000;
        m_fromMs = m_toMs - 30'000;
    }

    // Our percentile lines against the engine's histogram_quantile over the same steps.
    void percentilesEqualTheEngines_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("engineForm"); // %1 = the percentile
        QTest::newRow("native") << Native << u"histogram_quantile(%1, "_s + Native + u')';
        QTest::newRow("classic") << Classic << u"histogram_quantile(%1, "_s + Classic + u')';
    }
    void percentilesEqualTheEngines()
    {
        QFETCH(QString, query);
        QFETCH(QString, engineForm);
        DashboardPanel panel = panelOf(PanelType::TimeSeries, query);
        panel.percentiles = { 50, 90, 99 };
        const PanelData data = queryPromqlPanel(panel, &m_engines, m_fromMs, m_toMs, 0,
                                                QDateTime::currentMSecsSinceEpoch());
        QVERIFY2(data.message.isEmpty(), qPrintable(data.message));
        QVERIFY2(data.warnings.isEmpty(), qPrintable(data.warnings.join(u'|')));
        QCOMPARE(data.series.size(), 3); // one histogram, three lines
        // The histogram itself, to judge a difference by.
        const PromqlRange range
            = fetchPromqlRange(m_engines, QUrl(m_prometheus->url()), query, m_fromMs, m_toMs, 1000,
                               QDateTime::currentMSecsSinceEpoch(), QDeadlineTimer(10000));
        const PromqlHistogramSplit split = splitPromqlHistograms(range.series);
        QCOMPARE(split.histograms.size(), 1);
        QMap<qint64, PromqlHistogramPoint> histogramAt;
        for (const PromqlHistogramPoint &point : split.histograms[0].points)
            histogramAt.insert(point.tsMs, point);
        for (const PanelSeriesData &line : data.series) {
            const QString label = line.info.key.labels.value(u"percentile"_s);
            const double p = label == u"p50"_s ? 0.5 : label == u"p90"_s ? 0.9 : 0.99;
            QVERIFY2(label == u"p50"_s || label == u"p90"_s || label == u"p99"_s,
                     qPrintable(label));
            QString error;
            const auto engine
                = m_prometheus->queryRange(engineForm.arg(p), u"none"_s, m_fromMs, m_toMs, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QMap<qint64, double> expected;
            for (const auto pointList = engine.value(QString());
                 const RangePoint &point : pointList)
                expected.insert(point.tsMs, point.value);
            int compared = 0, inGaps = 0;
            for (const Sample &point : line.points) {
                QVERIFY2(expected.contains(point.tsMs), qPrintable(QString::number(point.tsMs)));
                const double want = expected.value(point.tsMs);
                const double difference = std::abs(point.value - want);
                ++compared;
                if (difference <= 1e-9 * std::abs(want))
                    continue;
                // A rank that lands exactly on the end of a bucket followed by empty ones
                // has every value of that empty stretch as its quantile: the engine's sum
                // may reach it a bit later and answer the stretch's other end.
                const double low = std::min(point.value, want), high = std::max(point.value, want);
                bool eventsBetween = false;
                for (const HistogramBucket &bucket : histogramAt.value(point.tsMs).buckets)
                    eventsBetween = eventsBetween
                        || (bucket.count > 0 && bucket.upper > low * (1 + 1e-12)
                            && bucket.lower < high * (1 - 1e-12));
                ++inGaps;
                QVERIFY2(!eventsBetween,
                         qPrintable(u"%1 at %2: %3, the engine %4"_s.arg(label)
                                        .arg(point.tsMs)
                                        .arg(point.value, 0, 'g', 17)
                                        .arg(want, 0, 'g', 17)));
            }
            int engineNumbers = 0;
            for (const double value : std::as_const(expected))
                engineNumbers += std::isnan(value) ? 0 : 1;
            qInfo("%s %s: %d steps (the engine has %d), %d of them equal, %d at the other end "
                  "of an empty stretch of buckets",
                  QTest::currentDataTag(), qPrintable(label), compared, engineNumbers,
                  compared - inGaps, inGaps);
            QCOMPARE(compared, engineNumbers); // no step left out, none invented
            // Enough steps to mean something: under a loaded machine (a full ./dev test)
            // the 15 s of traffic cover about 21 of the 30 steps, unloaded all 30.
            QVERIFY(compared >= 15);
            QVERIFY(inGaps <= compared / 4);
        }
    }

    // The two forms of one histogram in a heatmap: every column holds the events per
    // second the engine counts for the steps in it (histogram_count of the native form,
    // the classic form's +Inf bucket); the native form's finer buckets give more rows;
    // its rows are in milliseconds where the engine's median lies.
    void heatmapsOfBothFormsAgree()
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const PanelData native = queryPromqlHeatmap(panelOf(PanelType::Heatmap, Native), &m_engines,
                                                    m_fromMs, m_toMs, 0, now);
        const PanelData classic = queryPromqlHeatmap(panelOf(PanelType::Heatmap, Classic),
                                                     &m_engines, m_fromMs, m_toMs, 0, now);
        QVERIFY2(native.message.isEmpty() && classic.message.isEmpty(),
                 qPrintable(native.message + classic.message));
        const HeatmapGrid &a = native.as<HeatmapGrid>();
        const HeatmapGrid &b = classic.as<HeatmapGrid>();
        QCOMPARE(a.columns, 30); // one column per 1 s step
        QCOMPARE(b.columns, a.columns);
        QCOMPARE(native.series.size(), 1);
        QCOMPARE(native.series[0].info.key.source, u"prom"_s);
        int busy = 0;
        const std::pair<const HeatmapGrid *, QString> forms[] {
            { &a, u"histogram_count("_s + Native + u')' },
            { &b,
              u"sum(rate(prometheus_http_request_duration_seconds_bucket{le=\"+Inf\"}[10s]))"_s },
        };
        for (const auto &[grid, countQuery] : forms) {
            QString error;
            const auto counts
                = m_prometheus->queryRange(countQuery, u"none"_s, m_fromMs, m_toMs, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const size_t columns = size_t(grid->columns);
            std::vector<double> sums(columns, 0.0), steps(columns, 0.0);
            for (const auto allPoints = counts.value(QString());
                 const RangePoint &point : allPoints) {
                const size_t c = size_t(pixelColumn(point.tsMs, m_fromMs, m_toMs, grid->columns));
                sums[c] += point.value;
                ++steps[c];
            }
            bool historyBegun = false;
            int compared = 0;
            for (int c = 0; c < grid->columns; ++c) {
                const double got = columnTotal(*grid, c);
                // Where the engine's history begins (two samples in the rate's window),
                // one query can rate the first step and a later one not: no comparison.
                if (!historyBegun && (steps[size_t(c)] == 0 || got == 0))
                    continue;
                historyBegun = true;
                ++compared;
                const double want = steps[size_t(c)] > 0 ? sums[size_t(c)] / steps[size_t(c)] : 0;
                QVERIFY2(std::abs(got - want) <= 1e-9 * want,
                         qPrintable(u"%1, column %2: %3/s, the engine %4/s"_s.arg(countQuery)
                                        .arg(c)
                                        .arg(got)
                                        .arg(want)));
                busy += grid == &a && got > 0 ? 1 : 0;
            }
            qInfo("%s: %d columns equal the engine's count", qPrintable(countQuery), compared);
            QVERIFY(compared >= 15);
        }
        qInfo("%d of %d columns hold events; native %d rows, classic %d rows", busy, a.columns,
              a.rows(), b.rows());
        QVERIFY(busy >= 15);
        QVERIFY(a.rows() > b.rows()); // finer buckets

        // Bounds are seconds (the panel's unit) drawn as ms: the engine's median over the
        // range lies between the lowest and highest rows with events.
        QString error;
        const double medianMs = 1000
            * m_prometheus->queryOne(
                u"histogram_quantile(0.5, sum(increase("
                "prometheus_http_request_duration_seconds[30s] @ %1)))"_s.arg(m_toMs / 1000),
                &error);
        QVERIFY2(error.isEmpty() && medianMs > 0, qPrintable(error));
        int lowest = -1, highest = -1;
        for (int r = 0; r < a.rows(); ++r) {
            for (int c = 0; c < a.columns; ++c) {
                if (a.at(r, c) > 0) {
                    lowest = lowest < 0 ? r : lowest;
                    highest = r;
                }
            }
        }
        QVERIFY(lowest >= 0);
        QVERIFY2(a.lowerBoundMs(lowest) <= medianMs && medianMs <= a.upperBoundsMs.at(highest),
                 qPrintable(u"median %1 ms, rows %2 to %3 ms"_s.arg(medianMs)
                                .arg(a.lowerBoundMs(lowest))
                                .arg(a.upperBoundsMs.at(highest))));
    }

    // The dashboard reader, the heatmap panel's dispatch and the CSV of both kinds, in
    // the real binary.
    void headlessExport()
    {
        QTemporaryDir dir;
        const QString dashboard = dir.filePath(u"latency.json"_s);
        QFile file(dashboard);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(u"{\"schemaVersion\": 4, \"title\": \"Latency\", \"timeRange\": \"1m\", "
                   "\"sources\": [{\"id\": \"prom\", \"plugin\": \"promql\", \"config\": "
                   "{\"url\": \"%1\"}}], \"panels\": ["
                   "{\"id\": \"heat\", \"type\": \"heatmap\", \"title\": \"Requests\", "
                   "\"unit\": \"s\", \"query\": \"%2\"},"
                   "{\"id\": \"lat\", \"type\": \"timeseries\", \"title\": \"Latency\", "
                   "\"unit\": \"s\", \"gridPos\": {\"x\": 0, \"y\": 8, \"w\": 12, \"h\": 8}, "
                   "\"percentiles\": [99], \"query\": \"%3\"}]}"_s
                       .arg(m_prometheus->url(), Native, Classic)
                       .toUtf8());
        file.close();
        const QString csv = dir.filePath(u"out.csv"_s);
        QProcess headroom;
        dieWithTest(&headroom);
        headroom.start(headroomBinary(),
                       { u"--dashboard"_s, dashboard, u"--trust"_s, u"--no-cache"_s,
                         u"--collect-for"_s, u"1"_s, u"--range"_s, u"1m"_s, u"--export-csv"_s,
                         csv });
        QVERIFY(headroom.waitForFinished(60000));
        const QByteArray stderrText = headroom.readAllStandardError();
        QVERIFY2(headroom.exitCode() == 0, stderrText.constData());
        QFile rows(csv);
        QVERIFY(rows.open(QIODevice::ReadOnly));
        int heat = 0, lat = 0;
        for (const auto allLines = rows.readAll().split('\n'); const QByteArray &line : allLines) {
            if (line.contains(",heat,prom,") && line.contains("le_ms="))
                ++heat;
            if (line.contains(",lat,prom,") && line.contains("percentile=p99"))
                ++lat;
        }
        qInfo("heatmap cells %d, p99 points %d", heat, lat);
        QVERIFY2(heat >= 15 && lat >= 15, stderrText.constData());
    }

private:
    std::unique_ptr<ScrapeEngine> m_prometheus;
    PromqlEngines m_engines;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
};

QTEST_GUILESS_MAIN(TestPromqlHistograms)
#include "tst_promqlhistograms.moc"
