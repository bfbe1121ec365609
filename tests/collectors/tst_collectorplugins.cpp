// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The built plugins load through CollectorRegistry with their metadata, and their
// factories validate the config; their config schemas pass every shipped dashboard,
// every test dashboard and their own defaults.
#include "collector/collectorregistry.h"
#include "document/dashboardfile.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestCollectorPlugins : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void metadata_data();
    void metadata();
    void unknownHostRejected_data();
    void unknownHostRejected();
    void localPoll_data();
    void localPoll();
    void defaultDirsFindThem();
    void dashboardsConform_data();
    void dashboardsConform();
    void defaultsConform();

private:
    CollectorRegistry m_registry;
};

void TestCollectorPlugins::initTestCase()
{
    const QStringList problems
        = m_registry.loadPlugins({ QStringLiteral(HEADROOM_PLUGIN_BUILD_DIR) });
    QCOMPARE(problems, QStringList());
}

void TestCollectorPlugins::metadata_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("options");
    // postgresServer, mariadbServer: the server a database dashboard's host runs.
    QTest::newRow("host") << u"host"_s << u"Host"_s
                          << QStringList { u"host"_s, u"mariadbServer"_s, u"postgresServer"_s,
                                           u"root"_s };
    QTest::newRow("nic") << u"nic"_s << u"Network interfaces"_s
                         << QStringList { u"defaultSpeedMbps"_s,
                                          u"host"_s,
                                          u"includeLoopback"_s,
                                          u"interfaces"_s,
                                          u"mariadbServer"_s,
                                          u"postgresServer"_s,
                                          u"root"_s,
                                          u"speedMbps"_s };
}

void TestCollectorPlugins::metadata()
{
    QFETCH(QString, id);
    QFETCH(QString, name);
    QFETCH(QStringList, options);
    QVERIFY(m_registry.factory(id));
    const auto plugins = m_registry.plugins();
    const auto it = std::find_if(plugins.cbegin(), plugins.cend(),
                                 [&](const CollectorPluginInfo &info) { return info.id == id; });
    QVERIFY(it != plugins.cend());
    QCOMPARE(it->name, name);
    QVERIFY(it->description.size() > 20);
    QCOMPARE(QFileInfo(it->fileName).fileName(), id + u".so"_s);
    QCOMPARE(it->configSchema.value("type"_L1).toString(), u"object"_s);
    QStringList keys = it->configSchema.value("properties"_L1).toObject().keys();
    keys.sort();
    QCOMPARE(keys, options);
}

void TestCollectorPlugins::unknownHostRejected_data()
{
    QTest::addColumn<QString>("id");
    QTest::newRow("host") << u"host"_s;
    QTest::newRow("nic") << u"nic"_s;
}

void TestCollectorPlugins::unknownHostRejected()
{
    QFETCH(QString, id);
    CollectorConfig config;
    config.sourceId = id;
    // A bare name is not taken for an SSH host: ssh:// says so explicitly.
    config.options = { { u"host"_s, u"db1"_s } };
    QString error;
    QCOMPARE(m_registry.factory(id)->create(config, &error), nullptr);
    QVERIFY2(error.contains("use local, ssh://user@server[:port]"_L1), qPrintable(error));
    // ssh:// is accepted without connecting: the first poll connects.
    config.options = { { u"host"_s, u"ssh://nobody@host.invalid"_s } };
    QVERIFY(m_registry.factory(id)->create(config, &error) != nullptr);
}

void TestCollectorPlugins::localPoll_data()
{
    unknownHostRejected_data();
}

void TestCollectorPlugins::localPoll()
{
    QFETCH(QString, id);
    CollectorConfig config;
    config.sourceId = u"src-"_s + id;
    config.options = { { u"host"_s, u"local"_s } };
    QString error;
    const auto collector = m_registry.factory(id)->create(config, &error);
    QVERIFY2(collector, qPrintable(error));
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.batch.source, config.sourceId);
    QVERIFY(result.batch.tsMs > 0);
}

void TestCollectorPlugins::defaultDirsFindThem()
{
    // headroom_add_test points HEADROOM_PLUGIN_PATH at the build tree's plugin dir.
    CollectorRegistry registry;
    registry.loadPlugins();
    QVERIFY(registry.factory(u"host"_s));
    QVERIFY(registry.factory(u"nic"_s));
}

void TestCollectorPlugins::dashboardsConform_data()
{
    QTest::addColumn<QString>("path");
    // Not tests/fuzz/corpus: seeds for the reader, never run against a plugin.
    for (const char *dir : { "resources/dashboards", "tests/fixtures/dashboards" }) {
        const QDir files(QStringLiteral(HEADROOM_SOURCE_DIR "/") + QLatin1StringView(dir));
        QVERIFY(files.exists());
        const auto names = files.entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
        for (const QString &name : names)
            QTest::addRow("%s/%s", dir, qPrintable(name)) << files.filePath(name);
    }
}

// What MonitoringSession::start checks, with the variables' defaults.
void TestCollectorPlugins::dashboardsConform()
{
    QFETCH(QString, path);
    const DashboardLoadResult loaded = loadDashboard(path);
    if (!loaded.ok())
        QSKIP("not a dashboard this build opens (a reader fixture)");
    const Dashboard &dashboard = *loaded.dashboard;
    const auto values = dashboard.resolveVariables({});
    for (qsizetype i = 0; i < dashboard.sources.size(); ++i) {
        const DashboardSource &source = dashboard.sources.at(i);
        QString error;
        const QJsonObject options = substituteVariables(source.config, values, &error);
        if (!error.isEmpty())
            continue; // refused before the schema is asked
        const auto refused
            = m_registry.checkConfig(source.plugin, options, u"sources[%1].config"_s.arg(i));
        if (!refused)
            continue;
        // Reader fixtures may hold options no plugin takes; the plugin refuses them too,
        // so the schema takes nothing away that a plugin accepted.
        CollectorConfig config;
        config.sourceId = source.id;
        config.options = options;
        QString pluginError;
        QVERIFY2(!m_registry.factory(source.plugin)->create(config, &pluginError),
                 qPrintable(refused->toString()));
    }
}

void TestCollectorPlugins::defaultsConform()
{
    const auto plugins = m_registry.plugins();
    QCOMPARE(plugins.size(), 6); // host, mariadb, nic, postgres, prometheus, promql
    for (const CollectorPluginInfo &plugin : plugins) {
        const QJsonObject properties = plugin.configSchema.value("properties"_L1).toObject();
        QJsonObject defaults;
        for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
            const QJsonValue value = it->toObject().value("default"_L1);
            if (!value.isUndefined())
                defaults.insert(it.key(), value);
        }
        if (plugin.id == "prometheus"_L1) // its one required option has no default
            defaults.insert(u"url"_s, u"http://127.0.0.1:9100/metrics"_s);
        if (plugin.id == "promql"_L1) // nor has this one
            defaults.insert(u"url"_s, u"http://127.0.0.1:9090"_s);
        const auto refused = m_registry.checkConfig(plugin.id, defaults, plugin.id);
        QVERIFY2(!refused, qPrintable(refused->toString()));
    }
}

QTEST_GUILESS_MAIN(TestCollectorPlugins)
#include "tst_collectorplugins.moc"
