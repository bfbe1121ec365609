// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The Sources dialog's "Test connection" (engine/sourceprobe.h) against the test
// PostgreSQL: the real plugin, made as the session makes it, says what it would collect;
// a dead port, a mistyped option and a missing plugin say why not, in the file's words.
#include "engine/sourceprobe.h"
#include "pgtestutil.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestSourceProbe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void postgresServerCollects();
    void refusalsNameTheCause();

private:
    static Dashboard withSource(const QString &plugin, const QJsonObject &config);
    CollectorRegistry m_collectors;
};

void TestSourceProbe::initTestCase()
{
    QCOMPARE(m_collectors.loadPlugins(), QStringList());
}

Dashboard TestSourceProbe::withSource(const QString &plugin, const QJsonObject &config)
{
    Dashboard dashboard;
    DashboardSource source;
    source.id = u"pg"_s;
    source.plugin = plugin;
    source.intervalMs = 500;
    source.timeoutMs = 5000;
    source.config = config;
    dashboard.sources = { source };
    dashboard.variables = { { u"server"_s, u"Server"_s, QString(), {} } };
    return dashboard;
}

void TestSourceProbe::postgresServerCollects()
{
    HEADROOM_REQUIRE_PG();
    // Through a variable the user set, as the PostgreSQL dashboard does.
    const Dashboard dashboard = withSource(u"postgres"_s, { { u"conninfo"_s, u"${server}"_s } });
    const SourceProbeResult result
        = probeSource(m_collectors, dashboard, 0, { { u"server"_s, Test::conninfo() } });
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.polls, 2);
    QVERIFY2(result.series > 10, qPrintable(QString::number(result.series)));
    for (const QString &metric : { u"pg.up"_s, u"pg.db.commits.rate"_s })
        QVERIFY2(result.metrics.contains(metric), qPrintable(result.metrics.join(u' ')));
    const QString words = describeProbe(result);
    QVERIFY2(words.startsWith(u"Works: %1 series"_s.arg(result.series)), qPrintable(words));
    qInfo("probe of the test server: %d series, %lld ms for 2 polls 500 ms apart", result.series,
          result.tookMs);
}

void TestSourceProbe::refusalsNameTheCause()
{
    const SourceProbeResult dead = probeSource(
        m_collectors,
        withSource(u"postgres"_s, { { u"conninfo"_s, u"host=127.0.0.1 port=1 dbname=x"_s } }), 0,
        {});
    QVERIFY(!dead.error.isEmpty());
    QVERIFY2(describeProbe(dead).startsWith(u"Failed: "_s), qPrintable(describeProbe(dead)));

    const SourceProbeResult typo
        = probeSource(m_collectors, withSource(u"postgres"_s, { { u"conninfo"_s, 5 } }), 0, {});
    QVERIFY2(typo.error.startsWith(u"sources[0].config.conninfo: "_s), qPrintable(typo.error));
    QCOMPARE(typo.polls, 0);

    const SourceProbeResult missing = probeSource(m_collectors, withSource(u"mysql"_s, {}), 0, {});
    QCOMPARE(missing.error, u"no collector plugin \"mysql\" installed"_s);
}

QTEST_GUILESS_MAIN(TestSourceProbe)
#include "tst_sourceprobe.moc"
