// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The alert engine behind the bus: evaluation off the GUI thread, events stored in the
// cache and read back after a restart, acknowledgements, the no-data timer.
#include "alerttestutil.h"
#include "engine/alerts/alertengine.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

const qint64 Base = AlertTest::recentBase();

AlertRule cpuRule()
{
    AlertRule r;
    r.id = u"cpu"_s;
    r.name = u"CPU high"_s;
    r.selector = { u"*"_s, u"host.cpu.utilization"_s, {} };
    r.threshold = 90;
    r.recoveryThreshold = 80;
    r.severity = AlertSeverity::Critical;
    r.description = u"{source}: CPU {value}"_s;
    r.hint = u"top"_s;
    return r;
}

SampleBatch cpuBatch(qint64 tsMs, double value, const QString &source = u"web1"_s)
{
    SampleBatch batch;
    batch.source = source;
    batch.tsMs = tsMs;
    batch.add({ source, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } }, u"%"_s, u"cpu"_s,
              UseKind::Utilization, value);
    batch.add({ source, u"host.mem.utilization"_s, {} }, u"%"_s, u"memory"_s, UseKind::Utilization,
              99);
    return batch;
}

// One run of "the app": registry, bus, cache and engine, as MonitoringSession wires them.
struct Run
{
    explicit Run(const QString &path)
        : bus(&registry)
        , engine(&registry)
    {
        QString error;
        cache = SampleCache::open(path, &registry, &error);
        if (!cache)
            qFatal("%s", qPrintable(error));
        bus.addSink(cache.get());
        bus.addSink(&engine);
        engine.setCache(cache.get());
        engine.setRules({ cpuRule() });
    }
    ~Run()
    {
        bus.removeSink(&engine);
        bus.removeSink(cache.get());
        engine.setCache(nullptr);
    }
    QList<AlertEvent> stored()
    {
        engine.waitIdle();
        cache->flush();
        return cache->readAlertEvents(0, std::numeric_limits<qint64>::max());
    }

    SeriesRegistry registry;
    SampleBus bus;
    AlertEngine engine;
    std::unique_ptr<SampleCache> cache;
};

QStringList states(const QList<AlertEvent> &events)
{
    return AlertTest::eventStates(events, Base);
}

} // namespace

class TestAlertEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void evaluatesOffTheGuiThreadAndStores()
    {
        QTemporaryDir dir;
        Run run(dir.filePath(u"cache.sqlite"_s));
        QThread *evaluatedOn = nullptr;
        connect(
            &run.engine, &AlertEngine::eventsRaised, this,
            [&](const QList<AlertEvent> &) { evaluatedOn = QThread::currentThread(); },
            Qt::DirectConnection);
        QSignalSpy raised(&run.engine, &AlertEngine::eventsRaised);
        for (int s = 0; s < 10; ++s)
            run.bus.publish(cpuBatch(Base + s * 1000, s < 3 || s > 6 ? 50 : 95));
        const QList<AlertEvent> stored = run.stored();
        QCOMPARE(states(stored), (QStringList { u"3:firing"_s, u"7:resolved"_s }));
        QVERIFY(evaluatedOn && evaluatedOn != QThread::currentThread());
        QTRY_COMPARE(raised.size(), 2); // queued to this thread
        const AlertEvent &firing = stored.first();
        QCOMPARE(firing.ruleId, u"cpu"_s);
        QCOMPARE(firing.ruleName, u"CPU high"_s);
        QCOMPARE(firing.series.source, u"web1"_s);
        QCOMPARE(firing.series.labels.value(u"cpu"_s), u"all"_s);
        QCOMPARE(firing.value, 95.0);
        QCOMPARE(firing.severity, AlertSeverity::Critical);
        QCOMPARE(firing.message, u"web1: CPU 95 %"_s);
        QCOMPARE(firing.hint, u"top"_s);
        QVERIFY(firing.id > 0);
        // The memory series matched no rule and made no instance.
        QCOMPARE(run.engine.instances().size(), 1);
    }

    void survivesRestartAndContinues()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"cache.sqlite"_s);
        {
            Run first(path);
            for (int s = 0; s < 5; ++s)
                first.bus.publish(cpuBatch(Base + s * 1000, 95));
            QCOMPARE(states(first.stored()), QStringList { u"0:firing"_s });
        }
        // The app restarts: the event is still there, the instance continues firing (no
        // second firing event) and resolves when the value recovers.
        Run second(path);
        QCOMPARE(states(second.stored()), QStringList { u"0:firing"_s });
        QTRY_COMPARE(second.engine.instances().size(), 1);
        QCOMPARE(second.engine.instances().constFirst().state, AlertState::Firing);
        second.bus.publish(cpuBatch(Base + 100'000, 95));
        second.bus.publish(cpuBatch(Base + 101'000, 60));
        QCOMPARE(states(second.stored()), (QStringList { u"0:firing"_s, u"101:resolved"_s }));
    }

    void acknowledge()
    {
        QTemporaryDir dir;
        Run run(dir.filePath(u"cache.sqlite"_s));
        QSignalSpy acknowledged(&run.engine, &AlertEngine::eventsAcknowledged);
        run.bus.publish(cpuBatch(Base, 95));
        run.bus.publish(cpuBatch(Base, 95, u"web2"_s));
        QCOMPARE(run.stored().size(), 2);
        const SeriesKey web1 { u"web1"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } };
        run.engine.acknowledge(u"cpu"_s, web1, Base + 5000);
        QCOMPARE(acknowledged.size(), 1);
        const auto events = run.stored();
        QCOMPARE(events.size(), 2);
        for (const AlertEvent &e : events)
            QCOMPARE(e.acknowledged, e.series.source == "web1"_L1);
    }

    void noDataTimer()
    {
        QTemporaryDir dir;
        Run run(dir.filePath(u"cache.sqlite"_s));
        AlertRule rule = cpuRule();
        rule.noData = AlertNoData::Ok;
        run.engine.setRules({ rule });
        run.bus.publish(cpuBatch(Base, 95));
        run.bus.publish(cpuBatch(Base + 1000, 95));
        run.engine.checkNoData(Base + 60'000);
        const auto events = run.stored();
        QCOMPARE(states(events), (QStringList { u"0:firing"_s, u"60:resolved"_s }));
        QVERIFY(qIsNaN(events.last().value));
        QVERIFY2(events.last().message.contains(u"no data"_s), qPrintable(events.last().message));
    }
};

QTEST_GUILESS_MAIN(TestAlertEngine)
#include "tst_alertengine.moc"
