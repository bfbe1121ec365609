// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Multi-value variables and repeated panels in dashboard files, and the dashboard as
// drawn (expandRepeats): copies side by side or stacked, what lies below moved down,
// ids, titles and each copy's value; the reader's refusals; a round trip.
#include "document/dashboardfile.h"
#include "document/dashboardrepeat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

// A dashboard of one promql source, a multi-value variable host and the panels given.
QByteArray fleetJson(const QByteArray &panels, const QByteArray &variable = {},
                     const QByteArray &extra = {})
{
    return "{\"schemaVersion\": 4, \"title\": \"t\", \"variables\": [{\"name\": \"host\", "
           "\"multi\": true, \"default\": \"a, b\""
        + variable
        + "}], \"sources\": [{\"id\": \"prom\", \"plugin\": \"promql\", \"config\": {\"url\": "
          "\"http://127.0.0.1:9090\"}}"
        + extra + "], \"panels\": [" + panels + "]}";
}

Dashboard load(const QByteArray &json)
{
    const DashboardLoadResult loaded = parseDashboard(json, u"fleet.json"_s);
    if (!loaded.ok())
        qFatal("%s", qPrintable(loaded.error.toString()));
    return *loaded.dashboard;
}

QString layoutOf(const Dashboard &dashboard, const QString &id)
{
    const DashboardPanel *panel = dashboard.panel(id);
    if (!panel)
        return u"missing"_s;
    const PanelLayout &l = panel->layout;
    return u"%1,%2 %3x%4"_s.arg(l.x).arg(l.y).arg(l.w).arg(l.h);
}

QStringList ids(const Dashboard &dashboard)
{
    QStringList out;
    for (const DashboardPanel &panel : dashboard.panels)
        out << panel.id;
    return out;
}

const QByteArray CpuPanel = "{\"id\": \"cpu\", \"type\": \"timeseries\", \"title\": \"CPU of "
                            "$host\", \"query\": \"up{instance=~\\\"$host\\\"}\", \"repeat\": "
                            "\"host\", \"layout\": {\"x\": 0, \"y\": 2, \"w\": 4, \"h\": 3}}";
const QByteArray BelowPanel = "{\"id\": \"below\", \"type\": \"timeseries\", \"query\": \"up\", "
                              "\"layout\": {\"x\": 0, \"y\": 5, \"w\": 12, \"h\": 2}}";
const QByteArray AbovePanel = "{\"id\": \"above\", \"type\": \"timeseries\", \"query\": \"up\", "
                              "\"layout\": {\"x\": 0, \"y\": 0, \"w\": 12, \"h\": 2}}";

} // namespace

class TestDashboardRepeat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void variableValues_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("values");
        QTest::newRow("one") << u"web1"_s << QStringList { u"web1"_s };
        QTest::newRow("two, spaced")
            << u" web1:9100 ,web2:9100 "_s << QStringList { u"web1:9100"_s, u"web2:9100"_s };
        QTest::newRow("empty parts") << u",a,,b,"_s << QStringList { u"a"_s, u"b"_s };
        QTest::newRow("empty") << QString() << QStringList {};
    }
    void variableValues()
    {
        QFETCH(QString, value);
        QFETCH(QStringList, values);
        QCOMPARE(Headroom::variableValues(value), values);
    }

    // Side by side from column 0, three per row of width 4, wrapping; the panel below
    // moves down by the added row; the one above stays.
    void horizontal()
    {
        const Dashboard dashboard = load(fleetJson(AbovePanel + ',' + CpuPanel + ',' + BelowPanel));
        QVERIFY(hasRepeats(dashboard));
        const Dashboard drawn
            = expandRepeats(dashboard, { { u"host"_s, { u"a"_s, u"b"_s, u"c"_s, u"d"_s } } });
        QCOMPARE(ids(drawn),
                 (QStringList { u"above"_s, u"cpu/a"_s, u"cpu/b"_s, u"cpu/c"_s, u"cpu/d"_s,
                                u"below"_s }));
        QCOMPARE(layoutOf(drawn, u"cpu/a"_s), u"0,2 4x3"_s);
        QCOMPARE(layoutOf(drawn, u"cpu/b"_s), u"4,2 4x3"_s);
        QCOMPARE(layoutOf(drawn, u"cpu/c"_s), u"8,2 4x3"_s);
        QCOMPARE(layoutOf(drawn, u"cpu/d"_s), u"0,5 4x3"_s);
        QCOMPARE(layoutOf(drawn, u"below"_s), u"0,8 12x2"_s);
        QCOMPARE(layoutOf(drawn, u"above"_s), u"0,0 12x2"_s);
        const DashboardPanel *c = drawn.panel(u"cpu/c"_s);
        QCOMPARE(c->title, u"CPU of c"_s);
        QCOMPARE(c->repeatOf, u"cpu"_s);
        QVERIFY(c->repeat.isEmpty());
        QCOMPARE(c->variables, (QMap<QString, QString> { { u"host"_s, u"c"_s } }));
        QCOMPARE(c->query, dashboard.panel(u"cpu"_s)->query); // substituted when read
        // The document is untouched: only the drawing repeats.
        QCOMPARE(ids(dashboard), (QStringList { u"above"_s, u"cpu"_s, u"below"_s }));
    }

    // "v", or a panel sharing its rows: stacked in its own columns; sections below move.
    void vertical_data()
    {
        QTest::addColumn<QByteArray>("panels");
        QByteArray vertical = CpuPanel;
        vertical.replace("\"repeat\": \"host\"",
                         "\"repeat\": \"host\", \"repeatDirection\": \"v\"");
        QTest::newRow("repeatDirection v") << vertical + ',' + BelowPanel;
        const QByteArray beside = "{\"id\": \"beside\", \"type\": \"timeseries\", \"query\": "
                                  "\"up\", \"layout\": {\"x\": 6, \"y\": 2, \"w\": 6, \"h\": 3}}";
        QTest::newRow("shares its rows") << CpuPanel + ',' + beside + ',' + BelowPanel;
    }
    void vertical()
    {
        QFETCH(QByteArray, panels);
        QByteArray json = fleetJson(panels);
        json.replace("\"panels\":", "\"sections\": [{\"title\": \"S\", \"y\": 5}], \"panels\":");
        const Dashboard drawn = expandRepeats(load(json), { { u"host"_s, { u"a"_s, u"b"_s } } });
        QCOMPARE(layoutOf(drawn, u"cpu/a"_s), u"0,2 4x3"_s);
        QCOMPARE(layoutOf(drawn, u"cpu/b"_s), u"0,5 4x3"_s);
        QCOMPARE(layoutOf(drawn, u"below"_s), u"0,8 12x2"_s);
        QCOMPARE(drawn.sections.first().y, 8);
        if (drawn.panel(u"beside"_s))
            QCOMPARE(layoutOf(drawn, u"beside"_s), u"6,2 6x3"_s);
    }

    // No values: drawn once, as written; more than MaximumRepeats: the first 64.
    void valuesBounds()
    {
        const Dashboard dashboard = load(fleetJson(CpuPanel));
        QCOMPARE(expandRepeats(dashboard, {}), dashboard);
        QCOMPARE(expandRepeats(dashboard, { { u"host"_s, {} } }), dashboard);
        QStringList many;
        for (int i = 0; i < 100; ++i)
            many << QString::number(i);
        const Dashboard drawn = expandRepeats(dashboard, { { u"host"_s, many } });
        QCOMPARE(drawn.panels.size(), MaximumRepeats);
        QCOMPARE(drawn.panels.last().id, u"cpu/63"_s);
    }

    // A title that names no variable gets the value appended.
    void titleWithoutTheVariable()
    {
        QByteArray panel = CpuPanel;
        panel.replace("CPU of $host", "CPU");
        const Dashboard drawn
            = expandRepeats(load(fleetJson(panel)), { { u"host"_s, { u"a"_s } } });
        QCOMPARE(drawn.panels.first().title, u"CPU — a"_s);
    }

    // A repeated section: its band (rows 2-5, two panels, one of them repeated itself)
    // once per value, one band below the other; the section after it moves down.
    void section()
    {
        QByteArray json = fleetJson(
            AbovePanel + ','
            + "{\"id\": \"load\", \"type\": \"timeseries\", \"title\": \"Load of $host\", "
              "\"query\": \"up\", \"layout\": {\"x\": 0, \"y\": 2, \"w\": 6, \"h\": 3}},"
              "{\"id\": \"mem\", \"type\": \"timeseries\", \"title\": \"Memory\", "
              "\"query\": \"up\", \"layout\": {\"x\": 6, \"y\": 2, \"w\": 6, \"h\": 3}},"
            + BelowPanel);
        json.replace("\"panels\":",
                     "\"sections\": [{\"title\": \"Host $host\", \"y\": 2, "
                     "\"repeat\": \"host\"}, {\"title\": \"Fleet\", \"y\": 5}], "
                     "\"panels\":");
        const Dashboard dashboard = load(json);
        QVERIFY(hasRepeats(dashboard));
        const Dashboard drawn
            = expandRepeats(dashboard, { { u"host"_s, { u"a"_s, u"b"_s, u"c"_s } } });
        QCOMPARE(ids(drawn),
                 (QStringList { u"above"_s, u"load/a"_s, u"mem/a"_s, u"load/b"_s, u"mem/b"_s,
                                u"load/c"_s, u"mem/c"_s, u"below"_s }));
        QCOMPARE(layoutOf(drawn, u"load/a"_s), u"0,2 6x3"_s);
        QCOMPARE(layoutOf(drawn, u"mem/b"_s), u"6,5 6x3"_s);
        QCOMPARE(layoutOf(drawn, u"load/c"_s), u"0,8 6x3"_s);
        QCOMPARE(layoutOf(drawn, u"below"_s), u"0,11 12x2"_s);
        QCOMPARE(layoutOf(drawn, u"above"_s), u"0,0 12x2"_s);
        QStringList sections;
        for (const DashboardSection &section : drawn.sections)
            sections << u"%1@%2#%3"_s.arg(section.title).arg(section.y).arg(section.documentIndex);
        QCOMPARE(
            sections,
            (QStringList { u"Host a@2#0"_s, u"Host b@5#0"_s, u"Host c@8#0"_s, u"Fleet@11#1"_s }));
        const DashboardPanel *loadB = drawn.panel(u"load/b"_s);
        QCOMPARE(loadB->title, u"Load of b"_s);
        QCOMPARE(drawn.panel(u"mem/b"_s)->title, u"Memory"_s); // names no variable: as it is
        QCOMPARE(loadB->repeatOf, u"load"_s);
        QCOMPARE(loadB->variables, (QMap<QString, QString> { { u"host"_s, u"b"_s } }));
        // Every drawn section's band holds its own copies: no panel reaches into another.
        for (const DashboardPanel &panel : drawn.panels) {
            for (const DashboardSection &section : drawn.sections)
                QVERIFY(
                    !(panel.layout.y < section.y && panel.layout.y + panel.layout.h > section.y));
        }

        // A repeated panel in a repeated section repeats in each copy of it.
        QByteArray nested = json;
        nested.replace("\"title\": \"Memory\", ",
                       "\"title\": \"Memory\", \"repeat\": \"host\", \"repeatDirection\": \"v\", ");
        const Dashboard both = expandRepeats(load(nested), { { u"host"_s, { u"a"_s, u"b"_s } } });
        QVERIFY(both.panel(u"mem/a/b"_s));
        QCOMPARE(both.panel(u"mem/a/b"_s)->repeatOf, u"mem"_s);
        QCOMPARE(both.panel(u"mem/a/b"_s)->variables.value(u"host"_s), u"b"_s);
    }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reasonPart");
        QByteArray notMulti = fleetJson(CpuPanel);
        notMulti.replace("\"multi\": true", "\"multi\": false");
        QTest::newRow("repeat over a single-value variable")
            << notMulti << u"panels[0].repeat"_s << u"not multi-value"_s;
        QByteArray unknown = CpuPanel;
        unknown.replace("\"repeat\": \"host\"", "\"repeat\": \"hosts\"");
        QTest::newRow("repeat over no variable")
            << fleetJson(unknown) << u"panels[0].repeat"_s << u"no declared variable"_s;
        QByteArray direction = CpuPanel;
        direction.replace("\"repeat\": \"host\"",
                          "\"repeat\": \"host\", \"repeatDirection\": \"x\"");
        QTest::newRow("direction") << fleetJson(direction) << u"panels[0].repeatDirection"_s
                                   << u"expected \"h\" or \"v\""_s;
        QTest::newRow("direction without repeat")
            << fleetJson("{\"id\": \"p\", \"type\": \"timeseries\", \"query\": \"up\", "
                         "\"repeatDirection\": \"v\"}")
            << u"panels[0].repeatDirection"_s << u"without repeat"_s;
        QTest::newRow("a source given several values")
            << fleetJson(CpuPanel, {},
                         ", {\"id\": \"h\", \"plugin\": \"host\", \"config\": {\"host\": "
                         "\"${host}\"}}")
            << u"sources[1].config.host"_s << u"multi-value variable, and this takes one value"_s;
        QTest::newRow("labelValues label")
            << fleetJson(CpuPanel, ", \"labelValues\": {\"label\": \"in-stance\"}")
            << u"variables[0].labelValues.label"_s << u"no label name"_s;
        QTest::newRow("labelValues unknown key")
            << fleetJson(CpuPanel,
                         ", \"labelValues\": {\"label\": \"instance\", \"metric\": \"up\"}")
            << u"variables[0].labelValues.metric"_s << u"unknown"_s;
        QTest::newRow("labelValues of no engine")
            << fleetJson(CpuPanel,
                         ", \"labelValues\": {\"label\": \"instance\", \"source\": \"x\"}")
            << u"variables[0].labelValues.source"_s << u"not a source with plugin \"promql\""_s;
        QByteArray section = notMulti;
        section.replace(
            "\"panels\":",
            "\"sections\": [{\"title\": \"S\", \"y\": 0, \"repeat\": \"host\"}], \"panels\":");
        section.replace("\"repeat\": \"host\", \"layout\"", "\"layout\"");
        QTest::newRow("section over a single-value variable")
            << section << u"sections[0].repeat"_s << u"not multi-value"_s;
        QTest::newRow("multi not a bool")
            << fleetJson(CpuPanel).replace("\"multi\": true", "\"multi\": \"yes\"")
            << u"variables[0].multi"_s << u"true or false"_s;
    }
    void refused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, field);
        QFETCH(QString, reasonPart);
        const DashboardLoadResult result = parseDashboard(json, u"bad.json"_s);
        QVERIFY(!result.ok());
        QCOMPARE(result.error.field, field);
        QVERIFY2(result.error.reason.contains(reasonPart), qPrintable(result.error.reason));
    }

    // Written and read back the same; the file says schema 4.
    void roundTrip()
    {
        QByteArray panel = CpuPanel;
        panel.replace("\"repeat\": \"host\"", "\"repeat\": \"host\", \"repeatDirection\": \"v\"");
        QByteArray json = fleetJson(
            panel,
            ", \"labelValues\": {\"label\": \"instance\", \"match\": \"up{job=\\\"node\\\"}\"}");
        json.replace(
            "\"panels\":",
            "\"sections\": [{\"title\": \"S\", \"y\": 0, \"repeat\": \"host\"}], \"panels\":");
        const Dashboard dashboard = load(json);
        QCOMPARE(dashboard.sections.first().repeat, u"host"_s);
        QVERIFY(dashboard.variables.first().multi);
        QCOMPARE(dashboard.variables.first().labelValues.match, u"up{job=\"node\"}"_s);
        const QByteArray written = dashboardToJson(dashboard);
        QCOMPARE(QJsonDocument::fromJson(written).object().value(u"schemaVersion"_s).toInt(), 4);
        QCOMPARE(load(written), dashboard);
    }
};

QTEST_GUILESS_MAIN(TestDashboardRepeat)
#include "tst_dashboardrepeat.moc"
