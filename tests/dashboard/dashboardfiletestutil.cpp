// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "dashboardfiletestutil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

namespace Headroom::Test {

using namespace Qt::StringLiterals;

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

namespace {

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

} // namespace

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

} // namespace Headroom::Test
