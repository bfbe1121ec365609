// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alerts in the GUI: the event model and its filter under QAbstractItemModelTester,
// the alert list panel (filters, acknowledge), firing spans and marks on a time panel
// (pixels and hover), and the rule editor (validation as typed, the replayed preview).
#include "../alerts/alerttestutil.h"
#include "charts/alertmarksitem.h"
#include "charts/zoomablechartview.h"
#include "document/alertrulejson.h"
#include "editors/alertruleeditor.h"
#include "editors/alertrulesdialog.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "imagetestutil.h"
#include "itemmodels/alerteventmodel.h"
#include "panels/alertlistpanel.h"
#include "panels/timeseriespanel.h"
#include "query/downsample.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;
using Headroom::Test::countColor;

namespace {

constexpr qint64 Base = 1'700'000'000'000;

SeriesKey cpuKey(const QString &source)
{
    return { source, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } };
}

AlertEvent alertEvent(qint64 s, AlertState state, const QString &source,
                      AlertSeverity severity = AlertSeverity::Critical)
{
    return AlertTest::makeEvent(Base, s, state, cpuKey(source), severity);
}

PanelData dataFor(const QString &type, qint64 fromS, qint64 toS)
{
    PanelData data;
    data.panelId = type;
    data.fromMs = Base + fromS * 1000;
    data.toMs = Base + toS * 1000;
    return data;
}

DashboardPanel config(const QString &type)
{
    DashboardPanel panel;
    panel.id = type;
    panel.type = *panelTypeFromName(type);
    panel.title = type;
    return panel;
}

} // namespace

class TestAlertPanels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void eventModelAndFilter()
    {
        AlertEventModel model;
        AlertEventFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester modelTester(&model,
                                             QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester filterTester(
            &filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QList<AlertEvent> events { alertEvent(1, AlertState::Firing, u"web1"_s),
                                   alertEvent(2, AlertState::Pending, u"web2"_s,
                                              AlertSeverity::Warning) };
        model.setEvents(events);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, AlertEventModel::StateColumn).data().toString(),
                 u"pending"_s); // newest first
        // Live: one more event is an insert at the top, not a reset.
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        events.append(alertEvent(3, AlertState::Resolved, u"web1"_s));
        model.setEvents(events);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(reset.size(), 0);
        QCOMPARE(model.index(0, AlertEventModel::StateColumn).data().toString(), u"resolved"_s);
        // An acknowledgement changes its row in place.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        events[0].acknowledged = true;
        model.setEvents(events);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.index(2, AlertEventModel::SeenColumn).data().toString(), u"yes"_s);
        QVERIFY(
            model.index(2, 0).data(Qt::ToolTipRole).toString().contains(u"What to check: top"_s));
        // Filters.
        filter.setStates({ AlertState::Firing, AlertState::Pending });
        QCOMPARE(filter.rowCount(), 2);
        filter.setMinimumSeverity(AlertSeverity::Critical);
        QCOMPARE(filter.rowCount(), 1);
        filter.setUnacknowledgedOnly(true);
        QCOMPARE(filter.rowCount(), 0);
        // Another range: a reset.
        model.setEvents({ alertEvent(9, AlertState::Firing, u"db"_s) });
        QCOMPARE(reset.size(), 1);
        QCOMPARE(model.rowCount(), 1);
    }

    void listPanelFiltersAndAcknowledges()
    {
        AlertListPanel panel(config(u"alerts"_s));
        panel.resize(900, 300);
        PanelData data = dataFor(u"alerts"_s, 0, 100);
        data.alerts = { alertEvent(-50, AlertState::Firing, u"old"_s), // before the range
                        alertEvent(10, AlertState::Firing, u"web1"_s),
                        alertEvent(20, AlertState::Pending, u"web2"_s, AlertSeverity::Warning),
                        alertEvent(30, AlertState::Resolved, u"web3"_s) };
        panel.setData(data);
        QTableView *view = panel.view();
        QCOMPARE(view->model()->rowCount(), 3); // the range's events
        // Firing rows are tinted with their severity's colour.
        const QVariant tint = view->model()->index(2, 0).data(Qt::BackgroundRole);
        QVERIFY(tint.isValid());
        QCOMPARE(tint.value<QColor>().rgb(), TimeSeriesPanel::CriticalColor.rgb());
        panel.stateFilter()->setCurrentIndex(panel.stateFilter()->findText(u"Firing"_s));
        QCOMPARE(view->model()->rowCount(), 1);
        panel.stateFilter()->setCurrentIndex(0);
        panel.severityFilter()->setCurrentIndex(panel.severityFilter()->findText(u"Critical"_s));
        QCOMPARE(view->model()->rowCount(), 2);
        panel.severityFilter()->setCurrentIndex(0);

        QSignalSpy acknowledged(&panel, &PanelWidget::alertAcknowledged);
        QVERIFY(!panel.acknowledgeButton()->isEnabled());
        view->selectRow(0); // resolved: nothing to acknowledge
        QVERIFY(!panel.acknowledgeButton()->isEnabled());
        view->selectRow(2); // firing web1
        QVERIFY(panel.acknowledgeButton()->isEnabled());
        panel.acknowledgeButton()->click();
        QCOMPARE(acknowledged.size(), 1);
        QCOMPARE(acknowledged[0][0].toString(), u"cpu"_s);
        QCOMPARE(acknowledged[0][1].value<SeriesKey>(), cpuKey(u"web1"_s));
        QCOMPARE(acknowledged[0][2].toLongLong(), Base + 10'000);
        // The next refresh brings it back acknowledged: the button goes off, the row stays.
        data.alerts[1].acknowledged = true;
        panel.setData(data);
        QCOMPARE(view->selectionModel()->selectedRows().size(), 1);
        QVERIFY(!panel.acknowledgeButton()->isEnabled());
    }

    void timePanelShadesAndMarks()
    {
        TimeSeriesPanel panel(config(u"timeseries"_s));
        panel.resize(800, 300);
        panel.show();
        PanelData data = dataFor(u"timeseries"_s, 0, 120);
        PanelSeriesData s;
        s.seriesId = 1;
        s.info = { cpuKey(u"web1"_s), u"%"_s, u"cpu"_s, UseKind::Utilization, false };
        for (int t = 0; t <= 120; ++t)
            s.points.push_back({ Base + t * 1000, t >= 30 && t < 60 ? 95.0 : 20.0 });
        for (const auto &part : splitAtGaps(s.points))
            s.segmentStarts.push_back(part.first);
        data.series.append(s);
        data.alerts = { alertEvent(-100, AlertState::Firing, u"db"_s), // open before the range
                        alertEvent(30, AlertState::Firing, u"web1"_s),
                        alertEvent(60, AlertState::Resolved, u"web1"_s),
                        alertEvent(90, AlertState::Firing, u"web2"_s, AlertSeverity::Warning) };
        panel.setData(data);
        // Shaded: only the panel's own series; marked: every firing in the range.
        QCOMPARE(panel.alertMarks()->spans().size(), 1);
        QCOMPARE(panel.alertMarks()->spans()[0].startMs, Base + 30'000);
        QCOMPARE(panel.alertMarks()->spans()[0].endMs, Base + 60'000);
        QCOMPARE(panel.alertMarks()->marks().size(), 2);

        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCoreApplication::processEvents();
        const ZoomableChartView *view = panel.chartView();
        const QRectF plotArea = view->chart()->plotArea();
        const QRect inView = view->mapFromScene(plotArea).boundingRect();
        const QRect plot(view->viewport()->mapTo(&panel, inView.topLeft()), inView.size());
        const QImage image = panel.grab().toImage();
        const auto xAt = [&](double sec) { return plot.left() + int(sec / 120.0 * plot.width()); };
        // A column inside the span (below the 95 % line, above the 20 % one) is the
        // critical colour blended over the background; one outside is not.
        QColor band = TimeSeriesPanel::CriticalColor;
        const QColor background = image.pixelColor(xAt(15), plot.top() + plot.height() / 2);
        const double a = AlertMarksItem::BandAlpha / 255.0;
        const QColor blended(int(background.red() * (1 - a) + band.red() * a),
                             int(background.green() * (1 - a) + band.green() * a),
                             int(background.blue() * (1 - a) + band.blue() * a));
        const QImage inside
            = image.copy(xAt(45), plot.top() + plot.height() / 4, 1, plot.height() / 2);
        const QImage outside
            = image.copy(xAt(15), plot.top() + plot.height() / 4, 1, plot.height() / 2);
        QVERIFY2(countColor(inside, blended) > plot.height() / 3,
                 qPrintable(u"%1 of %2"_s.arg(countColor(inside, blended)).arg(plot.height() / 2)));
        // (Outside, only grid lines come near that colour.)
        QVERIFY(countColor(outside, blended) < plot.height() / 20);
        // The firing marks: a triangle at the top edge, in the severity's colour.
        const QImage top = image.copy(xAt(90) - 4, plot.top(), 9, 6);
        QVERIFY(countColor(top, TimeSeriesPanel::WarningColor) >= 5);
        // Hovering a mark tells which alert it is.
        const QPointF markInChart(plotArea.left() + 90.0 / 120.0 * plotArea.width(),
                                  plotArea.top() + 2);
        QCOMPARE(panel.hoverText(markInChart), u"web2: CPU 95 % (90 s)"_s);
    }

    void rulesDialogKeepsPackAndOwnRulesApart();

    void ruleEditorValidatesAndPreviews()
    {
        SeriesRegistry registry;
        LiveBuffers live;
        const int id
            = registry.idFor({ cpuKey(u"web1"_s), u"%"_s, u"cpu"_s, UseKind::Utilization, false });
        for (int s = 0; s < 120; ++s)
            live.append(id, { Base + s * 1000, s >= 30 && s < 60 ? 95.0 : 20.0 });
        const SeriesStore store(&live, nullptr);
        AlertRule rule;
        rule.id = u"cpu"_s;
        rule.name = u"CPU high"_s;
        rule.selector = { u"*"_s, u"host.cpu.utilization"_s, {} };
        rule.threshold = 90;
        AlertRuleEditor editor(rule, registry, &store, Base, Base + 119'000);
        QPushButton *ok = editor.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QSignalSpy ready(&editor, &AlertRuleEditor::previewReady);
        QVERIFY(ready.wait(5000));
        QCOMPARE(editor.previewText(),
                 u"Would have fired 1 time(s) on 1 of 1 series, 30s firing in all."_s);
        QCOMPARE(editor.preview().spans.size(), 1);

        // Typing a bad value disables OK and says which field and why.
        editor.line(u"threshold"_s)->setText(u"ninety"_s);
        QVERIFY(!ok->isEnabled());
        QCOMPARE(editor.problem(), u"threshold: must be a number"_s);
        editor.line(u"threshold"_s)->setText(u"90"_s);
        editor.line(u"recoveryThreshold"_s)->setText(u"99"_s);
        QVERIFY(!ok->isEnabled());
        QVERIFY2(
            editor.problem().startsWith(u"recoveryThreshold: must not be above the threshold 90"_s),
            qPrintable(editor.problem()));
        editor.line(u"recoveryThreshold"_s)->setText(u"80"_s);
        editor.line(u"window"_s)->setText(u"soon"_s);
        QCOMPARE(editor.problem(), u"window: must be a duration like 30s, 5m or 1h"_s);
        editor.line(u"window"_s)->setText(u"10s"_s);
        editor.line(u"for"_s)->setText(u"40s"_s); // longer than the 30 s above 90: never fires
        QVERIFY(ok->isEnabled());
        QVERIFY(editor.problem().isEmpty());
        QVERIFY(ready.wait(5000));
        QCOMPARE(editor.previewText(),
                 u"Would not have fired over the range (1 series watched)."_s);
        const AlertRule edited = editor.rule();
        QCOMPARE(edited.forMs, 40'000);
        QCOMPARE(edited.windowMs, 10'000);
        QCOMPARE(edited.recoveryThreshold, 80.0);
        editor.combo(u"severity"_s)->setCurrentText(u"info"_s);
        QCOMPARE(editor.rule().severity, AlertSeverity::Info);
    }
};

void TestAlertPanels::rulesDialogKeepsPackAndOwnRulesApart()
{
    SeriesRegistry registry;
    const auto pack = *loadAlertPack(u"use"_s, nullptr);
    AlertRule changed = pack[1];
    changed.threshold = 2;
    AlertRule own = pack[0];
    own.id = u"mine"_s;
    AlertRulesDialog dialog(u"use"_s, { changed, own }, registry, nullptr, 0, 1000);
    QTableWidget *table = dialog.table();
    const auto origin = [&](int row) { return table->item(row, 4)->text(); };
    QCOMPARE(table->rowCount(), pack.size() + 1);
    QCOMPARE(origin(0), u"pack"_s);
    QCOMPARE(origin(1), u"pack, changed"_s);
    QVERIFY(table->item(1, 2)->text().endsWith(u"> 2 for 2m"_s));
    QCOMPARE(origin(int(pack.size())), u"dashboard"_s);
    // A pack rule cannot be deleted from the pack: removing it stores it switched off.
    dialog.removeRow(0);
    QCOMPARE(origin(0), u"pack, off"_s);
    QCOMPARE(dialog.ownRules().size(), 3);
    QVERIFY(!dialog.ownRules().constLast().enabled);
    // Removing a changed pack rule goes back to the pack's version.
    dialog.removeRow(1);
    QCOMPARE(origin(1), u"pack"_s);
    QCOMPARE(table->item(1, 2)->text(), u"avg over 1m > 1 for 2m"_s);
    // An own rule is removed for good.
    dialog.removeRow(int(pack.size()));
    QCOMPARE(table->rowCount(), pack.size());
    QCOMPARE(dialog.ownRules().size(), 1); // the switched-off pack rule
    QCOMPARE(dialog.ownRules().constFirst().id, pack[0].id);
}

QTEST_MAIN(TestAlertPanels)
#include "tst_alertpanels.moc"
