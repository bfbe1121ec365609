// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Every refusal of the dashboard reader with its field (a JSON path) and reason: the
// file as a whole, each field, and one past each bound of dashboardlimits.h; and
// everything at its bound loads and saves to a file that loads back the same.
#include "dashboardfiletestutil.h"
#include "document/dashboardfile.h"
#include "document/dashboardlimits.h"
#include "document/expression.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <functional>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestDashboardFileRefusals : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void malformed_data();
    void malformed();
    void atTheBounds();

private:
    void addBoundRows();
    void apdexTFromVariable();
};

void TestDashboardFileRefusals::malformed_data()
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

void TestDashboardFileRefusals::apdexTFromVariable()
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

// One past each bound of dashboardlimits.h: a shared file must not cost unbounded
// memory, threads or repaint time.
void TestDashboardFileRefusals::addBoundRows()
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
void TestDashboardFileRefusals::atTheBounds()
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

void TestDashboardFileRefusals::malformed()
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

QTEST_GUILESS_MAIN(TestDashboardFileRefusals)
#include "tst_dashboardfilerefusals.moc"
