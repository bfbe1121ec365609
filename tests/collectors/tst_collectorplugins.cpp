// The built host and nic plugins load through CollectorRegistry with their metadata,
// and their factories validate the config.
#include "collector/collectorregistry.h"

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
    QTest::newRow("host") << u"host"_s << u"Host"_s << QStringList { u"host"_s, u"root"_s };
    QTest::newRow("nic") << u"nic"_s << u"Network interfaces"_s
                         << QStringList { u"defaultSpeedMbps"_s, u"host"_s, u"includeLoopback"_s,
                                          u"interfaces"_s,       u"root"_s, u"speedMbps"_s };
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

QTEST_GUILESS_MAIN(TestCollectorPlugins)
#include "tst_collectorplugins.moc"
