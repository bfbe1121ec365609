// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/zoomablechartview.h"
#include "dashboardview.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "panels/alertlistpanel.h"
#include "panels/blockingtreepanel.h"
#include "panels/heatmappanel.h"
#include "panels/panelfactory.h"
#include "panels/shardhistogrampanel.h"
#include "panels/shardtablepanel.h"
#include "panels/statpanel.h"
#include "panels/tablepanel.h"
#include "panels/timeseriespanel.h"
#include "panels/usematrixpanel.h"
#include "query/csvexport.h"
#include "sectionheader.h"

#include <QChart>
#include <QDateTime>
#include <QHash>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>
#include <QToolButton>
#include <memory>

using namespace Qt::StringLiterals;

using namespace Headroom;

class TestDashboardView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void placesPanelsAndRefreshes();
    void linkedRangeCrosshairAndHighlight();
    void compareModeShiftsTheEarlierRange();
    void everyTypeHasItsWidget();
    void sectionsFoldAndCloseUp();
};

namespace {
// Two CPU series over 2 h at 1 s, the second hour at twice the first's level; and two
// side-by-side time panels over them.
struct TwoPanels
{
    SeriesRegistry registry;
    LiveBuffers live { 8000 };
    SeriesStore store { &live, nullptr };
    Dashboard dashboard;
    int cpu0 = 0, cpu1 = 0;

    TwoPanels()
    {
        for (const QString &cpu : { u"cpu0"_s, u"cpu1"_s }) {
            const int id = registry.idFor(
                SeriesInfo { { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, cpu } } },
                             u"%"_s,
                             u"cpu"_s,
                             UseKind::Utilization,
                             false });
            (cpu == u"cpu0"_s ? cpu0 : cpu1) = id;
            for (qint64 t = 0; t < 7200; ++t)
                live.append(id, { Base + t * 1000, t < 3600 ? 10.0 : 20.0 });
        }
        DashboardPanel a;
        a.id = u"a"_s;
        a.type = PanelType::TimeSeries;
        a.series = { { u"host"_s, u"host.cpu.utilization"_s, {} } };
        a.layout = { 0, 0, 6, 4 };
        DashboardPanel b = a;
        b.id = u"b"_s;
        b.series = { { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"cpu1"_s } } } };
        b.layout = { 6, 0, 6, 4 };
        dashboard.panels = { a, b };
    }
    static constexpr qint64 Base = 1'700'000'000'000;
};
} // namespace

void TestDashboardView::placesPanelsAndRefreshes()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int cpu = registry.idFor(SeriesInfo { { u"host"_s, u"host.cpu.utilization"_s, {} },
                                                u"%"_s,
                                                u"cpu"_s,
                                                UseKind::Utilization,
                                                false });
    const int mem = registry.idFor(SeriesInfo { { u"host"_s, u"host.mem.utilization"_s, {} },
                                                u"%"_s,
                                                u"memory"_s,
                                                UseKind::Utilization,
                                                false });
    for (int i = 0; i < 100; ++i) {
        live.append(cpu, { i * 1000LL, 10.0 + i % 5 });
        live.append(mem, { i * 1000LL, 50.0 });
    }
    const SeriesStore store(&live, nullptr);

    Dashboard dashboard;
    DashboardPanel a;
    a.id = u"cpu"_s;
    a.type = PanelType::TimeSeries;
    a.series = { { u"host"_s, u"host.cpu.*"_s, {} } };
    a.layout = { 0, 0, 6, 4 };
    DashboardPanel b = a;
    b.id = u"mem"_s;
    b.series = { { u"host"_s, u"host.mem.utilization"_s, {} } };
    b.layout = { 6, 0, 6, 4 };
    DashboardPanel c = b;
    c.id = u"wide"_s;
    c.layout = { 0, 4, 12, 2 };
    dashboard.panels = { a, b, c };

    DashboardView view(&registry);
    view.setStore(&store);
    view.setDashboard(dashboard);
    view.resize(view.preferredSize(1200));
    QCOMPARE(view.preferredSize(1200).height(), 6 * DashboardView::RowUnitPx + 8);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.panels().size(), 3);
    // Side by side: same top, the second to the right of the first; the third below, full width.
    QCOMPARE(view.panels()[0]->y(), view.panels()[1]->y());
    QVERIFY(view.panels()[1]->x() > view.panels()[0]->x() + view.panels()[0]->width() / 2);
    QVERIFY(view.panels()[2]->y() > view.panels()[0]->y());
    QVERIFY(view.panels()[2]->width() > view.panels()[0]->width() * 3 / 2);

    QSignalSpy refreshed(&view, &DashboardView::refreshed);
    view.refresh(0, 99'000); // asynchronous: pool, then queued back
    view.refresh(0, 99'000); // coalesced while the first runs
    QTRY_VERIFY(refreshed.count() >= 1);
    QCOMPARE(view.panels()[0]->data().series.size(), 1);
    QCOMPARE(view.panels()[0]->data().series[0].points.size(), size_t(100));
    QCOMPARE(view.panels()[1]->data().series[0].points.front().value, 50.0);

    const QList<PanelData> all = view.queryAll(0, 49'000);
    QCOMPARE(all.size(), 3);
    QCOMPARE(all[0].series[0].points.size(), size_t(50));
}

// Two sections under a top panel: each has a bar above its first row; a click on the
// bar folds its panels away, the rows close up (the panels below move up by exactly
// the folded panel's height and one spacing), the preferred height shrinks by those
// rows, and the signal says which section.
void TestDashboardView::sectionsFoldAndCloseUp()
{
    TwoPanels data;
    Dashboard dashboard = data.dashboard; // a at rows 0-3, b beside it
    DashboardPanel c = dashboard.panels.at(0);
    c.id = u"c"_s;
    c.layout = { 0, 4, 12, 3 }; // section "Memory & disk", rows 4-6
    DashboardPanel d = c;
    d.id = u"d"_s;
    d.layout = { 0, 7, 12, 2 }; // section "Network", rows 7-8
    dashboard.panels += { c, d };
    dashboard.sections = { { u"Memory & disk"_s, 4, false }, { u"Network"_s, 7, false } };

    DashboardView view(&data.registry);
    view.setStore(&data.store);
    view.setDashboard(dashboard);
    const int open = 9 * DashboardView::RowUnitPx + 2 * DashboardView::SectionHeaderPx + 8;
    QCOMPARE(view.preferredSize(1200).height(), open);
    view.resize(view.preferredSize(1200));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.sectionHeaders().size(), 2);
    SectionHeader *memory = view.sectionHeaders().at(0);
    QCOMPARE(memory->text(), u"Memory & disk"_s); // "&" is no mnemonic
    // Each bar lies between the panels above its section and its first panel.
    PanelWidget *a = view.panels().at(0), *pc = view.panels().at(2), *pd = view.panels().at(3);
    QVERIFY(memory->y() >= a->y() + a->height());
    QVERIFY(memory->y() + memory->height() <= pc->y());
    QVERIFY(view.sectionHeaders().at(1)->y() >= pc->y() + pc->height());
    const int dBefore = pd->y();
    const int cHeight = pc->height();
    const int dHeight = pd->height();

    QSignalSpy toggled(&view, &DashboardView::sectionToggled);
    QTest::mouseClick(memory->button(), Qt::LeftButton);
    QCOMPARE(toggled.size(), 1);
    QCOMPARE(toggled.at(0).at(0).toInt(), 0);
    QCOMPARE(toggled.at(0).at(1).toBool(), true);
    QVERIFY(memory->isCollapsed());
    QCOMPARE(memory->text(), u"Memory & disk  (1 panel)"_s);
    QVERIFY(!pc->isVisible());
    QVERIFY(a->isVisible() && pd->isVisible());
    QCOMPARE(view.preferredSize(1200).height(), open - 3 * DashboardView::RowUnitPx);
    view.resize(view.preferredSize(1200));
    // Up by the folded panel and the spacing below it, nothing more, nothing less.
    QTRY_COMPARE(pd->y(), dBefore - cHeight - DashboardView::GridSpacingPx);
    QCOMPARE(pd->height(), dHeight); // moved, not squeezed

    // Unfolded from code (a dashboard saved folded opens folded; see setDashboard).
    view.setSectionCollapsed(0, false);
    view.resize(view.preferredSize(1200));
    QVERIFY(pc->isVisible());
    QTRY_COMPARE(pd->y(), dBefore);
    dashboard.sections[1].collapsed = true;
    view.setDashboard(dashboard);
    QVERIFY(view.sectionHeaders().at(1)->isCollapsed());
    QVERIFY(!view.panels().at(3)->isVisible());
}

void TestDashboardView::linkedRangeCrosshairAndHighlight()
{
    TwoPanels fixture;
    DashboardView view(&fixture.registry);
    view.setStore(&fixture.store);
    view.setDashboard(fixture.dashboard);
    view.resize(view.preferredSize(1200));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const qint64 from = TwoPanels::Base, to = TwoPanels::Base + 7'200'000;
    view.refreshNow(from, to);
    QCoreApplication::processEvents();
    auto *a = qobject_cast<TimeSeriesPanel *>(view.panels()[0]);
    auto *b = qobject_cast<TimeSeriesPanel *>(view.panels()[1]);
    QVERIFY(a && b);

    // Drag-zoom on the first panel: the view reports the range; applying it (what the
    // main window does) gives every panel the same one.
    QSignalSpy zoom(&view, &DashboardView::rangeSelected);
    QWidget *viewport = a->chartView()->viewport();
    const QRectF plot = a->chartView()->chart()->plotArea();
    const int y = int(plot.center().y());
    QTest::mousePress(viewport, Qt::LeftButton, {}, QPoint(int(plot.left() + plot.width() / 2), y));
    QTest::mouseMove(viewport, QPoint(int(plot.right() - 2), y));
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, QPoint(int(plot.right() - 2), y));
    QCOMPARE(zoom.count(), 1);
    const qint64 zoomFrom = zoom.at(0).at(0).toLongLong(), zoomTo = zoom.at(0).at(1).toLongLong();
    QVERIFY2(std::abs(zoomFrom - (from + 3'600'000)) < 60'000,
             qPrintable(QString::number(zoomFrom - from)));
    view.refreshNow(zoomFrom, zoomTo);
    for (PanelWidget *panel : view.panels()) {
        QCOMPARE(panel->data().fromMs, zoomFrom);
        QCOMPARE(panel->data().toMs, zoomTo);
    }
    // Only what lies in the zoomed range is in panel b's data.
    QVERIFY(b->data().series[0].points.front().tsMs >= zoomFrom);
    QVERIFY(b->data().series[0].points.back().tsMs <= zoomTo);

    // The crosshair: the mouse over panel a marks the same instant on panel b.
    QCoreApplication::processEvents();
    const QRectF plotB = b->chartView()->chart()->plotArea();
    QTest::mouseMove(viewport, QPoint(int(plot.left() + plot.width() / 4), y));
    QTRY_VERIFY(view.crosshair() > 0);
    const qint64 instant = view.crosshair();
    QVERIFY(std::abs(instant - (zoomFrom + (zoomTo - zoomFrom) / 4)) < (zoomTo - zoomFrom) / 50);
    QVERIFY(b->chartView()->crosshairVisible());
    QVERIFY(std::abs(b->chartView()->crosshairX() - (plotB.left() + plotB.width() / 4)) <= 3);
    QCOMPARE(b->chartView()->crosshair(), instant);
    view.setCrosshair(-1);
    QVERIFY(!b->chartView()->crosshairVisible());

    // A highlight from any panel reaches all of them, also ones created later.
    view.setHighlight({ { u"cpu"_s, u"cpu1"_s } });
    QVERIFY(a->isHighlighted(a->data().series[1].info.key));
    QVERIFY(!a->isHighlighted(a->data().series[0].info.key));
    view.setDashboard(fixture.dashboard);
    view.refreshNow(zoomFrom, zoomTo);
    auto *again = qobject_cast<TimeSeriesPanel *>(view.panels()[0]);
    QCOMPARE(again->lineWidth(again->data().series[1].info.key), TimeSeriesPanel::HighlightWidth);
}

void TestDashboardView::compareModeShiftsTheEarlierRange()
{
    TwoPanels fixture;
    DashboardView view(&fixture.registry);
    view.setStore(&fixture.store);
    view.setDashboard(fixture.dashboard);
    view.resize(view.preferredSize(1200));
    // The second hour against the first: the overlay holds the first hour's values
    // (10) at the second hour's times.
    const qint64 from = TwoPanels::Base + 3'600'000, to = TwoPanels::Base + 7'199'000;
    view.setCompareOffset(3'600'000);
    view.refreshNow(from, to);
    const PanelData &data = view.panels()[1]->data();
    QCOMPARE(data.compareOffsetMs, qint64(3'600'000));
    QCOMPARE(data.compare.size(), qsizetype(1));
    QCOMPARE(data.series[0].points.front().value, 20.0);
    QCOMPARE(data.compare[0].points.front().value, 10.0);
    QVERIFY(data.compare[0].points.front().tsMs >= from);
    QVERIFY(data.compare[0].points.back().tsMs <= to);
    // The CSV keeps the real times of the earlier range, labelled with the offset.
    const QList<PanelData> all = view.queryAll(from, to);
    QCOMPARE(all[1].compare[0].points.size(), size_t(3600));
    const QString csv = QString::fromUtf8(csvRows(all[1]));
    const QString firstEarlier = QDateTime::fromMSecsSinceEpoch(from - 3'600'000, QTimeZone::UTC)
                                     .toString(Qt::ISODateWithMs);
    QVERIFY2(csv.contains(firstEarlier + u",b,host,host.cpu.utilization,"_s),
             qPrintable(csv.left(300)));
    QVERIFY(csv.contains(u"compare=1h"_s));
    view.setCompareOffset(0);
    view.refreshNow(from, to);
    QVERIFY(view.panels()[1]->data().compare.isEmpty());
}

void TestDashboardView::everyTypeHasItsWidget()
{
    // createPanelWidget switches over every PanelType; each gets the widget it had when
    // the factory compared strings.
    const QHash<PanelType, const QMetaObject *> widgets {
        { PanelType::TimeSeries, &TimeSeriesPanel::staticMetaObject },
        { PanelType::Heatmap, &HeatmapPanel::staticMetaObject },
        { PanelType::UseMatrix, &UseMatrixPanel::staticMetaObject },
        { PanelType::ShardHistogram, &ShardHistogramPanel::staticMetaObject },
        { PanelType::ShardTable, &ShardTablePanel::staticMetaObject },
        { PanelType::Alerts, &AlertListPanel::staticMetaObject },
        { PanelType::BlockingTree, &BlockingTreePanel::staticMetaObject },
        { PanelType::Table, &TablePanel::staticMetaObject },
        { PanelType::Stat, &StatPanel::staticMetaObject },
    };
    QCOMPARE(widgets.size(), qsizetype(PanelTypeCount));
    for (PanelType type : AllPanelTypes) {
        DashboardPanel config;
        config.id = panelTypeName(type);
        config.type = type;
        std::unique_ptr<PanelWidget> panel(createPanelWidget(config));
        QVERIFY(panel);
        QCOMPARE(panel->metaObject(), widgets.value(type));
        QCOMPARE(panel->config().type, type);
    }
}

QTEST_MAIN(TestDashboardView)
#include "tst_dashboardview.moc"
