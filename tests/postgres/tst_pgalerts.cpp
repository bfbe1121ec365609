// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The alert engine end to end against a real PostgreSQL: the shipped USE pack's shard
// rule fires within two collection intervals of one partition becoming hot, on that
// partition only, and resolves after the load stops; the events are in the cache. The
// plan-change rule names the statement whose index was dropped within two intervals.
#include "engine/cache/samplecache.h"
#include "engine/monitoringsession.h"
#include "pgtestutil.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <thread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

constexpr int IntervalMs = 1000;
constexpr int Partitions = 4;
constexpr int Hot = 2;
const QString ShardRule = u"use.shard.load"_s;

QString partition(int i)
{
    return u"public.alert_orders_p%1"_s.arg(i);
}

} // namespace

class TestPgAlerts : public QObject
{
    Q_OBJECT

    // Starts `session` on a cache at cachePath, polling `server` (a conninfo) as "pg" at
    // IntervalMs with the USE pack; its alert events go to *events.
    void watch(MonitoringSession &session, const QString &cachePath, const QString &server,
               QList<AlertEvent> *events)
    {
        QString error;
        QVERIFY2(session.openCache(cachePath, &error), qPrintable(error));
        QCOMPARE(session.loadPlugins(), QStringList());
        connect(&session.alerts(), &AlertEngine::eventsRaised, this,
                [events](const QList<AlertEvent> &raised) { *events += raised; });
        Dashboard dashboard;
        dashboard.title = u"alerts"_s;
        dashboard.sources.append({ u"pg"_s, u"postgres"_s, IntervalMs, 3000,
                                   QJsonObject { { u"conninfo"_s, server } } });
        dashboard.alertPack = u"use"_s;
        session.start(dashboard, {});
    }

private Q_SLOTS:
    void hotPartitionFiresAndResolves()
    {
        HEADROOM_REQUIRE_PG();
        TestConnection setup(conninfo());
        QVERIFY2(setup.ok(), qPrintable(setup.error()));
        PG_EXEC(setup, u"DROP TABLE IF EXISTS alert_orders"_s);
        PG_EXEC(setup,
                u"CREATE TABLE alert_orders (region int, id int) PARTITION BY LIST (region)"_s);
        for (int i = 0; i < Partitions; ++i)
            PG_EXEC(
                setup,
                u"CREATE TABLE alert_orders_p%1 PARTITION OF alert_orders FOR VALUES IN (%1)"_s.arg(
                    i));
        PG_EXEC(
            setup,
            u"INSERT INTO alert_orders SELECT g %% 4, g FROM generate_series(1, 4000) g"_s.replace(
                u"%%"_s, u"%"_s));

        QTemporaryDir dir;
        MonitoringSession session;
        QList<AlertEvent> events;
        watch(session, dir.filePath(u"cache.sqlite"_s), conninfo(), &events);
        if (QTest::currentTestFailed())
            return;
        // Two idle polls: the partitions are known and have rates before the load.
        QTest::qWait(2 * IntervalMs + 500);
        const auto shardEvents = [&](AlertState state) {
            QList<AlertEvent> out;
            for (const AlertEvent &e : std::as_const(events))
                if (e.ruleId == ShardRule && e.state == state)
                    out.append(e);
            return out;
        };
        QCOMPARE(shardEvents(AlertState::Firing).size(), 0); // idle: no hot shard

        // Ten scans of the hot partition for each scan of another, flushed at once so
        // every interval sees them (PostgreSQL 15+ otherwise flushes about once a second).
        std::atomic<bool> stop = false;
        const qint64 loadStartMs = QDateTime::currentMSecsSinceEpoch();
        std::thread load([&] {
            TestConnection work(conninfo());
            for (int round = 0; !stop; ++round) {
                QString sql;
                for (int i = 0; i < 10; ++i)
                    sql += u"SELECT count(*) FROM alert_orders WHERE region = %1;"_s.arg(Hot);
                sql += u"SELECT count(*) FROM alert_orders WHERE region = %1;"_s.arg(round
                                                                                     % Partitions);
                sql += u"SELECT pg_stat_force_next_flush();"_s;
                work.exec(sql);
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(!shardEvents(AlertState::Firing).isEmpty(), 10 * IntervalMs);
        const AlertEvent firing = shardEvents(AlertState::Firing).constFirst();
        const qint64 firedAfterMs = firing.tsMs - loadStartMs;
        qInfo("shard rule fired %lld ms after the load started (%s, value %.1f %%): %s",
              firedAfterMs, qPrintable(firing.series.labels.value(u"shard"_s)), firing.value,
              qPrintable(firing.message));
        QCOMPARE(firing.series.labels.value(u"shard"_s), partition(Hot));
        QVERIFY(firing.value > 70);
        // The poll that sees the load is at most one interval away, and the rate needs
        // that one poll: two intervals (and a little for the poll's own start).
        QVERIFY2(firedAfterMs <= 2 * IntervalMs + 200, qPrintable(QString::number(firedAfterMs)));
        QCOMPARE(firing.severity, AlertSeverity::Critical);
        QVERIFY2(!firing.hint.isEmpty(), "the pack's hint travels with the event");

        QTest::qWait(2 * IntervalMs); // still hot: no flapping, no second firing
        stop = true;
        load.join();
        const qint64 loadStopMs = QDateTime::currentMSecsSinceEpoch();
        QTRY_VERIFY_WITH_TIMEOUT(!shardEvents(AlertState::Resolved).isEmpty(), 10 * IntervalMs);
        const AlertEvent resolved = shardEvents(AlertState::Resolved).constFirst();
        qInfo("resolved %lld ms after the load stopped (value %.1f %%)", resolved.tsMs - loadStopMs,
              resolved.value);
        QCOMPARE(resolved.series, firing.series);
        QVERIFY(resolved.tsMs - loadStopMs <= 3 * IntervalMs + 200);
        // Only the hot partition fired, once.
        QCOMPARE(shardEvents(AlertState::Firing).size(), 1);
        session.stop();

        // The events are in the cache, as the alert list and a restart read them.
        session.flushCache();
        QList<AlertEvent> stored;
        for (const auto es
             = session.cache()->readAlertEvents(loadStartMs, QDateTime::currentMSecsSinceEpoch());
             const AlertEvent &e : es)
            if (e.ruleId == ShardRule)
                stored.append(e);
        QCOMPARE(stored.size(), 2);
        QCOMPARE(stored[0].state, AlertState::Firing);
        QCOMPARE(stored[1].state, AlertState::Resolved);
        PG_EXEC(setup, u"DROP TABLE alert_orders"_s);
    }

    // A plan flip: the index a lookup uses is dropped; the pack's plan-change
    // rule names that statement within two intervals.
    void planFlipNamesTheStatement()
    {
        HEADROOM_REQUIRE_PG();
        const QString db = u"headroom_planflip"_s;
        {
            TestConnection admin(conninfo());
            QVERIFY2(admin.ok(), qPrintable(admin.error()));
            PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(db));
            PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(db));
        }
        TestConnection setup(conninfo(db));
        QVERIFY2(setup.ok(), qPrintable(setup.error()));
        PG_EXEC(setup, u"CREATE EXTENSION pg_stat_statements"_s);
        PG_EXEC(setup, u"CREATE TABLE flip (id int, pad text)"_s);
        PG_EXEC(setup,
                u"INSERT INTO flip SELECT g, repeat('x', 100) FROM generate_series(1, 20000) g"_s);
        PG_EXEC(setup, u"CREATE INDEX flip_id ON flip (id)"_s);
        PG_EXEC(setup, u"ANALYZE flip"_s);

        QTemporaryDir dir;
        MonitoringSession session;
        QList<AlertEvent> events;
        watch(session, dir.filePath(u"cache.sqlite"_s), conninfo(db), &events);
        if (QTest::currentTestFailed())
            return;

        std::atomic<bool> stop = false;
        std::thread load([&] {
            TestConnection work(conninfo(db));
            for (int round = 0; !stop; ++round) {
                QString sql;
                for (int i = 0; i < 10; ++i)
                    sql += u"SELECT pad FROM flip WHERE id = %1;"_s.arg(round * 10 + i + 1);
                work.exec(sql);
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
        const auto planEvents = [&] {
            QList<AlertEvent> out;
            for (const AlertEvent &e : std::as_const(events))
                if (e.ruleId == "use.db.plan_change"_L1 && e.state == AlertState::Firing)
                    out.append(e);
            return out;
        };
        // Six intervals with the index: the statement's usual blocks per call.
        QTest::qWait(6 * IntervalMs);
        QCOMPARE(planEvents().size(), 0);
        const qint64 droppedMs = QDateTime::currentMSecsSinceEpoch();
        PG_EXEC(setup, u"DROP INDEX flip_id"_s);
        QTRY_VERIFY_WITH_TIMEOUT(!planEvents().isEmpty(), 10 * IntervalMs);
        const AlertEvent firing = planEvents().constFirst();
        stop = true;
        load.join();
        session.stop();
        const qint64 firedAfterMs = firing.tsMs - droppedMs;
        qInfo("plan-change rule fired %lld ms after the DROP INDEX (%.0f x): %s", firedAfterMs,
              firing.value, qPrintable(firing.message));
        QCOMPARE(firing.series.labels.value(u"query"_s), u"SELECT pad FROM flip WHERE id = $1"_s);
        QVERIFY(
            firing.message.contains(u"SELECT pad FROM flip WHERE id = $1 in headroom_planflip"_s));
        QVERIFY2(firing.value >= 10, qPrintable(QString::number(firing.value)));
        QVERIFY2(firedAfterMs <= 2 * IntervalMs + 200, qPrintable(QString::number(firedAfterMs)));
        TestConnection admin(conninfo());
        PG_EXEC(admin, u"DROP DATABASE %1 WITH (FORCE)"_s.arg(db));
    }
};

QTEST_GUILESS_MAIN(TestPgAlerts)
#include "tst_pgalerts.moc"
