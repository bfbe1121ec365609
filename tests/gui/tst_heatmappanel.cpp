// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The heatmap panel on screen (Xvfb): cells painted in the palette's colours from one
// image, the log scale lifting mid values, hover text naming the cell, the crosshair
// line, drag to zoom, the colour bar, and the empty state.
#include "charts/heatmapcolors.h"
#include "imagetestutil.h"
#include "panels/heatmappanel.h"
#include "panels/panelfactory.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Qt::StringLiterals;
using Headroom::Test::countColor;

namespace {

constexpr qint64 Base = 1'700'000'000'000;
constexpr int Columns = 4;

// Four one-second columns: 100 events/s at 3 ms (hot), 10/s at 3 ms, 1/s at 20 ms,
// and nothing. Rows: catch-all ≤ 2 ms, 2–4, 4–8, 8–16, 16–32 ms.
PanelData sampleData()
{
    std::vector<TimedHistogram> polls;
    LogHistogram hot, mid, low;
    hot.add(3, 100);
    mid.add(3, 10);
    low.add(20, 1);
    polls.emplace_back(Base, hot);
    polls.emplace_back(Base + 1000, mid);
    polls.emplace_back(Base + 2000, low);
    PanelData data;
    data.panelId = u"heat"_s;
    data.fromMs = Base;
    data.toMs = Base + 4000;
    data.payload = heatmapFromHistograms(polls, Base, Base + 4000, Columns);
    return data;
}

DashboardPanel config(const QString &colorScale = {})
{
    DashboardPanel panel;
    panel.id = u"heat"_s;
    panel.type = PanelType::Heatmap;
    panel.title = u"Probe latency"_s;
    if (!colorScale.isEmpty())
        panel.options.insert(u"colorScale"_s, colorScale);
    return panel;
}

// The centre of cell (row, column) on screen.
QPoint cellCentre(const HeatmapPanel &panel, int row, int column)
{
    const QRect plot = panel.plotRect();
    const int rows = panel.data().as<HeatmapGrid>().rows();
    const int columns = panel.data().as<HeatmapGrid>().columns;
    return { plot.left() + int((column + 0.5) * plot.width() / columns),
             plot.top() + int((rows - 1 - row + 0.5) * plot.height() / rows) };
}

bool near(QColor a, QColor b, int tolerance = 6)
{
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green())
        + std::abs(a.blue() - b.blue())
        <= tolerance;
}

QString describe(QColor c)
{
    return c.name();
}

} // namespace

class TestHeatmapPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void paletteAndScales();
    void factoryBuildsHeatmaps();
    void paintsCellsInPaletteColours();
    void logScaleLiftsMidValues();
    void hoverNamesRangeCountAndTime();
    void crosshairFollowsTheMouseAndDrawsALine();
    void dragSelectsRange();
    void colourBarShowsTheScale();
    void emptyRangeSaysSo();
    void largeGridIsOneImage();
};

void TestHeatmapPanel::paletteAndScales()
{
    // Ends of the palette, and the empty colour differs from every palette colour.
    QCOMPARE(heatmapPalette(0), QColor(0xf6d746));
    QCOMPARE(heatmapPalette(1), QColor(0x160b39));
    QCOMPARE(heatmapPalette(7), heatmapPalette(1)); // clamped
    QCOMPARE(heatmapPalette(qQNaN()), heatmapPalette(0));
    for (int i = 0; i <= 100; ++i)
        QVERIFY(!near(heatmapPalette(i / 100.0), heatmapEmptyColor(), 60));

    const auto linear = HeatmapColorRange::of(HeatmapColorScale::Linear, 1, 100);
    QCOMPARE(linear.low, 0.0);
    QCOMPARE(linear.position(10), 0.1);
    QCOMPARE(linear.color(0), heatmapEmptyColor());
    QCOMPARE(linear.ticks().constFirst(), 0.0);
    QCOMPARE(linear.ticks().constLast(), 100.0);
    QVERIFY(linear.ticks().size() >= 3);

    const auto log = HeatmapColorRange::of(HeatmapColorScale::Log, 1, 100);
    QCOMPARE(log.low, 1.0);
    QVERIFY(std::abs(log.position(10) - 0.5) < 1e-12);
    QCOMPARE(log.ticks(), (QList<double> { 1, 10, 100 }));
    // One stray event does not stretch the scale over more than four decades.
    const auto wide = HeatmapColorRange::of(HeatmapColorScale::Log, 1e-3, 1e6);
    QCOMPARE(wide.low, 100.0);
    QCOMPARE(wide.position(1e-3), 0.0);
    QCOMPARE(heatmapColorScaleFromName(u"log"_s), HeatmapColorScale::Log);
    QCOMPARE(heatmapColorScaleFromName(u"nonsense"_s), HeatmapColorScale::Linear);
}

void TestHeatmapPanel::factoryBuildsHeatmaps()
{
    std::unique_ptr<PanelWidget> widget(createPanelWidget(config()));
    QVERIFY(qobject_cast<HeatmapPanel *>(widget.get()));
}

void TestHeatmapPanel::paintsCellsInPaletteColours()
{
    HeatmapPanel panel(config());
    panel.resize(640, 320);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setData(sampleData());
    QCOMPARE(panel.data().as<HeatmapGrid>().rows(), 5);
    QCOMPARE(panel.cellImage().size(), QSize(Columns, 5));

    const QImage shot = panel.grab().toImage();
    const auto pixel
        = [&](int row, int column) { return shot.pixelColor(cellCentre(panel, row, column)); };
    // Row 1 is 2–4 ms: 100/s in column 0 is the top of the scale.
    QVERIFY2(near(pixel(1, 0), heatmapPalette(1)), qPrintable(describe(pixel(1, 0))));
    QVERIFY2(near(pixel(1, 1), heatmapPalette(0.1)), qPrintable(describe(pixel(1, 1))));
    QVERIFY2(near(pixel(4, 2), heatmapPalette(0.01)), qPrintable(describe(pixel(4, 2))));
    for (const auto &[row, column] : { std::pair { 2, 0 }, { 0, 1 }, { 1, 3 }, { 4, 3 } })
        QVERIFY2(near(pixel(row, column), heatmapEmptyColor()),
                 qPrintable(describe(pixel(row, column))));
    // Sharp cells: no blend of the hot cell and its empty neighbour anywhere in between.
    const QRect plot = panel.plotRect();
    const int y = cellCentre(panel, 1, 0).y();
    for (int x = plot.left() + 2; x < plot.left() + plot.width() / Columns - 2; ++x)
        QVERIFY(near(shot.pixelColor(x, y), heatmapPalette(1)));
    QVERIFY(!panel.showsNoData());
}

void TestHeatmapPanel::logScaleLiftsMidValues()
{
    HeatmapPanel linear(config(u"linear"_s));
    HeatmapPanel log(config(u"log"_s));
    QImage shots[2];
    HeatmapPanel *panels[2] = { &linear, &log };
    for (int i = 0; i < 2; ++i) {
        panels[i]->resize(640, 320);
        panels[i]->setData(sampleData());
        shots[i] = panels[i]->grab().toImage();
    }
    // 10/s between 1/s and 100/s: a tenth of the linear scale, the middle of the log one.
    const QColor linearMid = shots[0].pixelColor(cellCentre(linear, 1, 1));
    const QColor logMid = shots[1].pixelColor(cellCentre(log, 1, 1));
    QVERIFY2(near(logMid, heatmapPalette(0.5)), qPrintable(describe(logMid)));
    QVERIFY(!near(linearMid, logMid, 60));
    // The ends stay where they were: the hottest cell, and the least busy at the bottom.
    QVERIFY(near(shots[1].pixelColor(cellCentre(log, 1, 0)), heatmapPalette(1)));
    QVERIFY(near(shots[1].pixelColor(cellCentre(log, 4, 2)), heatmapPalette(0)));
}

void TestHeatmapPanel::hoverNamesRangeCountAndTime()
{
    HeatmapPanel panel(config());
    panel.resize(640, 320);
    panel.setData(sampleData());
    const QString hot = panel.hoverText(cellCentre(panel, 1, 0));
    QVERIFY2(hot.contains(u"2–4 ms"_s), qPrintable(hot));
    QVERIFY2(hot.contains(u"100 events/s"_s), qPrintable(hot));
    const QString start = QDateTime::fromMSecsSinceEpoch(Base).toString(u"HH:mm:ss"_s);
    const QString end = QDateTime::fromMSecsSinceEpoch(Base + 1000).toString(u"HH:mm:ss"_s);
    QVERIFY2(hot.contains(start) && hot.contains(end), qPrintable(hot));

    const QString slow = panel.hoverText(cellCentre(panel, 4, 2));
    QVERIFY2(slow.contains(u"16–32 ms"_s) && slow.contains(u"1 events/s"_s), qPrintable(slow));
    const QString catchAll = panel.hoverText(cellCentre(panel, 0, 3));
    QVERIFY2(catchAll.contains(u"≤ 2 ms"_s) && catchAll.contains(u"no events"_s),
             qPrintable(catchAll));
    // Outside the cells: nothing.
    QCOMPARE(panel.hoverText(panel.plotRect().topLeft() - QPoint(3, 3)), QString());
    QCOMPARE(panel.hoverText(panel.colorBarRect().center()), QString());
}

void TestHeatmapPanel::crosshairFollowsTheMouseAndDrawsALine()
{
    HeatmapPanel panel(config());
    panel.resize(640, 320);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setData(sampleData());
    const QRect plot = panel.plotRect();

    QSignalSpy spy(&panel, &PanelWidget::crosshairMoved);
    QTest::mouseMove(&panel, QPoint(plot.left() + plot.width() / 2, plot.center().y()));
    QTRY_VERIFY(spy.count() >= 1);
    const qint64 ms = spy.last().at(0).toLongLong();
    QVERIFY2(std::abs(ms - (Base + 2000)) < 20, qPrintable(QString::number(ms - Base)));
    // Leaving the plot withdraws it.
    QTest::mouseMove(&panel, QPoint(plot.left() + plot.width() / 2, plot.bottom() + 10));
    QTRY_COMPARE(spy.last().at(0).toLongLong(), qint64(-1));

    const QColor line(0x00, 0xa0, 0xff);
    const auto linePixels = [&] {
        const QImage shot = panel.grab().toImage().copy(plot);
        return countColor(shot, line);
    };
    QCOMPARE(linePixels(), 0);
    panel.setCrosshair(Base + 3000);
    QCOMPARE(panel.crosshair(), Base + 3000);
    const QImage shot = panel.grab().toImage();
    QVERIFY2(linePixels() >= plot.height() - 2, qPrintable(QString::number(linePixels())));
    // At three quarters of the plot's width.
    const int x = plot.left() + plot.width() * 3 / 4;
    QVERIFY(countColor(shot.copy(x - 1, plot.top(), 3, plot.height()), line) >= plot.height() - 2);
    panel.setCrosshair(Base + 60'000); // outside the range: no line
    QCOMPARE(linePixels(), 0);
    panel.setCrosshair(-1);
    QCOMPARE(linePixels(), 0);
}

void TestHeatmapPanel::dragSelectsRange()
{
    HeatmapPanel panel(config());
    panel.resize(640, 320);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setData(sampleData());
    const QRect plot = panel.plotRect();
    QSignalSpy spy(&panel, &PanelWidget::rangeSelected);
    const QPoint a(plot.left() + plot.width() / 4, plot.center().y());
    const QPoint b(plot.left() + plot.width() * 3 / 4, plot.center().y());
    QTest::mousePress(&panel, Qt::LeftButton, {}, b);
    QTest::mouseMove(&panel, a); // right to left works too
    QTest::mouseRelease(&panel, Qt::LeftButton, {}, a);
    QCOMPARE(spy.count(), 1);
    const qint64 from = spy.at(0).at(0).toLongLong(), to = spy.at(0).at(1).toLongLong();
    QVERIFY2(std::abs(from - (Base + 1000)) < 20, qPrintable(QString::number(from - Base)));
    QVERIFY2(std::abs(to - (Base + 3000)) < 20, qPrintable(QString::number(to - Base)));
    // A click, or a wobble under 5 px, is not a zoom.
    QTest::mouseClick(&panel, Qt::LeftButton, {}, a);
    QTest::mousePress(&panel, Qt::LeftButton, {}, a);
    QTest::mouseRelease(&panel, Qt::LeftButton, {}, a + QPoint(4, 0));
    QCOMPARE(spy.count(), 1);
    // A drag beyond the plot stops at its edge: the end of the range.
    QTest::mousePress(&panel, Qt::LeftButton, {}, a);
    QTest::mouseRelease(&panel, Qt::LeftButton, {}, QPoint(panel.width() - 1, a.y()));
    QCOMPARE(spy.count(), 2);
    QVERIFY(std::abs(spy.at(1).at(1).toLongLong() - (Base + 4000)) < 20);
}

void TestHeatmapPanel::colourBarShowsTheScale()
{
    HeatmapPanel panel(config());
    panel.resize(640, 320);
    panel.setData(sampleData());
    const QRect bar = panel.colorBarRect();
    const QRect plot = panel.plotRect();
    QVERIFY(!bar.isEmpty());
    QVERIFY(bar.left() > plot.right());
    QVERIFY(bar.right() < panel.width());
    QCOMPARE(bar.top(), plot.top());
    QCOMPARE(bar.height(), plot.height());
    const QImage shot = panel.grab().toImage();
    QVERIFY(near(shot.pixelColor(bar.center().x(), bar.top() + 2), heatmapPalette(1), 20));
    QVERIFY(near(shot.pixelColor(bar.center().x(), bar.bottom() - 2), heatmapPalette(0), 20));
    QVERIFY(near(shot.pixelColor(bar.center()), heatmapPalette(0.5), 20));
    // Figures: 0 and 100 per second at the ends (linear), ticks between.
    QCOMPARE(panel.colorRange().ticks().first(), 0.0);
    QCOMPARE(panel.colorRange().ticks().last(), 100.0);
    // Text right of the bar (the figures) in the window text colour.
    const QImage labels = shot.copy(bar.right() + 4, plot.top() - 8,
                                    panel.width() - bar.right() - 4, plot.height() + 16);
    QVERIFY(countColor(labels, panel.palette().color(QPalette::WindowText)) > 20);
}

void TestHeatmapPanel::emptyRangeSaysSo()
{
    HeatmapPanel panel(config());
    panel.resize(640, 320);
    panel.setData(sampleData());
    QVERIFY(!panel.showsNoData());
    PanelData empty;
    empty.panelId = u"heat"_s;
    empty.fromMs = Base;
    empty.toMs = Base + 4000;
    HeatmapGrid &emptyGrid = empty.payload.emplace<HeatmapGrid>();
    emptyGrid.fromMs = Base;
    emptyGrid.toMs = Base + 4000;
    emptyGrid.columns = Columns;
    panel.setData(empty);
    QVERIFY(panel.showsNoData());
    QVERIFY(panel.cellImage().isNull());
    QVERIFY(panel.colorBarRect().isEmpty());
    QCOMPARE(panel.hoverText(panel.plotRect().center()), QString());
    // No palette colour anywhere in the plot, but the message in grey.
    const QImage plot = panel.grab().toImage().copy(panel.plotRect().adjusted(1, 1, -1, -1));
    for (double t : { 0.0, 0.5, 1.0 })
        QCOMPARE(countColor(plot, heatmapPalette(t)), 0);
    QVERIFY(countColor(plot, QColor(Qt::gray)) > 10);
}

void TestHeatmapPanel::largeGridIsOneImage()
{
    // 40 rows over an hour of 1 s columns: one image, so setData and a paint stay cheap.
    HeatmapGrid grid;
    grid.fromMs = Base;
    grid.toMs = Base + 3'600'000;
    grid.columns = 3600;
    grid.firstExponent = -10;
    grid.upperBoundsMs.append(std::ldexp(1.0, -11));
    for (int e = -10; e < -10 + MaxHeatmapRows - 1; ++e)
        grid.upperBoundsMs.append(std::ldexp(1.0, e));
    grid.perSecond.resize(size_t(grid.rows()) * 3600);
    for (size_t i = 0; i < grid.perSecond.size(); ++i)
        grid.perSecond[i] = double(i % 97);
    grid.maxPerSecond = 96;
    PanelData data;
    data.panelId = u"heat"_s;
    data.fromMs = grid.fromMs;
    data.toMs = grid.toMs;
    data.payload = grid;

    HeatmapPanel panel(config(u"log"_s));
    panel.resize(800, 300);
    QElapsedTimer timer;
    timer.start();
    panel.setData(data);
    const QImage shot = panel.grab().toImage();
    const qint64 elapsed = timer.elapsed();
    qInfo("40 x 3600 cells: setData + paint in %lld ms", elapsed);
    QCOMPARE(panel.cellImage().size(), QSize(3600, MaxHeatmapRows));
    QCOMPARE(shot.size(), panel.size() * shot.devicePixelRatio());
    QVERIFY(panel.findChildren<QWidget *>().isEmpty()); // no item per cell
    QVERIFY2(elapsed < 2000, qPrintable(QString::number(elapsed)));
}

QTEST_MAIN(TestHeatmapPanel)
#include "tst_heatmappanel.moc"
