// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The built postgres plugin loads through CollectorRegistry with its metadata, validates
// its options without printing passwords, and polls the test server.
#include "collector/collectorregistry.h"
#include "pgtestutil.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestPostgresPlugin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void metadata();
    void invalidOptions_data();
    void invalidOptions();
    void poll();

private:
    CollectorRegistry m_registry;
};

void TestPostgresPlugin::initTestCase()
{
    const QStringList problems
        = m_registry.loadPlugins({ QStringLiteral(HEADROOM_PLUGIN_BUILD_DIR) });
    for (const QString &problem : problems)
        QVERIFY2(!problem.contains("postgres"_L1), qPrintable(problem));
    QVERIFY(m_registry.factory(u"postgres"_s));
}

void TestPostgresPlugin::metadata()
{
    const auto plugins = m_registry.plugins();
    const auto it = std::find_if(plugins.cbegin(), plugins.cend(),
                                 [](const auto &info) { return info.id == "postgres"_L1; });
    QVERIFY(it != plugins.cend());
    QCOMPARE(it->name, u"PostgreSQL"_s);
    QVERIFY(it->description.contains("pg_stat_database"_L1));
    QCOMPARE(QFileInfo(it->fileName).fileName(), u"postgres.so"_s);
    QCOMPARE(it->configSchema.value("type"_L1).toString(), u"object"_s);
    QStringList keys = it->configSchema.value("properties"_L1).toObject().keys();
    keys.sort();
    QCOMPARE(keys,
             QStringList({ u"connectTimeoutMs"_s, u"conninfo"_s, u"databases"_s, u"lockTimeoutMs"_s,
                           u"probe"_s, u"queries"_s, u"shardOverloadedPercent"_s, u"shardSets"_s,
                           u"statementTimeoutMs"_s, u"statements"_s, u"tables"_s,
                           u"topStatements"_s, u"waitSamplesPerSecond"_s }));
    const QJsonObject defaults = it->configSchema.value("properties"_L1).toObject();
    QCOMPARE(defaults.value("connectTimeoutMs"_L1).toObject().value("default"_L1).toInt(), 3000);
    QCOMPARE(defaults.value("statementTimeoutMs"_L1).toObject().value("default"_L1).toInt(), 1000);
    QCOMPARE(defaults.value("lockTimeoutMs"_L1).toObject().value("default"_L1).toInt(), 100);
    QCOMPARE(defaults.value("topStatements"_L1).toObject().value("default"_L1).toInt(), 10);
    const QJsonObject probe = defaults.value("probe"_L1).toObject().value("default"_L1).toObject();
    QCOMPARE(probe.value("sql"_L1).toString(), u"SELECT 1"_s);
    QCOMPARE(probe.value("count"_L1).toInt(), 10);
}

void TestPostgresPlugin::invalidOptions_data()
{
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("error");
    QTest::newRow("password key") << QJsonObject { { u"password"_s, u"secret"_s } }
                                  << u"password: is not an option"_s;
    QTest::newRow("bad conninfo with a password")
        << QJsonObject { { u"conninfo"_s, u"password=secret nonsense=1"_s } }
        << u"conninfo: invalid connection option \"nonsense\""_s;
}

void TestPostgresPlugin::invalidOptions()
{
    QFETCH(QJsonObject, options);
    QFETCH(QString, error);
    CollectorConfig config;
    config.sourceId = u"pg:x"_s;
    config.options = options;
    QString actual;
    QCOMPARE(m_registry.factory(u"postgres"_s)->create(config, &actual), nullptr);
    QVERIFY2(actual.startsWith(error), qPrintable(actual));
    QVERIFY(!actual.contains("secret"_L1));
}

void TestPostgresPlugin::poll()
{
    HEADROOM_REQUIRE_PG();
    CollectorConfig config;
    config.sourceId = u"pg:plugin"_s;
    config.options = { { u"conninfo"_s, conninfo() } };
    QString error;
    const auto collector = m_registry.factory(u"postgres"_s)->create(config, &error);
    QVERIFY2(collector, qPrintable(error));
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.batch.source, config.sourceId);
    QCOMPARE(value(result.batch, u"pg.up"_s), 1.0);
}

QTEST_GUILESS_MAIN(TestPostgresPlugin)
#include "tst_postgresplugin.moc"
