// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The import readers on text written here: each format found from the content, times
// in every accepted form, headers in PromQL form, the import map, catalogue metadata and
// resources named from labels; and malformed or oversized input refused with its line.
#include "engine/import/importreader.h"
#include "engine/import/importvalues.h"
#include "importtestutil.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace Headroom;
using Headroom::Test::MemorySink;

namespace {

const MetricSpec CpuSpec {
    u"host.cpu.utilization"_s, u"%"_s, UseKind::Utilization, u"cpu"_s, {}, {}
};

Import::Options optionsFor(const QString &mapJson = {})
{
    Import::Options options;
    options.fileName = u"in.csv"_s;
    options.catalogue
        = [](const QString &metric) { return metric == CpuSpec.name ? &CpuSpec : nullptr; };
    if (!mapJson.isEmpty()) {
        QString error;
        options.map = Import::parseImportMap(mapJson.toUtf8(), &error);
        if (!options.map)
            qWarning() << error;
    }
    return options;
}

// "metric{labels}" of each series, in the order met.
QStringList names(const MemorySink &sink)
{
    QStringList out;
    for (const SeriesInfo &info : sink.infos)
        out << info.key.metric + labelsToString(info.key.labels);
    return out;
}

} // namespace

class TestImportReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void times_data();
    void times();
    void formats_data();
    void formats();
    void malformedInputNamesTheLine_data();
    void malformedInputNamesTheLine();
    void mapRules();
    void badMapsAreRefusedWithTheField_data();
    void badMapsAreRefusedWithTheField();
    void catalogueAndLabelsDescribeSeries();
    void longCsvKeepsNaNAndDedupesSeries();
};

void TestImportReader::times_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<qint64>("ms");
    QTest::newRow("epoch seconds") << "1767225600"_ba << true << 1767225600000LL;
    QTest::newRow("epoch seconds, fraction") << "1767225600.25"_ba << true << 1767225600250LL;
    QTest::newRow("epoch ms") << "1767225600123"_ba << true << 1767225600123LL;
    QTest::newRow("ISO Z ms") << "2026-01-01T00:00:00.123Z"_ba << true << 1767225600123LL;
    QTest::newRow("ISO no zone is UTC") << "2026-01-01 00:00:00"_ba << true << 1767225600000LL;
    QTest::newRow("ISO offset") << "2026-01-01T01:00:00+01:00"_ba << true << 1767225600000LL;
    QTest::newRow("ISO minutes only") << "2026-01-01T00:01"_ba << true << 1767225660000LL;
    QTest::newRow("ISO date alone") << "2026-01-02"_ba << true << 1767312000000LL;
    QTest::newRow("before 1900") << "1800-01-01T00:00:00Z"_ba << false << 0LL;
    QTest::newRow("month 13") << "2026-13-01T00:00:00Z"_ba << false << 0LL;
    QTest::newRow("February 30") << "2026-02-30T00:00:00Z"_ba << false << 0LL;
    QTest::newRow("garbage zone") << "2026-01-01T00:00:00Q"_ba << false << 0LL;
    QTest::newRow("text") << "yesterday"_ba << false << 0LL;
    QTest::newRow("infinite") << "inf"_ba << false << 0LL;
    QTest::newRow("empty") << ""_ba << false << 0LL;
}

void TestImportReader::times()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, ok);
    QFETCH(qint64, ms);
    qint64 parsed = 0;
    QCOMPARE(Import::parseTime(text, &parsed), ok);
    if (ok)
        QCOMPARE(parsed, ms);
}

void TestImportReader::formats_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("format");
    QTest::addColumn<QStringList>("series");
    QTest::addColumn<int>("samples");
    QTest::addColumn<qint64>("firstMs");
    QTest::addColumn<double>("firstValue");
    QTest::newRow("wide, epoch seconds")
        << "time,a,b\n1767225600,1,2\n1767225601,3,\n"_ba << int(Import::Format::WideCsv)
        << QStringList { u"a{}"_s, u"b{}"_s } << 3 << 1767225600000LL << 1.0;
    QTest::newRow("wide, time not first, CRLF, BOM, quoted header")
        << "\xEF\xBB\xBF\"x, y\",Timestamp\r\n5.5,2026-01-01T00:00:00Z\r\n"_ba
        << int(Import::Format::WideCsv) << QStringList { u"x, y{}"_s } << 1 << 1767225600000LL
        << 5.5;
    QTest::newRow("wide, Grafana labels in headers")
        << "Time,\"node_load1{instance=\"\"a:9100\"\", job=\"\"node\"\"}\",\"{__name__=\"\"up\"\", "
           "instance=\"\"b\"\"}\"\n2026-01-01 00:00:00,0.5,1\n"_ba
        << int(Import::Format::WideCsv)
        << QStringList { u"node_load1{instance=a:9100,job=node}"_s, u"up{instance=b}"_s } << 2
        << 1767225600000LL << 0.5;
    QTest::newRow("wide, null and missing cells skipped")
        << "time,a\n1767225600000,null\n1767225601000,\n1767225602000,-1e3\n"_ba
        << int(Import::Format::WideCsv) << QStringList { u"a{}"_s } << 1 << 1767225602000LL
        << -1000.0;
    QTest::newRow("long, Headroom's export")
        << "time,panel,source,metric,labels,value,unit\r\n"
           "2026-01-01T00:00:00.000Z,cpu,host,host.cpu.utilization,{cpu=all},12.5,%\r\n"
           "2026-01-01T00:00:01.000Z,cpu,host,host.cpu.utilization,{cpu=all},13,%\r\n"_ba
        << int(Import::Format::LongCsv) << QStringList { u"host.cpu.utilization{cpu=all}"_s } << 2
        << 1767225600000LL << 12.5;
    QTest::newRow("long, the export's view rows left out")
        << "time,panel,source,metric,labels,value,unit\n"
           "2026-01-01T00:00:00.000Z,p,h,m,{a=1},1,%\n"
           "2026-01-01T00:00:00.000Z,p,h,m,\"{a=1,resource=cpu,use=utilization}\",1,%\n"
           "2026-01-01T00:00:00.000Z,p,h,m,\"{a=1,reduce=last}\",1,%\n"
           "2026-01-01T00:00:00.000Z,p,h,m,\"{a=1,compare=1h}\",1,%\n"
           "2026-01-01T00:00:00.000Z,p,h,m,\"{bucket=1ms,gt_ms=0,le_ms=1}\",1,%\n"
           "2026-01-01T00:00:00.000Z,p,h,shard.load.bucket,{set=s},1,%\n"_ba
        << int(Import::Format::LongCsv) << QStringList { u"m{a=1}"_s } << 1 << 1767225600000LL
        << 1.0;
    QTest::newRow("long, minimal columns")
        << "metric,time,value\nq,1767225600,7\n"_ba << int(Import::Format::LongCsv)
        << QStringList { u"q{}"_s } << 1 << 1767225600000LL << 7.0;
    QTest::newRow("OpenMetrics, seconds, UNIT, exemplar, EOF")
        << "# TYPE req counter\n# UNIT req requests\n"
           "req_total{code=\"200\"} 10 1767225600.5 # {trace_id=\"x\"} 1\n"
           "req_total{code=\"200\"} 12 1767225601.5\n# EOF\n"_ba
        << int(Import::Format::OpenMetrics) << QStringList { u"req_total{code=200}"_s } << 2
        << 1767225600500LL << 10.0;
    QTest::newRow("Prometheus text, milliseconds, labels reordered are one series")
        << "up{job=\"a\",instance=\"b\"} 1 1767225600000\n"
           "up{instance=\"b\",job=\"a\"} 0 1767225615000\n"_ba
        << int(Import::Format::OpenMetrics) << QStringList { u"up{instance=b,job=a}"_s } << 2
        << 1767225600000LL << 1.0;
}

void TestImportReader::formats()
{
    QFETCH(QByteArray, text);
    QFETCH(int, format);
    QFETCH(QStringList, series);
    QFETCH(int, samples);
    QFETCH(qint64, firstMs);
    QFETCH(double, firstValue);
    MemorySink sink;
    const Import::Result result = Import::readImport(text, optionsFor(), &sink);
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(int(result.format), format);
    QCOMPARE(names(sink), series);
    QCOMPARE(int(sink.points.size()), samples);
    QCOMPARE(result.samples, qint64(samples));
    QCOMPARE(sink.points.front().tsMs, firstMs);
    QCOMPARE(sink.points.front().value, firstValue);
    QCOMPARE(sink.timeOrdered, format == int(Import::Format::WideCsv));
}

void TestImportReader::malformedInputNamesTheLine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("wide, a field too few") << "time,a,b\n1767225600,1,2\n1767225601,3\n"_ba
                                           << u"in.csv: line 3: 2 fields where the header has 3"_s;
    QTest::newRow("wide, not a number")
        << "time,a\n1767225600,1\n\n1767225601,abc\n"_ba
        << u"in.csv: line 4: column 2 (a): \"abc\" is not a number"_s;
    QTest::newRow("wide, not a time")
        << "time,a\n1767225600,1\nnoon,2\n"_ba
        << u"in.csv: line 3: the time \"noon\" is not a time (epoch seconds or milliseconds, or "
           "ISO 8601, from 1900 to 2200)"_s;
    QTest::newRow("wide, time goes back")
        << "time,a\n1767225600,1\n1767225500,2\n"_ba
        << u"in.csv: line 3: the time \"1767225500\" is earlier than the row before: rows must "
           "be in time order"_s;
    QTest::newRow("wide, unclosed quote")
        << "time,a\n1767225600,\"1\n"_ba << u"in.csv: line 2: a quoted field is not closed"_s;
    QTest::newRow("wide, quote inside a field")
        << "time,a\n1767225600,1\"2\n"_ba << u"in.csv: line 2: a quote inside an unquoted field"_s;
    QTest::newRow("wide, two columns one series")
        << "time,a,a\n"_ba << u"in.csv: line 1: columns 2 and 3 are the same series (a{})"_s;
    QTest::newRow("wide, one column")
        << "time\n1\n"_ba
        << u"in.csv: line 1: one column: a time and at least one series are needed (or a header "
           "time,metric,labels,value)"_s;
    QTest::newRow("long, bad labels")
        << "time,metric,labels,value\n1767225600,m,{a=1},1\n1767225600,n,{a},2\n"_ba
        << u"in.csv: line 3: the labels \"{a}\" are not {name=value,...}"_s;
    QTest::newRow("long, empty metric") << "time,metric,labels,value\n1767225600,,{},1\n"_ba
                                        << u"in.csv: line 2: the metric is empty"_s;
    QTest::newRow("OpenMetrics, no timestamp")
        << "# TYPE up gauge\nup 1\n"_ba
        << u"in.csv: line 2: the sample has no timestamp (only samples with one can be placed "
           "in time)"_s;
    QTest::newRow("OpenMetrics, unclosed label")
        << "up{job=\"a 1 1767225600\n"_ba
        << u"in.csv: line 1: label job: its value is not closed"_s;
    QTest::newRow("OpenMetrics, text after EOF")
        << "up 1 1767225600\n# EOF\nup 2 1767225601\n"_ba << u"in.csv: line 3: text after # EOF"_s;
    QTest::newRow("OpenMetrics, trailing junk")
        << "up 1 1767225600 x\n"_ba << u"in.csv: line 1: unexpected \"x\" after the timestamp"_s;
    QTest::newRow("empty file") << ""_ba << u"in.csv: holds nothing to import"_s;
}

void TestImportReader::malformedInputNamesTheLine()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    MemorySink sink;
    const Import::Result result = Import::readImport(text, optionsFor(), &sink);
    QVERIFY(!result.ok);
    QCOMPARE(result.error, error);
}

void TestImportReader::mapRules()
{
    const QString map = uR"({"time": "when", "columns": [
        {"match": "^(.+)_cpu$", "metric": "container.cpu.utilization",
         "labels": {"service": "$1"}, "unit": "%", "kind": "utilization"},
        {"match": "^(.+)_lat_(\\d+)$", "metric": "service.latency",
         "labels": {"service": "$1", "quantile": "p$2"}, "unit": "s", "kind": "latency"},
        {"match": "cpu", "metric": "never.used"}]})"_s;
    MemorySink sink;
    const QByteArray text = "api_cpu,when,api_lat_99,misc\n1,1767225600,0.2,5\n"_ba;
    const Import::Result result = Import::readImport(text, optionsFor(map), &sink);
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(names(sink),
             (QStringList { u"container.cpu.utilization{service=api}"_s,
                            u"service.latency{quantile=p99,service=api}"_s, u"misc{}"_s }));
    QCOMPARE(sink.infos[0].unit, u"%"_s);
    QCOMPARE(sink.infos[0].kind, UseKind::Utilization);
    QCOMPARE(sink.infos[0].resource, u"service:api"_s);
    QCOMPARE(sink.infos[1].kind, UseKind::Latency);
    QCOMPARE(sink.infos[1].unit, u"s"_s);
    QCOMPARE(sink.infos[2].kind, UseKind::Info); // no rule: its header, no kind
    QCOMPARE(sink.points.front().tsMs, 1767225600000LL); // the map's time column
    QCOMPARE(sink.points.front().value, 1.0);

    // The map's time column must exist.
    MemorySink other;
    const Import::Result missing
        = Import::readImport("time,api_cpu\n1767225600,1\n"_ba, optionsFor(map), &other);
    QCOMPARE(missing.error,
             u"in.csv: line 1: no column is named \"when\" (the map's time column)"_s);
}

void TestImportReader::badMapsAreRefusedWithTheField_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("bad regex")
        << u"{\"columns\": [{\"match\": \"(\"}]}"_s
        << u"columns[0].match: not a regular expression: missing closing parenthesis"_s;
    QTest::newRow("bad kind") << u"{\"columns\": [{\"match\": \"a\", \"kind\": \"speed\"}]}"_s
                              << u"columns[0].kind: must be one of utilization, saturation, "
                                 "errors, latency, throughput, info, got \"speed\""_s;
    QTest::newRow("bad label name")
        << u"{\"columns\": [{\"match\": \"a\", \"labels\": {\"1x\": \"v\"}}]}"_s
        << u"columns[0].labels.1x: \"1x\" is no label name ([A-Za-z_][A-Za-z0-9_]*)"_s;
    QTest::newRow("unknown field")
        << u"{\"colums\": []}"_s << u"colums: unknown field (expected time, columns)"_s;
}

void TestImportReader::badMapsAreRefusedWithTheField()
{
    QFETCH(QString, json);
    QFETCH(QString, error);
    QString why;
    QVERIFY(!Import::parseImportMap(json.toUtf8(), &why));
    QCOMPARE(why, error);
}

void TestImportReader::catalogueAndLabelsDescribeSeries()
{
    MemorySink sink;
    const QByteArray text = "time,host.cpu.utilization,\"lat{pod=\"\"p1\"\",host=\"\"h\"\"}\"\n"
                            "1767225600,50,0.1\n"_ba;
    const Import::Result result = Import::readImport(text, optionsFor(), &sink);
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(sink.infos[0].unit, u"%"_s); // from the catalogue
    QCOMPARE(sink.infos[0].kind, UseKind::Utilization);
    QCOMPARE(sink.infos[0].resource, u"cpu"_s);
    QCOMPARE(sink.infos[1].resource, u"host:h"_s); // host before pod
    QCOMPARE(sink.infos[1].kind, UseKind::Info);
}

void TestImportReader::longCsvKeepsNaNAndDedupesSeries()
{
    MemorySink sink;
    // The same series in two panels, and a NaN written as an empty value.
    const QByteArray text = "time,panel,source,metric,labels,value,unit\n"
                            "2026-01-01T00:00:00.000Z,p1,s,m,{a=1},,B\n"
                            "2026-01-01T00:00:00.000Z,p2,s,m,{a=1},2,B\n"
                            "2026-01-01T00:00:00.000Z,p2,s,m,\"{a=1}\",3,B\n"_ba;
    const Import::Result result = Import::readImport(text, optionsFor(), &sink);
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(int(sink.infos.size()), 1);
    QCOMPARE(sink.infos[0].key.source, u"s"_s);
    QCOMPARE(sink.infos[0].unit, u"B"_s);
    QCOMPARE(int(sink.points.size()), 3);
    QVERIFY(std::isnan(sink.points[0].value));
}

QTEST_GUILESS_MAIN(TestImportReader)
#include "tst_importreader.moc"
