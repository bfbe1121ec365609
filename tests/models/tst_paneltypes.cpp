// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The panel types end to end: every PanelType has a name that reads back, a descriptor
// whose query gives its own payload, and the capabilities the code had before the types
// became descriptors (which types show alerts, compare, CSV rows of their own).
#include "document/dashboardfile.h"
#include "document/panels/paneltyperules.h"
#include "document/paneltype.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/csvexport.h"
#include "query/panels/paneldescriptor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace Headroom {
// QCOMPARE prints the name.
char *toString(PanelType type)
{
    return QTest::toString(panelTypeName(type));
}
} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::PanelType)

class TestPanelTypes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip();
    void unknownNames();
    void descriptors_data();
    void descriptors();
    void documentRules_data();
    void documentRules();
    void queryReadersInWords();
    void queryGivesTheTypesPayload_data();
    void queryGivesTheTypesPayload();
    void fileRoundTrip();
};

namespace {

void addTypeRows()
{
    QTest::addColumn<PanelType>("type");
    for (PanelType type : AllPanelTypes)
        QTest::newRow(qPrintable(panelTypeName(type))) << type;
}

} // namespace

void TestPanelTypes::namesRoundTrip()
{
    // The file format's spellings, in enum order.
    const QStringList expected { u"timeseries"_s,     u"heatmap"_s,    u"usematrix"_s,
                                 u"shardhistogram"_s, u"shardtable"_s, u"alerts"_s,
                                 u"blockingtree"_s,   u"table"_s,      u"stat"_s };
    QCOMPARE(PanelTypeCount, int(expected.size()));
    QCOMPARE(panelTypeNames(), expected);
    for (int i = 0; i < PanelTypeCount; ++i) {
        const PanelType type = AllPanelTypes[size_t(i)];
        QCOMPARE(int(type), i);
        QCOMPARE(panelTypeName(type), expected.at(i));
        QCOMPARE(panelTypeFromName(panelTypeName(type)), std::optional(type));
    }
    // A new panel is a time chart, as before.
    QCOMPARE(DashboardPanel().type, PanelType::TimeSeries);
    QCOMPARE(AllPanelTypes.front(), PanelType::TimeSeries);
}

void TestPanelTypes::unknownNames()
{
    for (const QString &name : { u""_s, u"pie"_s, u"TimeSeries"_s, u"timeseries "_s, u"alert"_s })
        QCOMPARE(panelTypeFromName(name), std::nullopt);
}

void TestPanelTypes::descriptors_data()
{
    addTypeRows();
}

void TestPanelTypes::descriptors()
{
    QFETCH(PanelType, type);
    const PanelDescriptor &d = panelDescriptor(type);
    QCOMPARE(d.type, type);
    QVERIFY(d.query);
    // What the code did before the descriptors: queryPanel read alert events for
    // timeseries, alerts and usematrix panels (panelShowsAlerts); the dashboard view
    // added compare mode to timeseries panels only; the panel editor let only the alert
    // list go without series; csvRows() wrote view rows for heatmaps, USE matrices and
    // the two shard panels, and only series rows for the rest.
    const QSet<PanelType> showsAlerts { PanelType::TimeSeries, PanelType::Alerts,
                                        PanelType::UseMatrix };
    const QSet<PanelType> viewRows {
        PanelType::Heatmap,    PanelType::UseMatrix,    PanelType::ShardHistogram,
        PanelType::ShardTable, PanelType::BlockingTree, PanelType::Table,
        PanelType::Stat
    };
    QCOMPARE(d.showsAlerts, showsAlerts.contains(type));
    QCOMPARE(d.supportsCompare, type == PanelType::TimeSeries);
    // The table reads its PromQL query only.
    QCOMPARE(d.readsSeries, type != PanelType::Alerts && type != PanelType::Table);
    QCOMPARE(d.csvRows != nullptr, viewRows.contains(type));
}

void TestPanelTypes::documentRules_data()
{
    addTypeRows();
}

void TestPanelTypes::documentRules()
{
    QFETCH(PanelType, type);
    const PanelTypeRules &rules = panelTypeRules(type);
    // Which types read a PromQL query (the reader's and the editor's checks before the
    // rules: timeseries, heatmap and table; a table only a query), and which check
    // options of their own (the alert list and the blocking tree take theirs as they are).
    const QSet<PanelType> optionalQuery { PanelType::TimeSeries, PanelType::Heatmap,
                                          PanelType::Stat };
    const PanelQueryUse expected = type == PanelType::Table ? PanelQueryUse::Required
        : optionalQuery.contains(type)                      ? PanelQueryUse::Optional
                                                            : PanelQueryUse::None;
    QCOMPARE(rules.query, expected);
    QCOMPARE(rules.queryRequiredBecause != nullptr, expected == PanelQueryUse::Required);
    QCOMPARE(rules.checkOptions == nullptr,
             type == PanelType::Alerts || type == PanelType::BlockingTree);
}

void TestPanelTypes::queryReadersInWords()
{
    QCOMPARE(panelTypesReadingQueries(u"and"), u"timeseries, heatmap, table and stat"_s);
    QCOMPARE(panelTypesReadingQueries(u"or"), u"timeseries, heatmap, table or stat"_s);
    // The reader names them when a panel of another type has a query.
    const QByteArray file = R"({"schemaVersion": 2, "title": "q",
        "sources": [{"id": "prom", "plugin": "promql",
                     "config": {"url": "http://127.0.0.1:9090"}}],
        "panels": [{"id": "s", "type": "shardtable", "query": "up"}]})";
    const DashboardLoadResult read = parseDashboard(file, u"q.json"_s);
    QVERIFY(!read.ok());
    QVERIFY2(read.error.toString().contains(
                 u"panels[0].query: only timeseries, heatmap, table and stat panels read a "
                 "PromQL query in this build, not shardtable"_s),
             qPrintable(read.error.toString()));
}

void TestPanelTypes::queryGivesTheTypesPayload_data()
{
    addTypeRows();
}

void TestPanelTypes::queryGivesTheTypesPayload()
{
    QFETCH(PanelType, type);
    SeriesRegistry registry;
    LiveBuffers live(100);
    const SeriesStore store(&live, nullptr);
    const int id = registry.idFor(SeriesInfo { { u"host"_s, u"host.cpu.utilization"_s, {} },
                                               u"%"_s,
                                               u"cpu"_s,
                                               UseKind::Utilization,
                                               false });
    for (qint64 t = 0; t < 10; ++t)
        live.append(id, { 1'000'000 + t * 1000, 50 });
    DashboardPanel panel;
    panel.id = u"p"_s;
    panel.type = type;
    panel.series = { { u"host"_s, u"host.*"_s, {} } };
    const PanelData data = queryPanel(panel, registry, store, 1'000'000, 1'010'000, 100);
    QCOMPARE(data.type(), type);
    QCOMPARE(data.panelId, u"p"_s);
    QCOMPARE(data.fromMs, 1'000'000);
    QCOMPARE(data.toMs, 1'010'000);
    // A time chart's CSV is its series; the alert list has none (its events go to the
    // alert CSV).
    if (type == PanelType::TimeSeries) {
        QCOMPARE(data.series.size(), 1);
        QVERIFY(csvRows(data).startsWith("1970-01-01T00:16:40.000Z,p,host,host.cpu.utilization,"));
    }
    if (type == PanelType::Alerts) {
        QVERIFY(data.series.isEmpty());
        QVERIFY(csvRows(data).isEmpty());
    }
}

void TestPanelTypes::fileRoundTrip()
{
    // One panel of every type in a file: each reads back as its type and is written
    // with its name.
    QJsonArray panels;
    for (PanelType type : AllPanelTypes) {
        QJsonObject panel { { u"id"_s, panelTypeName(type) }, { u"type"_s, panelTypeName(type) } };
        // A table reads an engine's instant query; every other type reads series.
        if (panelTypeRules(type).query == PanelQueryUse::Required) {
            panel.insert(u"query"_s, u"up"_s);
            panel.insert(u"querySource"_s, u"prom"_s);
        } else {
            panel.insert(
                u"series"_s,
                QJsonArray { QJsonObject { { u"source"_s, u"host"_s }, { u"metric"_s, u"*"_s } } });
        }
        panels.append(panel);
    }
    const QJsonObject root {
        { u"schemaVersion"_s, 2 },
        { u"title"_s, u"every type"_s },
        { u"sources"_s,
          QJsonArray {
              QJsonObject { { u"id"_s, u"host"_s }, { u"plugin"_s, u"host"_s } },
              QJsonObject {
                  { u"id"_s, u"prom"_s },
                  { u"plugin"_s, u"promql"_s },
                  { u"config"_s, QJsonObject { { u"url"_s, u"http://127.0.0.1:9090"_s } } } },
          } },
        { u"panels"_s, panels },
    };
    const DashboardLoadResult read = parseDashboard(QJsonDocument(root).toJson(), u"t.json"_s);
    QVERIFY2(read.ok(), qPrintable(read.error.toString()));
    QCOMPARE(read.dashboard->panels.size(), qsizetype(PanelTypeCount));
    for (qsizetype i = 0; i < read.dashboard->panels.size(); ++i)
        QCOMPARE(read.dashboard->panels.at(i).type, AllPanelTypes[size_t(i)]);

    const QJsonArray written = QJsonDocument::fromJson(dashboardToJson(*read.dashboard))
                                   .object()
                                   .value(u"panels"_s)
                                   .toArray();
    QCOMPARE(written.size(), qsizetype(PanelTypeCount));
    for (qsizetype i = 0; i < written.size(); ++i)
        QCOMPARE(written.at(i).toObject().value(u"type"_s).toString(),
                 panelTypeName(AllPanelTypes[size_t(i)]));
    const DashboardLoadResult again
        = parseDashboard(dashboardToJson(*read.dashboard), u"t2.json"_s);
    QVERIFY2(again.ok(), qPrintable(again.error.toString()));
    QCOMPARE(*again.dashboard, *read.dashboard);
}

QTEST_GUILESS_MAIN(TestPanelTypes)
#include "tst_paneltypes.moc"
