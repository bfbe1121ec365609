// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shard panels: the histogram's bars, grid image, hover, crosshair and highlight;
// the top-shards table's order, load bars (measured in a grab), filter and selection;
// both wired through the factory and a DashboardView over real queries.
#include "charts/loadbardelegate.h"
#include "dashboardview.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "imagetestutil.h"
#include "itemmodels/shardtablemodel.h"
#include "panels/panelfactory.h"
#include "panels/shardhistogrampanel.h"
#include "panels/shardtablepanel.h"
#include "query/shards/shardload.h"

#include <QApplication>
#include <QHeaderView>
#include <QJsonArray>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Base = 1'700'000'000'000;

ShardLoadSeries shard(const QString &set, const QString &name, const QList<double> &loads)
{
    ShardLoadSeries s;
    s.info.key = { u"pg"_s, u"pg.shard.load"_s, { { u"set"_s, set }, { u"shard"_s, name } } };
    s.info.unit = u"%"_s;
    for (qsizetype i = 0; i < loads.size(); ++i)
        s.load.push_back({ Base + i * 1000, loads[i] });
    return s;
}

// Now: 1 shard in 10-20 %, 2 in 60-70 % (c at 65, e at 60), 2 in 90-100 % (a, d).
QList<ShardLoadSeries> fiveShards()
{
    return { shard(u"s"_s, u"a"_s, QList<double>(10, 100)),
             shard(u"s"_s, u"b"_s, QList<double>(10, 15)),
             shard(u"s"_s, u"c"_s, { 5, 5, 5, 5, 5, 65, 65, 65, 65, 65 }),
             shard(u"s"_s, u"d"_s, QList<double>(10, 150)),
             shard(u"s"_s, u"e"_s, QList<double>(10, 60)) };
}

DashboardPanel panelConfig(const QString &type, const QJsonObject &options = {})
{
    DashboardPanel config;
    config.id = type;
    config.type = *panelTypeFromName(type);
    config.title = u"Shards"_s;
    config.series = { { u"pg"_s, u"pg.shard.load"_s, {} } };
    config.options = options;
    return config;
}

ShardLoadRow tableRow(const QString &shard, double load, double ops)
{
    ShardLoadRow row;
    row.source = u"pg"_s;
    row.set = u"public.orders"_s;
    row.shard = shard;
    row.labels = { { u"set"_s, row.set }, { u"shard"_s, shard } };
    row.tsMs = Base;
    row.load = load;
    row.ops = ops;
    return row;
}

// Pixels of `color` in one row of the image, from x0 to x1 inclusive.
int runOf(const QImage &image, int y, int x0, int x1, const QColor &color)
{
    int n = 0;
    for (int x = x0; x <= x1; ++x) {
        const QColor c = image.pixelColor(x, y);
        n += std::abs(c.red() - color.red()) + std::abs(c.green() - color.green())
                + std::abs(c.blue() - color.blue())
            < 24;
    }
    return n;
}

} // namespace

class TestShardPanels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void histogramBars();
    void histogramGridAndHover();
    void histogramCrosshair();
    void tableHotShardFirst();
    void loadBarProportional();
    void tableSelectionAndHighlight();
    void tableFilter();
    void factoryAndDashboard();
};

void TestShardPanels::histogramBars()
{
    ShardHistogramPanel panel(panelConfig(u"shardhistogram"_s));
    PanelData data;
    data.fromMs = Base;
    data.toMs = Base + 10'000;
    data.payload = shardLoadHistogram(fiveShards(), Base, Base + 10'000, 5, 60);
    panel.setData(data);
    panel.resize(900, 320);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    const QList<int> expected { 0, 1, 0, 0, 0, 0, 2, 0, 0, 2 };
    for (int b = 0; b < ShardLoadBuckets; ++b)
        QCOMPARE(panel.nowCount(b), expected[b]);
    // Heights proportional to the counts; empty buckets have no bar.
    const int full = panel.barRect(9).height();
    QVERIFY(full > 60);
    QCOMPARE(panel.barRect(6).height(), full);
    QVERIFY(std::abs(panel.barRect(1).height() * 2 - full) <= 1);
    QCOMPARE(panel.barRect(0).height(), 0);
    QVERIFY(panel.barRect(1).left() < panel.barRect(6).left());

    // Drawn as computed: overloaded buckets red-ish, the others neutral, and as tall.
    const QImage image = panel.grab().toImage();
    const QColor red = ShardHistogramPanel::barColor(true);
    const QColor neutral = ShardHistogramPanel::barColor(false);
    QCOMPARE(image.pixelColor(panel.barRect(9).center()), red);
    QCOMPARE(image.pixelColor(panel.barRect(6).center()), red);
    QCOMPARE(image.pixelColor(panel.barRect(1).center()), neutral);
    const QRect bar = panel.barRect(1);
    int painted = 0;
    for (int y = bar.top() - 5; y <= bar.bottom() + 5; ++y)
        painted += image.pixelColor(bar.center().x(), y) == neutral;
    QCOMPARE(painted, bar.height());
}

void TestShardPanels::histogramGridAndHover()
{
    ShardHistogramPanel panel(panelConfig(u"shardhistogram"_s));
    PanelData data;
    data.fromMs = Base;
    data.toMs = Base + 10'000;
    data.payload = shardLoadHistogram(fiveShards(), Base, Base + 10'000, 5, 60);
    panel.setData(data);
    panel.resize(900, 320);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    // One image, a pixel per column and bucket, 90-100 % on top.
    const QImage &grid = panel.gridImage();
    QCOMPARE(grid.size(), QSize(5, ShardLoadBuckets));
    QCOMPARE(grid.pixelColor(0, 0), ShardHistogramPanel::cellColor(2, 2, true)); // a, d
    QCOMPARE(grid.pixelColor(0, 9), ShardHistogramPanel::cellColor(1, 2, false)); // c at 5 %
    QCOMPARE(grid.pixelColor(4, 9), ShardHistogramPanel::cellColor(0, 2, false)); // c moved up
    QCOMPARE(grid.pixelColor(4, 3), ShardHistogramPanel::cellColor(2, 2, true)); // c, e at 60-70 %
    QVERIFY(ShardHistogramPanel::cellColor(2, 2, false)
            != ShardHistogramPanel::cellColor(1, 2, false));
    // It is what the grid area shows: the top-left cell's colour in the middle of it.
    const QImage shown = panel.grab().toImage();
    const QRect area = panel.gridRect();
    const QPoint topLeftCell(area.left() + area.width() / 10, area.top() + area.height() / 20);
    QCOMPARE(shown.pixelColor(topLeftCell), ShardHistogramPanel::cellColor(2, 2, true));

    // Hover: bars tell the bucket now and its shards; the grid its cell.
    const QString overBar = panel.hoverText(panel.barRect(6).center());
    QVERIFY2(overBar.startsWith(u"60-70%: 2 shard"_s), qPrintable(overBar));
    QVERIFY(overBar.contains(u"c 65.0 %"_s) && overBar.contains(u"e 60.0 %"_s));
    const QString overCell = panel.hoverText(topLeftCell);
    QVERIFY2(overCell.contains(u"90-100%: 2 shard"_s) && overCell.contains(u"2 overloaded"_s),
             qPrintable(overCell));
    QVERIFY(panel.hoverText(QPoint(1, 1)).isEmpty());

    // A highlighted shard outlines its bucket.
    panel.setHighlight({ { u"set"_s, u"s"_s }, { u"shard"_s, u"c"_s } });
    QCOMPARE(panel.highlightedBuckets(), QList<int> { 6 });
    panel.setHighlight({ { u"set"_s, u"s"_s } });
    QCOMPARE(panel.highlightedBuckets(), (QList<int> { 1, 6, 9 }));
    panel.setHighlight({});
    QVERIFY(panel.highlightedBuckets().isEmpty());
}

void TestShardPanels::histogramCrosshair()
{
    ShardHistogramPanel panel(panelConfig(u"shardhistogram"_s));
    PanelData data;
    data.fromMs = Base;
    data.toMs = Base + 10'000;
    data.payload = shardLoadHistogram(fiveShards(), Base, Base + 10'000, 5, 60);
    panel.setData(data);
    panel.resize(900, 320);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QRect grid = panel.gridRect();

    QCOMPARE(panel.crosshairX(), -1);
    panel.setCrosshair(Base + 5000);
    QVERIFY(std::abs(panel.crosshairX() - (grid.left() + grid.width() / 2)) <= 1);
    const QImage image = panel.grab().toImage();
    QCOMPARE(countColor(image.copy(panel.crosshairX(), grid.top(), 1, grid.height()),
                        QColor(0x55, 0x55, 0x55))
                 > grid.height() / 4,
             true);
    panel.setCrosshair(Base + 60'000); // outside the range: not drawn
    QCOMPARE(panel.crosshairX(), -1);

    QSignalSpy moved(&panel, &PanelWidget::crosshairMoved);
    QTest::mouseMove(&panel, QPoint(grid.left() + grid.width() / 4, grid.center().y()));
    QTRY_VERIFY(!moved.isEmpty());
    const qint64 ms = moved.last().first().toLongLong();
    QVERIFY2(std::abs(ms - (Base + 2500)) < 100, qPrintable(QString::number(ms - Base)));
    QTest::mouseMove(&panel, panel.barRect(9).center()); // off the time axis
    QTRY_COMPARE(moved.last().first().toLongLong(), -1);
}

void TestShardPanels::tableHotShardFirst()
{
    ShardTablePanel panel(panelConfig(
        u"shardtable"_s,
        { { u"top"_s, 3 },
          { u"columns"_s,
            QJsonArray { u"shard"_s, u"load"_s, u"share"_s, u"change"_s, u"ops"_s } } }));
    PanelData data;
    // In no particular order, as a query may hand them over.
    data.payload.emplace<ShardTableData>().rows
        = { tableRow(u"p1"_s, 12, 120), tableRow(u"p3"_s, 100, 1000), tableRow(u"p0"_s, 30, 300),
            tableRow(u"p2"_s, 9, 90) };
    panel.setData(data);
    panel.resize(700, 260);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QAbstractItemModel *model = panel.view()->model();
    QCOMPARE(model->rowCount(), 3); // top 3
    QCOMPARE(model->columnCount(), 5);
    QCOMPARE(model->headerData(0, Qt::Horizontal).toString(), u"Shard"_s);
    QCOMPARE(model->index(0, 0).data().toString(), u"p3"_s);
    QCOMPARE(model->index(1, 0).data().toString(), u"p0"_s);
    QCOMPARE(model->index(2, 0).data().toString(), u"p1"_s);
    QCOMPARE(model->index(0, 2).data().toString(), u"66.2"_s); // 1000 of 1510 ops
    QCOMPARE(panel.view()->horizontalHeader()->sortIndicatorSection(), 1);
    QCOMPARE(panel.view()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    QCOMPARE(panel.view()->itemDelegateForColumn(1), panel.loadDelegate());

    // A refresh moves p1 to the top.
    std::get<ShardTableData>(data.payload).rows[0].load = 120;
    panel.setData(data);
    QCOMPARE(model->index(0, 0).data().toString(), u"p1"_s);
}

void TestShardPanels::loadBarProportional()
{
    ShardTablePanel panel(panelConfig(u"shardtable"_s,
                                      { { u"columns"_s, QJsonArray { u"shard"_s, u"load"_s } },
                                        { u"overloadedPercent"_s, 60 } }));
    PanelData data;
    data.payload.emplace<ShardTableData>().rows
        = { tableRow(u"hot"_s, 100, 10), tableRow(u"half"_s, 50, 5), tableRow(u"fifth"_s, 20, 2) };
    panel.setData(data);
    panel.resize(600, 240);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.view()->setColumnWidth(1, 300);
    QApplication::processEvents();
    const QImage image = panel.view()->viewport()->grab().toImage();
    const auto measure = [&](int row, const QColor &color) {
        const QRect cell = panel.view()->visualRect(panel.view()->model()->index(row, 1));
        const QRect inner = cell.adjusted(2, 3, -2, -3);
        // The top line of the bar, above the number drawn over it.
        return std::pair { runOf(image, inner.top(), cell.left(), cell.right(), color),
                           LoadBarDelegate::barRect(cell,
                                                    row == 0       ? 100
                                                        : row == 1 ? 50
                                                                   : 20)
                               .width() };
    };
    const auto [hot, hotExpected] = measure(0, LoadBarDelegate::barColor(true));
    const auto [half, halfExpected] = measure(1, LoadBarDelegate::barColor(false));
    const auto [fifth, fifthExpected] = measure(2, LoadBarDelegate::barColor(false));
    qInfo("bars: %d px (100 %%), %d px (50 %%), %d px (20 %%)", hot, half, fifth);
    QVERIFY(hot > 250);
    QCOMPARE(hot, hotExpected);
    QCOMPARE(half, halfExpected);
    QCOMPARE(fifth, fifthExpected);
    QVERIFY(std::abs(2 * half - hot) <= 2);
    QVERIFY(std::abs(5 * fifth - hot) <= 5);
    // Below the threshold, no red in the cell; above it, no blue.
    QCOMPARE(measure(1, LoadBarDelegate::barColor(true)).first, 0);
    QCOMPARE(measure(0, LoadBarDelegate::barColor(false)).first, 0);
}

void TestShardPanels::tableSelectionAndHighlight()
{
    ShardTablePanel panel(panelConfig(u"shardtable"_s));
    PanelData data;
    data.payload.emplace<ShardTableData>().rows
        = { tableRow(u"p0"_s, 80, 8), tableRow(u"p1"_s, 60, 6), tableRow(u"p2"_s, 40, 4) };
    panel.setData(data);
    panel.resize(600, 240);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy requested(&panel, &PanelWidget::highlightRequested);

    QTableView *view = panel.view();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(1, 0)).center());
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.first().first().value<Labels>(),
             (Labels { { u"set"_s, u"public.orders"_s }, { u"shard"_s, u"p1"_s } }));

    // A refresh with new values keeps the selection and says nothing.
    std::get<ShardTableData>(data.payload).rows[1].load = 90;
    panel.setData(data);
    QCOMPARE(view->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(view->selectionModel()->selectedRows().first().row(), 0); // p1 now on top
    QCOMPARE(requested.count(), 1);

    // A highlight from another panel selects its row without echoing it back.
    panel.setHighlight({ { u"set"_s, u"public.orders"_s }, { u"shard"_s, u"p2"_s } });
    const QModelIndexList selected = view->selectionModel()->selectedRows();
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.first().data().toString(), u"p2"_s);
    panel.setHighlight({});
    QVERIFY(!view->selectionModel()->hasSelection());
    QCOMPARE(requested.count(), 1);
}

void TestShardPanels::tableFilter()
{
    ShardTablePanel panel(panelConfig(u"shardtable"_s, { { u"top"_s, 2 } }));
    PanelData data;
    data.payload.emplace<ShardTableData>().rows
        = { tableRow(u"orders_eu"_s, 80, 8), tableRow(u"orders_us"_s, 60, 6),
            tableRow(u"orders_eu2"_s, 40, 4) };
    panel.setData(data);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.view()->model()->rowCount(), 2);
    QTest::keyClicks(panel.filterEdit(), u"EU"_s);
    const QAbstractItemModel *model = panel.view()->model();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, 0).data().toString(), u"orders_eu"_s);
    QCOMPARE(model->index(1, 0).data().toString(), u"orders_eu2"_s);
}

void TestShardPanels::factoryAndDashboard()
{
    // Real queries through the grid: two sets of shards in the live buffers.
    SeriesRegistry registry;
    LiveBuffers live(100);
    const QList<std::tuple<QString, QString, double>> shards {
        { u"public.orders"_s, u"public.orders_p0"_s, 100 },
        { u"public.orders"_s, u"public.orders_p1"_s, 15 },
        { u"tenants"_s, u"t1"_s, 65 },
    };
    for (const auto &[set, name, load] : shards) {
        const Labels labels { { u"set"_s, set }, { u"shard"_s, name } };
        const int loadId = registry.idFor({ { u"pg"_s, u"pg.shard.load"_s, labels },
                                            u"%"_s,
                                            u"shardset:"_s + set,
                                            UseKind::Utilization });
        const int opsId = registry.idFor({ { u"pg"_s, u"pg.shard.ops.rate"_s, labels },
                                           u"1/s"_s,
                                           u"shardset:"_s + set,
                                           UseKind::Throughput });
        for (int i = 0; i < 5; ++i) {
            live.append(loadId, { Base + i * 1000, load });
            live.append(opsId, { Base + i * 1000, load * 10 });
        }
    }
    const SeriesStore store(&live, nullptr);
    Dashboard dashboard;
    DashboardPanel histogram = panelConfig(u"shardhistogram"_s);
    histogram.layout = { 0, 0, 12, 4 };
    DashboardPanel table = panelConfig(u"shardtable"_s);
    table.layout = { 0, 4, 12, 4 };
    dashboard.panels = { histogram, table };
    DashboardView view(&registry);
    view.setStore(&store);
    view.setDashboard(dashboard);
    view.resize(view.preferredSize(1000));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.refreshNow(Base, Base + 4000);

    auto *histogramPanel = qobject_cast<ShardHistogramPanel *>(view.panels().at(0));
    auto *tablePanel = qobject_cast<ShardTablePanel *>(view.panels().at(1));
    QVERIFY(histogramPanel && tablePanel);
    QCOMPARE(histogramPanel->nowCount(9), 1);
    QCOMPARE(histogramPanel->nowCount(6), 1);
    QCOMPARE(histogramPanel->nowCount(1), 1);
    const QAbstractItemModel *model = tablePanel->view()->model();
    QCOMPARE(model->rowCount(), 3);
    // Two sets shown and no column choice: the set leads, then the shard.
    QCOMPARE(model->headerData(0, Qt::Horizontal).toString(), u"Set"_s);
    QCOMPARE(model->index(0, 1).data().toString(), u"public.orders_p0"_s);
    QCOMPARE(model->index(1, 1).data().toString(), u"t1"_s);

    // Picking t1 in the table outlines its bucket in the histogram, through the grid.
    QTableView *tableView = tablePanel->view();
    QTest::mouseClick(tableView->viewport(), Qt::LeftButton, {},
                      tableView->visualRect(model->index(1, 1)).center());
    QCOMPARE(view.highlight(), (Labels { { u"set"_s, u"tenants"_s }, { u"shard"_s, u"t1"_s } }));
    QCOMPARE(histogramPanel->highlightedBuckets(), QList<int> { 6 });
}

QTEST_MAIN(TestShardPanels)
#include "tst_shardpanels.moc"
