// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix panel on screen: cell fills by level in a grab() (a 95 % CPU cell is
// red, a stale one half-greyed), the worst in range and since when, a click on a cell asks for a
// chart of exactly that cell's series, through the factory and the dashboard grid, and the chart
// window draws what it is given.
#include "charts/chartwindow.h"
#include "dashboardview.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "itemmodels/usematrixmodel.h"
#include "panels/panelfactory.h"
#include "panels/timeseriespanel.h"
#include "panels/usematrixpanel.h"

#include <QDateTime>
#include <QHeaderView>
#include <QPointer>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Now = 1'700'000'000'000;

struct Fixture
{
    SeriesRegistry registry;
    LiveBuffers live { 100 };
    SeriesStore store { &live, nullptr };

    void add(const QString &metric, const Labels &labels, const QString &unit,
             const QString &resource, UseKind kind, double value, qint64 lastMs = Now)
    {
        const int id = registry.idFor(
            SeriesInfo { { u"host"_s, metric, labels }, unit, resource, kind, false });
        for (int i = 9; i >= 0; --i)
            live.append(id, { lastMs - i * 1000, value });
    }

    Fixture()
    {
        add(u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } }, u"%"_s, u"cpu"_s,
            UseKind::Utilization, 95);
        add(u"host.cpu.psi"_s, { { u"kind"_s, u"some"_s } }, u"%"_s, u"cpu"_s, UseKind::Saturation,
            12);
        add(u"host.mem.utilization"_s, {}, u"%"_s, u"memory"_s, UseKind::Utilization, 40);
        add(u"host.disk.utilization"_s, { { u"device"_s, u"sda"_s } }, u"%"_s, u"disk:sda"_s,
            UseKind::Utilization, 20);
        add(u"host.disk.queue"_s, { { u"device"_s, u"sda"_s } }, QString(), u"disk:sda"_s,
            UseKind::Saturation, 0.4);
        add(u"host.disk.errors"_s, { { u"device"_s, u"sda"_s } }, u"1/s"_s, u"disk:sda"_s,
            UseKind::Errors, 0);
        // Stopped reporting a minute ago: grey.
        add(u"host.disk.queue.extra"_s, { { u"device"_s, u"sda"_s } }, QString(), u"disk:sda"_s,
            UseKind::Saturation, 9, Now - 60'000);
        add(u"host.mem.oom_kills"_s, {}, u"1/s"_s, u"memory"_s, UseKind::Errors, 0, Now - 60'000);
    }

    static DashboardPanel panel()
    {
        DashboardPanel p;
        p.id = u"use"_s;
        p.type = PanelType::UseMatrix;
        p.title = u"USE"_s;
        p.series = { { u"host"_s, u"*"_s, {} } };
        p.layout = { 0, 0, 12, 5 };
        return p;
    }
};

// The fill of a cell: a pixel just inside its top-left corner, clear of the text.
QColor cellFill(PanelWidget *panel, QTableView *view, int row, int column)
{
    const QImage image = panel->grab().toImage();
    const QRect rect = view->visualRect(view->model()->index(row, column));
    const QPoint inside = view->viewport()->mapTo(panel, rect.topLeft() + QPoint(3, 3));
    return image.pixelColor(inside * image.devicePixelRatio());
}

bool near(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green())
        + std::abs(a.blue() - b.blue())
        < 12;
}

} // namespace

class TestUseMatrixPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cellColours();
    void clickRequestsChart();
    void throughDashboardView();
    void chartWindow();
};

void TestUseMatrixPanel::cellColours()
{
    Fixture f;
    std::unique_ptr<PanelWidget> panel(createPanelWidget(Fixture::panel()));
    auto *matrix = qobject_cast<UseMatrixPanel *>(panel.get());
    QVERIFY(matrix); // the factory knows the type
    panel->resize(600, 300);
    panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(panel.get()));
    panel->setData(queryPanel(matrix->config(), f.registry, f.store, Now - 900'000, Now, 600));
    QTableView *view = matrix->tableView();
    QVERIFY(view->isVisible());
    QCOMPARE(view->model()->rowCount(), 3); // cpu, memory, disk:sda
    QCOMPARE(view->model()->headerData(2, Qt::Vertical).toString(), u"Disk sda"_s);

    const int U = int(UseColumn::Utilization), S = int(UseColumn::Saturation),
              E = int(UseColumn::Errors);
    const QColor red = UseMatrixPanel::levelColor(UseLevel::Critical);
    QVERIFY(red.red() > 200 && red.green() < 100);
    const auto hm
        = [](qint64 ms) { return QDateTime::fromMSecsSinceEpoch(ms).toString(u"HH:mm"_s); };
    // The extra queue (9, critical) stopped a minute ago: in the range, so the worst.
    const QString extraText = hm(Now - 69'000) == hm(Now - 60'000)
        ? QString(u"9 at "_s + hm(Now - 60'000))
        : u"9 "_s + hm(Now - 69'000) + u'–' + hm(Now - 60'000);
    const struct
    {
        int row, column;
        UseLevel level;
        bool stale;
        QString text;
    } cells[] = {
        { 0, U, UseLevel::Critical, false, u"95 % since "_s + hm(Now - 9000) }, // red
        { 0, S, UseLevel::Warning, false, u"12 % since "_s + hm(Now - 9000) }, // PSI: amber
        { 0, E, UseLevel::NotMeasured, false, QString() },
        { 1, U, UseLevel::Ok, false, u"40 %"_s },
        { 1, E, UseLevel::Ok, true, u"0 /s"_s }, // OOM kills a minute old: stale green
        { 2, S, UseLevel::Critical, false, extraText }, // worst in range, though gone
        { 2, E, UseLevel::Ok, false, u"0 /s"_s },
    };
    for (const auto &c : cells) {
        const QModelIndex index = view->model()->index(c.row, c.column);
        QCOMPARE(index.data().toString(), c.text);
        QCOMPARE(index.data(UseMatrixModel::LevelRole).toInt(), int(c.level));
        QCOMPARE(index.data(UseMatrixModel::StaleRole).toBool(), c.stale);
        const QColor expected = UseMatrixPanel::cellColor(c.level, c.stale);
        const QColor fill = cellFill(panel.get(), view, c.row, c.column);
        QVERIFY2(near(fill, expected),
                 qPrintable(u"cell %1,%2: %3, expected %4"_s.arg(c.row).arg(c.column).arg(
                     fill.name(), expected.name())));
    }
    // A stale cell's fill is neither its level's nor the no-sample grey.
    const QColor staleOk = UseMatrixPanel::cellColor(UseLevel::Ok, true);
    QVERIFY(!near(staleOk, UseMatrixPanel::levelColor(UseLevel::Ok)));
    QVERIFY(!near(staleOk, UseMatrixPanel::levelColor(UseLevel::Stale)));
    // Distinct fills for the five levels.
    QSet<QRgb> fills;
    for (UseLevel l : { UseLevel::NotMeasured, UseLevel::Stale, UseLevel::Ok, UseLevel::Warning,
                        UseLevel::Critical })
        fills.insert(UseMatrixPanel::levelColor(l).rgb());
    QCOMPARE(fills.size(), 5);

    // Cooling down: the range's worst stays red, over since the last hot sample...
    const auto cpuId
        = f.registry.find({ u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } });
    QVERIFY(cpuId);
    f.live.append(*cpuId, { Now + 1000, 10 });
    panel->setData(
        queryPanel(matrix->config(), f.registry, f.store, Now - 900'000, Now + 1000, 600));
    QVERIFY(
        near(cellFill(panel.get(), view, 0, U), UseMatrixPanel::levelColor(UseLevel::Critical)));
    QVERIFY(!view->model()->index(0, U).data().toString().contains(u"since"_s));
    QVERIFY(view->model()->index(0, U).data(UseMatrixModel::UntilRole).isValid());
    // ... and a range after it recolours the same cell.
    panel->setData(queryPanel(matrix->config(), f.registry, f.store, Now + 500, Now + 1000, 600));
    QVERIFY(near(cellFill(panel.get(), view, 0, U), UseMatrixPanel::levelColor(UseLevel::Ok)));
}

void TestUseMatrixPanel::clickRequestsChart()
{
    Fixture f;
    UseMatrixPanel panel(Fixture::panel());
    panel.resize(600, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setData(queryPanel(panel.config(), f.registry, f.store, Now - 900'000, Now, 600));
    QSignalSpy spy(&panel, &PanelWidget::chartRequested);
    QTableView *view = panel.tableView();

    const auto click = [&](int row, int column) {
        const QRect rect = view->visualRect(view->model()->index(row, column));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    };
    click(2, int(UseColumn::Saturation));
    QCOMPARE(spy.size(), 1);
    const auto chart = spy.takeFirst().at(0).value<DashboardPanel>();
    QCOMPARE(chart.type, PanelType::TimeSeries);
    QCOMPARE(chart.title, u"Disk sda — Saturation"_s);
    // Both queue series (in key order), the stale one too: the chart shows when it
    // stopped.
    QCOMPARE(chart.series,
             (QList<SeriesSelector> {
                 { u"host"_s, u"host.disk.queue.extra"_s, { { u"device"_s, u"sda"_s } } },
                 { u"host"_s, u"host.disk.queue"_s, { { u"device"_s, u"sda"_s } } } }));
    QCOMPARE(chart.thresholds, defaultUseThresholds(UseColumn::Saturation, QString()));

    click(0, int(UseColumn::Utilization));
    QCOMPARE(spy.size(), 1);
    const auto cpu = spy.takeFirst().at(0).value<DashboardPanel>();
    QCOMPARE(cpu.title, u"CPU — Utilization"_s);
    QCOMPARE(cpu.unit, u"%"_s);
    QCOMPARE(cpu.series,
             (QList<SeriesSelector> {
                 { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } } }));
    QCOMPARE(cpu.thresholds.warning, 70.0);
    QCOMPARE(cpu.thresholds.critical, 90.0);

    // Nothing measured there: nothing to chart.
    click(0, int(UseColumn::Errors));
    QCOMPARE(spy.size(), 0);
}

void TestUseMatrixPanel::throughDashboardView()
{
    Fixture f;
    Dashboard dashboard;
    dashboard.panels = { Fixture::panel() };
    DashboardView grid(&f.registry);
    grid.setStore(&f.store);
    grid.setDashboard(dashboard);
    grid.resize(grid.preferredSize(800));
    grid.show();
    QVERIFY(QTest::qWaitForWindowExposed(&grid));
    grid.refreshNow(Now - 900'000, Now);
    auto *matrix = qobject_cast<UseMatrixPanel *>(grid.panels().constFirst());
    QVERIFY(matrix);
    QCOMPARE(matrix->model()->rowCount(), 3);
    QSignalSpy spy(&grid, &DashboardView::chartRequested);
    QTableView *view = matrix->tableView();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(1, 0)).center());
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.constFirst().at(0).value<DashboardPanel>().title, u"Memory — Utilization"_s);
    // The CSV export sees the cells too.
    const QList<PanelData> all = grid.queryAll(Now - 900'000, Now);
    QCOMPARE(all.constFirst().as<UseMatrix>().rows.size(), 3);
}

void TestUseMatrixPanel::chartWindow()
{
    Fixture f;
    UseMatrixPanel panel(Fixture::panel());
    panel.setData(queryPanel(panel.config(), f.registry, f.store, Now - 900'000, Now, 600));
    const DashboardPanel chart
        = useCellChart(panel.config(), panel.model()->matrix().rows.at(2), UseColumn::Saturation);
    QPointer<ChartWindow> window = new ChartWindow(chart);
    QVERIFY(!window->isModal());
    QCOMPARE(window->windowTitle(), u"Disk sda — Saturation"_s);
    QCOMPARE(window->chart(), chart);
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    window->refreshNow(f.registry, f.store, Now - 900'000, Now);
    const PanelData &shown = window->panel()->data();
    QCOMPARE(shown.series.size(), 2);
    for (const PanelSeriesData &s : shown.series)
        QCOMPARE(s.points.size(), size_t(10));
    // setData from the owner's own query works the same.
    window->setData(queryPanel(chart, f.registry, f.store, Now - 5000, Now, window->columns()));
    QCOMPARE(window->panel()->data().fromMs, Now - 5000);
    // The queue's last 6 s; the extra series stopped a minute ago.
    QCOMPARE(window->panel()->data().series.at(1).points.size(), size_t(6));
    QCOMPARE(window->panel()->data().series.at(0).points.size(), size_t(0));
    window->close(); // deletes itself
    QTRY_VERIFY(window.isNull());
}

QTEST_MAIN(TestUseMatrixPanel)
#include "tst_usematrixpanel.moc"
