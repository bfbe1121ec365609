// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The test behind Sources… ▸ Test Connection (sourcetest.h): an untrusted dashboard's
// source is not tested at all; a trusted one's is made from the source as edited, with
// the variables' values, in place of the dashboard's or after its sources, and polled
// twice; and the words for how a running source is doing.
#include "sourcetest.h"

#include <QJsonObject>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

// Remembers the options it was made with; each poll gives one value.
class EchoCollector : public Collector
{
public:
    PollResult poll(const QDeadlineTimer &) override
    {
        PollResult result;
        result.batch.tsMs = 1'700'000'000'000 + m_polls++ * 100;
        result.batch.add(
            SeriesInfo {
                { u"echo"_s, u"echo.value"_s, {} }, QString(), u"cpu"_s, UseKind::Info, false },
            1.0);
        return result;
    }

private:
    int m_polls = 0;
};

class EchoFactory : public CollectorFactory
{
public:
    std::unique_ptr<Collector> create(const CollectorConfig &config, QString *) override
    {
        made.append(config.options);
        return std::make_unique<EchoCollector>();
    }
    QList<QJsonObject> made;
};

DashboardSource echoSource(const QString &id, const QString &target)
{
    DashboardSource source;
    source.id = id;
    source.plugin = u"echo"_s;
    source.intervalMs = 100;
    source.config = { { u"target"_s, target } };
    return source;
}

} // namespace

class TestSourceTest : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void untrustedIsNotTested();
    void editedSourceIsTested_data();
    void editedSourceIsTested();
    void statusText_data();
    void statusText();

private:
    CollectorRegistry m_collectors;
    EchoFactory m_factory;
    Dashboard m_dashboard;
};

void TestSourceTest::initTestCase()
{
    m_collectors.registerFactory({ u"echo"_s, u"Echo"_s, {}, {}, {} }, &m_factory);
    m_dashboard.variables = { { u"host"_s, QString(), u"db1"_s, {} } };
    m_dashboard.sources = { echoSource(u"a"_s, u"first"_s), echoSource(u"b"_s, u"second"_s) };
}

void TestSourceTest::untrustedIsNotTested()
{
    m_factory.made.clear();
    const SourceTest test = sourceTest(m_dashboard, {}, &m_collectors, false);
    const SourceProbeResult result
        = test(echoSource(u"a"_s, u"${host}"_s), std::make_shared<std::atomic<bool>>(false));
    QVERIFY2(result.error.startsWith(u"not tested: this dashboard is not trusted yet"_s),
             qPrintable(result.error));
    QCOMPARE(result.polls, 0);
    QVERIFY(m_factory.made.isEmpty()); // no collector made: nothing connected anywhere
}

void TestSourceTest::editedSourceIsTested_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("tested"); // the target the collector was made with
    QTest::newRow("an existing source, edited") << u"b"_s << u"edited"_s << u"edited"_s;
    QTest::newRow("a new source") << u"c"_s << u"new"_s << u"new"_s;
    QTest::newRow("the values shown, not the defaults") << u"a"_s << u"${host}"_s << u"db2"_s;
}

void TestSourceTest::editedSourceIsTested()
{
    QFETCH(QString, id);
    QFETCH(QString, target);
    QFETCH(QString, tested);
    m_factory.made.clear();
    const SourceTest test
        = sourceTest(m_dashboard, { { u"host"_s, u"db2"_s } }, &m_collectors, true);
    const SourceProbeResult result
        = test(echoSource(id, target), std::make_shared<std::atomic<bool>>(false));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.polls, 2);
    QCOMPARE(result.series, 1);
    QCOMPARE(m_factory.made.size(), 1);
    QCOMPARE(m_factory.made.constFirst().value(u"target"_s).toString(), tested);
}

void TestSourceTest::statusText_data()
{
    QTest::addColumn<int>("state");
    QTest::addColumn<int>("series");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("text");
    QTest::newRow("ok") << int(SourceState::Ok) << 12 << QString() << u"ok, 12 series"_s;
    QTest::newRow("ok with a warning")
        << int(SourceState::Ok) << 3 << u"no link speed"_s << u"ok, 3 series: no link speed"_s;
    QTest::newRow("error") << int(SourceState::Error) << 0 << u"connection refused"_s
                           << u"error: connection refused"_s;
    QTest::newRow("starting") << int(SourceState::Starting) << 0 << QString() << u"starting"_s;
}

void TestSourceTest::statusText()
{
    QFETCH(int, state);
    QFETCH(int, series);
    QFETCH(QString, message);
    QFETCH(QString, text);
    SourceStatus status;
    status.sourceId = u"a"_s;
    status.state = SourceState(state);
    status.seriesCount = series;
    status.message = message;
    QCOMPARE(sourceStatusText(status), text);
}

QTEST_GUILESS_MAIN(TestSourceTest)
#include "tst_sourcetest.moc"
