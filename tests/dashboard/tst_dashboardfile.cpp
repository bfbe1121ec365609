// Reading and writing dashboard files: round trips, every refusal with its field
// and reason, and atomic saves.
#include "document/dashboardedit.h"
#include "document/dashboardfile.h"
#include "document/dashboardlimits.h"
#include "document/expression.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <functional>
#include <sys/resource.h>

using namespace Headroom;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Headroom::YScale)

namespace {

QString fixture(const QString &name)
{
    return QString::fromUtf8(HEADROOM_FIXTURES_DIR) + u"/dashboards/"_s + name;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QJsonObject object(const char *json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(json), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad JSON in test data: %s", qPrintable(error.errorString()));
    return document.object();
}

// A small valid dashboard the malformed rows start from.
const char *const baseJson = R"({
    "schemaVersion": 1,
    "title": "t",
    "sources": [{"id": "host", "plugin": "host"}],
    "panels": [{"id": "cpu", "type": "timeseries",
                "series": [{"source": "host", "metric": "host.cpu.utilization"}]}]
})";

// Sets (or with an undefined value removes) the value at a path like
// "panels[0].layout.w"; an index one past the end appends.
QJsonValue setAt(const QJsonValue &node, const QStringList &tokens, qsizetype pos,
                 const QJsonValue &value)
{
    if (pos == tokens.size())
        return value;
    const QString &token = tokens.at(pos);
    if (token.startsWith(u'[')) {
        QJsonArray array = node.toArray();
        const qsizetype index = token.mid(1, token.size() - 2).toLongLong();
        const QJsonValue child = index < array.size() ? array.at(index) : QJsonValue();
        const QJsonValue updated = setAt(child, tokens, pos + 1, value);
        if (updated.isUndefined())
            array.removeAt(index);
        else if (index < array.size())
            array.replace(index, updated);
        else
            array.append(updated);
        return array;
    }
    QJsonObject obj = node.toObject();
    const QJsonValue updated = setAt(obj.value(token), tokens, pos + 1, value);
    if (updated.isUndefined())
        obj.remove(token);
    else
        obj.insert(token, updated);
    return obj;
}

using Patch = std::pair<const char *, QJsonValue>;

QByteArray patched(std::initializer_list<Patch> patches)
{
    static const QRegularExpression tokenPattern(u"\\[\\d+\\]|[^.\\[]+"_s);
    QJsonValue root = object(baseJson);
    for (const Patch &patch : patches) {
        QStringList tokens;
        auto it = tokenPattern.globalMatch(QString::fromUtf8(patch.first));
        while (it.hasNext())
            tokens.append(it.next().captured());
        root = setAt(root, tokens, 0, patch.second);
    }
    return QJsonDocument(root.toObject()).toJson(QJsonDocument::Indented);
}

const QJsonValue removed = QJsonValue(QJsonValue::Undefined);

// Field by field, so that a failure names what differs.
void compareDashboards(const Dashboard &actual, const Dashboard &expected)
{
    QCOMPARE(actual.title, expected.title);
    QCOMPARE(actual.rangeMs, expected.rangeMs);
    QCOMPARE(actual.refreshMs, expected.refreshMs);
    QCOMPARE(actual.variables.size(), expected.variables.size());
    for (qsizetype i = 0; i < expected.variables.size(); ++i) {
        const DashboardVariable &a = actual.variables.at(i);
        const DashboardVariable &e = expected.variables.at(i);
        QCOMPARE(a.name, e.name);
        QCOMPARE(a.label, e.label);
        QCOMPARE(a.defaultValue, e.defaultValue);
        QCOMPARE(a.options, e.options);
    }
    QVERIFY(actual.derived == expected.derived);
    QCOMPARE(actual.sources.size(), expected.sources.size());
    for (qsizetype i = 0; i < expected.sources.size(); ++i) {
        const DashboardSource &a = actual.sources.at(i);
        const DashboardSource &e = expected.sources.at(i);
        QCOMPARE(a.id, e.id);
        QCOMPARE(a.plugin, e.plugin);
        QCOMPARE(a.intervalMs, e.intervalMs);
        QCOMPARE(a.timeoutMs, e.timeoutMs);
        QCOMPARE(a.config, e.config);
    }
    QCOMPARE(actual.panels.size(), expected.panels.size());
    for (qsizetype i = 0; i < expected.panels.size(); ++i) {
        const DashboardPanel &a = actual.panels.at(i);
        const DashboardPanel &e = expected.panels.at(i);
        QCOMPARE(a.id, e.id);
        QCOMPARE(a.type, e.type);
        QCOMPARE(a.title, e.title);
        QCOMPARE(a.unit, e.unit);
        QCOMPARE(a.legend, e.legend);
        QCOMPARE(a.series.size(), e.series.size());
        for (qsizetype j = 0; j < e.series.size(); ++j) {
            QCOMPARE(a.series.at(j).source, e.series.at(j).source);
            QCOMPARE(a.series.at(j).metric, e.series.at(j).metric);
            QCOMPARE(labelsToString(a.series.at(j).labels), labelsToString(e.series.at(j).labels));
        }
        QCOMPARE(a.layout.x, e.layout.x);
        QCOMPARE(a.layout.y, e.layout.y);
        QCOMPARE(a.layout.w, e.layout.w);
        QCOMPARE(a.layout.h, e.layout.h);
        QCOMPARE(a.options, e.options);
        QCOMPARE(a.percentiles, e.percentiles);
        QCOMPARE(a.yScale, e.yScale);
        QVERIFY(a.thresholds == e.thresholds);
        QCOMPARE(a.thresholds.warning, e.thresholds.warning);
    }
    QVERIFY(actual.sections == expected.sections);
    QVERIFY(actual == expected); // and operator== agrees
}

// Every field set to something other than its default.
Dashboard fullDashboard()
{
    Dashboard d;
    d.title = u"Orders — \"USE\" ✓"_s;
    d.rangeMs = 2 * 3600 * 1000 + 30 * 60 * 1000; // 150m
    d.refreshMs = 2500;
    d.variables = {
        { u"db"_s, u"Database"_s, u"orders"_s, { u"orders"_s, u"billing"_s } },
        { u"_pg_host2"_s, QString(), QString(), {} },
        { u"apdex_t"_s, u"APDEX T"_s, u"50ms"_s, { u"10ms"_s, u"50ms"_s } },
    };
    DashboardSource pg;
    pg.id = u"pg:orders-db.1_x"_s;
    pg.plugin = u"postgres"_s;
    pg.intervalMs = 100;
    pg.timeoutMs = 123'456;
    pg.config = object(R"({"host": "${_pg_host2}", "dbname": "${db}", "port": 5432, "ratio": 0.25,
                          "ssl": true, "nothing": null, "big": 9007199254740991,
                          "list": ["a", 1, {"deep": ["${db}-x"]}], "empty": {}})");
    DashboardSource host;
    host.id = u"host"_s;
    host.plugin = u"host"_s;
    d.sources = { pg, host };
    d.derived = {
        { pg.id,
          u"pg.db.rows_per_block"_s,
          u"pg.db.tup_returned.rate / pg.db.blks_hit.rate"_s,
          u"rows/block"_s,
          UseKind::Saturation,
          {},
          {} },
        { u"host"_s, u"host.x"_s, u"(a + b) * 2"_s, QString(), UseKind::Info, {}, {} },
        { pg.id,
          u"pg.apdex.probe"_s,
          {},
          {},
          UseKind::Info,
          u"pg.latency.probe"_s,
          u"${apdex_t}"_s },
        { pg.id, u"pg.apdex.fixed"_s, {}, {}, UseKind::Info, u"pg.latency.probe"_s, u"250ms"_s }
    };

    DashboardPanel cpu;
    cpu.id = u"cpu"_s;
    cpu.type = PanelType::TimeSeries;
    cpu.title = u"CPU utilization"_s;
    cpu.unit = u"%"_s;
    cpu.legend = u"{cpu} {{{mode}}}"_s;
    cpu.series
        = { { u"host"_s, u"host.cpu.*"_s, { { u"cpu"_s, u"all"_s }, { u"mode"_s, u"us*"_s } } },
            { pg.id, u"pg.xact.commit"_s, {} } };
    cpu.layout = { 3, 7, 9, 2 };
    cpu.options = object(R"({"stacked": true, "yMin": -1.5, "yMax": 100, "logY": false,
                           "colors": ["#ff0000", "#00ff00"], "legend": {"position": "bottom"}})");
    cpu.percentiles = { 99.9, 50, 0.001, 100 };
    cpu.yScale = YScale::Log;
    cpu.thresholds = { 70, 90.5, true };
    DashboardPanel bare;
    bare.id = u"bare panel with spaces"_s;
    bare.type = PanelType::TimeSeries;
    bare.layout = { 0, 9, 12, 1 };
    d.panels = { cpu, bare };
    d.sections = { { u"Overview ▸ \"USE\""_s, 0, false }, { u"Details"_s, 9, true } };
    return d;
}

} // namespace

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
    void malformed_data();
    void malformed();
    void atTheBounds();
    void syntaxErrorFromFile();
    void syntaxErrorColumnCountsCharacters();
    void newerSchemaFromFile();
    void loadMissingFile();
    void errorToString();
    void passwordsNeverWritten();
    void conninfoPasswordsNeverWritten_data();
    void conninfoPasswordsNeverWritten();
    void saveOverExistingInUnwritableDirectory();
    void failedWriteKeepsOldFile();
    void saveIntoMissingDirectory();

private:
    void addBoundRows();
    void apdexTFromVariable();
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

void TestDashboardFile::sourcePatternNeedsNoDeclaredSource()
{
    const DashboardLoadResult result = parseDashboard(
        R"({"schemaVersion": 3, "title": "t", "sources": [],
            "panels": [{"id": "m", "type": "usematrix", "series": [{"source": "*", "metric": "*"}]}]})",
        u"p.json"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->panels.at(0).series.at(0).source, u"*"_s);
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

void TestDashboardFile::malformed_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("reason"); // a substring of the reason

    auto panel = [](const char *id) {
        QJsonObject p { { u"id"_s, QString::fromUtf8(id) }, { u"type"_s, u"timeseries"_s } };
        return p;
    };

    // The file as a whole.
    QTest::newRow("syntax: missing comma")
        << QByteArray("{\n  \"schemaVersion\": 1,\n  \"title\": \"t\"\n  \"sources\": []\n}")
        << QString() << u"JSON syntax error at line 4, column"_s;
    QTest::newRow("syntax: missing value separator in array")
        << QByteArray("{\n  \"schemaVersion\": 1,\n  \"sources\": [{} {}]\n}") << QString()
        << u"JSON syntax error at line 3, column 19: missing value separator"_s;
    QTest::newRow("syntax: trailing comma") << QByteArray("{\"title\": \"t\",}") << QString()
                                            << u"JSON syntax error at line 1, column"_s;
    QTest::newRow("syntax: garbage after")
        << QByteArray("{} x") << QString() << u"garbage at the end of the document"_s;
    QTest::newRow("empty file") << QByteArray("  \n") << QString() << u"the file is empty"_s;
    QTest::newRow("top level array")
        << QByteArray("[1]") << QString() << u"the top level must be a JSON object, got an array"_s;

    // schemaVersion
    QTest::newRow("schemaVersion missing")
        << patched({ { "schemaVersion", removed } }) << u"schemaVersion"_s << u"is required"_s;
    QTest::newRow("schemaVersion newer")
        << patched({ { "schemaVersion", 5 } }) << u"schemaVersion"_s
        << u"written by a newer Headroom (schemaVersion 5; this build reads up to 4); not opened"_s;
    // sections
    const QJsonArray twoSections { QJsonObject { { u"title"_s, u"A"_s }, { u"y"_s, 0 } },
                                   QJsonObject { { u"title"_s, u"B"_s }, { u"y"_s, 0 } } };
    QTest::newRow("sections not an array")
        << patched({ { "sections", 3 } }) << u"sections"_s << u"must be an array"_s;
    QTest::newRow("section title missing")
        << patched({ { "sections", QJsonArray { QJsonObject { { u"y"_s, 2 } } } } })
        << u"sections[0].title"_s << u"is required"_s;
    QTest::newRow("section y negative") << patched(
        { { "sections", QJsonArray { QJsonObject { { u"title"_s, u"A"_s }, { u"y"_s, -1 } } } } })
                                        << u"sections[0].y"_s << u"must be an integer from 0 to"_s;
    QTest::newRow("section y twice") << patched({ { "sections", twoSections } })
                                     << u"sections[1].y"_s << u"sections[0] starts at row 0 too"_s;
    QTest::newRow("section collapsed not a bool")
        << patched(
               { { "sections",
                   QJsonArray { QJsonObject {
                       { u"title"_s, u"A"_s }, { u"y"_s, 1 }, { u"collapsed"_s, u"yes"_s } } } } })
        << u"sections[0].collapsed"_s << u"must be true or false"_s;
    QTest::newRow("panel reaches into a section")
        << patched({ { "sections",
                       QJsonArray { QJsonObject { { u"title"_s, u"Disk"_s }, { u"y"_s, 1 } } } } })
        << u"panels[0].layout"_s
        << u"reaches from row 0 into section \"Disk\", which starts at row 1"_s;
    QTest::newRow("section unknown field")
        << patched({ { "sections",
                       QJsonArray { QJsonObject {
                           { u"title"_s, u"A"_s }, { u"y"_s, 1 }, { u"folded"_s, true } } } } })
        << u"sections[0].folded"_s << u"unknown field"_s;
    QTest::newRow("schemaVersion string")
        << patched({ { "schemaVersion", u"1"_s } }) << u"schemaVersion"_s
        << u"must be an integer, got \"1\""_s;
    QTest::newRow("schemaVersion fraction")
        << patched({ { "schemaVersion", 1.5 } }) << u"schemaVersion"_s
        << u"must be an integer, got 1.5"_s;
    QTest::newRow("schemaVersion zero") << patched({ { "schemaVersion", 0 } }) << u"schemaVersion"_s
                                        << u"must be at least 1, got 0"_s;
    QTest::newRow("newer schema checked first")
        << patched({ { "schemaVersion", 7 }, { "title", removed }, { "panels", 3 } })
        << u"schemaVersion"_s << u"schemaVersion 7;"_s;

    // title
    QTest::newRow("title missing")
        << patched({ { "title", removed } }) << u"title"_s << u"is required"_s;
    QTest::newRow("title not a string")
        << patched({ { "title", 5 } }) << u"title"_s << u"must be a string, got 5"_s;

    // variables
    QTest::newRow("variables not an array")
        << patched({ { "variables", QJsonObject() } }) << u"variables"_s
        << u"must be an array, got an object"_s;
    QTest::newRow("variable not an object")
        << patched({ { "variables[0]", u"host"_s } }) << u"variables[0]"_s
        << u"must be an object, got \"host\""_s;
    QTest::newRow("variable name missing") << patched({ { "variables[0].label", u"Host"_s } })
                                           << u"variables[0].name"_s << u"is required"_s;
    QTest::newRow("variable name bad")
        << patched({ { "variables[0].name", u"1host"_s } }) << u"variables[0].name"_s
        << u"must start with a letter or _ and use only letters, digits and _, got \"1host\""_s;
    QTest::newRow("variable name with dash") << patched({ { "variables[0].name", u"pg-host"_s } })
                                             << u"variables[0].name"_s << u"got \"pg-host\""_s;
    QTest::newRow("variable name duplicate")
        << patched({ { "variables[0].name", u"host"_s }, { "variables[1].name", u"host"_s } })
        << u"variables[1].name"_s << u"duplicate variable name \"host\""_s;
    QTest::newRow("variable default number")
        << patched({ { "variables[0].name", u"host"_s }, { "variables[0].default", 3 } })
        << u"variables[0].default"_s << u"must be a string, got 3"_s;
    QTest::newRow("variable option number")
        << patched({ { "variables[0].name", u"host"_s },
                     { "variables[0].options", QJsonArray { u"a"_s, false } } })
        << u"variables[0].options[1]"_s << u"must be a string, got false"_s;

    // sources
    const auto derived = [](const char *json) {
        return patched({ { "derived", QJsonDocument::fromJson(json).array() } });
    };
    QTest::newRow("derived not an array")
        << patched({ { "derived", QJsonObject() } }) << u"derived"_s << u"must be"_s;
    QTest::newRow("derived unknown source")
        << derived(R"([{"source": "nosuch", "metric": "m", "expression": "a / b"}])")
        << u"derived[0].source"_s << u"no source \"nosuch\""_s;
    QTest::newRow("derived bad expression")
        << derived(R"([{"source": "host", "metric": "m", "expression": "a / (b"}])")
        << u"derived[0].expression"_s << u"position 7: expected \")\""_s;
    QTest::newRow("derived no metric") << derived(R"([{"source": "host", "expression": "a"}])")
                                       << u"derived[0].metric"_s << u"required"_s;
    QTest::newRow("derived apdex and expression")
        << derived(R"([{"source": "host", "metric": "m", "expression": "a",
                        "apdex": {"histogram": "h", "t": "50ms"}}])")
        << u"derived[0].expression"_s << u"an expression or an apdex, not both"_s;
    QTest::newRow("derived apdex bad t")
        << derived(
               R"([{"source": "host", "metric": "m", "apdex": {"histogram": "h", "t": "fast"}}])")
        << u"derived[0].apdex.t"_s << u"must be a duration like 50ms"_s;
    QTest::newRow("derived apdex zero t") << derived(
        R"([{"source": "host", "metric": "m", "apdex": {"histogram": "h", "t": "0ms"}}])")
                                          << u"derived[0].apdex.t"_s << u"got \"0ms\""_s;
    QTest::newRow("derived apdex undeclared variable") << derived(
        R"([{"source": "host", "metric": "m", "apdex": {"histogram": "h", "t": "${nope}"}}])")
                                                       << u"derived[0].apdex.t"_s
                                                       << u"unknown variable ${nope}"_s;
    QTest::newRow("derived apdex variable default no duration")
        << patched({ { "variables[0].name", u"t"_s },
                     { "variables[0].default", u"soon"_s },
                     { "derived",
                       QJsonDocument::fromJson(R"([{"source": "host", "metric": "m",
                         "apdex": {"histogram": "h", "t": "${t}"}}])")
                           .array() } })
        << u"derived[0].apdex.t"_s
        << u"variable ${t} has the default \"soon\", which is no duration like 50ms"_s;
    QTest::newRow("derived apdex no histogram")
        << derived(R"([{"source": "host", "metric": "m", "apdex": {"t": "50ms"}}])")
        << u"derived[0].apdex.histogram"_s << u"required"_s;
    QTest::newRow("derived apdex unknown key") << derived(
        R"([{"source": "host", "metric": "m", "apdex": {"histogram": "h", "t": "1s", "T": 2}}])")
                                               << u"derived[0].apdex.T"_s << u"unknown field"_s;
    QTest::newRow("timeseries apdex not a duration")
        << patched({ { "panels[0].options", QJsonObject { { u"apdex"_s, 50 } } } })
        << u"panels[0].options.apdex"_s << u"must be a duration like 50ms (the APDEX T"_s;
    QTest::newRow("derived bad kind")
        << derived(R"([{"source": "host", "metric": "m", "expression": "a", "kind": "loud"}])")
        << u"derived[0].kind"_s << u"must be one of"_s;
    QTest::newRow("sources missing")
        << patched({ { "sources", removed } }) << u"sources"_s << u"is required"_s;
    QTest::newRow("sources object") << patched({ { "sources", QJsonObject() } }) << u"sources"_s
                                    << u"must be an array, got an object"_s;
    QTest::newRow("source not an object")
        << patched({ { "sources[0]", u"host"_s } }) << u"sources[0]"_s
        << u"must be an object, got \"host\""_s;
    QTest::newRow("source id missing")
        << patched({ { "sources[0].id", removed } }) << u"sources[0].id"_s << u"is required"_s;
    QTest::newRow("source id empty")
        << patched({ { "sources[0].id", u""_s } }) << u"sources[0].id"_s << u"must be non-empty"_s;
    QTest::newRow("source id with space")
        << patched({ { "sources[0].id", u"my host"_s } }) << u"sources[0].id"_s
        << u"use only letters, digits and _ . : -, got \"my host\""_s;
    QTest::newRow("source id number") << patched({ { "sources[0].id", 1 } }) << u"sources[0].id"_s
                                      << u"must be a string, got 1"_s;
    QTest::newRow("source id duplicate")
        << patched({ { "sources[1]", object(R"({"id": "host", "plugin": "x"})") } })
        << u"sources[1].id"_s << u"duplicate source id \"host\""_s;
    QTest::newRow("plugin missing") << patched({ { "sources[0].plugin", removed } })
                                    << u"sources[0].plugin"_s << u"is required"_s;
    QTest::newRow("plugin empty") << patched({ { "sources[0].plugin", u""_s } })
                                  << u"sources[0].plugin"_s << u"must not be empty"_s;
    QTest::newRow("intervalMs too small")
        << patched({ { "sources[0].intervalMs", 50 } }) << u"sources[0].intervalMs"_s
        << u"must be an integer from 100 to 86400000, got 50"_s;
    QTest::newRow("intervalMs string") << patched({ { "sources[0].intervalMs", u"1s"_s } })
                                       << u"sources[0].intervalMs"_s << u"got \"1s\""_s;
    QTest::newRow("intervalMs huge") << patched({ { "sources[0].intervalMs", 1e12 } })
                                     << u"sources[0].intervalMs"_s << u"got 1000000000000"_s;
    QTest::newRow("timeoutMs fraction")
        << patched({ { "sources[0].timeoutMs", 150.5 } }) << u"sources[0].timeoutMs"_s
        << u"must be an integer from 100 to 600000, got 150.5"_s;
    QTest::newRow("timeoutMs null") << patched({ { "sources[0].timeoutMs", QJsonValue() } })
                                    << u"sources[0].timeoutMs"_s << u"got null"_s;
    QTest::newRow("config array") << patched({ { "sources[0].config", QJsonArray() } })
                                  << u"sources[0].config"_s << u"must be an object, got an array"_s;
    QTest::newRow("password")
        << patched({ { "sources[0].config.password", u"hunter2"_s } })
        << u"sources[0].config.password"_s
        << u"passwords are not stored in dashboard files; use libpq's .pgpass, a service file "
           "or the environment"_s;
    QTest::newRow("password nested, any case")
        << patched({ { "sources[0].config.auth.PassWord", u""_s } })
        << u"sources[0].config.auth.PassWord"_s << u"passwords are not stored"_s;
    QTest::newRow("password in an array")
        << patched({ { "sources[0].config.servers",
                       QJsonArray { QJsonObject { { u"host"_s, u"a"_s } },
                                    QJsonObject { { u"PASSWORD"_s, 1 } } } } })
        << u"sources[0].config.servers[1].PASSWORD"_s << u"passwords are not stored"_s;
    QTest::newRow("unknown variable")
        << patched({ { "sources[0].config.host", u"${host}"_s } }) << u"sources[0].config.host"_s
        << u"unknown variable ${host} (no variables are declared)"_s;
    QTest::newRow("unknown variable among declared")
        << patched({ { "variables[0].name", u"db"_s },
                     { "variables[1].name", u"host"_s },
                     { "sources[0].config.dsn", u"host=${host} db=${dbname}"_s } })
        << u"sources[0].config.dsn"_s << u"unknown variable ${dbname} (declared: db, host)"_s;
    QTest::newRow("unknown variable in an array")
        << patched({ { "sources[0].config.hosts", QJsonArray { u"a"_s, u"${nope}"_s } } })
        << u"sources[0].config.hosts[1]"_s << u"unknown variable ${nope}"_s;

    // timeRange, refreshMs
    QTest::newRow("timeRange words")
        << patched({ { "timeRange", u"15 minutes"_s } }) << u"timeRange"_s
        << u"must be a duration like 15m (a positive whole number "
           "with unit ms, s, m, h, d or w), got \"15 minutes\""_s;
    QTest::newRow("timeRange zero")
        << patched({ { "timeRange", u"0s"_s } }) << u"timeRange"_s << u"got \"0s\""_s;
    QTest::newRow("timeRange no unit")
        << patched({ { "timeRange", u"900"_s } }) << u"timeRange"_s << u"must be a duration"_s;
    QTest::newRow("timeRange number")
        << patched({ { "timeRange", 900 } }) << u"timeRange"_s << u"must be a string, got 900"_s;
    QTest::newRow("refreshMs zero") << patched({ { "refreshMs", 0 } }) << u"refreshMs"_s
                                    << u"must be an integer from 100 to 3600000, got 0"_s;
    QTest::newRow("refreshMs bool")
        << patched({ { "refreshMs", true } }) << u"refreshMs"_s << u"got true"_s;

    // panels
    QTest::newRow("panels missing")
        << patched({ { "panels", removed } }) << u"panels"_s << u"is required"_s;
    QTest::newRow("panels string")
        << patched({ { "panels", u"cpu"_s } }) << u"panels"_s << u"must be an array, got \"cpu\""_s;
    QTest::newRow("panel not an object") << patched({ { "panels[0]", QJsonArray() } })
                                         << u"panels[0]"_s << u"must be an object, got an array"_s;
    QTest::newRow("panel id missing")
        << patched({ { "panels[0].id", removed } }) << u"panels[0].id"_s << u"is required"_s;
    QTest::newRow("panel id empty")
        << patched({ { "panels[0].id", u""_s } }) << u"panels[0].id"_s << u"must not be empty"_s;
    QTest::newRow("panel id duplicate")
        << patched({ { "panels[1]", panel("other") }, { "panels[2]", panel("cpu") } })
        << u"panels[2].id"_s << u"duplicate panel id \"cpu\" (also panels[0])"_s;
    QTest::newRow("panel type missing")
        << patched({ { "panels[0].type", removed } }) << u"panels[0].type"_s << u"is required"_s;
    QTest::newRow("panel type unknown")
        << patched({ { "panels[0].type", u"pie"_s } }) << u"panels[0].type"_s
        << u"unknown panel type \"pie\" (this build draws: "
           "timeseries"_s;
    QTest::newRow("panel title number")
        << patched({ { "panels[0].title", 1 } }) << u"panels[0].title"_s << u"must be a string"_s;
    QTest::newRow("panel unit object")
        << patched({ { "panels[0].unit", QJsonObject() } }) << u"panels[0].unit"_s
        << u"must be a string, got an object"_s;
    QTest::newRow("legend not text") << patched({ { "panels[0].legend", true } })
                                     << u"panels[0].legend"_s << u"must be a string, got true"_s;
    QTest::newRow("legend unclosed")
        << patched({ { "panels[0].legend", u"{interface} {direction"_s } }) << u"panels[0].legend"_s
        << u"'{' at character 13 is not closed"_s;
    QTest::newRow("legend too long")
        << patched({ { "panels[0].legend", QString(257, u'x') } }) << u"panels[0].legend"_s
        << u"must be at most 256 characters long, got 257"_s;
    QTest::newRow("legend display unknown")
        << patched({ { "panels[0].options", object(R"({"legendDisplay": "grid"})") } })
        << u"panels[0].options.legendDisplay"_s
        << u"must be \"list\" (the names above the chart) or \"table\""_s;
    QTest::newRow("percentiles not an array")
        << patched({ { "panels[0].percentiles", 99 } }) << u"panels[0].percentiles"_s
        << u"must be an array, got 99"_s;
    QTest::newRow("percentiles empty")
        << patched({ { "panels[0].percentiles", QJsonArray() } }) << u"panels[0].percentiles"_s
        << u"must not be empty (leave it out for p50, p95, p99 and max)"_s;
    QTest::newRow("percentiles nine")
        << patched({ { "panels[0].percentiles", QJsonArray { 1, 2, 3, 4, 5, 6, 7, 8, 9 } } })
        << u"panels[0].percentiles"_s << u"must list at most 8 percentiles, got 9"_s;
    QTest::newRow("percentile zero")
        << patched({ { "panels[0].percentiles", QJsonArray { 50, 0 } } })
        << u"panels[0].percentiles[1]"_s
        << u"must be a number greater than 0 and at most 100 (100 is the maximum), got 0"_s;
    QTest::newRow("percentile negative")
        << patched({ { "panels[0].percentiles", QJsonArray { -5 } } })
        << u"panels[0].percentiles[0]"_s << u"at most 100 (100 is the maximum), got -5"_s;
    QTest::newRow("percentile above 100")
        << patched({ { "panels[0].percentiles", QJsonArray { 50, 95, 100.5 } } })
        << u"panels[0].percentiles[2]"_s << u"got 100.5"_s;
    QTest::newRow("percentile as text")
        << patched({ { "panels[0].percentiles", QJsonArray { u"p99"_s } } })
        << u"panels[0].percentiles[0]"_s << u"must be a number greater than 0"_s;
    QTest::newRow("percentile null")
        << patched({ { "panels[0].percentiles", QJsonArray { 50, QJsonValue() } } })
        << u"panels[0].percentiles[1]"_s << u"got null"_s;
    QTest::newRow("percentile duplicate")
        << patched({ { "panels[0].percentiles", QJsonArray { 95, 99, 95 } } })
        << u"panels[0].percentiles[2]"_s << u"duplicate percentile 95"_s;
    QTest::newRow("percentiles of the second panel") << patched(
        { { "panels[1]", panel("p1") }, { "panels[1].percentiles", QJsonArray { 50, 101 } } })
                                                     << u"panels[1].percentiles[1]"_s
                                                     << u"got 101"_s;
    QTest::newRow("yScale unknown")
        << patched({ { "panels[0].yScale", u"logarithmic"_s } }) << u"panels[0].yScale"_s
        << u"must be \"linear\" or \"log\", got \"logarithmic\""_s;
    QTest::newRow("yScale capitalised")
        << patched({ { "panels[0].yScale", u"Log"_s } }) << u"panels[0].yScale"_s
        << u"must be \"linear\" or \"log\", got \"Log\""_s;
    QTest::newRow("yScale number") << patched({ { "panels[0].yScale", 10 } })
                                   << u"panels[0].yScale"_s << u"must be a string, got 10"_s;
    QTest::newRow("heatmap colorScale unknown")
        << patched({ { "panels[0].type", u"heatmap"_s },
                     { "panels[0].options.colorScale", u"logarithmic"_s } })
        << u"panels[0].options.colorScale"_s
        << u"must be \"linear\" or \"log\", got \"logarithmic\""_s;
    QTest::newRow("heatmap colorScale number")
        << patched({ { "panels[0].type", u"heatmap"_s }, { "panels[0].options.colorScale", 2 } })
        << u"panels[0].options.colorScale"_s << u"must be a string, got 2"_s;
    QTest::newRow("heatmap bucketUnit unknown")
        << patched({ { "panels[0].type", u"heatmap"_s },
                     { "panels[0].options.bucketUnit", u"seconds"_s } })
        << u"panels[0].options.bucketUnit"_s
        << u"must be \"s\", \"ms\" or \"us\", got \"seconds\""_s;
    QTest::newRow("series object") << patched({ { "panels[0].series", QJsonObject() } })
                                   << u"panels[0].series"_s << u"must be an array"_s;
    QTest::newRow("selector not an object")
        << patched({ { "panels[0].series[1]", u"host.*"_s } }) << u"panels[0].series[1]"_s
        << u"must be an object, got \"host.*\""_s;
    QTest::newRow("selector unknown source")
        << patched({ { "panels[0].series[0].source", u"pg"_s } }) << u"panels[0].series[0].source"_s
        << u"unknown source \"pg\" (declared: host)"_s;
    QTest::newRow("selector source missing")
        << patched({ { "panels[0].series[0].source", removed } }) << u"panels[0].series[0].source"_s
        << u"is required"_s;
    QTest::newRow("selector metric missing")
        << patched({ { "panels[0].series[0].metric", removed } }) << u"panels[0].series[0].metric"_s
        << u"is required"_s;
    QTest::newRow("selector metric empty")
        << patched({ { "panels[0].series[0].metric", u""_s } }) << u"panels[0].series[0].metric"_s
        << u"must not be empty"_s;
    QTest::newRow("selector labels array")
        << patched({ { "panels[0].series[0].labels", QJsonArray() } })
        << u"panels[0].series[0].labels"_s << u"must be an object"_s;
    QTest::newRow("selector label number")
        << patched({ { "panels[0].series[0].labels.cpu", 0 } })
        << u"panels[0].series[0].labels.cpu"_s << u"must be a string, got 0"_s;
    QTest::newRow("layout w word")
        << patched({ { "panels[1]", panel("p1") },
                     { "panels[2]", panel("p2") },
                     { "panels[2].layout", object(R"({"x": 0, "y": 0, "w": "wide", "h": 4})") } })
        << u"panels[2].layout.w"_s << u"must be a positive integer, got \"wide\""_s;
    QTest::newRow("layout not an object") << patched({ { "panels[0].layout", u"auto"_s } })
                                          << u"panels[0].layout"_s << u"must be an object"_s;
    QTest::newRow("layout x negative")
        << patched({ { "panels[0].layout", object(R"({"x": -1, "y": 0, "w": 6, "h": 4})") } })
        << u"panels[0].layout.x"_s << u"must be a non-negative integer, got -1"_s;
    QTest::newRow("layout y fraction")
        << patched({ { "panels[0].layout", object(R"({"x": 0, "y": 0.5, "w": 6, "h": 4})") } })
        << u"panels[0].layout.y"_s << u"must be an integer from 0 to 100000, got 0.5"_s;
    QTest::newRow("layout h zero")
        << patched({ { "panels[0].layout", object(R"({"x": 0, "y": 0, "w": 6, "h": 0})") } })
        << u"panels[0].layout.h"_s << u"must be an integer from 1 to 100, got 0"_s;
    QTest::newRow("layout h missing")
        << patched({ { "panels[0].layout", object(R"({"x": 0, "y": 0, "w": 6})") } })
        << u"panels[0].layout.h"_s << u"is required"_s;
    QTest::newRow("layout too wide")
        << patched({ { "panels[0].layout", object(R"({"x": 8, "y": 0, "w": 6, "h": 4})") } })
        << u"panels[0].layout.w"_s
        << u"x + w must not exceed 12 (the grid is 12 columns wide), got x 8 + w 6"_s;
    QTest::newRow("layout w 13") << patched(
        { { "panels[0].layout", object(R"({"x": 0, "y": 0, "w": 13, "h": 4})") } })
                                 << u"panels[0].layout.w"_s << u"x + w must not exceed 12"_s;
    QTest::newRow("layouts overlap")
        << patched({ { "panels[0].layout", object(R"({"x": 0, "y": 2, "w": 6, "h": 4})") },
                     { "panels[1]", object(R"({"id": "load", "type": "timeseries",
                                              "layout": {"x": 4, "y": 5, "w": 8, "h": 2}})") } })
        << u"panels[1].layout"_s << u"overlaps panels[0] (\"cpu\"): both cover column 4, row 5"_s;
    QTest::newRow("layout x 12") << patched(
        { { "panels[0].layout", object(R"({"x": 12, "y": 0, "w": 1, "h": 4})") } })
                                 << u"panels[0].layout.x"_s << u"must be less than 12"_s;
    QTest::newRow("thresholds not an object")
        << patched({ { "panels[0].thresholds", QJsonValue(80) } }) << u"panels[0].thresholds"_s
        << u"must be an object"_s;
    QTest::newRow("threshold not a number")
        << patched({ { "panels[0].thresholds", object(R"({"warning": "80"})") } })
        << u"panels[0].thresholds.warning"_s << u"must be a number"_s;
    QTest::newRow("threshold unknown field")
        << patched({ { "panels[0].thresholds", object(R"({"warn": 80})") } })
        << u"panels[0].thresholds.warn"_s << u"unknown field"_s;
    QTest::newRow("critical below warning")
        << patched({ { "panels[0].thresholds", object(R"({"warning": 80, "critical": 70})") } })
        << u"panels[0].thresholds"_s << u"critical must not be below warning"_s;
    QTest::newRow("critical above warning when lower is worse")
        << patched({ { "panels[0].thresholds",
                       object(R"({"warning": 10, "critical": 20, "higherIsWorse": false})") } })
        << u"panels[0].thresholds"_s << u"critical must not be above warning"_s;
    QTest::newRow("options array") << patched({ { "panels[0].options", QJsonArray() } })
                                   << u"panels[0].options"_s << u"must be an object"_s;

    addBoundRows();
}

// One past each bound of dashboardlimits.h: a shared file must not cost unbounded
// memory, threads or repaint time.
void TestDashboardFile::apdexTFromVariable()
{
    Dashboard d;
    d.variables = { { u"apdex_t"_s, QString(), u"50ms"_s, {} } };
    const DashboardDerived derived {
        u"pg"_s, u"pg.apdex.probe"_s, {}, {}, UseKind::Info, u"pg.latency.probe"_s, u"${apdex_t}"_s
    };
    QString error;
    QCOMPARE(apdexTMs(derived, d.resolveVariables({}), &error), qint64(50));
    QCOMPARE(apdexTMs(derived, d.resolveVariables({ { u"apdex_t"_s, u" 2s "_s } }), &error),
             qint64(2000));
    QCOMPARE(apdexTMs(derived, d.resolveVariables({ { u"apdex_t"_s, u"fast"_s } }), &error),
             std::nullopt);
    QCOMPARE(error, u"T \"fast\" of pg.apdex.probe is no duration like 50ms"_s);
    QCOMPARE(apdexTMs(derived, {}, &error), std::nullopt);
    QVERIFY2(error.contains(u"${apdex_t}"_s), qPrintable(error));
}

void TestDashboardFile::addBoundRows()
{
    using namespace DashboardLimits;
    const auto many = [](int count, const std::function<QJsonValue(int)> &make) {
        QJsonArray array;
        for (int i = 0; i < count; ++i)
            array.append(make(i));
        return array;
    };
    const auto text = [](qsizetype length) { return QString(length, u'x'); };
    const auto source = [](int i) {
        return QJsonObject { { u"id"_s, u"s%1"_s.arg(i) }, { u"plugin"_s, u"host"_s } };
    };
    const auto panel = [](int i) {
        return QJsonObject { { u"id"_s, u"p%1"_s.arg(i) }, { u"type"_s, u"timeseries"_s } };
    };
    const auto variable = [](int i) { return QJsonObject { { u"name"_s, u"v%1"_s.arg(i) } }; };
    const auto derived = [](const QString &expression) {
        return QJsonArray { QJsonObject { { u"source"_s, u"host"_s },
                                          { u"metric"_s, u"m"_s },
                                          { u"expression"_s, expression } } };
    };
    const auto selector
        = [](int) { return QJsonObject { { u"source"_s, u"host"_s }, { u"metric"_s, u"m"_s } }; };

    QTest::newRow("timeRange over 400 days")
        << patched({ { "timeRange", u"401d"_s } }) << u"timeRange"_s
        << u"must be at most 400d, got \"401d\""_s;
    QTest::newRow("timeRange 100000000d")
        << patched({ { "timeRange", u"100000000d"_s } }) << u"timeRange"_s
        << u"must be at most 400d, got \"100000000d\""_s;
    QTest::newRow("timeRange over 400 days in ms")
        << patched({ { "timeRange", QString(QString::number(MaximumRangeMs + 1) + u"ms"_s) } })
        << u"timeRange"_s << u"must be at most 400d"_s;
    QTest::newRow("intervalMs over a day")
        << patched({ { "sources[0].intervalMs", MaximumIntervalMs + 1 } })
        << u"sources[0].intervalMs"_s << u"must be an integer from 100 to 86400000, got 86400001"_s;
    QTest::newRow("timeoutMs over 10 minutes")
        << patched({ { "sources[0].timeoutMs", MaximumTimeoutMs + 1 } })
        << u"sources[0].timeoutMs"_s << u"must be an integer from 100 to 600000, got 600001"_s;
    QTest::newRow("timeoutMs below 100 ms")
        << patched({ { "sources[0].timeoutMs", 99 } }) << u"sources[0].timeoutMs"_s
        << u"must be an integer from 100 to 600000, got 99"_s;
    QTest::newRow("refreshMs over an hour")
        << patched({ { "refreshMs", MaximumRefreshMs + 1 } }) << u"refreshMs"_s
        << u"must be an integer from 100 to 3600000, got 3600001"_s;

    QTest::newRow("too many sources")
        << patched({ { "sources", many(MaximumSources + 1, source) } }) << u"sources"_s
        << u"must list at most 200 sources, got 201"_s;
    QTest::newRow("too many panels") << patched({ { "panels", many(MaximumPanels + 1, panel) } })
                                     << u"panels"_s << u"must list at most 500 panels, got 501"_s;
    QTest::newRow("too many variables")
        << patched({ { "variables", many(MaximumVariables + 1, variable) } }) << u"variables"_s
        << u"must list at most 100 variables, got 101"_s;
    QTest::newRow("too many variable options")
        << patched(
               { { "variables[0].name", u"host"_s },
                 { "variables[0].options",
                   many(MaximumVariableOptions + 1, [](int i) { return QString::number(i); }) } })
        << u"variables[0].options"_s << u"must list at most 200 options, got 201"_s;
    QTest::newRow("too many derived series") << patched(
        { { "derived", many(MaximumDerived + 1, [&](int) { return derived(u"a"_s).at(0); }) } })
                                             << u"derived"_s
                                             << u"must list at most 200 derived series, got 201"_s;
    QTest::newRow("too many selectors")
        << patched({ { "panels[0].series", many(MaximumSelectorsPerPanel + 1, selector) } })
        << u"panels[0].series"_s << u"must list at most 200 series, got 201"_s;
    QTest::newRow("too many alert rules")
        << patched({ { "alerts", many(MaximumAlertRules + 1, [](int) { return QJsonObject(); }) } })
        << u"alerts"_s << u"must list at most 500 rules, got 501"_s;

    const QString tooLongId = u"must be at most 128 characters long, got 129"_s;
    const QString tooLongName = u"must be at most 256 characters long, got 257"_s;
    const QString tooLongValue = u"must be at most 4096 characters long, got 4097"_s;
    QTest::newRow("title too long")
        << patched({ { "title", text(MaximumNameLength + 1) } }) << u"title"_s << tooLongName;
    QTest::newRow("source id too long")
        << patched({ { "sources[0].id", text(MaximumIdLength + 1) } }) << u"sources[0].id"_s
        << tooLongId;
    QTest::newRow("plugin too long")
        << patched({ { "sources[0].plugin", text(MaximumIdLength + 1) } }) << u"sources[0].plugin"_s
        << tooLongId;
    QTest::newRow("variable name too long")
        << patched({ { "variables[0].name", text(MaximumIdLength + 1) } }) << u"variables[0].name"_s
        << tooLongId;
    QTest::newRow("variable label too long")
        << patched({ { "variables[0].name", u"host"_s },
                     { "variables[0].label", text(MaximumNameLength + 1) } })
        << u"variables[0].label"_s << tooLongName;
    QTest::newRow("variable default too long")
        << patched({ { "variables[0].name", u"host"_s },
                     { "variables[0].default", text(MaximumValueLength + 1) } })
        << u"variables[0].default"_s << tooLongValue;
    QTest::newRow("variable option too long") << patched(
        { { "variables[0].name", u"host"_s },
          { "variables[0].options", QJsonArray { u"a"_s, text(MaximumValueLength + 1) } } })
                                              << u"variables[0].options[1]"_s << tooLongValue;
    QTest::newRow("derived metric too long") << patched(
        { { "derived", derived(u"a"_s) }, { "derived[0].metric", text(MaximumNameLength + 1) } })
                                             << u"derived[0].metric"_s << tooLongName;
    QTest::newRow("expression too long")
        << patched({ { "derived", derived(u"a+"_s.repeated(2048) + u"a"_s) } })
        << u"derived[0].expression"_s << tooLongValue;
    QTest::newRow("expression nested too deep")
        << patched({ { "derived", derived(QString(65, u'(') + u"a"_s + QString(65, u')')) } })
        << u"derived[0].expression"_s << u"position 65: nested deeper than 64 levels"_s;
    QTest::newRow("panel id too long") << patched({ { "panels[0].id", text(MaximumIdLength + 1) } })
                                       << u"panels[0].id"_s << tooLongId;
    QTest::newRow("panel title too long")
        << patched({ { "panels[0].title", text(MaximumNameLength + 1) } }) << u"panels[0].title"_s
        << tooLongName;
    QTest::newRow("panel unit too long")
        << patched({ { "panels[0].unit", text(MaximumNameLength + 1) } }) << u"panels[0].unit"_s
        << tooLongName;
    QTest::newRow("selector metric too long")
        << patched({ { "panels[0].series[0].metric", text(MaximumNameLength + 1) } })
        << u"panels[0].series[0].metric"_s << tooLongName;
    QTest::newRow("selector label value too long")
        << patched({ { "panels[0].series[0].labels.cpu", text(MaximumNameLength + 1) } })
        << u"panels[0].series[0].labels.cpu"_s << tooLongName;
    QTest::newRow("selector label name too long")
        << patched({ { "panels[0].series[0].labels",
                       QJsonObject { { text(MaximumNameLength + 1), u"x"_s } } } })
        << u"panels[0].series[0].labels"_s
        << u"label names must be at most 256 characters long, got 257"_s;
    QTest::newRow("layout h over 100")
        << patched({ { "panels[0].layout", object(R"({"x": 0, "y": 0, "w": 6, "h": 101})") } })
        << u"panels[0].layout.h"_s << u"must be an integer from 1 to 100, got 101"_s;
    QTest::newRow("layout y near the int limit")
        << patched(
               { { "panels[0].layout", object(R"({"x": 0, "y": 2147483647, "w": 6, "h": 4})") } })
        << u"panels[0].layout.y"_s << u"must be an integer from 0 to 100000, got 2147483647"_s;
    QTest::newRow("panel ending past the last row")
        << patched({ { "panels[0].layout", object(R"({"x": 0, "y": 99950, "w": 6, "h": 100})") } })
        << u"panels[0].layout.h"_s
        << u"y + h must not exceed 100000 (the grid's last row), got y 99950 + h 100"_s;
    // Found by the fuzz target: the reader placed a panel without a layout below the
    // last row, so the file it saved could not be opened again.
    QTest::newRow("no room below for a panel without a layout")
        << patched({ { "panels[0].layout", object(R"({"x": 0, "y": 99990, "w": 6, "h": 10})") },
                     { "panels[1]", panel(1) } })
        << u"panels[1]"_s
        << u"has no layout, and no room is left for it below the placed panels (the grid ends "
           "at row 100000); give it a layout"_s;
}

// Everything at its bound loads, and saves to a file that loads back the same.
void TestDashboardFile::atTheBounds()
{
    using namespace DashboardLimits;
    QJsonArray variables, sources, derived, panels, selectors, options;
    for (int i = 0; i < MaximumVariableOptions; ++i)
        options.append(QString(MaximumValueLength, u'o'));
    for (int i = 0; i < MaximumVariables; ++i)
        variables.append(
            QJsonObject { { u"name"_s, u"v%1_"_s.arg(i).leftJustified(MaximumIdLength, u'v') },
                          { u"label"_s, QString(MaximumNameLength, u'l') },
                          { u"default"_s, QString(MaximumValueLength, u'd') },
                          { u"options"_s, i == 0 ? options : QJsonArray() } });
    for (int i = 0; i < MaximumSources; ++i)
        sources.append(
            QJsonObject { { u"id"_s, u"s%1_"_s.arg(i).leftJustified(MaximumIdLength, u's') },
                          { u"plugin"_s, QString(MaximumIdLength, u'p') },
                          { u"intervalMs"_s, MaximumIntervalMs },
                          { u"timeoutMs"_s, MaximumTimeoutMs } });
    const QString firstSource = sources.at(0).toObject().value(u"id"_s).toString();
    // The deepest nest in the longest text.
    QString expression = QString(Expression::MaximumDepth, u'(') + u"a"_s
        + QString(Expression::MaximumDepth, u')');
    while (expression.size() + 2 <= Expression::MaximumLength)
        expression += u"+a"_s;
    for (int i = 0; i < MaximumDerived; ++i)
        derived.append(
            QJsonObject { { u"source"_s, firstSource },
                          { u"metric"_s, u"d%1."_s.arg(i).leftJustified(MaximumNameLength, u'm') },
                          { u"expression"_s, expression } });
    for (int i = 0; i < MaximumSelectorsPerPanel; ++i)
        selectors.append(QJsonObject { { u"source"_s, firstSource },
                                       { u"metric"_s, QString(MaximumNameLength, u'm') },
                                       { u"labels"_s,
                                         QJsonObject { { QString(MaximumNameLength, u'k'),
                                                         QString(MaximumNameLength, u'v') } } } });
    for (int i = 0; i < MaximumPanels; ++i)
        panels.append(
            QJsonObject { { u"id"_s, u"p%1_"_s.arg(i).leftJustified(MaximumIdLength, u'p') },
                          { u"type"_s, u"timeseries"_s },
                          { u"title"_s, QString(MaximumNameLength, u't') },
                          { u"unit"_s, QString(MaximumNameLength, u'u') },
                          { u"series"_s, i == 0 ? selectors : QJsonArray() },
                          { u"layout"_s,
                            QJsonObject { { u"x"_s, 0 },
                                          { u"y"_s,
                                            i == 0 ? MaximumPanelRow - MaximumPanelHeight
                                                   : i * MaximumPanelHeight },
                                          { u"w"_s, 12 },
                                          { u"h"_s, MaximumPanelHeight } } } });
    const QJsonObject root { { u"schemaVersion"_s, 2 },
                             { u"title"_s, QString(MaximumNameLength, u'T') },
                             { u"variables"_s, variables },
                             { u"sources"_s, sources },
                             { u"derived"_s, derived },
                             { u"timeRange"_s, u"400d"_s },
                             { u"refreshMs"_s, MaximumRefreshMs },
                             { u"panels"_s, panels } };
    const DashboardLoadResult result
        = parseDashboard(QJsonDocument(root).toJson(QJsonDocument::Compact), u"big.json"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    const Dashboard &d = *result.dashboard;
    QCOMPARE(d.sources.size(), MaximumSources);
    QCOMPARE(d.panels.size(), MaximumPanels);
    QCOMPARE(d.variables.size(), MaximumVariables);
    QCOMPARE(d.derived.size(), MaximumDerived);
    QCOMPARE(d.rangeMs, MaximumRangeMs);
    const DashboardLoadResult again = parseDashboard(dashboardToJson(d), u"saved.json"_s);
    QVERIFY2(again.ok(), qPrintable(again.error.toString()));
    QVERIFY(*again.dashboard == d);
}

void TestDashboardFile::malformed()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, field);
    QFETCH(QString, reason);

    const DashboardLoadResult result = parseDashboard(json, u"bad.json"_s);
    QVERIFY2(!result.ok(), json.constData());
    QCOMPARE(result.error.file, u"bad.json"_s);
    QCOMPARE(result.error.field, field);
    QVERIFY2(result.error.reason.contains(reason), qPrintable(result.error.reason));
    QVERIFY(result.error.toString().startsWith(u"bad.json: "_s));
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

void TestDashboardFile::passwordsNeverWritten()
{
    Dashboard d;
    d.title = u"t"_s;
    DashboardSource source;
    source.id = u"pg"_s;
    source.plugin = u"postgres"_s;
    source.config = object(R"({"host": "db", "password": "hunter2",
                               "auth": {"Password": "x", "user": "u"},
                               "list": [{"PASSWORD": "y", "keep": 1}, "password"]})");
    DashboardSource exporter;
    exporter.id = u"node"_s;
    exporter.plugin = u"prometheus"_s;
    exporter.config = { { u"url"_s, u"https://scrape:hunter3@node1:9100/metrics"_s } };
    d.sources = { source, exporter };
    // A host variable typed with a password: the value in use becomes the default.
    DashboardVariable host;
    host.name = u"host"_s;
    host.defaultValue = u"ssh://ops:hunter4@db1:2222"_s;
    host.options = { u"local"_s, u"ssh://ops:hunter5@db2"_s };
    d.variables = { host };

    const QByteArray json = dashboardToJson(d);
    QVERIFY2(!json.toLower().contains("\"password\":"), json.constData());
    QVERIFY(!json.contains("hunter"));
    const DashboardLoadResult result = parseDashboard(json, u"x"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->sources.at(0).config, object(R"({"host": "db", "auth": {"user": "u"},
                        "list": [{"keep": 1}, "password"]})"));
    QCOMPARE(result.dashboard->sources.at(1).config,
             (QJsonObject { { u"url"_s, u"https://scrape@node1:9100/metrics"_s } }));
    QCOMPARE(result.dashboard->variables.at(0).defaultValue, u"ssh://ops@db1:2222"_s);
    QCOMPARE(result.dashboard->variables.at(0).options,
             (QStringList { u"local"_s, u"ssh://ops@db2"_s }));

    QTemporaryDir dir;
    const QString path = dir.filePath(u"pg.json"_s);
    QString error;
    QVERIFY(saveDashboard(d, path, &error));
    QVERIFY(!readAll(path).contains("hunter"));
}

// A libpq connection string with a password, typed into the source's conninfo or into
// the variable that feeds it (the value in use becomes the default on Save), in
// keyword/value or URI form: the saved file holds the rest of it and no password.
void TestDashboardFile::conninfoPasswordsNeverWritten_data()
{
    QTest::addColumn<QString>("conninfo"); // the source's option
    QTest::addColumn<QString>("value"); // the pg variable's default and second option
    QTest::addColumn<QString>("savedConninfo");
    QTest::addColumn<QString>("savedValue");

    QTest::newRow("keyword in the option") << u"host=db password=hunter2 dbname=erp"_s << u"local"_s
                                           << u"host=db dbname=erp"_s << u"local"_s;
    QTest::newRow("quoted keyword in the option")
        << u"host=db password='hun ter2'"_s << u"local"_s << u"host=db"_s << u"local"_s;
    QTest::newRow("uri query in the option")
        << u"postgresql://db/erp?password=hunter2&sslmode=require"_s << u"local"_s
        << u"postgresql://db/erp?sslmode=require"_s << u"local"_s;
    QTest::newRow("uri user info in the option")
        << u"postgresql://app:hunter2@db/erp"_s << u"local"_s << u"postgresql://app@db/erp"_s
        << u"local"_s;
    QTest::newRow("keyword in the variable") << u"${pg}"_s << u"host=db user=app password=hunter2"_s
                                             << u"${pg}"_s << u"host=db user=app"_s;
    QTest::newRow("variable inside a longer conninfo")
        << u"${pg} application_name=x"_s << u"sslpassword=hunter2 host=db"_s
        << u"${pg} application_name=x"_s << u"host=db"_s;
    QTest::newRow("uri in the variable")
        << u"${pg}"_s << u"postgres://app:hunter2@db/erp?sslpassword=hunter2"_s << u"${pg}"_s
        << u"postgres://app@db/erp"_s;
    // A variable that feeds no conninfo keeps "password=" in its text: it may be anything,
    // a SQL filter say, and is not read as a connection string.
    QTest::newRow("no conninfo, kept")
        << u"host=db"_s << u"password=abc"_s << u"host=db"_s << u"password=abc"_s;
}

void TestDashboardFile::conninfoPasswordsNeverWritten()
{
    QFETCH(QString, conninfo);
    QFETCH(QString, value);
    QFETCH(QString, savedConninfo);
    QFETCH(QString, savedValue);
    Dashboard d;
    d.title = u"t"_s;
    DashboardVariable pg { u"pg"_s, u"Server"_s, value, { u""_s, value } };
    d.variables = { pg };
    DashboardSource source;
    source.id = u"pg"_s;
    source.plugin = u"postgres"_s;
    source.config = { { u"conninfo"_s, conninfo } };
    d.sources = { source };

    QTemporaryDir dir;
    const QString path = dir.filePath(u"pg.json"_s);
    QString error;
    QVERIFY2(saveDashboard(d, path, &error), qPrintable(error));
    const QByteArray written = readAll(path);
    QVERIFY2(!written.contains("hunter"), written.constData());
    const DashboardLoadResult result = loadDashboard(path);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->sources.at(0).config.value(u"conninfo"_s).toString(), savedConninfo);
    QCOMPARE(result.dashboard->variables.at(0).defaultValue, savedValue);
    QCOMPARE(result.dashboard->variables.at(0).options, (QStringList { u""_s, savedValue }));
}

void TestDashboardFile::saveOverExistingInUnwritableDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString sub = dir.filePath(u"locked"_s);
    QVERIFY(QDir().mkdir(sub));
    const QString path = sub + u"/dash.json"_s;
    Dashboard old = fullDashboard();
    old.title = u"old"_s;
    QString error;
    QVERIFY2(saveDashboard(old, path, &error), qPrintable(error));
    const QByteArray before = readAll(path);

    QVERIFY(QFile::setPermissions(sub, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    const auto restore = qScopeGuard([&] {
        QFile::setPermissions(
            sub, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    });
    {
        QFile probe(sub + u"/probe"_s);
        if (probe.open(QIODevice::WriteOnly)) {
            probe.close();
            probe.remove();
            QSKIP("directory permissions do not apply to this user (root); "
                  "failedWriteKeepsOldFile covers the failed save");
        }
    }

    Dashboard changed = fullDashboard();
    changed.title = u"new"_s;
    QVERIFY(!saveDashboard(changed, path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(sub).entryList(QDir::Files | QDir::Hidden), QStringList { u"dash.json"_s });
    QCOMPARE(loadDashboard(path).dashboard->title, u"old"_s);
}

void TestDashboardFile::failedWriteKeepsOldFile()
{
    // A write that fails half way (here: the file size limit, which applies to
    // root as well) must leave the old file exactly as it was.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"dash.json"_s);
    Dashboard old;
    old.title = u"old"_s;
    QString error;
    QVERIFY2(saveDashboard(old, path, &error), qPrintable(error));
    const QByteArray before = readAll(path);

    Dashboard changed = fullDashboard();
    QVERIFY(dashboardToJson(changed).size() > 1024);

    rlimit saved {};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = saved;
    limited.rlim_cur = 512;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &limited), 0);
    const bool saved_ok = saveDashboard(changed, path, &error);
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previousHandler);

    QVERIFY(!saved_ok);
    QVERIFY2(error.startsWith(path + u": cannot save: "_s), qPrintable(error));
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList { u"dash.json"_s });
}

void TestDashboardFile::saveIntoMissingDirectory()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"missing/dash.json"_s);
    QString error;
    QVERIFY(!saveDashboard(fullDashboard(), path, &error));
    QVERIFY2(error.startsWith(path + u": cannot save: "_s), qPrintable(error));
    QVERIFY(!QFile::exists(path));
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

QTEST_GUILESS_MAIN(TestDashboardFile)
#include "tst_dashboardfile.moc"
