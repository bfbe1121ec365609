// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The scheduler must keep every healthy collector on its rhythm while another hangs,
// flag the hung one as stale, and still stop promptly.
#include "engine/runtime/collectorscheduler.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

using namespace Headroom;

namespace {
class CountingCollector : public Collector
{
public:
    explicit CountingCollector(QString source)
        : m_source(std::move(source))
    {
    }
    PollResult poll(const QDeadlineTimer &) override
    {
        PollResult result;
        result.batch.source = m_source;
        result.batch.tsMs = QDateTime::currentMSecsSinceEpoch();
        result.batch.add(SeriesInfo { { m_source, u"count"_s, {} }, {}, {}, UseKind::Info, false },
                         double(++m_polls));
        return result;
    }

private:
    QString m_source;
    int m_polls = 0;
};

// Blocks in poll() until released: a server that never answers, a stuck NFS read.
// When it finally returns it has a sample, which must go nowhere once abandoned.
class HangingCollector : public Collector
{
public:
    explicit HangingCollector(QSemaphore *release)
        : m_release(release)
    {
    }
    PollResult poll(const QDeadlineTimer &) override
    {
        m_release->acquire();
        PollResult late;
        late.batch.source = u"hung"_s;
        late.batch.tsMs = QDateTime::currentMSecsSinceEpoch();
        late.batch.add(SeriesInfo { { u"hung"_s, u"late"_s, {} }, {}, {}, UseKind::Info, false },
                       1);
        return late;
    }

private:
    QSemaphore *m_release;
};

// Every poll invents `perPoll` new label sets of "m" and repeats the old ones.
class InventingCollector : public Collector
{
public:
    explicit InventingCollector(int perPoll)
        : m_perPoll(perPoll)
    {
    }
    PollResult poll(const QDeadlineTimer &) override
    {
        PollResult result;
        result.batch.source = u"inventor"_s;
        result.batch.tsMs = QDateTime::currentMSecsSinceEpoch();
        m_sent += m_perPoll;
        for (int i = 0; i < m_sent; ++i)
            result.batch.add(
                SeriesInfo { { u"inventor"_s, u"m"_s, { { u"i"_s, QString::number(i) } } },
                             {},
                             {},
                             UseKind::Info,
                             false },
                1);
        return result;
    }

private:
    int m_perPoll;
    int m_sent = 0;
};

class FailingCollector : public Collector
{
public:
    PollResult poll(const QDeadlineTimer &) override
    {
        PollResult result;
        result.error = u"connection refused"_s;
        return result;
    }
};
} // namespace

class TestScheduler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hangingCollectorDoesNotStallOthers();
    void errorsAreReported();
    void seriesCapIsInTheStatus();
};

void TestScheduler::hangingCollectorDoesNotStallOthers()
{
    SeriesRegistry registry;
    auto bus = std::make_unique<SampleBus>(&registry);
    LiveBuffers live(1000);
    bus->addSink(&live);
    QSemaphore release;
    {
        CollectorScheduler scheduler(bus.get());
        auto config = [](const QString &id) {
            CollectorConfig c;
            c.sourceId = id;
            c.intervalMs = 100;
            c.timeoutMs = 300;
            return c;
        };
        QVERIFY(scheduler.addSource(u"test"_s, config(u"fast1"_s),
                                    std::make_unique<CountingCollector>(u"fast1"_s)));
        QVERIFY(scheduler.addSource(u"test"_s, config(u"hung"_s),
                                    std::make_unique<HangingCollector>(&release)));
        QVERIFY(scheduler.addSource(u"test"_s, config(u"fast2"_s),
                                    std::make_unique<CountingCollector>(u"fast2"_s)));
        QVERIFY(!scheduler.addSource(u"test"_s, config(u"fast2"_s),
                                     std::make_unique<CountingCollector>(u"fast2"_s)));

        // The GUI thread's event loop must stay responsive: a timer on it fires on time.
        QElapsedTimer loopClock;
        loopClock.start();
        int ticks = 0;
        QTimer tick;
        tick.setInterval(50);
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start();

        scheduler.start();
        QTest::qWait(1500);
        tick.stop();

        QVERIFY2(ticks >= 20, qPrintable(u"GUI loop ticked only %1 times"_s.arg(ticks)));
        for (const QString &id : { u"fast1"_s, u"fast2"_s }) {
            const int seriesId = *registry.find(SeriesKey { id, u"count"_s, {} });
            const auto samples = live.read(seriesId, 0, QDateTime::currentMSecsSinceEpoch());
            // ~15 polls in 1.5 s at 100 ms; allow slack for a loaded CI machine.
            QVERIFY2(samples.size() >= 10,
                     qPrintable(u"%1 polled %2 times"_s.arg(id).arg(samples.size())));
            QCOMPARE(scheduler.status(id).state, SourceState::Ok);
        }
        const SourceStatus hung = scheduler.status(u"hung"_s);
        QCOMPARE(hung.state, SourceState::Stale);
        QVERIFY2(hung.message.contains(u"poll still running"_s), qPrintable(hung.message));

        // Stopping must not wait forever for the hung poll.
        QElapsedTimer stopClock;
        stopClock.start();
        scheduler.stop(500);
        QVERIFY2(stopClock.elapsed() < 2000, qPrintable(QString::number(stopClock.elapsed())));
        QCOMPARE(scheduler.status(u"fast1"_s).state, SourceState::Stopped);
    }
    // The bus goes away (as at the end of a session) before the hung poll returns: the
    // late sample must not be published anywhere (ASan catches a use after free).
    bus.reset();
    release.release();
    QTest::qWait(300); // the abandoned thread finishes and cleans itself up
    QVERIFY(!registry.find(SeriesKey { u"hung"_s, u"late"_s, {} }));
}

void TestScheduler::errorsAreReported()
{
    SeriesRegistry registry;
    SampleBus bus(&registry);
    CollectorScheduler scheduler(&bus);
    QSignalSpy spy(&scheduler, &CollectorScheduler::statusChanged);
    CollectorConfig c;
    c.sourceId = u"db"_s;
    c.intervalMs = 100;
    scheduler.addSource(u"test"_s, c, std::make_unique<FailingCollector>());
    scheduler.addFailedSource(u"broken"_s, u"nope"_s, u"no collector plugin \"nope\" installed"_s);
    scheduler.start();
    QTRY_COMPARE(scheduler.status(u"db"_s).state, SourceState::Error);
    QCOMPARE(scheduler.status(u"db"_s).message, u"connection refused"_s);
    QCOMPARE(scheduler.status(u"broken"_s).state, SourceState::Error);
    QCOMPARE(registry.size(), 0); // a failed poll publishes nothing
    QVERIFY(spy.count() >= 3);
}

// The status names the cap and counts the series it refused in the last poll; the
// admitted ones keep the source ok.
void TestScheduler::seriesCapIsInTheStatus()
{
    SeriesRegistry registry;
    registry.setSeriesCap(u"inventor"_s, 25);
    SampleBus bus(&registry);
    CollectorScheduler scheduler(&bus);
    CollectorConfig c;
    c.sourceId = u"inventor"_s;
    c.intervalMs = 100;
    scheduler.addSource(u"test"_s, c, std::make_unique<InventingCollector>(10));
    scheduler.start();
    // Poll 3 sends 30 label sets: 5 refused; poll 4 sends 40: 15 refused.
    QTRY_VERIFY(scheduler.status(u"inventor"_s).droppedSeries >= 15);
    const SourceStatus status = scheduler.status(u"inventor"_s);
    scheduler.stop();
    QCOMPARE(status.state, SourceState::Ok);
    QCOMPARE(status.seriesCap, 25);
    QCOMPARE(status.seriesCount, 25); // what was published, the refused left out
    QCOMPARE(status.message,
             u"series cap 25 reached: %1 new series dropped this poll"_s.arg(status.droppedSeries));
    QCOMPARE(registry.size(), 25);
}

QTEST_GUILESS_MAIN(TestScheduler)
#include "tst_scheduler.moc"
