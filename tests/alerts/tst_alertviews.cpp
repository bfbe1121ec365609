// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the views get of alerts, GUI-free: panel queries carry events (cache and the
// engine's log, without duplicates), firing alerts raise USE matrix cells, the rule
// preview replays stored data, the --export-alerts CSV, and the notification limiter.
#include "alerttestutil.h"
#include "engine/alerts/alerteventlog.h"
#include "engine/alerts/notificationlimiter.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/alerts/alertcsv.h"
#include "query/alerts/alertpreview.h"
#include "query/panelquery.h"
#include "query/use/alertusematrix.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

const qint64 Base = AlertTest::recentBase();

AlertEvent alertEvent(qint64 s, AlertState state, const SeriesKey &series,
                      AlertSeverity severity = AlertSeverity::Critical)
{
    return AlertTest::makeEvent(Base, s, state, series, severity);
}

SeriesInfo cpuInfo(const QString &source = u"host"_s)
{
    return { { source, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } },
             u"%"_s,
             u"cpu"_s,
             UseKind::Utilization,
             false };
}

} // namespace

class TestAlertViews : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void panelsCarryEventsFromCacheAndLog()
    {
        QTemporaryDir dir;
        SeriesRegistry registry;
        QString error;
        auto cache = SampleCache::open(dir.filePath(u"c.sqlite"_s), &registry, &error);
        QVERIFY2(cache, qPrintable(error));
        LiveBuffers live;
        AlertEventLog log;
        const SeriesKey cpu = cpuInfo().key;
        // Stored and logged (the usual case once committed), and logged only (the last
        // second before a commit): each appears once.
        const QList<AlertEvent> stored { alertEvent(10, AlertState::Firing, cpu) };
        cache->recordAlertEvents(stored);
        cache->flush();
        log.append(stored);
        log.append({ alertEvent(20, AlertState::Resolved, cpu) });
        const SeriesStore store(&live, cache.get(), &log);
        const QList<AlertEvent> read = store.readAlertEvents(Base, Base + 60'000);
        QCOMPARE(read.size(), 2);
        QCOMPARE(read[0].state, AlertState::Firing);
        QVERIFY(read[0].id > 0); // the cache's copy
        QCOMPARE(read[1].state, AlertState::Resolved);

        DashboardPanel panel;
        panel.id = u"p"_s;
        for (PanelType type : { PanelType::TimeSeries, PanelType::Alerts, PanelType::UseMatrix,
                                PanelType::Heatmap }) {
            panel.type = type;
            const PanelData data = queryPanel(panel, registry, store, Base, Base + 60'000, 100);
            QCOMPARE(data.alerts.size(), type == PanelType::Heatmap ? 0 : 2);
        }
        // Events from the day before the range come along: a firing that began
        // earlier still shades the range.
        panel.type = PanelType::TimeSeries;
        const PanelData later
            = queryPanel(panel, registry, store, Base + 15'000, Base + 18'000, 100);
        const auto spans = alertFiringSpans(later.alerts, later.fromMs, later.toMs);
        QCOMPARE(spans.size(), 1);
        QCOMPARE(spans[0].startMs, Base + 15'000);
        QCOMPARE(spans[0].endMs, Base + 18'000);
    }

    void useMatrixCellsRaisedByFiringAlerts()
    {
        SeriesRegistry registry;
        registry.idFor(cpuInfo());
        SeriesInfo disk { { u"host"_s, u"host.disk.queue"_s, { { u"device"_s, u"sda"_s } } },
                          QString(),
                          u"disk:sda"_s,
                          UseKind::Saturation,
                          false };
        registry.idFor(disk);
        UseMatrix matrix;
        matrix.atMs = Base + 100'000;
        UseMatrixRow cpuRow;
        cpuRow.source = u"host"_s;
        cpuRow.resource = u"cpu"_s;
        cpuRow.label = u"CPU"_s;
        cpuRow.cells[0].level = UseLevel::Ok;
        matrix.rows.append(cpuRow);
        const QList<AlertEvent> events {
            alertEvent(10, AlertState::Firing, cpuInfo().key, AlertSeverity::Critical),
            alertEvent(20, AlertState::Firing, disk.key, AlertSeverity::Warning),
            alertEvent(30, AlertState::Resolved, disk.key, AlertSeverity::Warning),
        };
        applyFiringAlerts(&matrix, events, registry);
        // CPU utilization: critical by the alert though the value was fine.
        QCOMPARE(matrix.rows[0].cell(UseColumn::Utilization).level, UseLevel::Critical);
        QCOMPARE(matrix.rows[0].cell(UseColumn::Utilization).alert, events[0].message);
        // Since the alert fired, and still.
        QCOMPARE(matrix.rows[0].cell(UseColumn::Utilization).sinceMs, events[0].tsMs);
        QVERIFY(matrix.rows[0].cell(UseColumn::Utilization).ongoing);
        QCOMPARE(matrix.rows[0].cell(UseColumn::Saturation).level, UseLevel::NotMeasured);
        // The disk alert resolved: no row for it.
        QCOMPARE(matrix.rowOf(u"disk:sda"_s), -1);
        // Still firing at the matrix's time: the row is added, in USE order.
        applyFiringAlerts(&matrix, events.mid(0, 2), registry);
        QCOMPARE(matrix.rowOf(u"host"_s, u"disk:sda"_s), 1);
        QCOMPARE(matrix.rows[1].cell(UseColumn::Saturation).level, UseLevel::Warning);
        QCOMPARE(matrix.rows[1].label, u"Disk sda"_s);
        // Another host's CPU alert: its own row, after this source's, and both CPU rows
        // now name their source.
        const int web2 = registry.idFor(cpuInfo(u"web2"_s));
        Q_UNUSED(web2)
        applyFiringAlerts(
            &matrix,
            { alertEvent(40, AlertState::Firing, cpuInfo(u"web2"_s).key, AlertSeverity::Warning) },
            registry);
        QCOMPARE(matrix.rows.size(), 3);
        QCOMPARE(matrix.rowOf(u"web2"_s, u"cpu"_s), 2);
        QCOMPARE(matrix.rows[2].cell(UseColumn::Utilization).level, UseLevel::Warning);
        QCOMPARE(matrix.rows[0].label, u"host · CPU"_s);
        QCOMPARE(matrix.rows[2].label, u"web2 · CPU"_s);
        QCOMPARE(matrix.rows[0].cell(UseColumn::Utilization).level, UseLevel::Critical);
    }

    void previewReplaysStoredData()
    {
        SeriesRegistry registry;
        LiveBuffers live;
        const int web1 = registry.idFor(cpuInfo(u"web1"_s));
        const int web2 = registry.idFor(cpuInfo(u"web2"_s));
        // web1 above 90 for 20 s twice; web2 never.
        for (int s = 0; s < 120; ++s) {
            live.append(
                web1,
                { Base + s * 1000, (s >= 30 && s < 50) || (s >= 80 && s < 100) ? 95.0 : 40.0 });
            live.append(web2, { Base + s * 1000, 50.0 });
        }
        const SeriesStore store(&live, nullptr);
        AlertRule rule;
        rule.id = u"cpu"_s;
        rule.name = u"CPU"_s;
        rule.selector = { u"*"_s, u"host.cpu.utilization"_s, {} };
        rule.threshold = 90;
        rule.recoveryThreshold = 80;
        rule.forMs = 5000;
        const AlertPreview preview = previewAlertRule(rule, registry, store, Base, Base + 119'000);
        QCOMPARE(preview.matchedSeries, 2);
        QCOMPARE(preview.firings, 2);
        QCOMPARE(preview.spans.size(), 2);
        // Pending at 30, firing at 35 (5 s later), resolved at 50: 15 s each time.
        QCOMPARE(preview.firingMs, 30'000);
        QCOMPARE(preview.plotted.size(), 2);
        QCOMPARE(preview.summary(),
                 u"Would have fired 2 time(s) on 1 of 2 series, 30s firing in all."_s);
        rule.threshold = 99;
        rule.recoveryThreshold = 80;
        QCOMPARE(previewAlertRule(rule, registry, store, Base, Base + 119'000).summary(),
                 u"Would not have fired over the range (2 series watched)."_s);
        rule.selector.metric = u"nothing"_s;
        QCOMPARE(previewAlertRule(rule, registry, store, Base, Base + 119'000).summary(),
                 u"No known series matches this rule yet."_s);
    }

    void csv()
    {
        AlertEvent e = alertEvent(0, AlertState::Firing, cpuInfo().key);
        e.ruleId = u"use.cpu.utilization"_s;
        e.value = 93.5;
        e.message = u"host: CPU 94 %, \"busy\""_s;
        AlertEvent silent = e;
        silent.state = AlertState::Resolved;
        silent.value = qQNaN();
        silent.tsMs += 1500;
        const QByteArray text = alertCsv({ e, silent });
        const QList<QByteArray> lines = text.split('\n');
        QCOMPARE(lines[0], QByteArray("time,rule,series,state,value,severity,message\r"));
        const QByteArray time = QDateTime::fromMSecsSinceEpoch(e.tsMs, QTimeZone::UTC)
                                    .toString(Qt::ISODateWithMs)
                                    .toUtf8();
        QCOMPARE(
            lines[1],
            time
                + ",use.cpu.utilization,host/host.cpu.utilization{cpu=all},firing,93.5,critical,"
                  "\"host: CPU 94 %, \"\"busy\"\"\"\r");
        QVERIFY(lines[2].contains(",resolved,,critical,"));
    }

    void notificationLimits()
    {
        NotificationLimiter limiter;
        const auto key = [](int i) { return SeriesKey { u"h%1"_s.arg(i), u"m"_s, {} }; };
        qint64 now = 1'000'000;
        // A burst of 10 firings: 3 shown, 7 held back and named in the next one.
        int shown = 0;
        for (int i = 0; i < 10; ++i)
            shown += limiter.offer(alertEvent(0, AlertState::Firing, key(i)), now).has_value();
        QCOMPARE(shown, 3);
        QCOMPARE(limiter.heldBack(), 7);
        const auto next = limiter.offer(alertEvent(0, AlertState::Firing, key(11)), now + 60'000);
        QVERIFY(next);
        QVERIFY2(next->message.contains(u"and 7 more"_s), qPrintable(next->message));
        QCOMPARE(limiter.heldBack(), 0);
        QCOMPARE(next->title, u"Critical: CPU high"_s);
        // The same instance again within 5 minutes: held back; after: shown.
        QVERIFY(!limiter.offer(alertEvent(0, AlertState::Firing, key(11)), now + 120'000));
        QVERIFY(
            limiter.offer(alertEvent(0, AlertState::Firing, key(11)), now + 60'000 + 5 * 60'000));
        // Pending, ok and info never notify; a critical resolution does.
        QVERIFY(!limiter.offer(alertEvent(0, AlertState::Pending, key(20)), now + 10 * 60'000));
        QVERIFY(!limiter.offer(alertEvent(0, AlertState::Firing, key(21), AlertSeverity::Info),
                               now + 10 * 60'000));
        const auto resolved
            = limiter.offer(alertEvent(0, AlertState::Resolved, key(22)), now + 10 * 60'000);
        QVERIFY(resolved);
        QCOMPARE(resolved->title, u"Resolved: CPU high"_s);
        QVERIFY(!limiter.offer(alertEvent(0, AlertState::Resolved, key(23), AlertSeverity::Warning),
                               now + 10 * 60'000));
    }
};

QTEST_GUILESS_MAIN(TestAlertViews)
#include "tst_alertviews.moc"
