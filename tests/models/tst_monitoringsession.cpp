// A session end to end with a real cache and an in-process collector: samples reach
// the live buffers and the cache, the store stitches both, and after a restart the
// history comes back from the cache alone with the same series ids.
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;

namespace {
class RampCollector : public Collector
{
public:
    PollResult poll(const QDeadlineTimer &) override
    {
        PollResult result;
        result.batch.tsMs = QDateTime::currentMSecsSinceEpoch();
        result.batch.add(SeriesInfo { { QStringLiteral("ramp"), QStringLiteral("ramp.value"), {} },
                                      QStringLiteral("1"),
                                      QStringLiteral("cpu"),
                                      UseKind::Utilization,
                                      false },
                         double(++m_n));
        return result;
    }
    int m_n = 0;
};

class RampFactory : public CollectorFactory
{
public:
    std::unique_ptr<Collector> create(const CollectorConfig &config, QString *error) override
    {
        if (config.options.value(QStringLiteral("fail")).toBool()) {
            *error = QStringLiteral("told to fail");
            return nullptr;
        }
        return std::make_unique<RampCollector>();
    }
};

Dashboard rampDashboard(bool fail = false)
{
    Dashboard d;
    DashboardSource source;
    source.id = QStringLiteral("ramp");
    source.plugin = QStringLiteral("ramp");
    source.intervalMs = 100;
    source.config = QJsonObject { { QStringLiteral("fail"), fail } };
    DashboardSource missing = source;
    missing.id = QStringLiteral("missing");
    missing.plugin = QStringLiteral("no-such-plugin");
    d.sources = { source, missing };
    return d;
}
} // namespace

class TestMonitoringSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void liveAndCacheStitched();
    void schemaRefusesSource();
};

void TestMonitoringSession::liveAndCacheStitched()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cache.sqlite"));
    RampFactory factory;
    const SeriesKey key { QStringLiteral("ramp"), QStringLiteral("ramp.value"), {} };
    int id = 0;
    qint64 firstTs = 0;
    size_t collected = 0;
    {
        MonitoringSession session;
        QString error;
        QVERIFY2(session.openCache(path, &error), qPrintable(error));
        session.collectors().registerFactory(
            { QStringLiteral("ramp"), QStringLiteral("Ramp"), {}, {}, {} }, &factory);
        session.start(rampDashboard(), {});
        QTRY_VERIFY(session.live().seriesIds().size() == 1);
        QTest::qWait(800);
        session.stop();
        session.flushCache();
        QCOMPARE(session.scheduler().status(QStringLiteral("missing")).state, SourceState::Error);
        QVERIFY(session.scheduler()
                    .status(QStringLiteral("missing"))
                    .message.contains(QStringLiteral("no-such-plugin")));
        id = *session.registry().find(key);
        const auto all = session.store()->read(id, 0, QDateTime::currentMSecsSinceEpoch());
        collected = all.size();
        QVERIFY2(collected >= 5, qPrintable(QString::number(collected)));
        firstTs = all.front().tsMs;
        QCOMPARE(all.front().value, 1.0);
        QCOMPARE(session.cache()->read(id, 0, QDateTime::currentMSecsSinceEpoch()).size(),
                 collected);
    }
    {
        // A new session: nothing live yet, the history comes from the cache alone.
        MonitoringSession session;
        QString error;
        QVERIFY2(session.openCache(path, &error), qPrintable(error));
        QCOMPARE(*session.registry().find(key), id);
        const auto history = session.store()->read(id, 0, QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(history.size(), collected);
        QCOMPARE(history.front().tsMs, firstTs);
        // New live samples continue after the cached ones without overlap.
        session.collectors().registerFactory(
            { QStringLiteral("ramp"), QStringLiteral("Ramp"), {}, {}, {} }, &factory);
        session.start(rampDashboard(), {});
        QTRY_VERIFY(!session.live().read(id, 0, QDateTime::currentMSecsSinceEpoch()).empty());
        session.stop();
        const auto stitched = session.store()->read(id, 0, QDateTime::currentMSecsSinceEpoch());
        QVERIFY(stitched.size() > collected);
        QVERIFY(std::is_sorted(stitched.begin(), stitched.end(),
                               [](auto a, auto b) { return a.tsMs < b.tsMs; }));
        QVERIFY(std::adjacent_find(stitched.begin(), stitched.end(),
                                   [](auto a, auto b) { return a.tsMs == b.tsMs; })
                == stitched.end());
    }
    {
        MonitoringSession session;
        session.collectors().registerFactory(
            { QStringLiteral("ramp"), QStringLiteral("Ramp"), {}, {}, {} }, &factory);
        session.start(rampDashboard(true), {});
        const SourceStatus status = session.scheduler().status(QStringLiteral("ramp"));
        QCOMPARE(status.state, SourceState::Error);
        QCOMPARE(status.message, QStringLiteral("told to fail"));
    }
}

// The plugin's config schema is enforced before the plugin sees the options, after the
// variables are substituted; the source is refused with the option's path.
void TestMonitoringSession::schemaRefusesSource()
{
    RampFactory factory;
    MonitoringSession session;
    const QJsonObject schema {
        { QStringLiteral("type"), QStringLiteral("object") },
        { QStringLiteral("properties"),
          QJsonObject { { QStringLiteral("fail"),
                          QJsonObject { { QStringLiteral("type"), QStringLiteral("boolean") } } },
                        { QStringLiteral("n"),
                          QJsonObject { { QStringLiteral("type"),
                                          QJsonArray { QStringLiteral("integer"),
                                                       QStringLiteral("string") } },
                                        { QStringLiteral("maximum"), 5 } } } } },
    };
    session.collectors().registerFactory(
        { QStringLiteral("ramp"), QStringLiteral("Ramp"), {}, schema, {} }, &factory);
    Dashboard dashboard = rampDashboard();
    dashboard.variables.append({ QStringLiteral("n"), {}, QStringLiteral("3"), {} });
    DashboardSource typo = dashboard.sources.first();
    typo.id = QStringLiteral("typo");
    typo.config = QJsonObject { { QStringLiteral("fial"), true } };
    DashboardSource big = dashboard.sources.first();
    big.id = QStringLiteral("big");
    big.config = QJsonObject { { QStringLiteral("n"), 7 } };
    DashboardSource variable = dashboard.sources.first();
    variable.id = QStringLiteral("variable");
    variable.config = QJsonObject { { QStringLiteral("n"), QStringLiteral("${n}") } };
    dashboard.sources << typo << big << variable;
    session.start(dashboard, {});
    session.stop();
    const CollectorScheduler &scheduler = session.scheduler();
    QCOMPARE(scheduler.status(QStringLiteral("typo")).state, SourceState::Error);
    QCOMPARE(scheduler.status(QStringLiteral("typo")).message,
             QStringLiteral("sources[2].config.fial: unknown option (expected fail, n)"));
    QCOMPARE(scheduler.status(QStringLiteral("big")).message,
             QStringLiteral("sources[3].config.n: must be an integer of at most 5, got 7"));
    // "${n}" became "3", a string the schema allows.
    QVERIFY(scheduler.status(QStringLiteral("variable")).state != SourceState::Error);
    QVERIFY(scheduler.status(QStringLiteral("ramp")).state != SourceState::Error);
}

QTEST_GUILESS_MAIN(TestMonitoringSession)
#include "tst_monitoringsession.moc"
