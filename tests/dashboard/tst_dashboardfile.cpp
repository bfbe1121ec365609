// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Reading and writing dashboard files: what a file gives, defaults and the automatic
// layout, the shipped dashboards, round trips and stable output, and the errors that
// name a whole file. Refusals of single fields: tst_dashboardfilerefusals; saving:
// tst_dashboardfilesave.
#include "dashboardfiletestutil.h"
#include "document/dashboardedit.h"
#include "document/dashboardfile.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Headroom::YScale)

class TestDashboardFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void loadExample();
    void defaults();
    void autoLayout();
    void shippedDashboardsLoadWithoutOverlap_data();
    void shippedDashboardsLoadWithoutOverlap();
    void unknownKeysIgnored();
    void sourcePatternNeedsNoDeclaredSource();
    void roundTripBuilt();
    void roundTripFixture();
    void outputIsStable();
    void percentilesAndYScale_data();
    void percentilesAndYScale();
    void percentilesAndYScaleSaved();
    void syntaxErrorFromFile();
    void syntaxErrorColumnCountsCharacters();
    void newerSchemaFromFile();
    void loadMissingFile();
    void errorToString();
};

void TestDashboardFile::loadExample()
{
    const QString path = fixture(u"use-host.json"_s);
    const DashboardLoadResult result = loadDashboard(path);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    const Dashboard &d = *result.dashboard;
    QCOMPARE(d.title, u"This host — USE"_s);
    QCOMPARE(d.variables.size(), 1);
    QCOMPARE(d.variables.at(0),
             (DashboardVariable { u"host"_s, u"Host"_s, u"local"_s, { u"local"_s } }));
    QCOMPARE(d.sources.size(), 1);
    QCOMPARE(d.sources.at(0).id, u"host"_s);
    QCOMPARE(d.sources.at(0).plugin, u"host"_s);
    QCOMPARE(d.sources.at(0).intervalMs, 1000);
    QCOMPARE(d.sources.at(0).timeoutMs, 5000);
    QCOMPARE(d.sources.at(0).config, object(R"({"host": "${host}"})"));
    QCOMPARE(d.rangeMs, 15 * 60 * 1000);
    QCOMPARE(d.refreshMs, 1000);
    QCOMPARE(d.panels.size(), 1);
    const DashboardPanel *cpu = d.panel(u"cpu"_s);
    QVERIFY(cpu);
    QCOMPARE(cpu->type, PanelType::TimeSeries);
    QCOMPARE(cpu->title, u"CPU utilization"_s);
    QCOMPARE(cpu->unit, u"%"_s);
    QCOMPARE(cpu->series.size(), 1);
    QCOMPARE(cpu->series.at(0),
             (SeriesSelector { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } }));
    QCOMPARE(cpu->layout, (PanelLayout { 0, 0, 6, 4 }));
    QCOMPARE(cpu->options, object(R"({"stacked": false, "yMin": 0, "yMax": 100})"));

    QString error;
    const QJsonObject config
        = substituteVariables(d.sources.at(0).config, d.resolveVariables({}), &error);
    QCOMPARE(error, QString());
    QCOMPARE(config, object(R"({"host": "local"})"));
}

void TestDashboardFile::defaults()
{
    const DashboardLoadResult result = parseDashboard(baseJson, u"base.json"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    const Dashboard &d = *result.dashboard;
    QCOMPARE(d.title, u"t"_s);
    QVERIFY(d.variables.isEmpty());
    QCOMPARE(d.rangeMs, 15 * 60 * 1000);
    QCOMPARE(d.refreshMs, 1000);
    QCOMPARE(d.sources.size(), 1);
    QCOMPARE(d.sources.at(0).intervalMs, 1000);
    QCOMPARE(d.sources.at(0).timeoutMs, 5000);
    QCOMPARE(d.sources.at(0).config, QJsonObject());
    QCOMPARE(d.panels.size(), 1);
    const DashboardPanel &p = d.panels.at(0);
    QCOMPARE(p.title, QString());
    QCOMPARE(p.unit, QString());
    QCOMPARE(p.layout, (PanelLayout { 0, 0, 6, 4 }));
    QCOMPARE(p.options, QJsonObject());
    QVERIFY(p.percentiles.isEmpty()); // the default lines: p50, p95, p99, max
    QCOMPARE(p.yScale, YScale::Linear);
    QCOMPARE(p.series.at(0).labels, Labels());
    QCOMPARE(result.error.reason, QString());

    // An empty title, and no sources or panels at all, are allowed.
    const DashboardLoadResult empty = parseDashboard(
        R"({"schemaVersion": 1, "title": "", "sources": [], "panels": []})", u"e.json"_s);
    QVERIFY2(empty.ok(), qPrintable(empty.error.toString()));
    QCOMPARE(empty.dashboard->title, QString());
}

void TestDashboardFile::autoLayout()
{
    const DashboardLoadResult result = loadDashboard(fixture(u"auto-layout.json"_s));
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    const Dashboard &d = *result.dashboard;
    QCOMPARE(d.panel(u"wide"_s)->layout, (PanelLayout { 0, 0, 12, 3 }));
    // Below the placed panels, left to right, two per row.
    QCOMPARE(d.panel(u"a"_s)->layout, (PanelLayout { 0, 3, 6, 4 }));
    QCOMPARE(d.panel(u"b"_s)->layout, (PanelLayout { 6, 3, 6, 4 }));
    QCOMPARE(d.panel(u"c"_s)->layout, (PanelLayout { 0, 7, 6, 4 }));

    const DashboardLoadResult none = parseDashboard(
        patched({ { "panels[1]", object(R"({"id": "p2", "type": "timeseries"})") },
                  { "panels[2]", object(R"({"id": "p3", "type": "timeseries"})") } }),
        u"x.json"_s);
    QVERIFY2(none.ok(), qPrintable(none.error.toString()));
    QCOMPARE(none.dashboard->panels.at(0).layout, (PanelLayout { 0, 0, 6, 4 }));
    QCOMPARE(none.dashboard->panels.at(1).layout, (PanelLayout { 6, 0, 6, 4 }));
    QCOMPARE(none.dashboard->panels.at(2).layout, (PanelLayout { 0, 4, 6, 4 }));
}

void TestDashboardFile::shippedDashboardsLoadWithoutOverlap_data()
{
    QTest::addColumn<QString>("path");
    const QDir shipped(QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards"));
    const auto names = shipped.entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    QVERIFY(names.size() >= 2);
    for (const QString &name : names)
        QTest::addRow("%s", qPrintable(name)) << shipped.filePath(name);
}

// The reader refuses overlapping panels; this also checks no two panels share a cell
// by the same rule, so a shipped file cannot be skipped as "not loadable" elsewhere.
void TestDashboardFile::shippedDashboardsLoadWithoutOverlap()
{
    QFETCH(QString, path);
    const DashboardLoadResult loaded = loadDashboard(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    const auto &panels = loaded.dashboard->panels;
    for (qsizetype i = 0; i < panels.size(); ++i)
        for (qsizetype j = i + 1; j < panels.size(); ++j)
            QVERIFY2(!panelsOverlap(panels[i].layout, panels[j].layout),
                     qPrintable(panels[i].id + u" overlaps "_s + panels[j].id));
}

void TestDashboardFile::unknownKeysIgnored()
{
    const DashboardLoadResult result
        = parseDashboard(patched({ { "annotations", QJsonArray { 1, 2 } },
                                   { "comment", u"kept by the user, ignored by us"_s },
                                   { "sources[0].note", 3 },
                                   { "panels[0].legendPosition", true },
                                   { "panels[0].series[0].color", u"red"_s } }),
                         u"x.json"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    const DashboardLoadResult base = parseDashboard(baseJson, u"x.json"_s);
    QVERIFY(*result.dashboard == *base.dashboard);
}

void TestDashboardFile::sourcePatternNeedsNoDeclaredSource()
{
    const DashboardLoadResult result = parseDashboard(
        R"({"schemaVersion": 3, "title": "t", "sources": [],
            "panels": [{"id": "m", "type": "usematrix", "series": [{"source": "*", "metric": "*"}]}]})",
        u"p.json"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->panels.at(0).series.at(0).source, u"*"_s);
}

void TestDashboardFile::roundTripBuilt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"full.json"_s);
    const Dashboard original = fullDashboard();
    QString error = u"stale"_s;
    QVERIFY2(saveDashboard(original, path, &error), qPrintable(error));
    QCOMPARE(error, QString());
    QCOMPARE(readAll(path), dashboardToJson(original));

    const DashboardLoadResult loaded = loadDashboard(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    compareDashboards(*loaded.dashboard, original);

    // In memory too.
    const DashboardLoadResult parsed = parseDashboard(dashboardToJson(original), path);
    QVERIFY2(parsed.ok(), qPrintable(parsed.error.toString()));
    compareDashboards(*parsed.dashboard, original);
}

void TestDashboardFile::roundTripFixture()
{
    const DashboardLoadResult first = loadDashboard(fixture(u"full.json"_s));
    QVERIFY2(first.ok(), qPrintable(first.error.toString()));
    const Dashboard &d = *first.dashboard;
    QCOMPARE(d.title, u"Orders database — USE and latency"_s);
    QCOMPARE(d.variables.size(), 2);
    QCOMPARE(d.sources.size(), 3);
    QCOMPARE(d.sources.at(1).id, u"pg:orders-db"_s);
    QCOMPARE(d.sources.at(1).intervalMs, 5000);
    QCOMPARE(d.sources.at(1).timeoutMs, 2000);
    QCOMPARE(d.rangeMs, 6 * 3600 * 1000);
    QCOMPARE(d.refreshMs, 2000);
    QCOMPARE(d.panels.size(), 3);
    QCOMPARE(d.panels.at(0).series.at(1).labels,
             (Labels { { u"mode"_s, u"user"_s }, { u"cpu"_s, u"*"_s } }));
    QCOMPARE(d.panels.at(1).layout, (PanelLayout { 8, 0, 4, 5 }));
    QCOMPARE(d.panels.at(2).layout, (PanelLayout { 0, 5, 12, 3 }));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"copy.json"_s);
    QString error;
    QVERIFY2(saveDashboard(d, path, &error), qPrintable(error));
    const DashboardLoadResult second = loadDashboard(path);
    QVERIFY2(second.ok(), qPrintable(second.error.toString()));
    compareDashboards(*second.dashboard, d);
}

void TestDashboardFile::outputIsStable()
{
    const Dashboard d = fullDashboard();
    const QByteArray once = dashboardToJson(d);
    const QByteArray twice = dashboardToJson(*parseDashboard(once, u"x"_s).dashboard);
    QCOMPARE(twice, once);
    // Indented and in Qt's key order.
    QVERIFY(once.startsWith("{\n    \"derived\": ["));
    QVERIFY(once.contains("\"schemaVersion\": 4,"));
    QVERIFY(once.contains("\"timeRange\": \"150m\""));
    QVERIFY(once.endsWith("}\n"));
}

void TestDashboardFile::percentilesAndYScale_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QList<double>>("percentiles");
    QTest::addColumn<YScale>("yScale");
    QTest::newRow("absent: defaults") << patched({}) << QList<double>() << YScale::Linear;
    QTest::newRow("log") << patched({ { "panels[0].yScale", u"log"_s } }) << QList<double>()
                         << YScale::Log;
    QTest::newRow("linear spelled out")
        << patched({ { "panels[0].yScale", u"linear"_s } }) << QList<double>() << YScale::Linear;
    QTest::newRow("file order kept")
        << patched({ { "panels[0].percentiles", QJsonArray { 99, 50, 100 } } })
        << QList<double> { 99, 50, 100 } << YScale::Linear;
    QTest::newRow("eight, fractions, both bounds")
        << patched({ { "panels[0].percentiles",
                       QJsonArray { 0.001, 1, 25, 50, 90, 99.9, 99.99, 100 } } })
        << QList<double> { 0.001, 1, 25, 50, 90, 99.9, 99.99, 100 } << YScale::Linear;
}

void TestDashboardFile::percentilesAndYScale()
{
    QFETCH(QByteArray, json);
    QFETCH(QList<double>, percentiles);
    QFETCH(YScale, yScale);
    const DashboardLoadResult result = parseDashboard(json, u"x.json"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->panels.at(0).percentiles, percentiles);
    QCOMPARE(result.dashboard->panels.at(0).yScale, yScale);
    // And back: what was read is what is written.
    const DashboardLoadResult again
        = parseDashboard(dashboardToJson(*result.dashboard), u"x.json"_s);
    QVERIFY2(again.ok(), qPrintable(again.error.toString()));
    compareDashboards(*again.dashboard, *result.dashboard);
}

void TestDashboardFile::percentilesAndYScaleSaved()
{
    const QJsonObject root = QJsonDocument::fromJson(dashboardToJson(fullDashboard())).object();
    const QJsonArray panels = root.value(u"panels"_s).toArray();
    const QJsonObject cpu = panels.at(0).toObject();
    QCOMPARE(cpu.value(u"percentiles"_s).toArray(), (QJsonArray { 99.9, 50, 0.001, 100 }));
    QCOMPARE(cpu.value(u"yScale"_s).toString(), u"log"_s);
    // Default percentiles are not written: an empty list would be refused on reading.
    const QJsonObject bare = panels.at(1).toObject();
    QVERIFY(!bare.contains(u"percentiles"_s));
    QCOMPARE(bare.value(u"yScale"_s).toString(), u"linear"_s);
}

void TestDashboardFile::syntaxErrorFromFile()
{
    const QString path = fixture(u"syntax-error.json"_s);
    const DashboardLoadResult result = loadDashboard(path);
    QVERIFY(!result.ok());
    QCOMPARE(result.error.file, path);
    QCOMPARE(result.error.field, QString());
    // The comma is missing at the end of line 7; Qt notices inside the next key.
    QVERIFY2(result.error.reason.startsWith(u"JSON syntax error at line 8, column "_s),
             qPrintable(result.error.reason));
    QVERIFY2(result.error.reason.contains(u"missing comma"_s), qPrintable(result.error.reason));
    QCOMPARE(result.error.toString(), path + u": "_s + result.error.reason);
}

void TestDashboardFile::syntaxErrorColumnCountsCharacters()
{
    // "—" is three bytes and "é" two in UTF-8; columns count characters, so both
    // report the same column as two ASCII characters would.
    const QByteArray ascii = "{\"a\": \"xx\", \"b\" 1}";
    const QByteArray utf8 = QString(u"{\"a\": \"—é\", \"b\" 1}"_s).toUtf8();
    QCOMPARE(utf8.size(), ascii.size() + 3);
    const QString expected = u"JSON syntax error at line 1, column 18: "_s;
    const QString asciiReason = parseDashboard(ascii, u"a"_s).error.reason;
    const QString utf8Reason = parseDashboard(utf8, u"u"_s).error.reason;
    QVERIFY2(asciiReason.startsWith(expected), qPrintable(asciiReason));
    QVERIFY2(utf8Reason.startsWith(expected), qPrintable(utf8Reason));
}

void TestDashboardFile::newerSchemaFromFile()
{
    const QString path = fixture(u"newer-schema.json"_s);
    const DashboardLoadResult result = loadDashboard(path);
    QVERIFY(!result.ok());
    QCOMPARE(result.error.toString(),
             path
                 + u": schemaVersion: written by a newer Headroom (schemaVersion 5; this build "
                   "reads up to 4); not opened"_s);
}

void TestDashboardFile::loadMissingFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"nope.json"_s);
    const DashboardLoadResult result = loadDashboard(path);
    QVERIFY(!result.ok());
    QCOMPARE(result.error.file, path);
    QCOMPARE(result.error.field, QString());
    QVERIFY2(result.error.toString().startsWith(path + u": cannot open: "_s),
             qPrintable(result.error.toString()));
}

void TestDashboardFile::errorToString()
{
    QCOMPARE((DashboardError { u"a.json"_s, u"panels[0].id"_s, u"is required"_s }).toString(),
             u"a.json: panels[0].id: is required"_s);
    QCOMPARE((DashboardError { u"a.json"_s, QString(), u"the file is empty"_s }).toString(),
             u"a.json: the file is empty"_s);
}

QTEST_GUILESS_MAIN(TestDashboardFile)
#include "tst_dashboardfile.moc"
