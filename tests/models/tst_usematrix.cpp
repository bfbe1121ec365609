// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix built from series readings: rows per source and resource, their order
// and labels, the headline rule, default thresholds, the options that override them and
// the dashboard file checks of those options, formatting and level changes. The worst
// in the range: tst_usematrixrange; the real collectors' series: tst_usematrixcollectors.
#include "core/jsonreader.h"
#include "document/dashboardfile.h"
#include "query/use/usematrix.h"
#include "usematrixtestutil.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestUseMatrix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void order_data();
    void order();
    void worstFirst();
    void labels_data();
    void labels();
    void headline_data();
    void headline();
    void defaultThresholds_data();
    void defaultThresholds();
    void resourceThresholds();
    void badOptions_data();
    void badOptions();
    void formatting_data();
    void formatting();
    void levelChanges();
    void rowsPerSource_data();
    void rowsPerSource();
};

void TestUseMatrix::order_data()
{
    QTest::addColumn<QStringList>("shuffled");
    QTest::addColumn<QStringList>("expected");
    const QStringList expected {
        u"cpu"_s,
        u"memory"_s,
        u"disk"_s,
        u"disk:nvme0n1"_s,
        u"disk:sda"_s,
        u"disk:sda2"_s,
        u"disk:sda10"_s,
        u"disk:sdb"_s,
        u"fs:/"_s,
        u"fs:/data"_s,
        u"fs:/var/lib/postgresql"_s,
        u"fd"_s,
        u"nic:eth2"_s,
        u"nic:eth10"_s,
        u"nic:wlan0"_s,
        u"connections"_s,
        u"db:app"_s,
        u"db:app2"_s,
        u"shardset:a.t9"_s,
        u"shardset:a.t10"_s,
        u"wal"_s,
        u"replica"_s,
        u"replica:east"_s,
        u"standby:s1"_s,
        u"standby:s2 (10.0.0.7)"_s,
        u"slot:a"_s,
        u"slot:b"_s,
        u"pg"_s,
        u"tcp"_s,
        u"zfs"_s,
    };
    QStringList reversed(expected.crbegin(), expected.crend());
    QTest::newRow("reversed") << reversed << expected;
    QStringList mixed = expected;
    std::rotate(mixed.begin(), mixed.begin() + 7, mixed.end());
    std::swap(mixed[0], mixed[9]);
    QTest::newRow("mixed") << mixed << expected;
}

// A fleet's rows, worst first: critical, then the warning furthest beyond its bound,
// then the other warning, then ok rows (a stale one among them) by host and resource.
void TestUseMatrix::worstFirst()
{
    const auto cpu = [](const QString &host, std::optional<double> value, qint64 age = 0) {
        return reading(series(u"cpu"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, host), value,
                       age, 1000);
    };
    const QList<UseSeriesReading> readings {
        cpu(u"web1"_s, 10), // ok
        cpu(u"web2"_s, 75), // warning, 75 / 70
        cpu(u"web3"_s, 95), // critical
        cpu(u"web4"_s, 5, 120'000), // ok but stale: its host went away two minutes ago
        cpu(u"web10"_s, 20), // ok, after web1 in natural order
        cpu(u"web5"_s, 85), // warning, 85 / 70: further beyond than web2
    };
    UseMatrix m = buildUseMatrix(readings, {}, At);
    QCOMPARE(m.rows.size(), 6);
    orderUseRowsWorstFirst(&m.rows);
    QStringList hosts;
    for (const UseMatrixRow &row : std::as_const(m.rows))
        hosts << row.source;
    QCOMPARE(hosts,
             (QStringList { u"web3"_s, u"web5"_s, u"web2"_s, u"web1"_s, u"web4"_s, u"web10"_s }));
    // Labels and cells travel with their rows.
    QCOMPARE(m.rows.first().label, u"web3 · CPU"_s);
    QCOMPARE(m.rows.first().cell(UseColumn::Utilization).level, UseLevel::Critical);
    QVERIFY(m.rows.at(4).cell(UseColumn::Utilization).stale);
}

void TestUseMatrix::order()
{
    QFETCH(QStringList, shuffled);
    QFETCH(QStringList, expected);
    QList<UseSeriesReading> readings;
    for (const QString &resource : std::as_const(shuffled))
        readings << reading(
            series(u"m"_s, { { u"r"_s, resource } }, u"%"_s, resource, UseKind::Utilization), 50);
    QCOMPARE(resources(buildUseMatrix(readings, {}, At)), expected);
    std::sort(shuffled.begin(), shuffled.end(), useResourceLess);
    QCOMPARE(shuffled, expected);
}

void TestUseMatrix::labels_data()
{
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("label");
    QTest::newRow("cpu") << u"cpu"_s << u"CPU"_s;
    QTest::newRow("memory") << u"memory"_s << u"Memory"_s;
    QTest::newRow("disk") << u"disk:sda"_s << u"Disk sda"_s;
    QTest::newRow("nic") << u"nic:eth0"_s << u"NIC eth0"_s;
    QTest::newRow("database") << u"db:app"_s << u"Database app"_s;
    QTest::newRow("shard set") << u"shardset:public.orders"_s << u"Shard set public.orders"_s;
    QTest::newRow("server") << u"pg"_s << u"PostgreSQL server"_s;
    QTest::newRow("tcp") << u"tcp"_s << u"TCP"_s;
    QTest::newRow("filesystem") << u"fs:/var/lib/postgresql"_s
                                << u"Filesystem /var/lib/postgresql"_s;
    QTest::newRow("file handles") << u"fd"_s << u"File handles"_s;
    QTest::newRow("connections") << u"connections"_s << u"Connections"_s;
    QTest::newRow("wal") << u"wal"_s << u"WAL and checkpoints"_s;
    QTest::newRow("standby") << u"standby:s1 (10.0.0.7)"_s << u"Standby s1 (10.0.0.7)"_s;
    QTest::newRow("slot") << u"slot:s1"_s << u"Replication slot s1"_s;
    QTest::newRow("replica") << u"replica"_s << u"Replication"_s;
    QTest::newRow("replica connection") << u"replica:east"_s << u"Replication east"_s;
    QTest::newRow("unknown") << u"gpu:0"_s << u"gpu:0"_s;
    QTest::newRow("empty name") << u"disk:"_s << u"disk:"_s;
}

void TestUseMatrix::labels()
{
    QFETCH(QString, resource);
    QFETCH(QString, label);
    QCOMPARE(useResourceLabel(resource), label);
}

void TestUseMatrix::headline_data()
{
    QTest::addColumn<QList<UseSeriesReading>>("readings");
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("headline");
    QTest::addColumn<int>("level");
    const QString disk = u"disk:sda"_s;
    const auto util = [&](const QString &metric, std::optional<double> v, qint64 age = 0) {
        return reading(series(metric, {}, u"%"_s, disk, UseKind::Utilization, u"host"_s), v, age);
    };
    const auto sat = [&](const QString &metric, const QString &unit, std::optional<double> v,
                         qint64 age = 0) {
        return reading(series(metric, {}, unit, disk, UseKind::Saturation, u"host"_s), v, age);
    };
    QTest::newRow("higher level beats larger value")
        << QList { sat(u"queue"_s, QString(), 5), sat(u"psi"_s, u"%"_s, 8) } << QJsonObject {}
        << u"queue"_s << int(UseLevel::Critical);
    // Both ok: queue 0.8 of its warning 1 is closer than PSI 5 of 10.
    QTest::newRow("equal level: nearest its warning")
        << QList { sat(u"queue"_s, QString(), 0.8), sat(u"psi"_s, u"%"_s, 5) } << QJsonObject {}
        << u"queue"_s << int(UseLevel::Ok);
    QTest::newRow("a bound beats none")
        << QList { sat(u"rows"_s, u"rows/block"_s, 9), sat(u"psi"_s, u"%"_s, 1) } << QJsonObject {}
        << u"psi"_s << int(UseLevel::Ok);
    QTest::newRow("same unit: largest")
        << QList { util(u"a"_s, 71), util(u"b"_s, 85), util(u"c"_s, 72) } << QJsonObject {}
        << u"b"_s << int(UseLevel::Warning);
    // Worst in the range: a series raised earlier that went away still leads.
    QTest::newRow("stale but raised beats fresh and fine")
        << QList { util(u"a"_s, 99, 60'000), util(u"b"_s, 10) } << QJsonObject {} << u"a"_s
        << int(UseLevel::Critical);
    QTest::newRow("equal worst: the fresh one")
        << QList { util(u"a"_s, 50, 60'000), util(u"b"_s, 50) } << QJsonObject {} << u"b"_s
        << int(UseLevel::Ok);
    QTest::newRow("all stale: still the worst")
        << QList { util(u"a"_s, 99, 60'000), util(u"b"_s, 10, 30'000), util(u"c"_s, {}) }
        << QJsonObject {} << u"a"_s << int(UseLevel::Critical);
    QTest::newRow("no samples at all: stale")
        << QList { util(u"a"_s, {}), sat(u"b"_s, QString(), 1) } << QJsonObject {} << u"a"_s
        << int(UseLevel::Stale);
    // Lower is worse (an override): the smallest value is the headline.
    QTest::newRow("lower is worse")
        << QList { util(u"a"_s, 40), util(u"b"_s, 15), util(u"c"_s, 60) }
        << QJsonObject { { u"thresholds"_s,
                           QJsonObject { { u"utilization"_s,
                                           QJsonObject { { u"warning"_s, 20 },
                                                         { u"critical"_s, 10 },
                                                         { u"higherIsWorse"_s, false } } } } } }
        << u"b"_s << int(UseLevel::Warning);
}

void TestUseMatrix::headline()
{
    QFETCH(QList<UseSeriesReading>, readings);
    QFETCH(QJsonObject, options);
    QFETCH(QString, headline);
    QFETCH(int, level);
    JsonReader reader;
    const auto parsed = readUseMatrixOptions(reader, options, u"options"_s);
    QVERIFY2(parsed, qPrintable(reader.error().toString()));
    // Judged by the panel's thresholds, as readUseSeries() does.
    for (UseSeriesReading &r : readings) {
        if (r.latest)
            r.worst = useWorstInRange(
                { *r.latest }, parsed->thresholdsFor(*useColumnOf(r.info.kind), r.info.unit));
    }
    const UseMatrix m = buildUseMatrix(readings, *parsed, At);
    QCOMPARE(m.rows.size(), 1);
    const UseCell &cell = m.rows.constFirst().cell(
        readings.constFirst().info.kind == UseKind::Utilization ? UseColumn::Utilization
                                                                : UseColumn::Saturation);
    QCOMPARE(headlineName(cell), headline);
    QCOMPARE(int(cell.level), level);
}

void TestUseMatrix::defaultThresholds_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("level");
    const int U = int(UseColumn::Utilization), S = int(UseColumn::Saturation),
              E = int(UseColumn::Errors);
    const auto row
        = [](const char *name, int column, const QString &unit, double value, UseLevel level) {
              QTest::newRow(name) << column << unit << value << int(level);
          };
    row("U 69.9 %", U, u"%"_s, 69.9, UseLevel::Ok);
    row("U 70 %", U, u"%"_s, 70, UseLevel::Warning);
    row("U 95 %", U, u"%"_s, 95, UseLevel::Critical);
    row("U other unit: unjudged", U, u"1/s"_s, 1e9, UseLevel::Ok);
    row("S PSI 9 %", S, u"%"_s, 9, UseLevel::Ok);
    row("S PSI 10 %", S, u"%"_s, 10, UseLevel::Warning);
    row("S PSI 25 %", S, u"%"_s, 25, UseLevel::Critical);
    row("S queue 0.9", S, QString(), 0.9, UseLevel::Ok);
    row("S queue 1", S, QString(), 1, UseLevel::Warning);
    row("S queue 4", S, QString(), 4, UseLevel::Critical);
    row("S drops 0", S, u"1/s"_s, 0, UseLevel::Ok);
    row("S drops 0.1", S, u"1/s"_s, 0.1, UseLevel::Warning);
    row("S swapping 100", S, u"pages/s"_s, 100, UseLevel::Critical);
    row("S wait time 99 ms/s", S, u"ms/s"_s, 99, UseLevel::Ok);
    row("S wait time 500 ms/s", S, u"ms/s"_s, 500, UseLevel::Critical);
    row("S temp bytes", S, u"B/s"_s, 5e6, UseLevel::Warning);
    row("S unknown unit", S, u"rows/block"_s, 1e6, UseLevel::Ok);
    // A time left (a filesystem's hours to full): lower is worse.
    row("S full in 7 h", S, u"h"_s, 7, UseLevel::Ok);
    row("S full in 6 h", S, u"h"_s, 6, UseLevel::Warning);
    row("S full in 1.5 h", S, u"h"_s, 1.5, UseLevel::Warning);
    row("S full in 1 h", S, u"h"_s, 1, UseLevel::Critical);
    row("S full now", S, u"h"_s, 0, UseLevel::Critical);
    row("E 0", E, u"1/s"_s, 0, UseLevel::Ok);
    row("E smallest rate", E, u"1/s"_s, 0.01, UseLevel::Warning);
    row("E 1/s", E, u"1/s"_s, 1, UseLevel::Critical);
    row("E count", E, QString(), 3, UseLevel::Critical);
    row("E ratio 0.5 %", E, u"%"_s, 0.5, UseLevel::Ok);
    row("E ratio 2.5 %", E, u"%"_s, 2.5, UseLevel::Warning);
    row("E ratio 5 %", E, u"%"_s, 5, UseLevel::Critical);
}

// Resources with bounds of their own judge their cells by them: connection slots at 80 /
// 95 %, a standby's lag at 10 / 60 s; the same figures elsewhere keep the unit's bounds.
void TestUseMatrix::resourceThresholds()
{
    const auto level = [](const QString &resource, const QString &unit, UseKind kind,
                          double value) {
        const UseMatrix m
            = buildUseMatrix({ reading(series(u"m"_s, {}, unit, resource, kind), value) }, {}, At);
        const auto column = useColumnOf(kind);
        return m.rows.constFirst().cells.at(size_t(*column)).level;
    };
    QCOMPARE(level(u"connections"_s, u"%"_s, UseKind::Utilization, 75), UseLevel::Ok);
    QCOMPARE(level(u"cpu"_s, u"%"_s, UseKind::Utilization, 75), UseLevel::Warning);
    QCOMPARE(level(u"connections"_s, u"%"_s, UseKind::Utilization, 85), UseLevel::Warning);
    QCOMPARE(level(u"connections"_s, u"%"_s, UseKind::Utilization, 95), UseLevel::Critical);
    QCOMPARE(level(u"standby:s1"_s, u"s"_s, UseKind::Saturation, 5), UseLevel::Ok);
    QCOMPARE(level(u"standby:s1"_s, u"s"_s, UseKind::Saturation, 12), UseLevel::Warning);
    QCOMPARE(level(u"replica"_s, u"s"_s, UseKind::Saturation, 90), UseLevel::Critical);
    QCOMPARE(level(u"pg"_s, u"s"_s, UseKind::Saturation, 90), UseLevel::Ok);
    QCOMPARE(level(u"wal"_s, u"x"_s, UseKind::Saturation, 3), UseLevel::Warning);
    QCOMPARE(level(u"slot:s1"_s, u"B"_s, UseKind::Saturation, 2e9), UseLevel::Warning);
    QCOMPARE(level(u"connections"_s, QString(), UseKind::Errors, 1), UseLevel::Critical);
}

void TestUseMatrix::defaultThresholds()
{
    QFETCH(int, column);
    QFETCH(QString, unit);
    QFETCH(double, value);
    QFETCH(int, level);
    QCOMPARE(defaultUseThresholds(UseColumn(column), unit).level(value), level);
    // The same through a matrix cell.
    const UseKind kinds[] = { UseKind::Utilization, UseKind::Saturation, UseKind::Errors };
    const UseMatrix m = buildUseMatrix(
        { reading(series(u"m"_s, {}, unit, u"cpu"_s, kinds[column]), value) }, {}, At);
    QCOMPARE(int(m.rows.constFirst().cells.at(size_t(column)).level), level);
}

void TestUseMatrix::badOptions_data()
{
    QTest::addColumn<QByteArray>("panel");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("reasonPart");
    const QByteArray series = R"("series": [{"source": "host", "metric": "*"}])";
    QTest::newRow("no series") << QByteArray(R"({"id": "m", "type": "usematrix"})")
                               << u"panels[0].series"_s << u"required for a usematrix"_s;
    QTest::newRow("unknown option") << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                                                  + R"(, "options": {"threshold": {}}})")
                                    << u"panels[0].options.threshold"_s << u"unknown option"_s;
    QTest::newRow("thresholds not an object")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": [1]}})")
        << u"panels[0].options.thresholds"_s << u"must be an object, got an array"_s;
    QTest::newRow("unknown column")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": {"latency": {"warning": 1}}}})")
        << u"panels[0].options.thresholds.latency"_s << u"unknown column"_s;
    QTest::newRow("warning not a number")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": {"errors": {"warning": "high"}}}})")
        << u"panels[0].options.thresholds.errors.warning"_s << u"must be a number, got \"high\""_s;
    QTest::newRow("unknown bound")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": {"errors": {"warn": 1}}}})")
        << u"panels[0].options.thresholds.errors.warn"_s << u"unknown field"_s;
    QTest::newRow("empty bounds") << QByteArray(
        R"({"id": "m", "type": "usematrix", )" + series
        + R"(, "options": {"thresholds": {"saturation": {}}}})")
                                  << u"panels[0].options.thresholds.saturation"_s
                                  << u"must set warning, critical"_s;
    QTest::newRow("critical below warning") << QByteArray(
        R"({"id": "m", "type": "usematrix", )" + series
        + R"(, "options": {"thresholds": {"utilization": {"warning": 90, "critical": 70}}}})")
                                            << u"panels[0].options.thresholds.utilization"_s
                                            << u"critical must not be below"_s;
    const QByteArray query = R"({"resource": "cpu", "use": "utilization", "query": "up"})";
    QTest::newRow("queries and series")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"queries": [)" + query + "]}}")
        << u"panels[0].options.queries"_s << u"either queries or series"_s;
    QTest::newRow("use of no column") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"queries": [{"resource": "cpu", "use": "latency", "query": "up"}]}})")
                                      << u"panels[0].options.queries[0].use"_s
                                      << u"expected one of utilization"_s;
    QTest::newRow("query missing") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"queries": [{"resource": "cpu", "use": "errors"}]}})")
                                   << u"panels[0].options.queries[0].query"_s << u"required"_s;
    QTest::newRow("resource template open") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"queries": [{"resource": "nic:{device", "use": "errors", "query": "up"}]}})")
                                            << u"panels[0].options.queries[0].resource"_s
                                            << u"not closed"_s;
    QTest::newRow("by without queries") << QByteArray(
        R"({"id": "m", "type": "usematrix", )" + series + R"(, "options": {"by": "instance"}})")
                                        << u"panels[0].options.by"_s << u"there are none"_s;
    QTest::newRow("by no label name") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"by": "in-stance", "queries": [)" + query
        + "]}}") << u"panels[0].options.by"_s
                                      << u"no label name"_s;
    QTest::newRow("order unknown") << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                                                 + R"(, "options": {"order": "best"}})")
                                   << u"panels[0].options.order"_s << u"\"worst\""_s;
    QTest::newRow("fleet without an engine")
        << QByteArray(R"({"id": "m", "type": "usematrix", "options": {"queries": [)" + query
                      + "]}}")
        << u"panels[0].options.queries"_s << u"needs a source with plugin \"promql\""_s;
    QTest::newRow("a query on a matrix")
        << QByteArray(R"({"id": "m", "type": "usematrix", "query": "up", )" + series + "}")
        << u"panels[0].query"_s << u"a usematrix panel reads options.queries"_s;
    QTest::newRow("higherIsWorse not a bool")
        << QByteArray(
               R"({"id": "m", "type": "usematrix", )" + series
               + R"(, "options": {"thresholds": {"utilization": {"warning": 9, "higherIsWorse": 1}}}})")
        << u"panels[0].options.thresholds.utilization.higherIsWorse"_s << u"true or false"_s;
}

void TestUseMatrix::badOptions()
{
    QFETCH(QByteArray, panel);
    QFETCH(QString, field);
    QFETCH(QString, reasonPart);
    const QByteArray json
        = R"({"schemaVersion": 1, "title": "t", "sources": [{"id": "host", "plugin": "host"}],
        "panels": [)"
        + panel + "]}";
    const DashboardLoadResult result = parseDashboard(json, u"bad.json"_s);
    QVERIFY(!result.ok());
    QCOMPARE(result.error.field, field);
    QVERIFY2(result.error.reason.contains(reasonPart), qPrintable(result.error.toString()));

    // The same panel with good options is read, and the options survive.
    const QByteArray good
        = R"({"schemaVersion": 1, "title": "t", "sources": [{"id": "host", "plugin": "host"}],
        "panels": [{"id": "m", "type": "usematrix", "series": [{"source": "host", "metric": "*"}],
        "options": {"thresholds": {"errors": {"warning": 0.5, "critical": 2}}}}]})";
    const DashboardLoadResult ok = parseDashboard(good, u"good.json"_s);
    QVERIFY2(ok.ok(), qPrintable(ok.error.toString()));
    QCOMPARE(ok.dashboard->panels.constFirst().type, PanelType::UseMatrix);
}

void TestUseMatrix::formatting_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("text");
    QTest::newRow("percent") << 93.4 << u"%"_s << u"93 %"_s;
    QTest::newRow("small percent") << 2.46 << u"%"_s << u"2.5 %"_s;
    QTest::newRow("queue") << 2.13 << QString() << u"2.1"_s;
    QTest::newRow("zero") << 0.0 << u"1/s"_s << u"0 /s"_s;
    QTest::newRow("rate") << 0.4 << u"1/s"_s << u"0.4 /s"_s;
    QTest::newRow("big rate") << 25000.0 << u"1/s"_s << u"25k /s"_s;
    QTest::newRow("pages") << 12.0 << u"pages/s"_s << u"12 pages/s"_s;
    QTest::newRow("bytes") << 1.5e6 << u"B/s"_s << u"1.4 MiB/s"_s;
    QTest::newRow("bytes small") << 900.0 << u"B/s"_s << u"900 B/s"_s;
    QTest::newRow("huge percent stays") << 12345.0 << u"%"_s << u"12345 %"_s;
}

void TestUseMatrix::formatting()
{
    QFETCH(double, value);
    QFETCH(QString, unit);
    QFETCH(QString, text);
    QCOMPARE(formatUseValue(value, unit), text);
}

void TestUseMatrix::levelChanges()
{
    const SeriesInfo cpu = series(u"u"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"host"_s);
    const SeriesInfo disk = series(u"e"_s, {}, u"1/s"_s, u"disk:sda"_s, UseKind::Errors, u"host"_s);
    const UseMatrix before = buildUseMatrix({ reading(cpu, 50), reading(disk, 0) }, {}, At);
    const UseMatrix after = buildUseMatrix({ reading(cpu, 95) }, {}, At);
    const QList<UseLevelChange> changes = useLevelChanges(before, after);
    QCOMPARE(changes,
             (QList<UseLevelChange> {
                 { u"host"_s, u"cpu"_s, UseColumn::Utilization, UseLevel::Ok, UseLevel::Critical },
                 { u"host"_s, u"disk:sda"_s, UseColumn::Errors, UseLevel::Ok,
                   UseLevel::NotMeasured } }));
    QVERIFY(useLevelChanges(after, after).isEmpty());
    // Another host's CPU is another row: it appears, the first host's stays.
    const SeriesInfo web2 = series(u"u"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"web2"_s);
    const UseMatrix both = buildUseMatrix({ reading(cpu, 95), reading(web2, 75) }, {}, At);
    QCOMPARE(useLevelChanges(after, both),
             (QList<UseLevelChange> { { u"web2"_s, u"cpu"_s, UseColumn::Utilization,
                                        UseLevel::NotMeasured, UseLevel::Warning } }));
}

void TestUseMatrix::rowsPerSource_data()
{
    // Each reading: "source|resource|value" (utilization in %, fresh).
    QTest::addColumn<QStringList>("readings");
    QTest::addColumn<QStringList>("rows"); // "label=level" in row order
    QTest::newRow("two hosts' CPUs: two rows, named by source")
        << QStringList { u"host|cpu|95"_s, u"host:web2|cpu|10"_s }
        << QStringList { u"host · CPU=2"_s, u"host:web2 · CPU=0"_s };
    QTest::newRow("one source: short names")
        << QStringList { u"host|memory|75"_s, u"host|cpu|10"_s }
        << QStringList { u"CPU=0"_s, u"Memory=1"_s };
    QTest::newRow("sources sharing no resource: short names, by source")
        << QStringList { u"nic|nic:eth0|95"_s, u"host|cpu|10"_s, u"host|disk:sda|80"_s }
        << QStringList { u"CPU=0"_s, u"Disk sda=1"_s, u"NIC eth0=2"_s };
    QTest::newRow("natural source order, resource order within")
        << QStringList { u"host10|cpu|50"_s, u"host2|memory|50"_s, u"host2|cpu|91"_s }
        << QStringList { u"host2 · CPU=2"_s, u"host2 · Memory=0"_s, u"host10 · CPU=0"_s };
    QTest::newRow("one shared resource names every row")
        << QStringList { u"pg|db:app|50"_s, u"pg|shardset:a.t|50"_s, u"pg2|db:app|75"_s }
        << QStringList { u"pg · Database app=0"_s, u"pg · Shard set a.t=0"_s,
                         u"pg2 · Database app=1"_s };
}

void TestUseMatrix::rowsPerSource()
{
    QFETCH(QStringList, readings);
    QFETCH(QStringList, rows);
    QList<UseSeriesReading> in;
    for (const QString &spec : std::as_const(readings)) {
        const QStringList f = spec.split(u'|');
        in << reading(series(u"m"_s, {}, u"%"_s, f.at(1), UseKind::Utilization, f.at(0)),
                      f.at(2).toDouble());
    }
    const UseMatrix m = buildUseMatrix(in, {}, At);
    QStringList out;
    for (const UseMatrixRow &row : m.rows) {
        out << u"%1=%2"_s.arg(row.label).arg(int(row.cell(UseColumn::Utilization).level));
        // A row holds only its own source's series.
        for (const UseCellSeries &s : row.cell(UseColumn::Utilization).series)
            QCOMPARE(s.info.key.source, row.source);
        QCOMPARE(m.rowOf(row.source, row.resource), int(&row - m.rows.constData()));
    }
    QCOMPARE(out, rows);
}

QTEST_GUILESS_MAIN(TestUseMatrix)
#include "tst_usematrix.moc"
