// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The mouse over a time series panel: a drag selects a range, the crosshair follows the
// mouse and marks an instant given from outside, a highlight widens matching lines, and
// the hover names the nearest line with its value in human units (a statement whole).
#include "charts/timeaxesitem.h"
#include "charts/zoomablechartview.h"
#include "panels/timeseriespanel.h"
#include "timeseriespaneltestutil.h"

#include <QChart>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestTimeSeriesPanelMouse : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dragSelectsRange();
    void crosshairFollowsTheMouseAndMarksAnInstant();
    void highlightEmphasisesMatchingLines();
    void hoverNamesTheNearestLine();
    void axisAndHoverInHumanUnits();
    void statementLineShortInLegendWholeOnHover();
};

void TestTimeSeriesPanelMouse::dragSelectsRange()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(800, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PanelData data = emptyData(u"cpu"_s, 1'000'000, 1'600'000);
    data.series.append(series(1, u"all"_s, { { 1'000'000, 1 }, { 1'600'000, 2 } }));
    panel.setData(data);
    QSignalSpy spy(&panel, &TimeSeriesPanel::rangeSelected);
    QWidget *viewport = panel.chartView()->viewport();
    const QRectF plot = panel.chartView()->chart()->plotArea();
    const QPoint a(int(plot.left() + plot.width() * 0.25), int(plot.center().y()));
    const QPoint b(int(plot.left() + plot.width() * 0.75), int(plot.center().y()));
    QTest::mousePress(viewport, Qt::LeftButton, {}, a);
    QTest::mouseMove(viewport, b);
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, b);
    QCOMPARE(spy.count(), 1);
    const qint64 from = spy.at(0).at(0).toLongLong(), to = spy.at(0).at(1).toLongLong();
    QVERIFY2(std::abs(from - 1'150'000) < 10'000, qPrintable(QString::number(from)));
    QVERIFY2(std::abs(to - 1'450'000) < 10'000, qPrintable(QString::number(to)));
    // A click without a drag is not a zoom.
    QTest::mouseClick(viewport, Qt::LeftButton, {}, a);
    QCOMPARE(spy.count(), 1);
}

void TestTimeSeriesPanelMouse::crosshairFollowsTheMouseAndMarksAnInstant()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(800, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PanelData data = emptyData(u"cpu"_s, 1'000'000, 1'600'000);
    data.series.append(series(1, u"all"_s, { { 1'000'000, 1 }, { 1'600'000, 2 } }));
    panel.setData(data);
    QCoreApplication::processEvents();
    QSignalSpy spy(&panel, &PanelWidget::crosshairMoved);
    QWidget *viewport = panel.chartView()->viewport();
    const QRectF plot = panel.chartView()->chart()->plotArea();
    const QPoint middle(int(plot.center().x()), int(plot.center().y()));
    QTest::mouseMove(viewport, middle);
    QTRY_VERIFY(spy.count() >= 1);
    const qint64 ms = spy.last().at(0).toLongLong();
    QVERIFY2(std::abs(ms - 1'300'000) < 5'000, qPrintable(QString::number(ms)));

    // An instant given from outside: a line at its x, gone when outside the range.
    panel.setCrosshair(1'450'000);
    QVERIFY(panel.chartView()->crosshairVisible());
    const double expected = plot.left() + plot.width() * 0.75;
    QVERIFY2(std::abs(panel.chartView()->crosshairX() - expected) <= 2,
             qPrintable(u"%1 vs %2"_s.arg(panel.chartView()->crosshairX()).arg(expected)));
    panel.setCrosshair(2'000'000);
    QVERIFY(!panel.chartView()->crosshairVisible());
    panel.setCrosshair(-1);
    QVERIFY(!panel.chartView()->crosshairVisible());
}

void TestTimeSeriesPanelMouse::highlightEmphasisesMatchingLines()
{
    TimeSeriesPanel panel(panelConfig());
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    data.series.append(series(1, u"cpu0"_s, { { 0, 1 }, { 1000, 2 } }));
    data.series.append(series(2, u"cpu1"_s, { { 0, 1 }, { 1000, 2 } }));
    panel.setData(data);
    const SeriesKey cpu0 = data.series[0].info.key, cpu1 = data.series[1].info.key;
    QCOMPARE(panel.lineWidth(cpu0), TimeSeriesPanel::LineWidth);
    panel.setHighlight({ { u"cpu"_s, u"cpu1"_s } });
    QVERIFY(panel.isHighlighted(cpu1));
    QVERIFY(!panel.isHighlighted(cpu0));
    QCOMPARE(panel.lineWidth(cpu1), TimeSeriesPanel::HighlightWidth);
    QCOMPARE(panel.lineWidth(cpu0), TimeSeriesPanel::LineWidth);
    // Kept across a refresh.
    panel.setData(data);
    QCOMPARE(panel.lineWidth(cpu1), TimeSeriesPanel::HighlightWidth);
    // A label this panel does not have changes nothing.
    panel.setHighlight({ { u"shard"_s, u"p3"_s } });
    QCOMPARE(panel.lineWidth(cpu1), TimeSeriesPanel::LineWidth);
    panel.setHighlight({});
    QVERIFY(!panel.isHighlighted(cpu1));
}

void TestTimeSeriesPanelMouse::hoverNamesTheNearestLine()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(800, 300);
    panel.show();
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    data.series.append(series(1, u"cpu0"_s, { { 0, 10 }, { 5000, 10 }, { 10'000, 10 } }));
    data.series.append(series(2, u"cpu1"_s, { { 0, 80 }, { 5000, 80 }, { 10'000, 80 } }));
    panel.setData(data);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    QChart *chart = panel.chartView()->chart();
    auto *anySeries = qobject_cast<QLineSeries *>(chart->series().constFirst());
    const QPointF onCpu1 = chart->mapToPosition(QPointF(5000, 80), anySeries);
    const QString text = panel.hoverText(onCpu1 + QPointF(0, 3));
    QVERIFY2(text.startsWith(u"cpu.utilization cpu1\n"_s), qPrintable(text));
    QVERIFY2(text.endsWith(u"\n80 %"_s), qPrintable(text));
    QVERIFY2(
        panel.hoverText(chart->mapToPosition(QPointF(5000, 12), anySeries)).contains(u"cpu0"_s),
        "the lower line is nearer there");
    // Half-way between the lines: nothing within reach.
    QCOMPARE(panel.hoverText(chart->mapToPosition(QPointF(5000, 45), anySeries)), QString());
}

// A byte rate of about 3 MB/s: the axis reads whole steps of MiB/s with the unit along
// it, the hover a figure in MiB/s; a latency in ms past a second reads in seconds.
void TestTimeSeriesPanelMouse::axisAndHoverInHumanUnits()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(800, 300);
    panel.show();
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    PanelSeriesData s = series(1, u"eth0"_s, { { 0, 1e6 }, { 5000, 3e6 }, { 10'000, 3e6 } });
    s.info.unit = u"B/s"_s;
    data.series.append(s);
    panel.setData(data);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    QCOMPARE(panel.axes()->title(), u"MiB/s"_s);
    const auto labels = panel.axes()->yLabels();
    QVERIFY(labels.size() >= 3);
    for (const auto &[value, text] : labels) {
        // Each label is its value in MiB/s, on a whole step of MiB/s.
        const double mib = value / 1048576.0;
        QCOMPARE(text.toDouble(), mib);
        QVERIFY2(!text.contains(u'k') && !text.contains(u'M'), qPrintable(text));
    }
    QVERIFY(labels.constLast().first >= 3e6 - 1048576.0);
    // The axis ends on a whole step of MiB/s, so its top grid line is labelled.
    auto *axisY
        = qobject_cast<QValueAxis *>(panel.chartView()->chart()->axes(Qt::Vertical).constFirst());
    QCOMPARE(labels.constLast().first, axisY->max());
    QChart *chart = panel.chartView()->chart();
    auto *line = qobject_cast<QLineSeries *>(chart->series().constFirst());
    const QString hover = panel.hoverText(chart->mapToPosition(QPointF(5000, 3e6), line));
    QVERIFY2(hover.endsWith(u"\n2.861 MiB/s"_s), qPrintable(hover));

    s.info.unit = u"ms"_s;
    s.points = { { 0, 200 }, { 5000, 2500 }, { 10'000, 2500 } };
    data.series = { s };
    panel.setData(data);
    QCoreApplication::processEvents();
    QCOMPARE(panel.axes()->title(), u"s"_s);
    QVERIFY2(
        panel.hoverText(chart->mapToPosition(QPointF(5000, 2500), line)).endsWith(u"\n2.5 s"_s),
        qPrintable(panel.hoverText(chart->mapToPosition(QPointF(5000, 2500), line))));
}

// A statement's line: its first words and queryid in the legend, the whole text when
// hovered.
void TestTimeSeriesPanelMouse::statementLineShortInLegendWholeOnHover()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(800, 300);
    panel.show();
    const QString query
        = u"SELECT o.id, o.total FROM orders o JOIN customers c ON c.id = o.customer WHERE c.region = $1"_s;
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    PanelSeriesData s = series(1, {}, { { 0, 4 }, { 5000, 4 }, { 10'000, 4 } });
    s.info = SeriesInfo {
        { u"pg"_s,
          u"pg.statements.mean_time_ms"_s,
          { { u"datname"_s, u"shop"_s }, { u"queryid"_s, u"77"_s }, { u"query"_s, query } } },
        u"ms"_s,
        u"db:shop"_s,
        UseKind::Latency,
        false
    };
    data.series.append(s);
    panel.setData(data);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    QChart *chart = panel.chartView()->chart();
    auto *line = qobject_cast<QLineSeries *>(chart->series().constFirst());
    QCOMPARE(line->name(),
             u"statements.mean_time_ms shop/SELECT o.id, o.total FROM orders o JOIN… #77"_s);
    const QString text = panel.hoverText(chart->mapToPosition(QPointF(5000, 4), line));
    QVERIFY2(text.startsWith(line->name() + u'\n'), qPrintable(text));
    QVERIFY2(text.endsWith(u"4 ms\n"_s + query), qPrintable(text));
}

QTEST_MAIN(TestTimeSeriesPanelMouse)
#include "tst_timeseriespanelmouse.moc"
