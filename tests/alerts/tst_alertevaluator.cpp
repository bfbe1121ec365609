// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The alert state machine (alertevaluator.h) on synthetic series: hysteresis, `for`,
// no-data policies, every reducer, guards, many instances, determinism and restore.
#include "alerttestutil.h"
#include "document/alertrulejson.h"
#include "engine/alerts/alertevaluator.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Base = 1'700'000'000'000;

SeriesInfo seriesInfo(const QString &metric, const Labels &labels = {}, bool histogram = false)
{
    SeriesInfo info;
    info.key = { u"host"_s, metric, labels };
    info.unit = u"%"_s;
    info.resource = u"cpu"_s;
    info.kind = UseKind::Utilization;
    info.histogram = histogram;
    return info;
}

AlertRule rule(double threshold, double recovery, qint64 forMs = 0)
{
    AlertRule r;
    r.id = u"cpu.high"_s;
    r.name = u"CPU high"_s;
    r.selector = { u"*"_s, u"host.cpu.utilization"_s, {} };
    r.reducer = AlertReducer::Last;
    r.windowMs = 60'000;
    r.threshold = threshold;
    r.recoveryThreshold = recovery;
    r.forMs = forMs;
    r.description = u"{source} CPU at {value}"_s;
    return r;
}

// Feeds values one per second; returns "t:state" for every event, t in seconds.
QStringList run(AlertEvaluator &evaluator, const QList<double> &values,
                const SeriesInfo &info = seriesInfo(u"host.cpu.utilization"_s), qint64 startS = 0)
{
    QList<AlertEvent> events;
    for (qsizetype i = 0; i < values.size(); ++i)
        events += evaluator.addSample(info, { Base + (startS + i) * 1000, values[i] });
    return AlertTest::eventStates(events, Base);
}

// The shipped USE pack's rule with that id, or nullopt.
std::optional<AlertRule> useRule(const QString &id)
{
    const auto pack = loadAlertPack(u"use"_s, nullptr);
    if (!pack)
        return std::nullopt;
    const auto rule = std::find_if(pack->cbegin(), pack->cend(),
                                   [&](const AlertRule &r) { return r.id == id; });
    return rule == pack->cend() ? std::nullopt : std::optional<AlertRule>(*rule);
}

} // namespace

class TestAlertEvaluator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The USE pack's rules on a root blocker (PostgreSQL's and MariaDB's): fire after 30 s
    // of sessions blocked behind the same session, and the message names that session.
    void blockedBehindOneSession_data()
    {
        QTest::addColumn<QString>("ruleId");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<Labels>("labels");
        QTest::addColumn<QString>("message");
        QTest::newRow("postgres")
            << u"use.db.blocked"_s << u"pg.locks.root_blocked"_s
            << Labels { { u"pid"_s, u"4242"_s },
                        { u"application"_s, u"nightly-cleanup"_s },
                        { u"user"_s, u"maint"_s },
                        { u"query"_s, u"DELETE FROM accounts WHERE id < $1"_s } }
            << u"pg: 5 sessions blocked behind pid 4242 (nightly-cleanup, user maint), "
               "which runs or last ran: DELETE FROM accounts WHERE id < $1"_s;
        QTest::newRow("mariadb")
            << u"use.mariadb.blocked"_s << u"mariadb.locks.root_blocked"_s
            << Labels { { u"pid"_s, u"42"_s },
                        { u"application"_s, QString() },
                        { u"user"_s, u"maintenance"_s },
                        { u"query"_s, u"DELETE FROM ad_clicks WHERE ts < ?"_s } }
            << u"pg: 5 sessions blocked behind connection 42 (user maintenance), which runs "
               "or last ran: DELETE FROM ad_clicks WHERE ts < ?"_s;
    }
    void blockedBehindOneSession()
    {
        QFETCH(QString, ruleId);
        QFETCH(QString, metric);
        QFETCH(Labels, labels);
        QFETCH(QString, message);
        const std::optional<AlertRule> blocked = useRule(ruleId);
        QVERIFY(blocked);
        AlertEvaluator evaluator;
        evaluator.setRules({ *blocked });
        SeriesInfo info = seriesInfo(metric, labels);
        info.key.source = u"pg"_s;
        info.unit = u"sessions"_s;
        QList<double> values(10, 0.0);
        values += QList<double>(45, 5.0);
        values += QList<double>(5, 0.0);
        QList<AlertEvent> events;
        for (qsizetype i = 0; i < values.size(); ++i)
            events += evaluator.addSample(info, { Base + i * 1000, values[i] });
        QCOMPARE(AlertTest::eventStates(events, Base),
                 (QStringList { u"10:pending"_s, u"40:firing"_s, u"55:resolved"_s }));
        QCOMPARE(events[1].severity, AlertSeverity::Critical);
        QCOMPARE(events[1].message, message);
    }
    // The USE pack's plan-change rule: a statement reading 90x its usual blocks per call
    // fires at once and is named; 20x of a statement still reading only 40 blocks a
    // call does not (a cheap statement's wobble is no plan change).
    void planChangeNamesTheStatement()
    {
        const std::optional<AlertRule> rule = useRule(u"use.db.plan_change"_s);
        QVERIFY(rule);
        AlertEvaluator evaluator;
        evaluator.setRules({ *rule });
        const Labels labels { { u"datname"_s, u"shop"_s },
                              { u"queryid"_s, u"-42"_s },
                              { u"query"_s, u"SELECT pad FROM orders WHERE id = $1"_s } };
        SeriesInfo change = seriesInfo(u"pg.statements.blocks_per_call_change"_s, labels);
        SeriesInfo blocks = seriesInfo(u"pg.statements.blocks_per_call"_s, labels);
        change.key.source = blocks.key.source = u"pg"_s;
        change.unit = u"x"_s;
        const QList<double> changes { 1, 1, 20, 1, 90, 90 };
        const QList<double> perCall { 3, 3, 40, 3, 270, 270 };
        QList<AlertEvent> events;
        for (qsizetype i = 0; i < changes.size(); ++i) {
            evaluator.addSample(blocks, { Base + i * 1000, perCall[i] });
            events += evaluator.addSample(change, { Base + i * 1000, changes[i] });
        }
        QCOMPARE(AlertTest::eventStates(events, Base), QStringList { u"4:firing"_s });
        QCOMPARE(events[0].severity, AlertSeverity::Warning);
        QCOMPARE(events[0].message,
                 u"pg: statement SELECT pad FROM orders WHERE id = $1 in shop now reads 90 x the "
                 "blocks per call it used to"_s);
    }
    // The USE pack's TimescaleDB job rule: a job whose last run failed warns at once,
    // names the job and its hypertable, and resolves after a run that succeeds.
    void timescaleJobFailing()
    {
        const std::optional<AlertRule> rule = useRule(u"use.db.timescale_job"_s);
        QVERIFY(rule);
        AlertEvaluator evaluator;
        evaluator.setRules({ *rule });
        SeriesInfo info = seriesInfo(u"pg.timescale.job.failing"_s,
                                     { { u"job"_s, u"Retention Policy [1002]"_s },
                                       { u"hypertable"_s, u"public.history"_s } });
        info.key.source = u"zabbix"_s;
        info.unit = u"jobs"_s;
        const QList<double> values { 0, 0, 1, 1, 1, 0, 0 };
        QList<AlertEvent> events;
        for (qsizetype i = 0; i < values.size(); ++i)
            events += evaluator.addSample(info, { Base + i * 1000, values[i] });
        QCOMPARE(AlertTest::eventStates(events, Base),
                 (QStringList { u"2:firing"_s, u"5:resolved"_s }));
        QCOMPARE(events[0].severity, AlertSeverity::Warning);
        QCOMPARE(events[0].message,
                 u"zabbix: TimescaleDB job Retention Policy [1002] public.history failed its last "
                 "run"_s);
    }
    // The USE pack's hypertable DELETE rule: a DELETE running past a minute warns and
    // names the hypertable, the session and the statement.
    void hypertableDeleteNamed()
    {
        const std::optional<AlertRule> rule = useRule(u"use.db.hypertable_delete"_s);
        QVERIFY(rule);
        AlertEvaluator evaluator;
        evaluator.setRules({ *rule });
        SeriesInfo info = seriesInfo(
            u"pg.hypertable.delete_s"_s,
            { { u"hypertable"_s, u"public.history"_s },
              { u"pid"_s, u"4242"_s },
              { u"user"_s, u"zabbix"_s },
              { u"query"_s, u"delete from history where itemid = $1 and clock < $2"_s } });
        info.key.source = u"zabbix"_s;
        info.unit = u"s"_s;
        QList<AlertEvent> events;
        for (int i = 0; i <= 70; i += 10)
            events += evaluator.addSample(info, { Base + i * 1000, double(i) });
        QCOMPARE(AlertTest::eventStates(events, Base), QStringList { u"70:firing"_s });
        QCOMPARE(events[0].message,
                 u"zabbix: DELETE on hypertable public.history running for 70 s (pid 4242, "
                 "user zabbix): delete from history where itemid = $1 and clock < $2"_s);
    }
    // The USE pack's housekeeping rule: deletes whose five-minute mean stays over 1,000
    // rows/s for five minutes on one set warn; a burst does not, even at the start,
    // when the window holds little else.
    void deleteHousekeeping()
    {
        const std::optional<AlertRule> rule = useRule(u"use.db.delete_housekeeping"_s);
        QVERIFY(rule);
        AlertEvaluator evaluator;
        evaluator.setRules({ *rule });
        SeriesInfo info
            = seriesInfo(u"pg.shardset.deletes.rate"_s, { { u"set"_s, u"public.history"_s } });
        info.key.source = u"zabbix"_s;
        info.unit = u"1/s"_s;
        QList<double> values(300, 0.0);
        for (int i = 100; i < 130; ++i)
            values[i] = 5000; // a burst: 500 rows/s over the five minutes
        values += QList<double>(600, 2500.0);
        QList<AlertEvent> events;
        for (qsizetype i = 0; i < values.size(); ++i)
            events += evaluator.addSample(info, { Base + i * 1000, values[i] });
        // Pending during the burst, never firing; firing once the mean has stayed over
        // 1,000 for five minutes (it passes 1,000 at 360 s, the burst still in the window).
        QCOMPARE(
            AlertTest::eventStates(events, Base),
            (QStringList { u"125:pending"_s, u"149:ok"_s, u"360:pending"_s, u"660:firing"_s }));
        events = { events.last() };
        QCOMPARE(events[0].message,
                 u"zabbix: 2500 rows/s deleted from public.history for 5 minutes"_s);
    }
    // The USE pack's APDEX rule: a minute's mean under 0.85 for 30 s warns, once, and
    // resolves when the mean is back above 0.9.
    void apdexBelowThreshold()
    {
        const std::optional<AlertRule> rule = useRule(u"use.latency.apdex"_s);
        QVERIFY(rule);
        AlertEvaluator evaluator;
        evaluator.setRules({ *rule });
        SeriesInfo info = seriesInfo(u"pg.apdex.probe"_s, {});
        info.key.source = u"pg"_s;
        info.unit.clear();
        QList<double> values(60, 0.95);
        values += QList<double>(60, 0.5);
        values += QList<double>(120, 0.98);
        QList<AlertEvent> events;
        for (qsizetype i = 0; i < values.size(); ++i)
            events += evaluator.addSample(info, { Base + i * 1000, values[i] });
        QCOMPARE(events.size(), 3);
        QCOMPARE(events[0].state, AlertState::Pending);
        QCOMPARE(events[1].state, AlertState::Firing);
        QCOMPARE(events[2].state, AlertState::Resolved);
        QCOMPARE(events[1].severity, AlertSeverity::Warning);
        // Pending once the minute's mean is under 0.85 (14 of its samples at 0.5), firing
        // 30 s later; resolved when 50 of the minute's samples are back at 0.98.
        const auto atS = [&](int i) { return (events[i].tsMs - Base) / 1000; };
        QVERIFY2(atS(0) >= 70 && atS(0) <= 76, qPrintable(QString::number(atS(0))));
        QCOMPARE(atS(1), atS(0) + 30);
        QVERIFY2(atS(2) >= 165 && atS(2) <= 172, qPrintable(QString::number(atS(2))));
        QVERIFY2(events[1].message.startsWith(u"pg: APDEX pg.apdex.probe is 0."_s),
                 qPrintable(events[1].message));
        // A healthy series never fires.
        AlertEvaluator calm;
        calm.setRules({ *rule });
        for (int i = 0; i < 200; ++i)
            QVERIFY(calm.addSample(info, { Base + i * 1000, i % 10 == 5 ? 0.8 : 0.97 }).isEmpty());
    }
    void stateMachine_data()
    {
        QTest::addColumn<double>("threshold");
        QTest::addColumn<double>("recovery");
        QTest::addColumn<qint64>("forS");
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<QStringList>("events");

        // Flapping around 90 fires once: 89..91 never reaches the recovery bound of 80.
        QTest::newRow("flapping does not flap")
            << 90.0 << 80.0 << qint64(0)
            << QList<double> { 50, 91, 89, 91, 89, 91, 89, 91, 85, 81, 80, 79 }
            << QStringList { u"1:firing"_s, u"10:resolved"_s };
        // Without hysteresis the same input flaps: what the recovery threshold prevents.
        QTest::newRow("no hysteresis flaps")
            << 90.0 << 90.0 << qint64(0) << QList<double> { 50, 91, 89, 91, 89 }
            << QStringList { u"1:firing"_s, u"2:resolved"_s, u"3:firing"_s, u"4:resolved"_s };
        // `for` 3 s: pending at 1, firing at 4 (3 s later), not before.
        QTest::newRow("for honoured")
            << 90.0 << 80.0 << qint64(3) << QList<double> { 50, 95, 95, 95, 95, 95, 70 }
            << QStringList { u"1:pending"_s, u"4:firing"_s, u"6:resolved"_s };
        // A dip below the threshold while pending starts over: flapping input with `for`
        // never fires.
        QTest::newRow("for with flapping input")
            << 90.0 << 80.0 << qint64(3) << QList<double> { 95, 95, 89, 95, 95, 89, 95 }
            << QStringList { u"0:pending"_s, u"2:ok"_s, u"3:pending"_s, u"5:ok"_s, u"6:pending"_s };
        // Equal to the threshold does not trigger "> 90"; equal to recovery resolves.
        QTest::newRow("bounds") << 90.0 << 80.0 << qint64(0) << QList<double> { 90, 90.5, 80.5, 80 }
                                << QStringList { u"1:firing"_s, u"3:resolved"_s };
        // NaN samples (gaps) give no verdict either way.
        QTest::newRow("NaN is no verdict")
            << 90.0 << 80.0 << qint64(0) << QList<double> { 95, qQNaN(), qQNaN(), 10 }
            << QStringList { u"0:firing"_s, u"3:resolved"_s };
    }

    void stateMachine()
    {
        QFETCH(double, threshold);
        QFETCH(double, recovery);
        QFETCH(qint64, forS);
        QFETCH(QList<double>, values);
        QFETCH(QStringList, events);
        AlertEvaluator evaluator;
        evaluator.setRules({ rule(threshold, recovery, forS * 1000) });
        QCOMPARE(run(evaluator, values), events);
    }

    void belowComparison()
    {
        // "free memory < 10" resolves at or above 20.
        AlertRule r = rule(10, 20);
        r.comparison = AlertComparison::Below;
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        QCOMPARE(run(evaluator, { 50, 9, 15, 11, 19.9, 20 }),
                 (QStringList { u"1:firing"_s, u"5:resolved"_s }));
    }

    void reducers_data()
    {
        QTest::addColumn<QString>("reducer");
        QTest::addColumn<double>("expected");
        // Window 5 s over 1..10 at 1 s: (5, 10] holds 6, 7, 8, 9, 10.
        QTest::newRow("last") << u"last"_s << 10.0;
        QTest::newRow("avg") << u"avg"_s << 8.0;
        QTest::newRow("min") << u"min"_s << 6.0;
        QTest::newRow("max") << u"max"_s << 10.0;
        QTest::newRow("rate") << u"rate"_s << 1.0; // (10 - 6) / 4 s
        QTest::newRow("p50") << u"p50"_s << 8.0; // nearest rank: 3rd of 5
        QTest::newRow("p100") << u"p100"_s << 10.0;
        QTest::newRow("p1") << u"p1"_s << 6.0;
    }

    void reducers()
    {
        QFETCH(QString, reducer);
        QFETCH(double, expected);
        AlertRule r = rule(1e9, 0);
        QVERIFY(parseAlertReducer(reducer, &r.reducer, &r.percentile));
        r.windowMs = 5000;
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        QList<double> values;
        for (int i = 1; i <= 10; ++i)
            values << i;
        run(evaluator, values);
        const auto instances = evaluator.instances();
        QCOMPARE(instances.size(), 1);
        QCOMPARE(instances.first().value, expected);
        QCOMPARE(instances.first().state, AlertState::Ok);
    }

    void changeAgainstBaseline()
    {
        // Rows per block ~2 for 10 minutes, then 8: the change reducer reads 4x its
        // baseline after the 1 min window has filled with the new level.
        AlertRule r = rule(3, 1.5);
        r.reducer = AlertReducer::Change;
        r.windowMs = 60'000;
        r.baselineMs = 10 * 60'000;
        r.selector.metric = u"pg.db.rows_per_block"_s;
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        const SeriesInfo info = seriesInfo(u"pg.db.rows_per_block"_s);
        QList<double> values(600, 2.0);
        values << QList<double>(120, 8.0) << QList<double>(660, 2.0);
        const QStringList events = run(evaluator, values, info);
        QCOMPARE(events.size(), 2);
        // Fires when the 1 min mean exceeds 3 x the baseline of 2: once 41 of its 60
        // samples are 8 ((8 * 41 + 2 * 19) / 60 = 6.1), i.e. 40 s into the jump.
        const int fired = events[0].section(u':', 0, 0).toInt();
        QCOMPARE(fired, 640);
        QCOMPARE(events[0].section(u':', 1), u"firing"_s);
        QCOMPARE(events[1].section(u':', 1), u"resolved"_s);
        // Resolves at 1.5 x: the window empties of 8s while the baseline takes them in.
        const int resolved = events[1].section(u':', 0, 0).toInt();
        QVERIFY2(resolved > 720 && resolved < 780, qPrintable(events.join(u' ')));
    }

    void histogramPercentile()
    {
        // p99 over a 10 s window of latency histograms: 99 fast requests (1 ms) a second
        // keep p99 at 1 ms; 20 s with 20 slow ones (500 ms, 2 %) a second push it up.
        AlertRule r = rule(100, 50);
        r.selector.metric = u"pg.latency.*"_s;
        r.reducer = AlertReducer::Percentile;
        r.percentile = 99;
        r.windowMs = 10'000;
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        const SeriesInfo info = seriesInfo(u"pg.latency.probe"_s, {}, true);
        QStringList events;
        for (int s = 0; s < 60; ++s) {
            LogHistogram h;
            h.add(1.0, 99);
            if (s >= 20 && s < 40)
                h.add(500.0, 20);
            for (const auto allEs = evaluator.addHistogram(info, Base + s * 1000, h);
                 const AlertEvent &e : allEs)
                events << u"%1:%2"_s.arg(s).arg(alertStateName(e.state));
        }
        // The window (39 s, 49 s] is the first without a slow second.
        QCOMPARE(events, (QStringList { u"20:firing"_s, u"49:resolved"_s }));
    }

    void oneInstancePerSeries()
    {
        AlertRule r = rule(90, 80);
        r.selector = { u"*"_s, u"nic.utilization"_s, {} };
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        const SeriesInfo eth0 = seriesInfo(u"nic.utilization"_s, { { u"interface"_s, u"eth0"_s } });
        const SeriesInfo eth1 = seriesInfo(u"nic.utilization"_s, { { u"interface"_s, u"eth1"_s } });
        const SeriesInfo other = seriesInfo(u"host.cpu.utilization"_s);
        QCOMPARE(run(evaluator, { 95, 95 }, eth0), (QStringList { u"0:firing"_s }));
        QCOMPARE(run(evaluator, { 10, 99 }, eth1), (QStringList { u"1:firing"_s }));
        QCOMPARE(run(evaluator, { 99, 99 }, other), QStringList {});
        QCOMPARE(evaluator.instances().size(), 2);
        QVERIFY(evaluator.watches(eth0.key));
        QVERIFY(!evaluator.watches(other.key));
    }

    void guard()
    {
        // Disk utilization > 90 only counts while the disk's queue is > 1.
        AlertRule r = rule(90, 80);
        r.selector = { u"*"_s, u"host.disk.utilization"_s, {} };
        r.also = { u"host.disk.queue"_s, AlertComparison::Above, 1 };
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        const Labels sda { { u"device"_s, u"sda"_s } };
        const SeriesInfo util = seriesInfo(u"host.disk.utilization"_s, sda);
        const SeriesInfo queue = seriesInfo(u"host.disk.queue"_s, sda);
        QVERIFY(evaluator.watches(queue.key));
        QVERIFY(!evaluator.watches(seriesInfo(u"host.disk.reads"_s, sda).key));
        const QList<double> utilization { 95, 95, 95, 95, 95 };
        const QList<double> queueLength { 0.5, 0.5, 3, 3, 0.2 };
        QStringList events;
        for (int s = 0; s < 5; ++s) {
            evaluator.addSample(queue, { Base + s * 1000, queueLength[s] });
            for (const auto raised = evaluator.addSample(util, { Base + s * 1000, utilization[s] });
                 const AlertEvent &e : raised)
                events << u"%1:%2"_s.arg(s).arg(alertStateName(e.state));
        }
        QCOMPARE(events, (QStringList { u"2:firing"_s, u"4:resolved"_s }));
    }

    void noData_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<qint64>("forS");
        QTest::addColumn<QStringList>("events");
        // Firing at 0..4, then silence; the check runs at 10 s and 30 s after the last
        // sample (no-data after 3 x 1 s spacing, at least 10 s).
        QTest::newRow("ok resolves")
            << u"ok"_s << qint64(0) << QStringList { u"0:firing"_s, u"14:resolved"_s };
        QTest::newRow("keep stays") << u"keep"_s << qint64(0) << QStringList { u"0:firing"_s };
    }

    void noData()
    {
        QFETCH(QString, policy);
        QFETCH(qint64, forS);
        QFETCH(QStringList, events);
        AlertRule r = rule(90, 80, forS * 1000);
        r.noData = *alertNoDataFromName(policy);
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        QStringList seen = run(evaluator, { 95, 95, 95, 95, 95 });
        for (qint64 s : { 5, 13, 14, 34 })
            seen << AlertTest::eventStates(evaluator.checkNoData(Base + s * 1000), Base);
        QCOMPARE(seen, events);
    }

    void noDataAlerts()
    {
        // A healthy series goes silent: with noData "alert" and for 20 s it is pending
        // once silent (10 s after the last sample) and fires 20 s later; a sample that
        // recovers resolves it.
        AlertRule r = rule(90, 80, 20'000);
        r.noData = AlertNoData::Alert;
        r.noDataAfterMs = 10'000;
        AlertEvaluator evaluator;
        evaluator.setRules({ r });
        QCOMPARE(run(evaluator, { 10, 10, 10 }), QStringList {});
        QStringList seen;
        for (qint64 s : { 5, 12, 20, 31, 32, 40 })
            seen << AlertTest::eventStates(evaluator.checkNoData(Base + s * 1000), Base);
        QCOMPARE(seen, (QStringList { u"12:pending"_s, u"32:firing"_s }));
        QVERIFY(qIsNaN(evaluator.instances().constFirst().value) == false); // last real value kept
        QCOMPARE(run(evaluator, { 10 }, seriesInfo(u"host.cpu.utilization"_s), 50),
                 QStringList { u"50:resolved"_s });
    }

    void deterministic()
    {
        // The same samples in the same order give the same events, messages included.
        QList<double> values;
        quint32 state = 12345;
        for (int i = 0; i < 2000; ++i) {
            state = state * 1103515245u + 12345u;
            values << double(state >> 16 & 0x7fff) / 327.67; // 0..100
        }
        const auto eventsOf = [&] {
            AlertEvaluator evaluator;
            evaluator.setRules({ rule(90, 60, 2000) });
            QList<AlertEvent> events;
            for (qsizetype i = 0; i < values.size(); ++i)
                events += evaluator.addSample(seriesInfo(u"host.cpu.utilization"_s),
                                              { Base + i * 1000, values[i] });
            return events;
        };
        const QList<AlertEvent> a = eventsOf();
        const QList<AlertEvent> b = eventsOf();
        QVERIFY(a.size() > 10);
        QCOMPARE(a.size(), b.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].tsMs, b[i].tsMs);
            QCOMPARE(a[i].state, b[i].state);
            QCOMPARE(a[i].message, b[i].message);
        }
        // Firing and resolved alternate: never two firings without a resolve between.
        AlertState last = AlertState::Ok;
        for (const AlertEvent &e : a) {
            if (e.state == AlertState::Firing)
                QVERIFY(last != AlertState::Firing);
            if (e.state == AlertState::Firing || e.state == AlertState::Resolved)
                last = e.state;
        }
    }

    void restoreContinues()
    {
        // An instance firing when the app stopped resolves after the restart instead of
        // firing again.
        AlertEvaluator before;
        before.setRules({ rule(90, 80) });
        QList<AlertEvent> stored;
        for (int s = 0; s < 3; ++s)
            stored
                += before.addSample(seriesInfo(u"host.cpu.utilization"_s), { Base + s * 1000, 95 });
        QCOMPARE(stored.size(), 1);
        AlertEvaluator after;
        after.setRules({ rule(90, 80) });
        after.restore(stored, Base + 90'000);
        // Silence counts from the restore: nothing at once, resolved (noData ok) 10 s on.
        AlertEvaluator silent;
        AlertRule okOnSilence = rule(90, 80);
        okOnSilence.noData = AlertNoData::Ok;
        silent.setRules({ okOnSilence });
        silent.restore(stored, Base + 90'000);
        QVERIFY(silent.checkNoData(Base + 95'000).isEmpty());
        QCOMPARE(silent.checkNoData(Base + 100'000).size(), 1);
        QCOMPARE(run(after, { 95, 95, 70 }, seriesInfo(u"host.cpu.utilization"_s), 100),
                 QStringList { u"102:resolved"_s });
        // A second restore (the engine's rules set again) keeps what this run knows.
        after.restore(stored, Base + 200'000);
        QCOMPARE(after.instances().constFirst().state, AlertState::Resolved);
    }

    void setRulesKeepsUnchangedInstances()
    {
        AlertEvaluator evaluator;
        evaluator.setRules({ rule(90, 80) });
        run(evaluator, { 95 });
        evaluator.setRules({ rule(90, 80) });
        QCOMPARE(evaluator.instances().constFirst().state, AlertState::Firing);
        evaluator.setRules({ rule(95, 80) }); // changed: starts over
        QVERIFY(evaluator.instances().isEmpty());
        AlertRule disabled = rule(90, 80);
        disabled.enabled = false;
        evaluator.setRules({ disabled });
        QCOMPARE(run(evaluator, { 99, 99 }), QStringList {});
    }

    void messages()
    {
        AlertRule r = rule(90, 80);
        r.description = u"{source}/{metric} on {label:cpu} is {value} (> {threshold}); {nope}"_s;
        const SeriesKey key { u"db1"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } };
        QCOMPARE(renderAlertMessage(r, key, u"%"_s, 93.25),
                 u"db1/host.cpu.utilization on all is 93 % (> 90 %); {nope}"_s);
        QCOMPARE(renderAlertMessage(r, key, u"%"_s, qQNaN()).section(u' ', 3, 4), u"is no"_s);
        r.description.clear();
        QCOMPARE(renderAlertMessage(r, key, u"%"_s, 1), r.name);
    }

    void firingSpans()
    {
        const auto event = [](qint64 s, AlertState state, const QString &series) {
            AlertEvent e;
            e.tsMs = Base + s * 1000;
            e.ruleId = u"r"_s;
            e.series = { u"host"_s, series, {} };
            e.state = state;
            return e;
        };
        const QList<AlertEvent> events {
            event(10, AlertState::Pending, u"a"_s), event(15, AlertState::Firing, u"a"_s),
            event(20, AlertState::Firing, u"b"_s),  event(30, AlertState::Resolved, u"a"_s),
            event(40, AlertState::Firing, u"a"_s),
        };
        const auto spans = alertFiringSpans(events, Base + 12'000, Base + 50'000);
        QCOMPARE(spans.size(), 3);
        QCOMPARE(spans[0].startMs, Base + 15'000);
        QCOMPARE(spans[0].endMs, Base + 30'000);
        QVERIFY(!spans[0].open);
        QCOMPARE(spans[1].series.metric, u"b"_s);
        QCOMPARE(spans[1].endMs, Base + 50'000);
        QVERIFY(spans[1].open);
        QCOMPARE(spans[2].startMs, Base + 40'000);
    }
};

QTEST_GUILESS_MAIN(TestAlertEvaluator)
#include "tst_alertevaluator.moc"
