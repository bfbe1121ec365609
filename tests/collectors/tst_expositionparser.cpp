// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The Prometheus exposition parser (collectors/prometheus/expositionparser.h): a real
// node_exporter 1.9 page, OpenMetrics 1.0 with every construct, and malformed lines,
// each skipped and counted under its reason while the lines around it survive.
#include "collectortestutil.h"
#include "expositionparser.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const ExpositionFamily *findFamily(const Exposition &e, const QString &name)
{
    for (const ExpositionFamily &f : e.families)
        if (f.name == name)
            return &f;
    return nullptr;
}

} // namespace

class TestExpositionParser : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void realNodeExporter()
    {
        const QByteArray text = readFixture(u"prometheus/node_exporter-1.9.txt"_s);
        QVERIFY(!text.isEmpty());
        const Exposition e = parseExposition(text, ExpositionFormat::Text004);
        QCOMPARE(e.skippedLines, 0);
        QVERIFY(!e.truncated);
        int sampleLines = 0;
        for (const auto allLines = text.split('\n'); const QByteArray &line : allLines)
            sampleLines += !line.isEmpty() && !line.startsWith('#');
        QCOMPARE(e.samples, sampleLines);
        QCOMPARE(e.families.size(), 168); // one per TYPE line
        const ExpositionFamily *cpu = findFamily(e, u"node_cpu_seconds_total"_s);
        QVERIFY(cpu);
        QCOMPARE(cpu->type, MetricType::Counter);
        QVERIFY(cpu->help.startsWith(u"Seconds the CPUs spent"_s));
        const auto idle0 = std::find_if(
            cpu->samples.cbegin(), cpu->samples.cend(), [](const ExpositionSample &s) {
                return s.labels == Labels { { u"cpu"_s, u"0"_s }, { u"mode"_s, u"idle"_s } };
            });
        QVERIFY(idle0 != cpu->samples.cend());
        QCOMPARE(idle0->value, 10245.75);
        QCOMPARE(findFamily(e, u"node_load1"_s)->type, MetricType::Gauge);
        QCOMPARE(findFamily(e, u"node_netstat_Tcp_RetransSegs"_s)->type, MetricType::Untyped);
        QVERIFY(e.summary().isEmpty());
    }

    void openMetrics()
    {
        const Exposition e = parseExposition(readFixture(u"prometheus/openmetrics-1.0.txt"_s),
                                             ExpositionFormat::OpenMetrics);
        QVERIFY2(e.skippedLines == 0, qPrintable(e.summary()));
        QVERIFY(!e.truncated);
        // Suffixed samples land in their family.
        const ExpositionFamily *histogram = findFamily(e, u"http_request_duration_seconds"_s);
        QVERIFY(histogram);
        QCOMPARE(histogram->type, MetricType::Histogram);
        QCOMPARE(histogram->unit, u"seconds"_s);
        QCOMPARE(histogram->samples.size(), 7);
        QCOMPARE(histogram->samples[0].labels.value(u"le"_s), u"0.005"_s);
        QCOMPARE(histogram->samples[0].value, 10.0); // the exemplar is not the value
        QCOMPARE(histogram->samples[3].labels.value(u"le"_s), u"+Inf"_s);
        const ExpositionFamily *counter = findFamily(e, u"process_cpu_seconds"_s);
        QCOMPARE(counter->samples.size(), 1);
        QCOMPARE(counter->samples[0].name, u"process_cpu_seconds_total"_s);
        QCOMPARE(findFamily(e, u"acme_http_router_request_seconds"_s)->samples.size(), 6);
        const ExpositionFamily *info = findFamily(e, u"build"_s);
        QCOMPARE(info->type, MetricType::Info);
        QCOMPARE(info->samples[0].labels.value(u"path"_s), u"C:\\bin\\x \"quoted\"\nnext"_s);
        QCOMPARE(info->samples[0].timestampMs, 1520879607789); // seconds in OpenMetrics
        QCOMPARE(e.families.size(), 5);
    }

    void text004Details()
    {
        const QByteArray text = "# TYPE rpc histogram\n"
                                "rpc_bucket{le=\"0.1\",} 3 1700000000123\n" // trailing comma, ms
                                "rpc_bucket{le=\"+Inf\"} 5\n"
                                "rpc_sum 0.4\n"
                                "rpc_count 5\n"
                                "  temp{room=\"a b\"}\t NaN\n" // blanks and tabs
                                "temp{room=\"c\"} +Inf\n"
                                "temp{room=\"d\"} -inf\n"
                                "# just a comment\n"
                                "plain 1e3\n";
        const Exposition e = parseExposition(text, ExpositionFormat::Text004);
        QVERIFY2(e.skippedLines == 0, qPrintable(e.summary()));
        QCOMPARE(e.families.size(), 3);
        QCOMPARE(e.families[0].samples.size(), 4);
        QCOMPARE(e.families[0].samples[0].timestampMs, 1700000000123);
        QVERIFY(qIsNaN(e.families[1].samples[0].value));
        QCOMPARE(e.families[1].samples[0].labels.value(u"room"_s), u"a b"_s);
        QVERIFY(qIsInf(e.families[1].samples[1].value) && e.families[1].samples[1].value > 0);
        QVERIFY(e.families[1].samples[2].value < 0);
        QCOMPARE(e.families[2].samples[0].value, 1000.0);
    }

    void malformedLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<bool>("openMetrics");
        QTest::addColumn<QString>("reason");
        QTest::newRow("name") << QByteArray("9metric 1") << false << u"bad metric name"_s;
        QTest::newRow("no value") << QByteArray("metric") << false << u"no value"_s;
        QTest::newRow("value") << QByteArray("metric abc") << false << u"value is not a number"_s;
        QTest::newRow("label name") << QByteArray("m{1a=\"x\"} 1") << false << u"bad label name"_s;
        QTest::newRow("label quote") << QByteArray("m{a=x} 1") << false << u"bad label syntax"_s;
        QTest::newRow("unterminated")
            << QByteArray("m{a=\"x} 1") << false << u"unterminated label value"_s;
        QTest::newRow("duplicate label")
            << QByteArray("m{a=\"x\",a=\"y\"} 1") << false << u"duplicate label"_s;
        QTest::newRow("timestamp") << QByteArray("m 1 soon") << false << u"bad timestamp"_s;
        QTest::newRow("extra") << QByteArray("m 1 2 3") << false
                               << u"unexpected text after the value"_s;
        QTest::newRow("type") << QByteArray("# TYPE m sometimes") << false
                              << u"unknown metric type"_s;
        QTest::newRow("type name")
            << QByteArray("# TYPE 9m gauge") << false << u"bad metric name"_s;
        QTest::newRow("binary") << QByteArray("\x01\x02\xff\xfe") << false << u"bad metric name"_s;
        QTest::newRow("long") << QByteArray(Exposition::MaxLineBytes + 1, 'a') << false
                              << u"line too long"_s;
        QTest::newRow("om trailing comma")
            << QByteArray("m{a=\"x\",} 1") << true << u"bad label syntax"_s;
        QTest::newRow("om comment") << QByteArray("# hello") << true
                                    << u"comment (OpenMetrics allows only HELP, TYPE, UNIT, EOF)"_s;
    }

    void malformedLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(bool, openMetrics);
        QFETCH(QString, reason);
        const QByteArray text
            = "good 1\n" + line + "\nalso_good 2\n" + (openMetrics ? "# EOF\n" : "");
        const Exposition e = parseExposition(
            text, openMetrics ? ExpositionFormat::OpenMetrics : ExpositionFormat::Text004);
        QCOMPARE(e.skippedLines, 1);
        QCOMPARE(e.skippedByReason.value(reason), 1);
        QCOMPARE(e.firstProblem, u"line 2: "_s + reason);
        QCOMPARE(e.samples, 2); // the lines around it survive
        QVERIFY(e.summary().startsWith(u"1 line(s) skipped (1 "_s + reason));
    }

    void truncation()
    {
        // OpenMetrics without "# EOF" is a cut-off scrape; text after it is skipped.
        QVERIFY(parseExposition("m 1\n", ExpositionFormat::OpenMetrics).truncated);
        const Exposition after
            = parseExposition("m 1\n# EOF\nx 2\n", ExpositionFormat::OpenMetrics);
        QVERIFY(!after.truncated);
        QCOMPARE(after.skippedByReason.value(u"text after # EOF"_s), 1);
        // A runaway page stops at MaxSamples.
        QByteArray many;
        for (int i = 0; i <= Exposition::MaxSamples; ++i)
            many += "m{i=\"" + QByteArray::number(i) + "\"} 1\n";
        const Exposition capped = parseExposition(many, ExpositionFormat::Text004);
        QVERIFY(capped.truncated);
        QCOMPARE(capped.samples, Exposition::MaxSamples);
        QCOMPARE(capped.skippedByReason.value(u"too many samples"_s), 1);
    }

    // HELP/TYPE lines alone (or one sample per name) would make a family each: new
    // families stop at MaxFamilies, those already seen keep their samples.
    void familyCap_data()
    {
        QTest::addColumn<QByteArray>("perFamily"); // %1 is the family's number
        QTest::newRow("TYPE lines") << QByteArray("# TYPE f%1 gauge\n");
        QTest::newRow("HELP lines") << QByteArray("# HELP f%1 what\n");
        QTest::newRow("samples") << QByteArray("f%1 1\n");
    }

    void familyCap()
    {
        QFETCH(QByteArray, perFamily);
        constexpr int Extra = 5;
        QByteArray page;
        for (int i = 0; i < Exposition::MaxFamilies + Extra; ++i)
            page += QByteArray(perFamily).replace("%1", QByteArray::number(i));
        page += "f0 7\n"; // a family already seen still takes samples
        const Exposition e = parseExposition(page, ExpositionFormat::Text004);
        QCOMPARE(e.families.size(), qsizetype(Exposition::MaxFamilies));
        const QString reason = u"too many metric families (cap %1)"_s.arg(Exposition::MaxFamilies);
        QCOMPARE(e.skippedByReason.value(reason), Extra);
        QVERIFY2(e.summary().contains(reason), qPrintable(e.summary()));
        QCOMPARE(e.families.first().name, u"f0"_s);
        QCOMPARE(e.families.first().samples.constLast().value, 7.0);
    }

    void contentTypes()
    {
        QCOMPARE(expositionFormatFromContentType(
                     "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"),
                 ExpositionFormat::Text004);
        QCOMPARE(expositionFormatFromContentType(
                     "application/openmetrics-text; version=1.0.0; charset=utf-8"),
                 ExpositionFormat::OpenMetrics);
        QCOMPARE(expositionFormatFromContentType("Application/OpenMetrics-Text"),
                 ExpositionFormat::OpenMetrics);
        QCOMPARE(expositionFormatFromContentType(""), ExpositionFormat::Text004);
    }
};

QTEST_GUILESS_MAIN(TestExpositionParser)
#include "tst_expositionparser.moc"
