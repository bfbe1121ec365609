// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The time panels' own line painting: the pixel-column reduction keeps what a column
// shows (its lowest and highest point) whatever the number of points, the mapping
// places values as the chart's axes do, and the span rasterizer draws spikes, widths,
// dashes and faded lines (each pixel blended once).
#include "charts/lineplotitem.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace Headroom;

class TestLinePlotItem : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void mappingMatchesTheAxes();
    void columnsKeepTheirExtremes_data();
    void columnsKeepTheirExtremes();
    void skipsValuesThatCannotBePlaced();
    void rasterKeepsSpikesInOneRowLine();
    void rasterBlendsEachPixelOnce();
    void rasterWidthAndDashes();
};

namespace {
PlotMapping mapping(double width, double xMax)
{
    PlotMapping m;
    m.plot = QRectF(10, 20, width, 100);
    m.xMin = 0;
    m.xMax = xMax;
    m.yMin = 0;
    m.yMax = 100;
    return m;
}
} // namespace

void TestLinePlotItem::mappingMatchesTheAxes()
{
    PlotMapping m = mapping(200, 1000);
    QCOMPARE(m.map(QPointF(0, 0)), QPointF(10, 120));
    QCOMPARE(m.map(QPointF(1000, 100)), QPointF(210, 20));
    QCOMPARE(m.map(QPointF(500, 25)), QPointF(110, 95));
    m.logY = true;
    m.yMin = 1;
    m.yMax = 1000;
    QCOMPARE(m.map(QPointF(0, 10)).y(), 120 - 100.0 / 3);
    QCOMPARE(m.map(QPointF(0, 1000)).y(), 20.0);
}

void TestLinePlotItem::columnsKeepTheirExtremes_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("width");
    QTest::newRow("a day at 1 s in 1600 px") << 86'400 << 1600;
    QTest::newRow("4 points per column") << 6400 << 1600;
    QTest::newRow("fewer points than columns") << 300 << 1600;
    QTest::newRow("one column") << 1000 << 1;
}

void TestLinePlotItem::columnsKeepTheirExtremes()
{
    QFETCH(int, points);
    QFETCH(int, width);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> noise(0, 50);
    QPolygonF data;
    for (int i = 0; i < points; ++i)
        data.append(QPointF(i, 25 + noise(random)));
    data[points / 3].setY(100); // a one-sample spike, and a one-sample dip
    data[2 * points / 3].setY(0);
    const PlotMapping m = mapping(width, points - 1);
    const QPolygonF line = columnPolyline(data, m);

    // Per column of pixels, the lowest and highest point of the data that falls there.
    QHash<int, std::pair<double, double>> expected;
    for (const QPointF &p : std::as_const(data)) {
        const QPointF px = m.map(p);
        const int column = int(std::floor(px.x()));
        auto it = expected.find(column);
        if (it == expected.end())
            expected.insert(column, { px.y(), px.y() });
        else
            *it = { std::min(it->first, px.y()), std::max(it->second, px.y()) };
    }
    QHash<int, std::pair<double, double>> drawn;
    for (const QPointF &px : line) {
        const int column = int(std::floor(px.x()));
        auto it = drawn.find(column);
        if (it == drawn.end())
            drawn.insert(column, { px.y(), px.y() });
        else
            *it = { std::min(it->first, px.y()), std::max(it->second, px.y()) };
    }
    QCOMPARE(drawn, expected);
    QVERIFY(line.size() <= std::min<qsizetype>(data.size(), 2 * qsizetype(expected.size())));
    // Left to right, so the polyline never doubles back across columns.
    for (qsizetype i = 1; i < line.size(); ++i)
        QVERIFY(line[i].x() >= line[i - 1].x()
                || std::floor(line[i].x()) == std::floor(line[i - 1].x()));
    // The spike reaches the top of the plot, the dip its bottom.
    QCOMPARE(std::ranges::min(line, {}, &QPointF::y).y(), 20.0);
    QCOMPARE(std::ranges::max(line, {}, &QPointF::y).y(), 120.0);
}

void TestLinePlotItem::skipsValuesThatCannotBePlaced()
{
    PlotMapping m = mapping(100, 3);
    const QPolygonF data { { 0, 10 }, { 1, qQNaN() }, { 2, qInf() }, { 3, 30 } };
    QCOMPARE(columnPolyline(data, m).size(), 2);
    m.logY = true;
    m.yMin = 1;
    // No log of 0: left out rather than drawn at minus infinity.
    QCOMPARE(columnPolyline(QPolygonF { { 0, 0 }, { 3, 30 } }, m).size(), 1);
}

namespace {
QImage blankImage(int width, int height)
{
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    return image;
}

// Rows of column x whose pixel is not white.
int paintedRows(const QImage &image, int x)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        n += image.pixel(x, y) != qRgb(255, 255, 255);
    return n;
}

// A day at 1 s, flat at 20 but for a one-second spike to 100 at noon.
QPolygonF dayWithSpike()
{
    QPolygonF day;
    for (int t = 0; t < 86'400; ++t)
        day.append(QPointF(t, t == 43'200 ? 100 : 20));
    return day;
}

PlotMapping imageMapping(const QImage &image, double xMax)
{
    PlotMapping m;
    m.plot = QRectF(0, 0, image.width(), image.height());
    m.xMax = xMax;
    m.yMax = 100;
    return m;
}
} // namespace

void TestLinePlotItem::rasterKeepsSpikesInOneRowLine()
{
    QImage image = blankImage(600, 100);
    rasterizeLine(&image, dayWithSpike(), imageMapping(image, 86'400), SpanPen { 0xff1f77b4 });
    // The spike's column runs up to the top row; elsewhere the line is one row, at 20.
    const int spike = 300; // noon
    QCOMPARE(image.pixel(spike, 0), qRgb(0x1f, 0x77, 0xb4));
    for (int x : { 0, 100, 299 - 1, 301 + 1, 599 })
        QCOMPARE(paintedRows(image, x), 1);
    QCOMPARE(image.pixel(100, 80), qRgb(0x1f, 0x77, 0xb4)); // 20 % up a 100 px image
}

void TestLinePlotItem::rasterBlendsEachPixelOnce()
{
    // A faded line over white: every painted pixel is exactly one blend, also where
    // a column's stroke meets the step to the next column.
    QImage image = blankImage(300, 100);
    QPolygonF zigzag;
    for (int t = 0; t < 3000; ++t)
        zigzag.append(QPointF(t, 50 + 30 * std::sin(t / 40.0)));
    rasterizeLine(&image, zigzag, imageMapping(image, 2999), SpanPen { qRgba(0, 0, 0, 60) });
    const QRgb once = qRgb(195, 195, 195); // 255 * (1 - 60/255)
    int painted = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            if (p == qRgb(255, 255, 255))
                continue;
            ++painted;
            QCOMPARE(qRed(p), qRed(once));
        }
    }
    QVERIFY(painted > 300);
}

void TestLinePlotItem::rasterWidthAndDashes()
{
    QPolygonF flat;
    for (int t = 0; t <= 1000; ++t)
        flat.append(QPointF(t, 50));
    QImage wide = blankImage(200, 100);
    rasterizeLine(&wide, flat, imageMapping(wide, 1000), SpanPen { 0xff000000, 3 });
    QCOMPARE(paintedRows(wide, 100), 3);
    QImage dashed = blankImage(200, 100);
    rasterizeLine(&dashed, flat, imageMapping(dashed, 1000), SpanPen { 0xff000000, 1, true });
    // 8 columns drawn, 8 left out.
    for (int x = 0; x < 8; ++x)
        QCOMPARE(paintedRows(dashed, x), 1);
    for (int x = 8; x < 16; ++x)
        QCOMPARE(paintedRows(dashed, x), 0);
    // On a log axis a value of 0 has no place: the line stops there, nothing is drawn
    // at the bottom.
    QImage log = blankImage(100, 100);
    PlotMapping m = imageMapping(log, 3);
    m.logY = true;
    m.yMin = 1;
    m.yMax = 100;
    rasterizeLine(&log, QPolygonF { { 0, 10 }, { 1, 0 }, { 2, 10 }, { 3, 10 } }, m,
                  SpanPen { 0xff000000 });
    QCOMPARE(paintedRows(log, 0), 1);
    QCOMPARE(log.pixel(50, 99), qRgb(255, 255, 255));
}

QTEST_MAIN(TestLinePlotItem)
#include "tst_lineplotitem.moc"
