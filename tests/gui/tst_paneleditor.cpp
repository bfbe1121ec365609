// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The panel editor under Xvfb: typing into the picker's filter, choosing series with
// Enter and double click, title and thresholds reaching the returned panel, OK
// disabled (with the reason) while the panel is unusable; the dashboard editor's
// Remove, resize and Add… changing the dashboard it returns.
#include "document/dashboard.h"
#include "document/dashboardedit.h"
#include "editors/dashboardeditor.h"
#include "editors/paneleditor.h"
#include "editors/seriespicker.h"
#include "engine/runtime/seriesregistry.h"
#include "itemmodels/seriespickermodel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QTimer>
#include <functional>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

void registerSeries(SeriesRegistry &registry)
{
    const auto add = [&](const QString &metric, const Labels &labels) {
        registry.idFor(
            { { u"host"_s, metric, labels }, u"%"_s, u"cpu"_s, UseKind::Utilization, false });
    };
    add(u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } });
    add(u"host.cpu.utilization"_s, { { u"cpu"_s, u"0"_s } });
    add(u"host.mem.utilization"_s, {});
    add(u"host.cpu.saturation"_s, {});
}

template<typename T> T *child(QWidget *parent, const QString &name)
{
    T *found = parent->findChild<T *>(name);
    if (!found)
        qFatal("no child %s", qPrintable(name));
    return found;
}

QPushButton *okButton(QDialog *dialog)
{
    return dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}

// OK, or Cancel when OK is disabled (the dialog says why), so a modal run ends.
void clickOk(QDialog *dialog)
{
    okButton(dialog)->click();
    if (dialog->isVisible()) {
        qWarning("OK is disabled: %s",
                 qPrintable(dialog->findChild<QLabel *>(u"message"_s)->text()));
        dialog->reject();
    }
}

void typeInto(QLineEdit *edit, const QString &text)
{
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

// Runs `action` on the next modal dialog of type T once it is shown (a nested exec()).
template<typename T> void whenModal(const std::function<void(T *)> &action)
{
    auto *timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, action] {
        if (auto *dialog = qobject_cast<T *>(QApplication::activeModalWidget())) {
            timer->stop();
            timer->deleteLater();
            action(dialog);
        }
    });
    timer->start();
}

DashboardPanel cpuPanel()
{
    DashboardPanel panel;
    panel.id = u"p1"_s;
    panel.type = PanelType::TimeSeries;
    panel.layout = { 6, 2, 6, 3 };
    panel.options = QJsonObject { { u"stacked"_s, true } };
    return panel;
}

} // namespace

class TestPanelEditor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pickSeriesTitleAndThresholds();
    void inconsistentInputDisablesOk();
    void unchangedPanelIsNoEdit();
    void queryPanelsAreEdited();
    void dashboardEditorRemoveAndResize();
    void dashboardEditorAddsPanel();
};

void TestPanelEditor::pickSeriesTitleAndThresholds()
{
    SeriesRegistry registry;
    registerSeries(registry);
    PanelEditor editor(cpuPanel(), registry);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto *message = child<QLabel>(&editor, u"message"_s);
    // A new panel has no series yet: OK waits for one, and says so.
    QVERIFY(!okButton(&editor)->isEnabled());
    QVERIFY(message->isVisible());
    QVERIFY2(message->text().contains(u"series"_s), qPrintable(message->text()));
    // An alert list reads no series: it may have none.
    auto *type = child<QComboBox>(&editor, u"type"_s);
    type->setCurrentText(u"alerts"_s);
    QVERIFY(okButton(&editor)->isEnabled());
    type->setCurrentText(u"timeseries"_s);
    QVERIFY(!okButton(&editor)->isEnabled());

    auto *filter = child<QLineEdit>(&editor, u"seriesFilter"_s);
    auto *list = child<QListView>(&editor, u"seriesList"_s);
    QTest::keyClicks(filter, u"cpu all"_s);
    QCOMPARE(list->model()->rowCount(), 1);
    QCOMPARE(list->model()->index(0, 0).data().toString(),
             u"host / host.cpu.utilization / cpu=all"_s);
    QTest::keyClick(filter, Qt::Key_Return); // chooses the match, does not close
    QVERIFY(editor.isVisible());
    QCOMPARE(editor.series().size(), 1);
    QVERIFY(okButton(&editor)->isEnabled());
    QVERIFY(!message->isVisible());

    typeInto(filter, u"mem"_s);
    QCOMPARE(list->model()->rowCount(), 1);
    // The list lays its rows out lazily; wait until the match is where it is drawn.
    const QModelIndex match = list->model()->index(0, 0);
    QTRY_COMPARE(list->indexAt(list->visualRect(match).center()), match);
    const QPoint center = list->visualRect(match).center();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, center);
    QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, center);
    QCOMPARE(editor.series().size(), 2);
    QTest::keyClick(filter, Qt::Key_Return); // already on the panel: not added twice
    QCOMPARE(editor.series().size(), 2);
    QCOMPARE(child<QListWidget>(&editor, u"panelSeries"_s)->count(), 2);

    QTest::keyClicks(child<QLineEdit>(&editor, u"title"_s), u"CPU and memory"_s);
    QTest::keyClicks(child<QLineEdit>(&editor, u"warning"_s), u"80"_s);
    QTest::keyClicks(child<QLineEdit>(&editor, u"critical"_s), u"95.5"_s);
    QVERIFY(okButton(&editor)->isEnabled());
    QTest::mouseClick(okButton(&editor), Qt::LeftButton);
    QCOMPARE(editor.result(), int(QDialog::Accepted));

    const DashboardPanel panel = editor.panel();
    QCOMPARE(panel.title, u"CPU and memory"_s);
    QCOMPARE(panel.thresholds, (PanelThresholds { 80, 95.5, true }));
    QCOMPARE(panel.series,
             (QList<SeriesSelector> {
                 { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } },
                 { u"host"_s, u"host.mem.utilization"_s, {} } }));
    // What the editor does not show is kept.
    QCOMPARE(panel.id, u"p1"_s);
    QCOMPARE(panel.layout, cpuPanel().layout);
    QCOMPARE(panel.options, cpuPanel().options);
    QCOMPARE(panel.type, PanelType::TimeSeries);
}

void TestPanelEditor::inconsistentInputDisablesOk()
{
    SeriesRegistry registry;
    registerSeries(registry);
    DashboardPanel start = cpuPanel();
    start.series = { { u"host"_s, u"host.cpu.*"_s, {} } };
    PanelEditor editor(start, registry);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto *warning = child<QLineEdit>(&editor, u"warning"_s);
    auto *critical = child<QLineEdit>(&editor, u"critical"_s);
    auto *message = child<QLabel>(&editor, u"message"_s);
    QVERIFY(okButton(&editor)->isEnabled());

    QTest::keyClicks(warning, u"90"_s);
    QTest::keyClicks(critical, u"80"_s);
    QVERIFY(!okButton(&editor)->isEnabled());
    QVERIFY2(message->text().contains(u"below warning"_s), qPrintable(message->text()));
    // Enter in a field does not get past the check either.
    QTest::keyClick(critical, Qt::Key_Return);
    QVERIFY(editor.isVisible());

    // When low values are the bad ones, critical below warning is right.
    child<QCheckBox>(&editor, u"higherIsWorse"_s)->setChecked(false);
    QVERIFY(okButton(&editor)->isEnabled());
    QCOMPARE(editor.panel().thresholds, (PanelThresholds { 90, 80, false }));

    typeInto(critical, u"8o"_s);
    QVERIFY(!okButton(&editor)->isEnabled());
    QVERIFY2(message->text().contains(u"not a number"_s), qPrintable(message->text()));
    typeInto(critical, QString());
    QVERIFY(okButton(&editor)->isEnabled());
    QVERIFY(qIsNaN(editor.panel().thresholds.critical)); // empty means unset
    QCOMPARE(editor.panel().thresholds.warning, 90.0);

    // A legend template is checked as the file reader checks it.
    auto *legend = child<QLineEdit>(&editor, u"legend"_s);
    typeInto(legend, u"{cpu"_s);
    QVERIFY(!okButton(&editor)->isEnabled());
    QVERIFY2(message->text().contains(u"Legend: '{' at character 1 is not closed"_s),
             qPrintable(message->text()));
    typeInto(legend, u"{cpu} {metric}"_s);
    QVERIFY(okButton(&editor)->isEnabled());
    QCOMPARE(editor.panel().legend, u"{cpu} {metric}"_s);

    // Removing the last series disables OK again.
    auto *series = child<QListWidget>(&editor, u"panelSeries"_s);
    series->setCurrentRow(0);
    QTest::mouseClick(child<QPushButton>(&editor, u"removeSeries"_s), Qt::LeftButton);
    QCOMPARE(series->count(), 0);
    QVERIFY(editor.panel().series.isEmpty());
    QVERIFY(!okButton(&editor)->isEnabled());
    QVERIFY(editor.problem().contains(u"series"_s));
}

void TestPanelEditor::unchangedPanelIsNoEdit()
{
    SeriesRegistry registry;
    registerSeries(registry);
    DashboardPanel start = cpuPanel();
    start.title = u"CPU"_s;
    start.series = { { u"host"_s, u"host.cpu.*"_s, {} } };
    start.thresholds = { 70, 90, true };
    Dashboard dashboard;
    DashboardSource host;
    host.id = u"host"_s;
    host.plugin = u"host"_s;
    dashboard.sources = { host };
    dashboard.panels = { start };
    whenModal<PanelEditor>([](PanelEditor *editor) { clickOk(editor); });
    QCOMPARE(editPanel(nullptr, dashboard, start, registry), std::nullopt);

    whenModal<PanelEditor>([](PanelEditor *editor) {
        QTest::keyClicks(child<QLineEdit>(editor, u"unit"_s), u"%"_s);
        clickOk(editor);
    });
    const std::optional<DashboardPanel> edited = editPanel(nullptr, dashboard, start, registry);
    QVERIFY(edited);
    QCOMPARE(edited->unit, u"%"_s);
    QCOMPARE(edited->thresholds, start.thresholds); // shown and read back unchanged
}

// A PromQL panel: the query and its engine are edited (the engines offered are the
// dashboard's promql sources); a panel reads series or a query, not both; only
// query-reading types take one; a table without a query is refused; options do not
// follow the panel to another type; a fleet USE matrix needs no series; and what the
// reader would refuse in the dashboard is said in its words.
void TestPanelEditor::queryPanelsAreEdited()
{
    SeriesRegistry registry;
    registerSeries(registry);
    Dashboard dashboard;
    const auto source = [](const QString &id, const QString &plugin) {
        DashboardSource one;
        one.id = id;
        one.plugin = plugin;
        one.config = { { u"url"_s, u"http://127.0.0.1:9090"_s } };
        return one;
    };
    dashboard.sources = { source(u"host"_s, u"host"_s), source(u"prom"_s, u"promql"_s),
                          source(u"vm"_s, u"promql"_s) };
    DashboardPanel start = cpuPanel();
    start.type = PanelType::Table;
    start.series.clear();
    start.query = u"topk(10, rate(node_network_receive_bytes_total[1m]))"_s;
    start.querySource = u"prom"_s;
    start.options
        = { { u"columns"_s, QJsonArray { u"instance"_s, u"device"_s } }, { u"limit"_s, 10 } };
    dashboard.panels = { start };
    PanelEditor editor(start, registry);
    editor.setDashboard(dashboard);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto *type = child<QComboBox>(&editor, u"type"_s);
    auto *query = child<QPlainTextEdit>(&editor, u"query"_s);
    auto *engine = child<QComboBox>(&editor, u"querySource"_s);
    QVERIFY2(editor.problem().isEmpty(), qPrintable(editor.problem()));
    QCOMPARE(query->toPlainText(), start.query);
    QCOMPARE(engine->count(), 2); // the promql sources, not the host source
    QVERIFY(engine->isEnabled());
    QCOMPARE(engine->currentText(), u"prom"_s);
    QCOMPARE(editor.panel(), start); // unchanged: edits nothing

    engine->setCurrentIndex(engine->findData(u"vm"_s));
    query->setPlainText(u"  topk(5, up)\n"_s);
    QCOMPARE(editor.panel().querySource, u"vm"_s);
    QCOMPARE(editor.panel().query, u"topk(5, up)"_s);
    QCOMPARE(editor.panel().options, start.options);
    QVERIFY(okButton(&editor)->isEnabled());

    query->clear();
    QVERIFY(!okButton(&editor)->isEnabled());
    QVERIFY2(editor.problem().contains(u"instant query"_s), qPrintable(editor.problem()));
    query->setPlainText(u"up"_s);
    QVERIFY(okButton(&editor)->isEnabled());

    type->setCurrentIndex(type->findData(int(PanelType::ShardHistogram)));
    QVERIFY(!okButton(&editor)->isEnabled());
    QVERIFY2(editor.problem().contains(u"timeseries, heatmap, table or stat"_s),
             qPrintable(editor.problem()));
    // A timeseries reads the query too; the table's columns and limit stay behind.
    type->setCurrentIndex(type->findData(int(PanelType::TimeSeries)));
    QVERIFY2(editor.problem().isEmpty(), qPrintable(editor.problem()));
    QCOMPARE(editor.panel().type, PanelType::TimeSeries);
    QVERIFY(editor.panel().options.isEmpty());
    editor.addSeries({ { u"host"_s, u"host.cpu.*"_s, {} } });
    QVERIFY2(editor.problem().contains(u"not both"_s), qPrintable(editor.problem()));
    query->clear(); // series instead of a query: no engine is named
    QVERIFY2(editor.problem().isEmpty(), qPrintable(editor.problem()));
    QVERIFY(editor.panel().querySource.isEmpty());

    // The dashboard's only engine stays unnamed, as the file had it.
    DashboardPanel unnamed = start;
    unnamed.querySource.clear();
    Dashboard oneEngine = dashboard;
    oneEngine.sources.removeLast();
    oneEngine.panels = { unnamed };
    PanelEditor single(unnamed, registry);
    single.setDashboard(oneEngine);
    QVERIFY(!child<QComboBox>(&single, u"querySource"_s)->isEnabled());
    QVERIFY2(single.problem().isEmpty(), qPrintable(single.problem()));
    QCOMPARE(single.panel(), unnamed);

    // A query the dashboard has no engine for: the reader's words.
    Dashboard noEngine = oneEngine;
    noEngine.sources.removeLast();
    PanelEditor orphan(unnamed, registry);
    orphan.setDashboard(noEngine);
    QVERIFY2(orphan.problem().contains(u"Would not load back: panels[0].query: needs a source "
                                       "with plugin \"promql\""_s),
             qPrintable(orphan.problem()));

    // A fleet USE matrix reads its options' queries: no series needed.
    DashboardPanel fleet = cpuPanel();
    fleet.type = PanelType::UseMatrix;
    fleet.series.clear();
    fleet.options = { { u"queries"_s,
                        QJsonArray { QJsonObject { { u"query"_s, u"up"_s },
                                                   { u"resource"_s, u"exporter"_s },
                                                   { u"use"_s, u"errors"_s } } } } };
    PanelEditor matrix(fleet, registry);
    QVERIFY2(matrix.problem().isEmpty(), qPrintable(matrix.problem()));
    QCOMPARE(matrix.panel().options, fleet.options);
}

void TestPanelEditor::dashboardEditorRemoveAndResize()
{
    SeriesRegistry registry;
    Dashboard dashboard;
    for (const auto &[id, layout] : { std::pair { u"a"_s, PanelLayout { 0, 0, 6, 4 } },
                                      std::pair { u"b"_s, PanelLayout { 6, 0, 6, 4 } },
                                      std::pair { u"c"_s, PanelLayout { 0, 4, 12, 2 } } }) {
        DashboardPanel panel = cpuPanel();
        panel.id = id;
        panel.title = id.toUpper();
        panel.layout = layout;
        dashboard.panels.append(panel);
    }
    DashboardEditor editor(dashboard, registry);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    auto *list = child<QListWidget>(&editor, u"panels"_s);
    QCOMPARE(list->count(), 3);
    QCOMPARE(editor.currentPanelId(), u"a"_s);
    QCOMPARE(child<QSpinBox>(&editor, u"w"_s)->value(), 6);

    list->setCurrentRow(1);
    QCOMPARE(editor.currentPanelId(), u"b"_s);
    QTest::mouseClick(child<QPushButton>(&editor, u"removePanel"_s), Qt::LeftButton);
    QCOMPARE(list->count(), 2);
    QVERIFY(!editor.dashboard().panel(u"b"_s));
    QCOMPARE(editor.currentPanelId(), u"c"_s); // the next one is selected

    list->setCurrentRow(0);
    auto *h = child<QSpinBox>(&editor, u"h"_s);
    h->setFocus();
    h->selectAll();
    QTest::keyClicks(h, u"5"_s);
    QCOMPARE(editor.dashboard().panel(u"a"_s)->layout.h, 4); // applied on Enter, not per key
    QTest::keyClick(h, Qt::Key_Return);
    QVERIFY(editor.isVisible());
    QCOMPARE(editor.dashboard().panel(u"a"_s)->layout, (PanelLayout { 0, 0, 6, 5 }));
    QCOMPARE(editor.dashboard().panel(u"c"_s)->layout, (PanelLayout { 0, 5, 12, 2 })); // pushed
    // Wider than the grid allows at x = 0 is clamped, and the spin box shows it.
    child<QSpinBox>(&editor, u"x"_s)->setValue(4);
    QCOMPARE(editor.dashboard().panel(u"a"_s)->layout, (PanelLayout { 4, 0, 6, 5 }));
    child<QSpinBox>(&editor, u"w"_s)->setValue(12);
    QCOMPARE(editor.dashboard().panel(u"a"_s)->layout, (PanelLayout { 4, 0, 8, 5 }));
    QCOMPARE(child<QSpinBox>(&editor, u"w"_s)->value(), 8);

    QTest::mouseClick(child<QPushButton>(&editor, u"panelDown"_s), Qt::LeftButton);
    QCOMPARE(editor.dashboard().panels[1].id, u"a"_s);
    QCOMPARE(editor.currentPanelId(), u"a"_s);

    QTest::mouseClick(okButton(&editor), Qt::LeftButton);
    QCOMPARE(editor.result(), int(QDialog::Accepted));
    QCOMPARE(editor.dashboard().panels.size(), 2);
}

void TestPanelEditor::dashboardEditorAddsPanel()
{
    SeriesRegistry registry;
    registerSeries(registry);
    Dashboard dashboard;
    DashboardPanel existing = cpuPanel();
    existing.title = u"Load"_s;
    existing.layout = { 0, 0, 12, 3 };
    existing.series = { { u"host"_s, u"host.cpu.*"_s, {} } };
    dashboard.panels = { existing };
    DashboardSource host;
    host.id = u"host"_s;
    host.plugin = u"host"_s;
    dashboard.sources = { host };

    DashboardEditor editor(dashboard, registry);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    bool ran = false;
    whenModal<PanelEditor>([&ran](PanelEditor *panelEditor) {
        QTest::keyClicks(child<QLineEdit>(panelEditor, u"seriesFilter"_s), u"saturation"_s);
        QTest::keyClick(child<QLineEdit>(panelEditor, u"seriesFilter"_s), Qt::Key_Return);
        QTest::keyClicks(child<QLineEdit>(panelEditor, u"title"_s), u"CPU saturation"_s);
        ran = true;
        clickOk(panelEditor);
    });
    QTest::mouseClick(child<QPushButton>(&editor, u"addPanel"_s), Qt::LeftButton);
    QVERIFY(ran);
    QCOMPARE(editor.dashboard().panels.size(), 2);
    const DashboardPanel &added = editor.dashboard().panels[1];
    QCOMPARE(added.id, u"cpu-saturation"_s);
    QCOMPARE(added.layout, (PanelLayout { 0, 3, 6, 4 })); // below the others
    QCOMPARE(added.series, (QList<SeriesSelector> { { u"host"_s, u"host.cpu.saturation"_s, {} } }));
    QCOMPARE(editor.currentPanelId(), u"cpu-saturation"_s);
}

QTEST_MAIN(TestPanelEditor)
#include "tst_paneleditor.moc"
