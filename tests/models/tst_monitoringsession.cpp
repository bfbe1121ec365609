// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A session end to end with a real cache and an in-process collector: samples reach
// the live buffers and the cache, the store stitches both, and after a restart the
// history comes back from the cache alone with the same series ids.
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

using namespace Headroom;

namespace {
class RampCollector : public Collector
{
public:
    PollResult poll(const QDeadlineTimer &) override
    {
        PollResult result;
        result.batch.tsMs = QDateTime::currentMSecsSinceEpoch();
        result.batch.add(
            SeriesInfo {
                { u"ramp"_s, u"ramp.value"_s, {} }, u"1"_s, u"cpu"_s, UseKind::Utilization, false },
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
        if (config.options.value(u"fail"_s).toBool()) {
            *error = u"told to fail"_s;
            return nullptr;
        }
        return std::make_unique<RampCollector>();
    }
};

Dashboard rampDashboard(bool fail = false)
{
    Dashboard d;
    DashboardSource source;
    source.id = u"ramp"_s;
    source.plugin = u"ramp"_s;
    source.intervalMs = 100;
    source.config = QJsonObject { { u"fail"_s, fail } };
    DashboardSource missing = source;
    missing.id = u"missing"_s;
    missing.plugin = u"no-such-plugin"_s;
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
    const QString path = dir.filePath(u"cache.sqlite"_s);
    RampFactory factory;
    const SeriesKey key { u"ramp"_s, u"ramp.value"_s, {} };
    int id = 0;
    qint64 firstTs = 0;
    size_t collected = 0;
    {
        MonitoringSession session;
        QString error;
        QVERIFY2(session.openCache(path, &error), qPrintable(error));
        session.collectors().registerFactory({ u"ramp"_s, u"Ramp"_s, {}, {}, {} }, &factory);
        session.start(rampDashboard(), {});
        QTRY_VERIFY(session.live().seriesIds().size() == 1);
        QTest::qWait(800);
        session.stop();
        session.flushCache();
        QCOMPARE(session.scheduler().status(u"missing"_s).state, SourceState::Error);
        QVERIFY(session.scheduler().status(u"missing"_s).message.contains(u"no-such-plugin"_s));
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
        session.collectors().registerFactory({ u"ramp"_s, u"Ramp"_s, {}, {}, {} }, &factory);
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
        session.collectors().registerFactory({ u"ramp"_s, u"Ramp"_s, {}, {}, {} }, &factory);
        session.start(rampDashboard(true), {});
        const SourceStatus status = session.scheduler().status(u"ramp"_s);
        QCOMPARE(status.state, SourceState::Error);
        QCOMPARE(status.message, u"told to fail"_s);
    }
}

// The plugin's config schema is enforced before the plugin sees the options, after the
// variables are substituted; the source is refused with the option's path.
void TestMonitoringSession::schemaRefusesSource()
{
    RampFactory factory;
    MonitoringSession session;
    const QJsonObject schema {
        { u"type"_s, u"object"_s },
        { u"properties"_s,
          QJsonObject { { u"fail"_s, QJsonObject { { u"type"_s, u"boolean"_s } } },
                        { u"n"_s,
                          QJsonObject { { u"type"_s, QJsonArray { u"integer"_s, u"string"_s } },
                                        { u"maximum"_s, 5 } } } } },
    };
    session.collectors().registerFactory({ u"ramp"_s, u"Ramp"_s, {}, schema, {} }, &factory);
    Dashboard dashboard = rampDashboard();
    dashboard.variables.append({ u"n"_s, {}, u"3"_s, {} });
    DashboardSource typo = dashboard.sources.first();
    typo.id = u"typo"_s;
    typo.config = QJsonObject { { u"fial"_s, true } };
    DashboardSource big = dashboard.sources.first();
    big.id = u"big"_s;
    big.config = QJsonObject { { u"n"_s, 7 } };
    DashboardSource variable = dashboard.sources.first();
    variable.id = u"variable"_s;
    variable.config = QJsonObject { { u"n"_s, u"${n}"_s } };
    dashboard.sources << typo << big << variable;
    session.start(dashboard, {});
    session.stop();
    const CollectorScheduler &scheduler = session.scheduler();
    QCOMPARE(scheduler.status(u"typo"_s).state, SourceState::Error);
    QCOMPARE(scheduler.status(u"typo"_s).message,
             u"sources[2].config.fial: unknown option (expected fail, n)"_s);
    QCOMPARE(scheduler.status(u"big"_s).message,
             u"sources[3].config.n: must be an integer of at most 5, got 7"_s);
    // "${n}" became "3", a string the schema allows.
    QVERIFY(scheduler.status(u"variable"_s).state != SourceState::Error);
    QVERIFY(scheduler.status(u"ramp"_s).state != SourceState::Error);
}

QTEST_GUILESS_MAIN(TestMonitoringSession)
#include "tst_monitoringsession.moc"
