// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The PromQL pieces without an engine: the query API's answers read as untrusted input
// (the engine's own error message kept, garbage refused by name, caps), the step for a
// range and the chunks it is fetched in, variables in queries, and what the dashboard
// reader accepts and refuses of a panel's `query`.
#include "collector/promql/promqlclient.h"
#include "collector/promql/promqlresponse.h"
#include "document/dashboardfile.h"
#include "engine/promqlengines.h"
#include "query/promql/promqlhistograms.h"
#include "query/promql/promqlpanelquery.h"
#include "query/promql/promqltable.h"
#include "query/promql/repeatvalues.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <cmath>
#include <limits>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestPromqlUnit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsAMatrix()
    {
        // As Prometheus 2.53 answers /api/v1/query_range.
        const QByteArray body = R"({"status":"success","data":{"resultType":"matrix","result":[
            {"metric":{"__name__":"up","instance":"a:9100","job":"node"},
             "values":[[1712345678.123,"1"],[1712345679.123,"NaN"],[1712345680.123,"+Inf"]]},
            {"metric":{"instance":"b:9100"},"values":[[1712345678,"0.25"]]}]},
            "warnings":["something odd"]})";
        const PromqlResult result = parsePromqlResponse(body, 200);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.series.size(), 2);
        QCOMPARE(result.series[0].labels.value(u"__name__"_s), u"up"_s);
        QCOMPARE(result.series[0].points.size(), size_t(3));
        QCOMPARE(result.series[0].points[0].tsMs, 1712345678123LL);
        QCOMPARE(result.series[0].points[0].value, 1.0);
        QVERIFY(std::isnan(result.series[0].points[1].value));
        QVERIFY(std::isinf(result.series[0].points[2].value));
        QCOMPARE(result.series[1].points[0].value, 0.25);
        QCOMPARE(result.warnings, QStringList { u"something odd"_s });
    }

    void keepsTheEnginesError()
    {
        const PromqlResult result = parsePromqlResponse(
            R"({"status":"error","errorType":"bad_data","error":"1:6: parse error: unexpected end of input"})",
            400);
        QCOMPARE(result.error, u"bad_data: 1:6: parse error: unexpected end of input"_s);
        QVERIFY(result.series.isEmpty());
    }

    void refusesGarbage_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("error");
        QTest::newRow("html") << QByteArray("<html>502 Bad Gateway</html>") << 502
                              << u"HTTP 502 without a query API answer"_s;
        QTest::newRow("not json") << QByteArray("{\"status\": ") << 200
                                  << u"not a Prometheus query API answer"_s;
        QTest::newRow("no status") << QByteArray("{\"data\": {}}") << 200
                                   << u"not a Prometheus query API answer (no \"status\")"_s;
        QTest::newRow("odd type") << QByteArray(
            R"({"status":"success","data":{"resultType":"table","result":[]}})")
                                  << 200 << u"unknown resultType \"table\""_s;
        QTest::newRow("error without message")
            << QByteArray(R"({"status":"error"})") << 503
            << u"the engine reported an error without a message"_s;
    }
    void refusesGarbage()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, error);
        const PromqlResult result = parsePromqlResponse(body, status);
        QVERIFY2(result.error.startsWith(error), qPrintable(result.error));
    }

    void skipsBadPointsAndSaysSo()
    {
        const PromqlResult result = parsePromqlResponse(
            R"({"status":"success","data":{"resultType":"matrix","result":[
            {"metric":{},"values":[[1,"1"],["x","2"],[2],[3,"three"],[1e300,"1"],[4,"4"]]}]}})",
            200);
        QVERIFY(result.error.isEmpty());
        QCOMPARE(result.series[0].points.size(), size_t(2));
        QCOMPARE(result.warnings.size(), 1);
        QVERIFY2(result.warnings[0].startsWith(u"4 points"_s), qPrintable(result.warnings[0]));
    }

    void capsSeries()
    {
        QByteArray body = R"({"status":"success","data":{"resultType":"vector","result":[)";
        for (int i = 0; i < PromqlResult::MaxSeries + 5; ++i)
            body += (i ? "," : "") + QByteArray("{\"metric\":{\"i\":\"") + QByteArray::number(i)
                + "\"},\"value\":[1,\"1\"]}";
        body += "]}}";
        const PromqlResult result = parsePromqlResponse(body, 200);
        QCOMPARE(result.series.size(), PromqlResult::MaxSeries);
        QVERIFY(result.warnings.join(u' ').contains(u"only the first 10000"_s));
    }

    void readsNativeHistograms()
    {
        // As Prometheus 2.53 (--enable-feature=native-histograms) answers an instant query
        // of its own prometheus_http_request_duration_seconds; buckets sent unsorted here.
        const QByteArray body = R"({"status":"success","data":{"resultType":"vector","result":[
            {"metric":{"__name__":"prometheus_http_request_duration_seconds","handler":"/api/v1/query"},
             "histogram":[1796372311.081,{"count":"5","sum":"0.0021373900000000003","buckets":[
              [0,"0.0004477558804710308","0.00048828125","1"],
              [0,"0.00018825815739843027","0.00020529697638030136","1"],
              [0,"0.0007530326295937211","0.0008211879055212055","3"]]}]}]}})";
        const PromqlResult result = parsePromqlResponse(body, 200);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QVERIFY2(result.warnings.isEmpty(), qPrintable(result.warnings.join(u'|')));
        QCOMPARE(result.series.size(), 1);
        QVERIFY(result.series[0].points.empty());
        const std::vector<PromqlHistogramPoint> &points = result.series[0].histograms;
        QCOMPARE(points.size(), size_t(1));
        QCOMPARE(points[0].tsMs, 1796372311081LL);
        QCOMPARE(points[0].count, 5.0);
        QCOMPARE(points[0].sum, 0.0021373900000000003);
        QCOMPARE(points[0].buckets.size(), size_t(3));
        QCOMPARE(points[0].buckets[0].lower, 0.00018825815739843027); // sorted
        QCOMPARE(points[0].buckets[2].upper, 0.0008211879055212055);
        QCOMPARE(points[0].buckets[2].count, 3.0);

        // A range answer: "histograms"; malformed ones left out and said.
        const PromqlResult range = parsePromqlResponse(
            R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},
            "histograms":[[1,{"count":"1","sum":"1","buckets":[[0,"1","2","1"]]}],
                          [2,{"count":"1","sum":"1","buckets":[[0,"2","1","1"]]}],
                          [3,{"count":"1","sum":"1","buckets":[[0,"1","2"]]}],
                          [4,{"count":"x","sum":"1"}],
                          [5,{"count":"1","sum":"1","buckets":[[0,"1","2","-1"]]}],
                          [6,{"count":"0","sum":"0"}]]}]}})",
            200);
        QVERIFY(range.error.isEmpty());
        QCOMPARE(range.series[0].histograms.size(), size_t(2));
        QCOMPARE(range.series[0].histograms[1].tsMs, 6000LL);
        QVERIFY(range.series[0].histograms[1].buckets.empty());
        QCOMPARE(range.warnings.size(), 1);
        QVERIFY2(range.warnings[0].startsWith(u"4 native histogram values"_s),
                 qPrintable(range.warnings[0]));

        // More buckets than a histogram may hold: that value is left out.
        QByteArray many = R"({"status":"success","data":{"resultType":"vector","result":[
            {"metric":{},"histogram":[1,{"count":"1","sum":"1","buckets":[)";
        for (int i = 0; i <= PromqlResult::MaxBucketsPerHistogram; ++i)
            many += (i ? "," : "") + QByteArray("[0,\"") + QByteArray::number(i) + "\",\""
                + QByteArray::number(i + 1) + "\",\"1\"]";
        many += "]}]}]}}";
        const PromqlResult capped = parsePromqlResponse(many, 200);
        QVERIFY2(capped.error.isEmpty(), qPrintable(capped.error));
        QVERIFY(capped.series[0].histograms.empty());
        QCOMPARE(capped.warnings.size(), 1);
    }

    void quantiles_data()
    {
        QTest::addColumn<QList<double>>("bounds"); // classic: le, ascending
        QTest::addColumn<QList<double>>("cumulative");
        QTest::addColumn<double>("q");
        QTest::addColumn<double>("expected");
        const double inf = std::numeric_limits<double>::infinity();
        const QList<double> le { 0, 0.5, 1, inf };
        const QList<double> counts { 6, 11, 14, 19 };
        // rank 9.5: 6 at or below 0, then 3.5 of the 5 in (0, 0.5].
        QTest::newRow("median") << le << counts << 0.5 << 0.35;
        QTest::newRow("first bucket from 0")
            << QList<double> { 2, 4, inf } << QList<double> { 10, 20, 20 } << 0.25 << 1.0;
        // rank 18.05 lies in the +Inf bucket: the largest finite bound.
        QTest::newRow("+Inf bucket") << le << counts << 0.95 << 1.0;
        QTest::newRow("max") << QList<double> { 1, 2, 4, inf } << QList<double> { 1, 3, 3, 3 }
                             << 1.0 << 2.0;
        QTest::newRow("no events") << le << QList<double> { 0, 0, 0, 0 } << 0.5
                                   << std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("q above 1") << le << counts << 1.5 << inf;
        QTest::newRow("q below 0") << le << counts << -0.1 << -inf;
    }
    void quantiles()
    {
        QFETCH(QList<double>, bounds);
        QFETCH(QList<double>, cumulative);
        QFETCH(double, q);
        QFETCH(double, expected);
        QList<PromqlSeries> series;
        for (qsizetype i = 0; i < bounds.size(); ++i) {
            PromqlSeries bound;
            bound.labels
                = { { u"le"_s, std::isinf(bounds[i]) ? u"+Inf"_s : QString::number(bounds[i]) } };
            bound.points = { { 1000, cumulative[i] } };
            series.append(bound);
        }
        const PromqlHistogramSplit split = splitPromqlHistograms(series);
        QCOMPARE(split.histograms.size(), 1);
        QCOMPARE(split.histograms[0].points.size(), size_t(1));
        const double got = histogramQuantile(q, split.histograms[0].points[0]);
        if (std::isnan(expected))
            QVERIFY(std::isnan(got));
        else
            QVERIFY2(got == expected || std::abs(got - expected) < 1e-12,
                     qPrintable(QString::number(got)));
    }

    // The rank comes from the engine's count: on a bucket's edge, the last bit of it
    // decides the bucket, as it does in PromQL.
    void quantileRanksByTheCount()
    {
        PromqlHistogramPoint point { 1000, 2, 0, { { 0.5, 1, 1 }, { 4, 8, 1 } } };
        QCOMPARE(histogramQuantile(0.5, point), 1.0);
        point.count = std::nextafter(2.0, 3.0);
        QVERIFY(histogramQuantile(0.5, point) > 4.0);
        point.count = 0; // no count sent: the buckets' sum
        QCOMPARE(histogramQuantile(0.5, point), 1.0);
        point.count = 3; // above the buckets' events: the top bucket's end
        QCOMPARE(histogramQuantile(0.9, point), 8.0);
    }

    // A native histogram as PromQL walks it: from the top for q >= 0.5, so a rank on the
    // edge of an empty stretch answers its upper end; from the bottom below 0.5 and when
    // NaN was observed (a NaN sum); the zero bucket from 0 without negative buckets.
    void nativeQuantilesWalkAsPromql()
    {
        PromqlHistogramPoint point { 1000, 4, 10, { { 0.5, 1, 2 }, { 4, 8, 2 } } };
        QCOMPARE(histogramQuantile(0.5, point, HistogramForm::Native), 4.0);
        QCOMPARE(histogramQuantile(0.5, point, HistogramForm::Classic), 1.0);
        QCOMPARE(histogramQuantile(0.75, point, HistogramForm::Native), 6.0); // within
        QCOMPARE(histogramQuantile(0.25, point, HistogramForm::Native), 0.75);
        point.sum = std::nan("");
        QCOMPARE(histogramQuantile(0.5, point, HistogramForm::Native), 1.0);
        point.sum = 10;
        point.buckets.insert(point.buckets.begin(), HistogramBucket { -0.001, 0.001, 4 });
        point.count = 8;
        QCOMPARE(histogramQuantile(0.25, point, HistogramForm::Native), 0.0005);
    }

    void splitsHistogramsFromLines()
    {
        const auto bound = [](const QString &job, const QString &le, std::vector<Sample> points) {
            PromqlSeries s;
            s.labels = { { u"__name__"_s, u"req_seconds_bucket"_s },
                         { u"job"_s, job },
                         { u"le"_s, le } };
            s.points = std::move(points);
            return s;
        };
        PromqlSeries line;
        line.labels = { { u"__name__"_s, u"up"_s } };
        line.points = { { 1000, 1 } };
        PromqlSeries badLe = line;
        badLe.labels.insert(u"le"_s, u"fast"_s); // not a bound: a line like any other
        PromqlSeries native;
        native.labels = { { u"__name__"_s, u"req_seconds"_s } };
        native.histograms = { { 1000, 2, 0.3, { { 0.1, 0.2, 1 }, { 0.4, 0.5, 1 } } },
                              { 2000, 1, 0.1, { { 0.05, 0.1, 1 } } } };
        const QList<PromqlSeries> all {
            line,
            bound(u"b"_s, u"+Inf"_s, { { 1000, 4 }, { 2000, 1.9999 } }),
            bound(u"a"_s, u"1"_s, { { 1000, 3 }, { 2000, 4 }, { 3000, 5 } }),
            native,
            bound(u"a"_s, u"+Inf"_s, { { 1000, 4 }, { 2000, 3.9999 }, { 3000, 6 } }),
            bound(u"a"_s, u"0.1"_s, { { 1000, 1 }, { 3000, 2 } }),
            badLe,
            bound(u"b"_s, u"0.5"_s, { { 1000, 1 }, { 2000, 2 } }),
            bound(u"c"_s, u"0.5"_s, { { 1000, 1 } }),
        };
        const PromqlHistogramSplit split = splitPromqlHistograms(all);
        QCOMPARE(split.plain.size(), 2);
        QCOMPARE(split.histograms.size(), 4); // a, b, c, then the native one
        const PromqlHistogram &a = split.histograms[0];
        QCOMPARE(a.labels, (Labels { { u"__name__"_s, u"req_seconds"_s }, { u"job"_s, u"a"_s } }));
        QVERIFY(a.hasInfBucket && !a.native);
        // 2000 lacks the 0.1 bound: no time of the histogram.
        QCOMPARE(a.points.size(), size_t(2));
        QCOMPARE(a.points[0].tsMs, 1000LL);
        QCOMPARE(a.points[0].count, 4.0);
        const std::vector<HistogramBucket> expected {
            { 0, 0.1, 1 }, { 0.1, 1, 2 }, { 1, std::numeric_limits<double>::infinity(), 1 }
        };
        QCOMPARE(a.points[0].buckets, expected);
        QCOMPARE(split.histograms[1].points.size(), size_t(2));
        // The +Inf count a hair below the bound under it is rate jitter: an empty bucket.
        QCOMPARE(split.histograms[1].points[1].buckets.back().count, 0.0);
        QVERIFY(!split.histograms[2].hasInfBucket);
        QVERIFY(split.histograms[3].native);
        QCOMPARE(split.histograms[3].points, native.histograms);

        // As bound series: every bound at every time, cumulative.
        const auto bounds = cumulativeBoundSeries(split.histograms[3]);
        QCOMPARE(bounds.size(), 3);
        QCOMPARE(bounds[0].first, 0.1);
        QCOMPARE(bounds[0].second, (std::vector<Sample> { { 1000, 0 }, { 2000, 1 } }));
        QCOMPARE(bounds[1].second, (std::vector<Sample> { { 1000, 1 }, { 2000, 1 } }));
        QCOMPARE(bounds[2].first, 0.5);
        QCOMPARE(bounds[2].second, (std::vector<Sample> { { 1000, 2 }, { 2000, 1 } }));
    }

    // An instant answer as a table: the labels in natural order (or as the options
    // name them), the largest value first (NaN last, ties by labels), cut to the limit.
    void tableRows()
    {
        const auto series = [](const QString &nic, double value) {
            PromqlSeries s;
            s.labels = { { u"__name__"_s, u"rx"_s },
                         { u"instance"_s, u"web:9100"_s },
                         { u"device"_s, nic } };
            s.points = { { 1000, value } };
            return s;
        };
        PromqlSeries native; // a native histogram has no value: no row
        native.histograms = { { 1000, 1, 1, {} } };
        PromqlSeries extra = series(u"eth10"_s, 5);
        extra.labels.insert(u"zone"_s, u"b"_s);
        const QList<PromqlSeries> answer { series(u"eth2"_s, 5),
                                           series(u"eth1"_s, std::nan("")),
                                           extra,
                                           native,
                                           series(u"eth3"_s, 9.5),
                                           series(u"eth0"_s, 0) };
        DashboardPanel panel;
        panel.type = PanelType::Table;
        PromqlTableData table = promqlTableOf(answer, panel);
        QCOMPARE(table.columns, (QStringList { u"device"_s, u"instance"_s, u"zone"_s }));
        QStringList order;
        for (const PromqlTableRow &row : std::as_const(table.rows))
            order.append(row.labels.value(u"device"_s));
        // eth10 and eth2 tie at 5: by labels, naturally (device=eth2 < device=eth10).
        QCOMPARE(order, (QStringList { u"eth3"_s, u"eth2"_s, u"eth10"_s, u"eth0"_s, u"eth1"_s }));
        QCOMPARE(table.leftOut, 0);

        panel.options = QJsonObject { { u"columns"_s, QJsonArray { u"instance"_s, u"device"_s } },
                                      { u"limit"_s, 2 },
                                      { u"sort"_s, u"asc"_s } };
        table = promqlTableOf(answer, panel);
        QCOMPARE(table.columns, (QStringList { u"instance"_s, u"device"_s }));
        QCOMPARE(table.rows.size(), 2);
        QCOMPARE(table.rows[0].labels.value(u"device"_s), u"eth0"_s);
        QCOMPARE(table.rows[1].value, 5.0);
        QCOMPARE(table.leftOut, 3);
    }

    void baseUrls()
    {
        QString error;
        QCOMPARE(promqlBaseUrl(u"http://127.0.0.1:9090"_s, &error)->toString(),
                 u"http://127.0.0.1:9090"_s);
        QCOMPARE(promqlBaseUrl(u"https://host/prometheus/?x=1"_s, &error)->toString(),
                 u"https://host/prometheus/"_s);
        QVERIFY(!promqlBaseUrl(u"ftp://host"_s, &error));
        // A dot segment, however written, would take the engine's credentials elsewhere.
        for (const QString &url : { u"http://host/prom/../x"_s, u"http://host/prom/%2e%2E/x"_s,
                                    u"http://host/prom/./x"_s, u"http://host/prom/%252e%252e"_s }) {
            QVERIFY2(!promqlBaseUrl(url, &error), qPrintable(url));
            QVERIFY2(error.contains(u"\"..\" segment"_s), qPrintable(error));
        }
        QVERIFY(promqlBaseUrl(u"http://host/prom/x..y/.z"_s, &error));
        QVERIFY(!promqlBaseUrl(u"http://user:secret@host:9090"_s, &error));
        QVERIFY2(error.contains(u"never from a dashboard"_s) && !error.contains(u"secret"_s),
                 qPrintable(error));
    }

    void steps_data()
    {
        QTest::addColumn<qint64>("rangeMs");
        QTest::addColumn<int>("columns");
        QTest::addColumn<qint64>("stepMs");
        QTest::newRow("5 min on 1600 px") << qint64(300'000) << 1600 << qint64(1'000);
        QTest::newRow("1 h on 1600 px") << qint64(3'600'000) << 1600 << qint64(5'000);
        QTest::newRow("24 h on 1600 px") << qint64(86'400'000) << 1600 << qint64(60'000);
        QTest::newRow("7 d on 1600 px") << qint64(604'800'000) << 1600 << qint64(600'000);
        QTest::newRow("7 d CSV") << qint64(604'800'000) << 0 << qint64(600'000);
        QTest::newRow("400 d on 100 px") << qint64(400) * 86'400'000 << 100 << qint64(604'800'000);
    }
    void steps()
    {
        QFETCH(qint64, rangeMs);
        QFETCH(int, columns);
        QFETCH(qint64, stepMs);
        QCOMPARE(promqlStepMs(1'700'000'000'000, 1'700'000'000'000 + rangeMs, columns), stepMs);
    }

    void variables()
    {
        const QMap<QString, QString> values { { u"host"_s, u"a:9100|b:9100"_s },
                                              { u"hostname"_s, u"db1"_s } };
        QCOMPARE(
            substitutePromqlVariables(
                u"rate(x{instance=~\"$host\",name=\"$hostname\",y=\"${host}\"}[1m])"_s, values),
            u"rate(x{instance=~\"a:9100|b:9100\",name=\"db1\",y=\"a:9100|b:9100\"}[1m])"_s);
    }

    // Label values (a multi-value variable's "*"): strings kept, others counted.
    void labelValues()
    {
        const PromqlLabelValues values = parsePromqlLabelValues(
            "{\"status\":\"success\",\"data\":[\"web1:9100\",3,\"web2:9100\",null]}", 200);
        QVERIFY(values.error.isEmpty());
        QCOMPARE(values.values, (QStringList { u"web1:9100"_s, u"web2:9100"_s }));
        QCOMPARE(values.warnings.size(), 1);
        QVERIFY2(values.warnings.first().startsWith(u"2 label values left out"_s),
                 qPrintable(values.warnings.first()));
        const PromqlLabelValues refused = parsePromqlLabelValues(
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid label "
            "name\"}",
            400);
        QCOMPARE(refused.error, u"bad_data: invalid label name"_s);
        QVERIFY(refused.values.isEmpty());
        QCOMPARE(parsePromqlLabelValues("{\"status\":\"success\",\"data\":{}}", 200).error,
                 u"label values are no list"_s);
    }

    // The values panels and sections repeat over, as given (no engine asked).
    void repeatValuesAsGiven()
    {
        Dashboard dashboard;
        DashboardVariable host;
        host.name = u"host"_s;
        host.multi = true;
        host.defaultValue = u"a, b"_s;
        DashboardVariable zone = host;
        zone.name = u"zone"_s;
        zone.defaultValue = u"*"_s;
        zone.options = { u"*"_s, u"eu"_s, u"us"_s };
        dashboard.variables = { host, zone };
        DashboardSection section;
        section.title = u"Host $host"_s;
        section.repeat = u"host"_s;
        dashboard.sections = { section };
        DashboardPanel panel;
        panel.id = u"p"_s;
        panel.repeat = u"zone"_s;
        dashboard.panels = { panel };
        QStringList messages;
        const auto values = resolveRepeatValues(dashboard, nullptr, 0, 1000, &messages);
        QVERIFY(messages.isEmpty());
        QCOMPARE(values.value(u"host"_s), (QStringList { u"a"_s, u"b"_s })); // a section's
        QCOMPARE(values.value(u"zone"_s), (QStringList { u"eu"_s, u"us"_s })); // * of options

        // The variable bar's choices: options, then the engine's values, each once; "*"
        // leads only where it means the engine's list.
        QCOMPARE(variableChoices(zone, { u"us"_s, u"ap"_s }),
                 (QStringList { u"*"_s, u"eu"_s, u"us"_s, u"ap"_s }));
        host.labelValues.label = u"instance"_s;
        QCOMPARE(variableChoices(host, { u"b:9100"_s, u"a:9100"_s }),
                 (QStringList { u"*"_s, u"b:9100"_s, u"a:9100"_s }));
        host.multi = false;
        QCOMPARE(variableChoices(host, { u"a:9100"_s }), QStringList { u"a:9100"_s });
    }

    // A multi-value variable inside =~"...": each value matched literally.
    void multiValueRegex_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("regex");
        QTest::newRow("all") << u" * "_s << u".+"_s;
        QTest::newRow("host and port")
            << u"10.0.0.1:9100, web2:9100"_s << u"(10\\\\.0\\\\.0\\\\.1:9100|web2:9100)"_s;
        QTest::newRow("metacharacters") << u"a+b(c)|d"_s << u"(a\\\\+b\\\\(c\\\\)\\\\|d)"_s;
        QTest::newRow("quote and backslash") << u"x\"y\\z"_s << u"(x\\\"y\\\\\\\\z)"_s;
    }
    void multiValueRegex()
    {
        QFETCH(QString, value);
        QFETCH(QString, regex);
        QCOMPARE(promqlRegexOfValues(value), regex);
        // Through the engines: multi-value variables as regular expressions, a repeated
        // copy's own value as it is.
        PromqlEngines engines;
        engines.set({ { { u"prom"_s, QUrl(u"http://127.0.0.1:9"_s) } },
                      { { u"host"_s, value }, { u"job"_s, u"a.b"_s } },
                      { u"host"_s } });
        QString message;
        const auto target = promqlTarget({}, &engines, &message);
        QVERIFY2(target, qPrintable(message));
        QCOMPARE(target->variables.value(u"host"_s), regex);
        QCOMPARE(target->variables.value(u"job"_s), u"a.b"_s); // single-value: as it is
        const auto copy = promqlTarget({}, &engines, &message, { { u"host"_s, u"web1"_s } });
        QCOMPARE(copy->variables.value(u"host"_s), u"web1"_s);
    }

    void dashboardReader_data()
    {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QString>("sources");
        QTest::addColumn<QString>("error"); // empty: accepted
        const QString one = QString::fromUtf8(
            "{\"id\": \"prom\", \"plugin\": \"promql\", \"config\": {\"url\": \"http://x:9090\"}}");
        const QString two = one
            + QString::fromUtf8(", {\"id\": \"vm\", \"plugin\": \"promql\", \"config\": {\"url\": "
                                "\"http://x:8428\"}}");
        QTest::newRow("accepted") << QString::fromUtf8("\"query\": \"up\"") << one << QString();
        QTest::newRow("no engine") << QString::fromUtf8("\"query\": \"up\"") << QString()
                                   << u"panels[0].query: needs a source with plugin \"promql\""_s;
        QTest::newRow("two engines") << QString::fromUtf8("\"query\": \"up\"") << two
                                     << u"panels[0].query: needs \"querySource\""_s;
        QTest::newRow("named") << QString::fromUtf8("\"query\": \"up\", \"querySource\": \"vm\"")
                               << two << QString();
        QTest::newRow("not an engine")
            << QString::fromUtf8("\"query\": \"up\", \"querySource\": \"nope\"") << two
            << u"panels[0].querySource: \"nope\" is not a source"_s;
        QTest::newRow("source without query")
            << QString::fromUtf8("\"querySource\": \"prom\"") << one
            << u"panels[0].querySource: is set without a query"_s;
        QTest::newRow("both") << QString::fromUtf8(
            "\"query\": \"up\", \"series\": [{\"source\": \"prom\", \"metric\": \"b\"}]")
                              << one << u"panels[0].query: a panel reads either"_s;
        QTest::newRow("heatmap") << QString::fromUtf8("\"type\": \"heatmap\", \"query\": \"up\"")
                                 << one << QString();
        QTest::newRow("shard table")
            << QString::fromUtf8("\"type\": \"shardtable\", \"query\": \"up\"") << one
            << u"panels[0].query: only timeseries, heatmap, table and stat panels read a PromQL query"_s;
        QTest::newRow("table") << QString::fromUtf8(
            "\"type\": \"table\", \"query\": \"up\", \"options\": {\"columns\": [\"instance\"], "
            "\"limit\": 10, \"sort\": \"asc\"}")
                               << one << QString();
        QTest::newRow("table without query")
            << QString::fromUtf8("\"type\": \"table\", \"query\": \"\"") << one
            << u"panels[0].query: is required: a table panel shows an engine's instant query"_s;
        QTest::newRow("table limit") << QString::fromUtf8(
            "\"type\": \"table\", \"query\": \"up\", \"options\": {\"limit\": 0}")
                                     << one << u"panels[0].options.limit:"_s;
        QTest::newRow("table sort")
            << QString::fromUtf8(
                   "\"type\": \"table\", \"query\": \"up\", \"options\": {\"sort\": \"up\"}")
            << one << u"panels[0].options.sort: must be \"asc\" or \"desc\""_s;
        QTest::newRow("table column") << QString::fromUtf8(
            "\"type\": \"table\", \"query\": \"up\", \"options\": {\"columns\": [\"a-b\"]}")
                                      << one << u"panels[0].options.columns[0]:"_s;
        QTest::newRow("table column twice")
            << QString::fromUtf8("\"type\": \"table\", \"query\": \"up\", \"options\": "
                                 "{\"columns\": [\"a\", \"a\"]}")
            << one << u"panels[0].options.columns[1]: label \"a\" is listed twice"_s;
        QTest::newRow("table option") << QString::fromUtf8(
            "\"type\": \"table\", \"query\": \"up\", \"options\": {\"top\": 3}")
                                      << one << u"panels[0].options.top:"_s;
        QTest::newRow("too long") << u"\"query\": \""_s + QString(20000, u'x') + u'"' << one
                                  << u"panels[0].query:"_s;
    }
    void dashboardReader()
    {
        QFETCH(QString, panel);
        QFETCH(QString, sources);
        QFETCH(QString, error);
        const QString json
            = QString::fromUtf8(
                  "{\"schemaVersion\": 3, \"title\": \"t\", \"sources\": [%1], \"panels\": "
                  "[{\"id\": "
                  "\"p\", %3\"legend\": \"{{ instance }} up\", %2}]}")
                  .arg(sources, panel,
                       panel.contains(u"\"type\""_s) ? QString() : u"\"type\": \"timeseries\", "_s);
        const DashboardLoadResult loaded = parseDashboard(json.toUtf8(), u"t.json"_s);
        if (error.isEmpty()) {
            QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
            QCOMPARE(loaded.dashboard->panels[0].query, u"up"_s);
            // Grafana's {{label}} is this reader's {label}.
            QCOMPARE(loaded.dashboard->panels[0].legend, u"{instance} up"_s);
            // It saves and loads back the same.
            const DashboardLoadResult again
                = parseDashboard(dashboardToJson(*loaded.dashboard), u"t.json"_s);
            QVERIFY(again.ok());
            QCOMPARE(again.dashboard->panels, loaded.dashboard->panels);
        } else {
            QVERIFY(!loaded.ok());
            QVERIFY2(loaded.error.toString().contains(error), qPrintable(loaded.error.toString()));
        }
    }
};

QTEST_GUILESS_MAIN(TestPromqlUnit)
#include "tst_promqlunit.moc"
