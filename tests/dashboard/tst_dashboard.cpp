// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Dashboard value types: series selectors, durations, variables.
#include "document/dashboard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
Labels labels(const QString &text)
{
    bool ok = false;
    Labels result = labelsFromString(text, &ok);
    if (!ok)
        qFatal("bad labels in test data");
    return result;
}

QJsonObject object(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}
} // namespace

class TestDashboard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void selectorMatches_data();
    void selectorMatches();
    void parseDuration_data();
    void parseDuration();
    void formatDuration_data();
    void formatDuration();
    void durationRoundTrip();
    void substitute_data();
    void substitute();
    void substituteLeavesInputAlone();
    void resolveVariables();
    void panelLookup();
    void knownTypes();
    void thresholdLevels();
};

void TestDashboard::selectorMatches_data()
{
    QTest::addColumn<QString>("selSource");
    QTest::addColumn<QString>("selMetric");
    QTest::addColumn<QString>("selLabels");
    QTest::addColumn<QString>("keySource");
    QTest::addColumn<QString>("keyMetric");
    QTest::addColumn<QString>("keyLabels");
    QTest::addColumn<bool>("expected");

    const QString cpu = u"host.cpu.utilization"_s;
    QTest::newRow("exact") << u"host"_s << cpu << u"{}"_s << u"host"_s << cpu << u"{}"_s << true;
    QTest::newRow("other source") << u"host"_s << cpu << u"{}"_s << u"host2"_s << cpu << u"{}"_s
                                  << false;
    // Sources may be globs (alert rules use "*"; panels name a declared source).
    QTest::newRow("source glob") << u"h*"_s << cpu << u"{}"_s << u"host"_s << cpu << u"{}"_s
                                 << true;
    QTest::newRow("source glob, other")
        << u"h*"_s << cpu << u"{}"_s << u"pg"_s << cpu << u"{}"_s << false;
    QTest::newRow("other metric") << u"host"_s << cpu << u"{}"_s << u"host"_s
                                  << u"host.cpu.saturation"_s << u"{}"_s << false;
    QTest::newRow("metric prefix only")
        << u"host"_s << u"host.cpu"_s << u"{}"_s << u"host"_s << cpu << u"{}"_s << false;
    QTest::newRow("star suffix crosses dots")
        << u"host"_s << u"host.*"_s << u"{}"_s << u"host"_s << cpu << u"{}"_s << true;
    QTest::newRow("star in the middle")
        << u"host"_s << u"host.disk.*.latency"_s << u"{}"_s << u"host"_s
        << u"host.disk.sda.read.latency"_s << u"{}"_s << true;
    QTest::newRow("star in the middle, wrong end")
        << u"host"_s << u"host.disk.*.latency"_s << u"{}"_s << u"host"_s
        << u"host.disk.sda.latency.p99"_s << u"{}"_s << false;
    QTest::newRow("star matches empty") << u"host"_s << u"host.cpu.*utilization"_s << u"{}"_s
                                        << u"host"_s << cpu << u"{}"_s << true;
    QTest::newRow("lone star") << u"host"_s << u"*"_s << u"{}"_s << u"host"_s << cpu << u"{}"_s
                               << true;
    QTest::newRow("two stars") << u"host"_s << u"*.cpu.*"_s << u"{}"_s << u"host"_s << cpu
                               << u"{}"_s << true;
    QTest::newRow("backtracking") << u"host"_s << u"*a*b"_s << u"{}"_s << u"host"_s << u"xaxbxab"_s
                                  << u"{}"_s << true;
    QTest::newRow("question mark is literal") << u"host"_s << u"host.cpu.?"_s << u"{}"_s
                                              << u"host"_s << u"host.cpu.x"_s << u"{}"_s << false;
    QTest::newRow("extra key labels are free")
        << u"host"_s << cpu << u"{}"_s << u"host"_s << cpu << u"{cpu=all}"_s << true;
    QTest::newRow("label equal") << u"host"_s << cpu << u"{cpu=all}"_s << u"host"_s << cpu
                                 << u"{cpu=all,mode=user}"_s << true;
    QTest::newRow("label differs")
        << u"host"_s << cpu << u"{cpu=all}"_s << u"host"_s << cpu << u"{cpu=0}"_s << false;
    QTest::newRow("label missing on key")
        << u"host"_s << cpu << u"{cpu=all}"_s << u"host"_s << cpu << u"{mode=user}"_s << false;
    QTest::newRow("label star needs the label")
        << u"host"_s << cpu << u"{cpu=*}"_s << u"host"_s << cpu << u"{}"_s << false;
    QTest::newRow("label glob") << u"host"_s << u"host.disk.*"_s << u"{dev=sd*}"_s << u"host"_s
                                << u"host.disk.util"_s << u"{dev=sda1}"_s << true;
    QTest::newRow("label glob no match")
        << u"host"_s << u"host.disk.*"_s << u"{dev=sd*}"_s << u"host"_s << u"host.disk.util"_s
        << u"{dev=nvme0n1}"_s << false;
    QTest::newRow("all labels must match")
        << u"pg:orders"_s << u"pg.*"_s << u"{datname=orders,state=active}"_s << u"pg:orders"_s
        << u"pg.backends"_s << u"{datname=orders,state=idle}"_s << false;
    QTest::newRow("case sensitive")
        << u"host"_s << u"HOST.*"_s << u"{}"_s << u"host"_s << cpu << u"{}"_s << false;
}

void TestDashboard::selectorMatches()
{
    QFETCH(QString, selSource);
    QFETCH(QString, selMetric);
    QFETCH(QString, selLabels);
    QFETCH(QString, keySource);
    QFETCH(QString, keyMetric);
    QFETCH(QString, keyLabels);
    QFETCH(bool, expected);

    const SeriesSelector selector { selSource, selMetric, labels(selLabels) };
    const SeriesKey key { keySource, keyMetric, labels(keyLabels) };
    QCOMPARE(selector.matches(key), expected);
}

void TestDashboard::parseDuration_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ms"); // -1: refused

    QTest::newRow("30s") << u"30s"_s << qint64(30'000);
    QTest::newRow("15m") << u"15m"_s << qint64(900'000);
    QTest::newRow("1h") << u"1h"_s << qint64(3'600'000);
    QTest::newRow("6h") << u"6h"_s << qint64(21'600'000);
    QTest::newRow("24h") << u"24h"_s << qint64(86'400'000);
    QTest::newRow("7d") << u"7d"_s << qint64(604'800'000);
    QTest::newRow("2w") << u"2w"_s << qint64(1'209'600'000);
    QTest::newRow("500ms") << u"500ms"_s << qint64(500);
    QTest::newRow("90s") << u"90s"_s << qint64(90'000);
    QTest::newRow("leading zero") << u"015m"_s << qint64(900'000);
    QTest::newRow("empty") << QString() << qint64(-1);
    QTest::newRow("no unit") << u"15"_s << qint64(-1);
    QTest::newRow("no number") << u"m"_s << qint64(-1);
    QTest::newRow("zero") << u"0s"_s << qint64(-1);
    QTest::newRow("negative") << u"-5m"_s << qint64(-1);
    QTest::newRow("fraction") << u"1.5h"_s << qint64(-1);
    QTest::newRow("space") << u"15 m"_s << qint64(-1);
    QTest::newRow("leading space") << u" 15m"_s << qint64(-1);
    QTest::newRow("unknown unit") << u"3y"_s << qint64(-1);
    QTest::newRow("upper case unit") << u"15M"_s << qint64(-1);
    QTest::newRow("two units") << u"1h30m"_s << qint64(-1);
    QTest::newRow("overflow") << u"99999999999999999w"_s << qint64(-1);
    QTest::newRow("too many digits") << u"9999999999999999999s"_s << qint64(-1);
}

void TestDashboard::parseDuration()
{
    QFETCH(QString, text);
    QFETCH(qint64, ms);
    const auto parsed = Headroom::parseDuration(text);
    if (ms < 0) {
        QVERIFY2(!parsed, qPrintable(u"accepted as %1"_s.arg(parsed.value_or(0))));
    } else {
        QVERIFY(parsed);
        QCOMPARE(*parsed, ms);
    }
}

void TestDashboard::formatDuration_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");

    QTest::newRow("90s") << qint64(90'000) << u"90s"_s;
    QTest::newRow("1h") << qint64(3'600'000) << u"1h"_s;
    QTest::newRow("15m") << qint64(900'000) << u"15m"_s;
    QTest::newRow("24h is 1d") << qint64(86'400'000) << u"1d"_s;
    QTest::newRow("7d is 1w") << qint64(604'800'000) << u"1w"_s;
    QTest::newRow("2w") << qint64(1'209'600'000) << u"2w"_s;
    QTest::newRow("36h") << qint64(129'600'000) << u"36h"_s;
    QTest::newRow("1s") << qint64(1000) << u"1s"_s;
    QTest::newRow("1500ms") << qint64(1500) << u"1500ms"_s;
    QTest::newRow("1ms") << qint64(1) << u"1ms"_s;
}

void TestDashboard::formatDuration()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(Headroom::formatDuration(ms), text);
}

void TestDashboard::durationRoundTrip()
{
    const qint64 samples[] = { 1,
                               999,
                               1000,
                               59'999,
                               60'000,
                               61'000,
                               3'599'000,
                               86'400'000,
                               90'061'001,
                               604'800'000 * 52LL,
                               4'000'000'000'000LL };
    for (qint64 ms : samples)
        QCOMPARE(Headroom::parseDuration(Headroom::formatDuration(ms)), std::optional<qint64>(ms));
}

void TestDashboard::substitute_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<QString>("error");

    QTest::newRow("plain") << QByteArray(R"({"host": "${host}"})")
                           << QByteArray(R"({"host": "db1"})") << QString();
    QTest::newRow("inside text") << QByteArray(R"({"dsn": "host=${host} port=${port} x"})")
                                 << QByteArray(R"({"dsn": "host=db1 port=5433 x"})") << QString();
    QTest::newRow("adjacent") << QByteArray(R"({"a": "${host}${port}"})")
                              << QByteArray(R"({"a": "db15433"})") << QString();
    QTest::newRow("nested objects and arrays")
        << QByteArray(R"({"a": {"b": ["${host}", {"c": "${port}"}, 3, true, null]}})")
        << QByteArray(R"({"a": {"b": ["db1", {"c": "5433"}, 3, true, null]}})") << QString();
    QTest::newRow("keys are not substituted")
        << QByteArray(R"({"${host}": "x"})") << QByteArray(R"({"${host}": "x"})") << QString();
    QTest::newRow("numbers untouched")
        << QByteArray(R"({"port": 5432})") << QByteArray(R"({"port": 5432})") << QString();
    QTest::newRow("dollar alone") << QByteArray(R"({"a": "$host ${ x $"})")
                                  << QByteArray(R"({"a": "$host ${ x $"})") << QString();
    QTest::newRow("value with reference syntax is not expanded again")
        << QByteArray(R"({"a": "${tricky}"})") << QByteArray(R"({"a": "${host}"})") << QString();
    QTest::newRow("empty value") << QByteArray(R"({"a": "[${empty}]"})")
                                 << QByteArray(R"({"a": "[]"})") << QString();
    QTest::newRow("unknown") << QByteArray(R"({"a": "${nope}", "b": "${host}"})")
                             << QByteArray(R"({"a": "${nope}", "b": "db1"})")
                             << u"unknown variable ${nope}"_s;
    QTest::newRow("unknown deep") << QByteArray(R"({"a": [{"b": "x${deep}"}]})")
                                  << QByteArray(R"({"a": [{"b": "x${deep}"}]})")
                                  << u"unknown variable ${deep}"_s;
    QTest::newRow("first unknown reported")
        << QByteArray(R"({"a": "${one}", "b": "${two}"})")
        << QByteArray(R"({"a": "${one}", "b": "${two}"})") << u"unknown variable ${one}"_s;
}

void TestDashboard::substitute()
{
    QFETCH(QByteArray, config);
    QFETCH(QByteArray, expected);
    QFETCH(QString, error);

    const QMap<QString, QString> values { { u"host"_s, u"db1"_s },
                                          { u"port"_s, u"5433"_s },
                                          { u"tricky"_s, u"${host}"_s },
                                          { u"empty"_s, QString() } };
    QString actualError = u"stale"_s;
    const QJsonObject result
        = substituteVariables(object(config.constData()), values, &actualError);
    QCOMPARE(result, object(expected.constData()));
    QCOMPARE(actualError, error);
    // A null error pointer is allowed.
    QCOMPARE(substituteVariables(object(config.constData()), values, nullptr), result);
}

void TestDashboard::substituteLeavesInputAlone()
{
    const QJsonObject config = object(R"({"a": "${x}"})");
    QString error;
    const QJsonObject out = substituteVariables(config, { { u"x"_s, u"1"_s } }, &error);
    QCOMPARE(out.value(u"a"_s).toString(), u"1"_s);
    QCOMPARE(config.value(u"a"_s).toString(), u"${x}"_s);
}

void TestDashboard::resolveVariables()
{
    Dashboard dashboard;
    dashboard.variables = {
        { u"host"_s, u"Host"_s, u"local"_s, { u"local"_s } },
        { u"db"_s, u"Database"_s, u"orders"_s, {} },
        { u"empty"_s, QString(), QString(), {} },
    };
    QCOMPARE(dashboard.resolveVariables({}),
             (QMap<QString, QString> {
                 { u"host"_s, u"local"_s }, { u"db"_s, u"orders"_s }, { u"empty"_s, QString() } }));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"undeclared variable.*typo"_s));
    QCOMPARE(dashboard.resolveVariables({ { u"db"_s, u"billing"_s }, { u"typo"_s, u"x"_s } }),
             (QMap<QString, QString> { { u"host"_s, u"local"_s },
                                       { u"db"_s, u"billing"_s },
                                       { u"empty"_s, QString() } }));
}

void TestDashboard::panelLookup()
{
    Dashboard dashboard;
    DashboardPanel a;
    a.id = u"a"_s;
    a.title = u"First"_s;
    DashboardPanel b;
    b.id = u"b"_s;
    b.title = u"Second"_s;
    dashboard.panels = { a, b };
    QVERIFY(dashboard.panel(u"b"_s));
    QCOMPARE(dashboard.panel(u"b"_s)->title, u"Second"_s);
    QCOMPARE(dashboard.panel(u"a"_s), &dashboard.panels.at(0));
    QCOMPARE(dashboard.panel(u"c"_s), nullptr);
    QCOMPARE(dashboard.panel(QString()), nullptr);
}

void TestDashboard::knownTypes()
{
    QVERIFY(panelTypeNames().contains(u"timeseries"_s));
    QVERIFY(!panelTypeNames().contains(u"pie"_s));
    QCOMPARE(panelTypeFromName(u"pie"), std::nullopt);
}

void TestDashboard::thresholdLevels()
{
    PanelThresholds t { 70, 90, true };
    QCOMPARE(t.level(69.9), 0);
    QCOMPARE(t.level(70), 1);
    QCOMPARE(t.level(90), 2);
    QCOMPARE(t.level(qQNaN()), 0);
    t.higherIsWorse = false;
    t.warning = 20;
    t.critical = 5;
    QCOMPARE(t.level(50), 0);
    QCOMPARE(t.level(20), 1);
    QCOMPARE(t.level(4), 2);
    PanelThresholds onlyCritical;
    onlyCritical.critical = 1;
    QCOMPARE(onlyCritical.level(0.5), 0);
    QCOMPARE(onlyCritical.level(1), 2);
    QVERIFY(PanelThresholds().isEmpty());
}

QTEST_GUILESS_MAIN(TestDashboard)
#include "tst_dashboard.moc"
