// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The time series panel drawing its data: lines cut at gaps, axes and their labels, a
// PromQL engine's message, mixed units, a log axis for percentile lines, stacked areas,
// thresholds, the compare overlay and a day at one second. The mouse over it:
// tst_timeseriespanelmouse; its legends: tst_timeseriespanellegend.
#include "charts/timeaxesitem.h"
#include "charts/zoomablechartview.h"
#include "imagetestutil.h"
#include "panels/timeseriespanel.h"
#include "query/heatmap/percentilelines.h"
#include "timeseriespaneltestutil.h"

#include <QChart>
#include <QDateTime>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QTest>
#include <QValueAxis>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestTimeSeriesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsSeriesWithGaps();
    void replacesAndRemovesSeries();
    void engineMessageShowsOverWhatCame();
    void mixedUnitsMoveToTheLegend();
    void logAxisDrawsPercentileLines();
    void logAxisCutsLinesAtValuesNotAboveZero_data();
    void logAxisCutsLinesAtValuesNotAboveZero();
    void stackedAreasAddUp();
    void thresholdsDrawnAsLines();
    void compareOverlaysTheEarlierRange();
    void aDayAtOneSecondKeepsItsSpike();
};

namespace {

// The plot area of a shown panel, in the panel's own pixels: where lines are drawn,
// without the legend's markers in the same colors.
// Each line's whole name, in the chart's order: the legend may show shortened ones
// (legendfit.h) when the panel is narrow. Lines without an entry of their own (the
// thresholds) give the name they carry.
QStringList wholeNames(const TimeSeriesPanel &panel)
{
    QStringList names;
    QChart *chart = panel.chartView()->chart();
    for (const auto allLines = chart->series(); QAbstractSeries * line : allLines) {
        const QList<QLegendMarker *> markers = chart->legend()->markers(line);
        const QString whole
            = markers.isEmpty() ? QString() : panel.legendFullName(markers.constFirst());
        names << (whole.isEmpty() ? line->name() : whole);
    }
    return names;
}

QRect plotRect(const TimeSeriesPanel &panel)
{
    const ZoomableChartView *view = panel.chartView();
    const QRect inView = view->mapFromScene(view->chart()->plotArea()).boundingRect();
    return QRect(view->viewport()->mapTo(&panel, inView.topLeft()), inView.size());
}

// Mean height of the pixels drawn in `color`, from the bottom of the image (0) to its
// top (1); -1 when there are none.
double meanHeightOf(const QImage &image, QColor color)
{
    double sum = 0;
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green())
                    + std::abs(c.blue() - color.blue())
                < 40) {
                sum += 1.0 - double(y) / (image.height() - 1);
                ++n;
            }
        }
    return n ? sum / n : -1;
}
} // namespace

void TestTimeSeriesPanel::drawsSeriesWithGaps()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(600, 300);
    panel.show();
    const qint64 base = 1'700'000'000'000;
    PanelData data = emptyData(u"cpu"_s, base, base + 120000);
    std::vector<Sample> withGap;
    for (qint64 t = 0; t <= 20000; t += 1000)
        withGap.push_back({ base + t, 40 });
    for (qint64 t = 80000; t <= 120000; t += 1000) // a 60 s outage in between
        withGap.push_back({ base + t, 60 });
    data.series.append(series(1, u"all"_s, withGap));
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 2);
    // One legend entry per series, however many segments it has (once the chart has
    // laid out its legend).
    QCoreApplication::processEvents();
    int visibleMarkers = 0;
    for (const auto markers = panel.chartView()->chart()->legend()->markers();
         QLegendMarker * m : markers)
        visibleMarkers += m->isVisible();
    QCOMPARE(visibleMarkers, 1);
    auto *axisY
        = qobject_cast<QValueAxis *>(panel.chartView()->chart()->axes(Qt::Vertical).constFirst());
    QCOMPARE(axisY->titleText(), u"%"_s);
    QVERIFY(axisY->max() >= 60);
    QCOMPARE(axisY->min(), 0.0);
    // The axes the reader sees: labelled grid lines on whole steps, the unit.
    QCOMPARE(panel.axes()->title(), u"%"_s);
    QStringList yLabels;
    for (const auto entries = panel.axes()->yLabels(); const auto &[value, text] : entries)
        yLabels << text;
    QCOMPARE(yLabels, (QStringList { u"0"_s, u"20"_s, u"40"_s, u"60"_s }));
    const auto xLabels = panel.axes()->xLabels();
    QVERIFY(xLabels.size() >= 3);
    for (const auto &[ms, text] : xLabels) {
        QVERIFY(ms >= base && ms <= base + 120000);
        QCOMPARE(QDateTime::fromMSecsSinceEpoch(ms).time().second() % 10, 0);
        QCOMPARE(text, QDateTime::fromMSecsSinceEpoch(ms).toString(u"HH:mm:ss"_s));
    }
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents(); // QChart lays out on a posted event
    const QImage image = panel.grab().toImage();
    if (!qEnvironmentVariableIsEmpty("HEADROOM_TEST_SAVE_IMAGES"))
        image.save(u"/tmp/test_timeseriespanel.png"_s);
    QVERIFY2(countColor(image, QColor(0x1f77b4)) > 100, "the series line was not drawn");
}

void TestTimeSeriesPanel::replacesAndRemovesSeries()
{
    TimeSeriesPanel panel(panelConfig());
    PanelData data = emptyData(u"cpu"_s, 0, 10000);
    data.series.append(series(1, u"cpu0"_s, { { 0, 1 }, { 1000, 2 } }));
    data.series.append(series(2, u"cpu1"_s, { { 0, 1 }, { 1000, 2 } }));
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 2);
    data.series.removeFirst();
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 1);
    QCOMPARE(panel.chartView()->chart()->series().size(), 1);
    panel.setData(emptyData(u"cpu"_s, 0, 10000));
    QCOMPARE(panel.segmentCount(), 0);
}

// A PromQL engine's error (PanelData::message) shows over the panel, as plain text,
// also above the lines that earlier chunks gave; it goes with the next good answer.
void TestTimeSeriesPanel::engineMessageShowsOverWhatCame()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(600, 300);
    panel.show();
    PanelData data = emptyData(u"cpu"_s, 0, 10000);
    data.series.append(series(1, u"cpu0"_s, { { 0, 1 }, { 1000, 2 } }));
    data.message = u"http://engine:9090: <b>timed out</b>"_s;
    panel.setData(data);
    auto *label = panel.findChild<QLabel *>(u"panelMessage"_s);
    QVERIFY(label);
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), data.message);
    QCOMPARE(label->textFormat(), Qt::PlainText);
    data.message.clear();
    panel.setData(data);
    QVERIFY(!label->isVisible());
}

void TestTimeSeriesPanel::mixedUnitsMoveToTheLegend()
{
    TimeSeriesPanel panel(panelConfig());
    PanelData data = emptyData(u"cpu"_s, 1'000'000, 1'010'000);
    data.series.append(series(1, u"cpu0"_s, { { 1'000'000, 1 }, { 1'001'000, 2 } }));
    panel.setData(data);
    QCOMPARE(panel.axisUnit(), u"%"_s);
    PanelSeriesData queue = series(2, u"cpu1"_s, { { 1'000'000, 1 }, { 1'001'000, 2 } });
    queue.info.unit = u"pages/s"_s;
    data.series.append(queue);
    panel.setData(data);
    QCOMPARE(panel.axisUnit(), QString());
    QCOMPARE(wholeNames(panel),
             (QStringList { u"cpu.utilization cpu0 (%)"_s, u"cpu.utilization cpu1 (pages/s)"_s }));
}

void TestTimeSeriesPanel::logAxisDrawsPercentileLines()
{
    // Every poll: half the events at 2 ms, most of the rest at 20, a few at 200, one at
    // 800. The lines sit a decade apart, which only a log axis shows as such.
    const qint64 base = 1'700'000'000'000;
    std::vector<TimedHistogram> polls;
    for (int n = 0; n <= 120; ++n) {
        LogHistogram h;
        h.add(2, 50);
        h.add(20, 45);
        h.add(200, 4);
        h.add(800, 1);
        polls.emplace_back(base + n * 1000LL, h);
    }
    SeriesInfo info {
        { u"pg"_s, u"pg.latency.probe"_s, {} }, u"ms"_s, u"db:erp"_s, UseKind::Latency, true
    };
    PanelData data = emptyData(u"latency"_s, base, base + 120'000);
    data.series = percentileLines(7, info, polls, defaultPercentiles(), base, base + 120'000, 600);

    DashboardPanel config = panelConfig();
    config.yScale = YScale::Log;
    TimeSeriesPanel panel(config);
    panel.resize(600, 400);
    panel.show();
    panel.setData(data);

    // One line per percentile, though all four share the series id.
    QCOMPARE(panel.segmentCount(), 4);
    QCoreApplication::processEvents(); // the legend is laid out on a posted event
    const QStringList names = wholeNames(panel);
    int visibleMarkers = 0;
    for (const auto markers = panel.chartView()->chart()->legend()->markers();
         QLegendMarker * m : markers)
        visibleMarkers += m->isVisible();
    QCOMPARE(names,
             (QStringList { u"latency.probe p50"_s, u"latency.probe p95"_s, u"latency.probe p99"_s,
                            u"latency.probe max"_s }));
    QCOMPARE(visibleMarkers, 4);
    QCOMPARE(panel.axisUnit(), u"ms"_s);

    auto *axisY = qobject_cast<QLogValueAxis *>(
        panel.chartView()->chart()->axes(Qt::Vertical).constFirst());
    QVERIFY2(axisY, "the Y axis is not logarithmic");
    QCOMPARE(axisY->min(), 1.0); // whole decades around 2..800
    QCOMPARE(axisY->max(), 1000.0);
    QCOMPARE(axisY->titleText(), u"ms"_s);

    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents(); // QChart lays out on a posted event
    const QImage image = panel.grab().toImage();
    if (!qEnvironmentVariableIsEmpty("HEADROOM_TEST_SAVE_IMAGES"))
        image.save(u"/tmp/test_timeseriespanel_log.png"_s);
    const QImage plot = image.copy(plotRect(panel));
    const QList<QColor> colors { QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c),
                                 QColor(0xd62728) };
    const QList<double> values { 2, 20, 200, 800 };
    for (qsizetype i = 0; i < colors.size(); ++i) {
        QVERIFY2(countColor(plot, colors.at(i)) > 100,
                 qPrintable(u"the %1 line was not drawn"_s.arg(names.at(i))));
        // log10(value) / 3 of the way up a 1..1000 axis, give or take the line's width.
        const double height = meanHeightOf(plot, colors.at(i));
        const double expected = std::log10(values.at(i)) / 3;
        QVERIFY2(std::abs(height - expected) < 0.05,
                 qPrintable(u"%1 drawn at %2 of the height, expected %3"_s.arg(names.at(i))
                                .arg(height)
                                .arg(expected)));
    }
}

void TestTimeSeriesPanel::logAxisCutsLinesAtValuesNotAboveZero_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<bool>("log");
    QTest::addColumn<int>("segments");
    QTest::addColumn<double>("axisMin");
    QTest::newRow("a zero in the middle") << QList<double> { 5, 6, 0, 5, 7 } << true << 2 << 1.0;
    QTest::newRow("negatives at the start")
        << QList<double> { -1, -0.5, 3, 40 } << true << 1 << 1.0;
    QTest::newRow("small values") << QList<double> { 0.02, 0.5, 0.03 } << true << 1 << 0.01;
    QTest::newRow("nothing above zero") << QList<double> { 0, 0, -3 } << true << 0 << 1.0;
    // yMin 0 holds on a linear axis, which draws every value.
    QTest::newRow("linear axis keeps them")
        << QList<double> { 5, 6, 0, 5, -7 } << false << 1 << 0.0;
}

void TestTimeSeriesPanel::logAxisCutsLinesAtValuesNotAboveZero()
{
    QFETCH(QList<double>, values);
    QFETCH(bool, log);
    QFETCH(int, segments);
    QFETCH(double, axisMin);
    DashboardPanel config = panelConfig();
    config.yScale = log ? YScale::Log : YScale::Linear;
    config.options.insert(u"yMin"_s, 0); // no place on a log axis: ignored there
    TimeSeriesPanel panel(config);
    panel.resize(400, 300);
    panel.show();
    std::vector<Sample> points;
    points.reserve(size_t(values.size()));
    for (qsizetype i = 0; i < values.size(); ++i)
        points.push_back({ 1000LL * i, values.at(i) });
    PanelData data = emptyData(u"cpu"_s, 0, 1000LL * values.size());
    data.series.append(series(1, u"all"_s, points));
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), segments);
    QAbstractAxis *axis = panel.chartView()->chart()->axes(Qt::Vertical).constFirst();
    if (log)
        QCOMPARE(qobject_cast<QLogValueAxis *>(axis)->min(), axisMin);
    else
        QCOMPARE(qobject_cast<QValueAxis *>(axis)->min(), axisMin);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    QVERIFY(!panel.grab().isNull()); // and drawing it does not trip over log(0)
}

void TestTimeSeriesPanel::stackedAreasAddUp()
{
    DashboardPanel config = panelConfig();
    config.options.insert(u"stacked"_s, true);
    TimeSeriesPanel panel(config);
    panel.resize(600, 300);
    panel.show();
    const qint64 base = 1'700'000'000'000;
    PanelData data = emptyData(u"cpu"_s, base, base + 10'000);
    std::vector<Sample> user, system;
    for (qint64 t = 0; t <= 10'000; t += 1000) {
        user.push_back({ base + t, 30 });
        system.push_back({ base + t, 20 });
    }
    data.series.append(series(1, u"user"_s, user));
    data.series.append(series(2, u"system"_s, system));
    panel.setData(data);
    QVERIFY(panel.stacked());
    QCOMPARE(panel.areaCount(), 2);
    QCOMPARE(panel.segmentCount(), 0); // areas, not lines
    QCOMPARE(panel.bands().size(), size_t(2));
    QCOMPARE(panel.bands()[1].lower.front().value, 30.0);
    QCOMPARE(panel.bands()[1].upper.front().value, 50.0);
    // The axis reaches the stacked total, not just the largest single series.
    auto *axisY
        = qobject_cast<QValueAxis *>(panel.chartView()->chart()->axes(Qt::Vertical).constFirst());
    QVERIFY(axisY->max() >= 50);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    const QImage image = panel.grab(plotRect(panel)).toImage();
    // The second band's fill sits above the first one's.
    const double first = meanHeightOf(image, QColor(0x1f77b4));
    const double second = meanHeightOf(image, QColor(0xff7f0e));
    QVERIFY2(first > 0 && second > first, qPrintable(u"%1 %2"_s.arg(first).arg(second)));
    // Removing a series removes its band.
    data.series.removeLast();
    panel.setData(data);
    QCOMPARE(panel.areaCount(), 1);
}

void TestTimeSeriesPanel::thresholdsDrawnAsLines()
{
    DashboardPanel config = panelConfig();
    config.thresholds = { 70, 90, true };
    TimeSeriesPanel panel(config);
    panel.resize(600, 300);
    panel.show();
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    data.series.append(series(1, u"all"_s, { { 0, 10 }, { 10'000, 20 } }));
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 3); // the series and two threshold lines
    auto *axisY
        = qobject_cast<QValueAxis *>(panel.chartView()->chart()->axes(Qt::Vertical).constFirst());
    QVERIFY2(axisY->max() >= 90, "the critical line must be on the chart");
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    int visibleMarkers = 0;
    QStringList names;
    for (const auto markers = panel.chartView()->chart()->legend()->markers();
         QLegendMarker * m : markers) {
        visibleMarkers += m->isVisible();
        names << m->label() + u'=' + QString::number(m->isVisible());
    }
    // The series and each threshold with its bound.
    QVERIFY2(visibleMarkers == 3, qPrintable(names.join(u", ")));
    QVERIFY2(names.contains(u"critical 90=1"_s), qPrintable(names.join(u", ")));
    const QImage image = panel.grab(plotRect(panel)).toImage();
    const int red = countColor(image, TimeSeriesPanel::CriticalColor);
    const int amber = countColor(image, TimeSeriesPanel::WarningColor);
    QVERIFY2(red > 50 && amber > 50, qPrintable(u"red %1 amber %2"_s.arg(red).arg(amber)));
}

void TestTimeSeriesPanel::compareOverlaysTheEarlierRange()
{
    TimeSeriesPanel panel(panelConfig());
    const qint64 base = 1'700'000'000'000;
    PanelData data = emptyData(u"cpu"_s, base, base + 10'000);
    data.series.append(series(1, u"all"_s, { { base, 10 }, { base + 10'000, 20 } }));
    // The hour before, already shifted onto the range by the query.
    data.compare.append(series(1, u"all"_s, { { base, 80 }, { base + 10'000, 90 } }));
    data.compareOffsetMs = 3'600'000;
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 2);
    const QStringList names = wholeNames(panel);
    QVERIFY2(names.contains(u"cpu.utilization all (−1h)"_s), qPrintable(names.join(u"; ")));
    auto *axisY
        = qobject_cast<QValueAxis *>(panel.chartView()->chart()->axes(Qt::Vertical).constFirst());
    QVERIFY(axisY->max() >= 90);
    SeriesKey compared = data.series[0].info.key;
    compared.labels.insert(QString(TimeSeriesPanel::CompareLabel), u"1h"_s);
    QVERIFY(panel.lineWidth(compared) > 0);
    data.compare.clear();
    data.compareOffsetMs = 0;
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 1);
}

void TestTimeSeriesPanel::aDayAtOneSecondKeepsItsSpike()
{
    // 86,400 points in 600 px: the one-second spike at noon must still reach the top,
    // and the line is drawn without antialiasing in its own colour.
    const qint64 base = 1'700'000'000'000;
    std::vector<Sample> day;
    day.reserve(86'400);
    for (qint64 t = 0; t < 86'400; ++t)
        day.push_back({ base + t * 1000, t == 43'200 ? 100.0 : 20.0 });
    PanelData data = emptyData(u"cpu"_s, base, base + 86'400'000);
    data.series.append(series(1, u"all"_s, day));
    DashboardPanel config = panelConfig();
    config.options.insert(u"yMax"_s, 100);
    TimeSeriesPanel panel(config);
    panel.resize(600, 300);
    panel.show();
    panel.setData(data);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    const QImage plot = panel.grab(plotRect(panel)).toImage();
    if (!qEnvironmentVariableIsEmpty("HEADROOM_TEST_SAVE_IMAGES"))
        plot.save(u"/tmp/test_timeseriespanel_day.png"_s);
    // Rows of the line's colour: the flat line's one, and the spike's column to the top.
    const QColor blue(0x1f77b4);
    const int middle = plot.width() / 2;
    int spikeTop = plot.height();
    for (int x = middle - 2; x <= middle + 2; ++x) {
        for (int y = 0; y < plot.height(); ++y) {
            if (countColor(plot.copy(x, y, 1, 1), blue) == 1) {
                spikeTop = std::min(spikeTop, y);
                break;
            }
        }
    }
    QVERIFY2(spikeTop <= 2, qPrintable(u"spike drawn down to row %1 only"_s.arg(spikeTop)));
    // Elsewhere the line is one pixel thick at 20 %.
    const QImage quarter = plot.copy(plot.width() / 4, 0, 1, plot.height());
    QCOMPARE(countColor(quarter, blue), 1);
}

QTEST_MAIN(TestTimeSeriesPanel)
#include "tst_timeseriespanel.moc"
