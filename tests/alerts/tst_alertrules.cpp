// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alert rules as JSON: reading with field-naming errors, writing and reading back, the
// shipped USE pack, pack overrides, and rules inside dashboard files.
#include "document/alertrulejson.h"
#include "document/dashboardfile.h"

#include <QJsonDocument>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

const char *FullRule = R"({
    "id": "disk.busy", "name": "Disk busy", "enabled": false,
    "series": { "source": "db*", "metric": "host.disk.utilization", "labels": { "device": "sd*" } },
    "reducer": "p95", "window": "2m", "comparison": ">=", "threshold": 90,
    "recoveryThreshold": 75, "for": "5m", "severity": "critical", "noData": "alert",
    "noDataAfter": "30s", "also": { "metric": "host.disk.queue", "comparison": ">", "threshold": 1 },
    "description": "{label:device} busy {value}", "hint": "iotop", "unit": "%"
})";

} // namespace

class TestAlertRules : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsEveryField()
    {
        AlertRuleProblem problem;
        const auto rule = alertRuleFromJson(json(FullRule), &problem);
        QVERIFY2(rule, qPrintable(problem.field + u": "_s + problem.reason));
        QCOMPARE(rule->id, u"disk.busy"_s);
        QVERIFY(!rule->enabled);
        QCOMPARE(rule->selector.source, u"db*"_s);
        QCOMPARE(rule->selector.labels.value(u"device"_s), u"sd*"_s);
        QCOMPARE(rule->reducer, AlertReducer::Percentile);
        QCOMPARE(rule->percentile, 95.0);
        QCOMPARE(rule->windowMs, 120'000);
        QCOMPARE(rule->comparison, AlertComparison::AtOrAbove);
        QCOMPARE(rule->recoveryThreshold, 75.0);
        QCOMPARE(rule->forMs, 300'000);
        QCOMPARE(rule->severity, AlertSeverity::Critical);
        QCOMPARE(rule->noData, AlertNoData::Alert);
        QCOMPARE(rule->noDataAfterMs, 30'000);
        QCOMPARE(rule->also.metric, u"host.disk.queue"_s);
        QCOMPARE(rule->also.threshold, 1.0);
        QCOMPARE(rule->hint, u"iotop"_s);
        // Source globs match: "db*" takes db1 and db2, not web1.
        QVERIFY(rule->selector.matches(
            { u"db2"_s, u"host.disk.utilization"_s, { { u"device"_s, u"sdb"_s } } }));
        QVERIFY(!rule->selector.matches(
            { u"web1"_s, u"host.disk.utilization"_s, { { u"device"_s, u"sdb"_s } } }));
    }

    void roundTrip()
    {
        const auto rule = alertRuleFromJson(json(FullRule), nullptr);
        QVERIFY(rule);
        const auto again = alertRuleFromJson(alertRuleToJson(*rule), nullptr);
        QVERIFY(again);
        QCOMPARE(*again, *rule);
        // Defaults stay out of the file.
        AlertRule minimal = *alertRuleFromJson(
            json(R"({"id": "a", "name": "A", "series": {"metric": "x"}, "threshold": 1})"),
            nullptr);
        const QJsonObject written = alertRuleToJson(minimal);
        QVERIFY(!written.contains(u"for"_s));
        QVERIFY(!written.contains(u"recoveryThreshold"_s));
        QCOMPARE(written.value(u"series"_s).toObject().value(u"source"_s).toString(), u"*"_s);
    }

    void problems_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const QString base = uR"("id": "a", "name": "A", "series": {"metric": "x"}, )"_s;
        QTest::newRow("no threshold") << base.chopped(2) << u"threshold"_s << u"is required"_s;
        QTest::newRow("reducer")
            << base + uR"("threshold": 1, "reducer": "p0")"_s << u"reducer"_s
            << u"must be last, avg, min, max, rate, change or pNN (e.g. p99), got \"p0\""_s;
        QTest::newRow("window") << base + uR"("threshold": 1, "window": "soon")"_s << u"window"_s
                                << u"must be a duration like 30s, 5m or 1h, got \"soon\""_s;
        QTest::newRow("comparison")
            << base + uR"("threshold": 1, "comparison": "=>")"_s << u"comparison"_s
            << u"must be one of >, >=, < or <=, got \"=>\""_s;
        QTest::newRow("recovery above")
            << base + uR"("threshold": 90, "recoveryThreshold": 95)"_s << u"recoveryThreshold"_s
            << u"must not be above the threshold 90 (the alert fires above it and resolves at or below the recovery threshold)"_s;
        QTest::newRow("recovery below, < rule")
            << base + uR"("threshold": 10, "comparison": "<", "recoveryThreshold": 5)"_s
            << u"recoveryThreshold"_s
            << u"must not be below the threshold 10 (the alert fires below it and resolves at or above the recovery threshold)"_s;
        QTest::newRow("severity") << base + uR"("threshold": 1, "severity": "page")"_s
                                  << u"severity"_s
                                  << u"must be one of info, warning or critical, got \"page\""_s;
        QTest::newRow("id")
            << uR"("id": "a b", "name": "A", "series": {"metric": "x"}, "threshold": 1)"_s
            << u"id"_s << u"must be letters, digits and _ . : - (not empty)"_s;
        QTest::newRow("series") << uR"("id": "a", "name": "A", "threshold": 1)"_s << u"series"_s
                                << u"is required"_s;
        QTest::newRow("guard") << base + uR"("threshold": 1, "also": {"metric": "q"})"_s
                               << u"also.threshold"_s << u"is required"_s;
        // Type errors in the dashboard reader's words: what was expected, what came.
        QTest::newRow("threshold text") << base + uR"("threshold": "x")"_s << u"threshold"_s
                                        << u"must be a number, got \"x\""_s;
        QTest::newRow("name number")
            << uR"("id": "a", "name": 7, "series": {"metric": "x"}, "threshold": 1)"_s << u"name"_s
            << u"must be a string, got 7"_s;
        QTest::newRow("enabled") << base + uR"("threshold": 1, "enabled": "no")"_s << u"enabled"_s
                                 << u"must be true or false, got \"no\""_s;
        QTest::newRow("series not an object")
            << uR"("id": "a", "name": "A", "series": "x", "threshold": 1)"_s << u"series"_s
            << u"must be an object {source, metric, labels}, got \"x\""_s;
        QTest::newRow("series without metric")
            << uR"("id": "a", "name": "A", "series": {"source": "db"}, "threshold": 1)"_s
            << u"series.metric"_s << u"is required"_s;
        QTest::newRow("series source")
            << uR"("id": "a", "name": "A", "series": {"metric": "x", "source": 1}, "threshold": 1)"_s
            << u"series.source"_s << u"must be a string, got 1"_s;
        QTest::newRow("label") << uR"("id": "a", "name": "A", "threshold": 1,
                                      "series": {"metric": "x", "labels": {"dev": 2}})"_s
                               << u"series.labels.dev"_s << u"must be a string, got 2"_s;
        QTest::newRow("labels") << uR"("id": "a", "name": "A", "threshold": 1,
                                       "series": {"metric": "x", "labels": []})"_s
                                << u"series.labels"_s << u"must be an object, got an array"_s;
        QTest::newRow("guard not an object")
            << base + uR"("threshold": 1, "also": true)"_s << u"also"_s
            << u"must be an object {metric, comparison, threshold}, got true"_s;
        QTest::newRow("guard comparison")
            << base
                + uR"("threshold": 1, "also": {"metric": "q", "comparison": "~", "threshold": 1})"_s
            << u"also.comparison"_s << u"must be one of >, >=, < or <=, got \"~\""_s;
        QTest::newRow("for") << base + uR"("threshold": 1, "for": 5)"_s << u"for"_s
                             << u"must be a string, got 5"_s;
        QTest::newRow("first problem wins")
            << uR"("id": "a", "name": "A", "series": {"metric": "x"}, "window": "x", "severity": "y")"_s
            << u"window"_s << u"must be a duration like 30s, 5m or 1h, got \"x\""_s;
    }

    void problems()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        AlertRuleProblem problem;
        QVERIFY(!alertRuleFromJson(json(qPrintable(u"{"_s + text + u"}"_s)), &problem));
        QCOMPARE(problem.field, field);
        QCOMPARE(problem.reason, reason);
    }

    void usePack()
    {
        QVERIFY(alertPackNames().contains(u"use"_s));
        QString error;
        const auto rules = loadAlertPack(u"use"_s, &error);
        QVERIFY2(rules, qPrintable(error));
        QStringList metrics;
        for (const AlertRule &rule : *rules) {
            QVERIFY2(!rule.hint.isEmpty(), qPrintable(rule.id + u" has no hint"_s));
            QVERIFY2(!validateAlertRule(rule), qPrintable(rule.id));
            metrics << rule.selector.metric;
        }
        // Every rule the USE pack must hold, by the series it watches.
        for (const char *metric :
             { "host.cpu.utilization", "host.cpu.runqueue_per_cpu", "host.load.per_cpu",
               "host.mem.psi", "host.mem.swap_in", "host.disk.utilization", "nic.utilization",
               "tcp.retransmit_ratio", "pg.shard.load", "pg.shardset.overloaded", "pg.latency.*",
               "pg.db.rows_per_block", "pg.activity.wait_class_share", "pg.locks.root_blocked" })
            QVERIFY2(metrics.contains(QLatin1StringView(metric)), metric);
        const auto cpu = std::find_if(rules->cbegin(), rules->cend(), [](const AlertRule &r) {
            return r.id == "use.cpu.utilization"_L1;
        });
        QCOMPARE(cpu->threshold, 90.0);
        QCOMPARE(cpu->forMs, 5 * 60'000);
        QVERIFY(!loadAlertPack(u"nope"_s, &error));
        QVERIFY2(error.startsWith(u"unknown alert rule pack \"nope\" (known: "_s),
                 qPrintable(error));
    }

    void packOverride()
    {
        const auto pack = *loadAlertPack(u"use"_s, nullptr);
        AlertRule slo = *std::find_if(pack.cbegin(), pack.cend(), [](const AlertRule &r) {
            return r.id == "use.latency.slo"_L1;
        });
        slo.threshold = 25; // the user's SLO
        slo.recoveryThreshold = 20;
        AlertRule own = slo;
        own.id = u"mine"_s;
        const auto rules = effectiveAlertRules(u"use"_s, { slo, own });
        QCOMPARE(rules.size(), pack.size() + 1);
        const auto found = std::find_if(rules.cbegin(), rules.cend(), [](const AlertRule &r) {
            return r.id == "use.latency.slo"_L1;
        });
        QCOMPARE(found->threshold, 25.0);
        QCOMPARE(rules.last().id, u"mine"_s);
        QCOMPARE(effectiveAlertRules(QString(), { own }).size(), 1);
    }

    void inDashboardFiles()
    {
        const QByteArray file = R"({
            "schemaVersion": 2, "title": "t", "sources": [], "panels": [],
            "alertPack": "use",
            "alerts": [)"
            + QByteArray(FullRule) + R"(]
        })";
        const auto loaded = parseDashboard(file, u"d.json"_s);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
        QCOMPARE(loaded.dashboard->alertPack, u"use"_s);
        QCOMPARE(loaded.dashboard->alerts.size(), 1);
        const auto again = parseDashboard(dashboardToJson(*loaded.dashboard), u"again.json"_s);
        QVERIFY(again.ok());
        QCOMPARE(*again.dashboard, *loaded.dashboard);

        // Errors name the file, the rule and the field.
        QByteArray broken = file;
        broken.replace("\"threshold\": 90", "\"threshold\": \"ninety\"");
        const auto refused = parseDashboard(broken, u"d.json"_s);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error.field, u"alerts[0].threshold"_s);
        QCOMPARE(refused.error.reason, u"must be a number, got \"ninety\""_s);
        QByteArray twice = file;
        const QByteArray two = QByteArray("\"alerts\": [") + QByteArray(FullRule) + QByteArray(",");
        twice.replace(QByteArray("\"alerts\": ["), two);
        QCOMPARE(parseDashboard(twice, u"d.json"_s).error.field, u"alerts[1].id"_s);
        QByteArray pack = file;
        pack.replace("\"alertPack\": \"use\"", "\"alertPack\": \"nope\"");
        QCOMPARE(parseDashboard(pack, u"d.json"_s).error.field, u"alertPack"_s);
        // A file of a newer schema is refused, not mangled.
        QByteArray newer = file;
        const QByteArray newerVersion
            = "\"schemaVersion\": " + QByteArray::number(Dashboard::SchemaVersion + 1);
        newer.replace("\"schemaVersion\": 2", newerVersion);
        QVERIFY(parseDashboard(newer, u"d.json"_s).error.reason.contains(u"newer Headroom"_s));
    }
};

QTEST_GUILESS_MAIN(TestAlertRules)
#include "tst_alertrules.moc"
