#include "charts/timeaxesitem.h"
#include "charts/zoomablechartview.h"
#include "imagetestutil.h"
#include "itemmodels/legendtablemodel.h"
#include "panels/timeseriespanel.h"
#include "query/downsample.h"
#include "query/heatmap/percentilelines.h"

#include <QChart>
#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QValueAxis>
#include <cmath>

using namespace Headroom;
using namespace Qt::StringLiterals;
using Headroom::Test::countColor;

class TestTimeSeriesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsSeriesWithGaps();
    void dragSelectsRange();
    void replacesAndRemovesSeries();
    void engineMessageShowsOverWhatCame();
    void mixedUnitsMoveToTheLegend();
    void logAxisDrawsPercentileLines();
    void logAxisCutsLinesAtValuesNotAboveZero_data();
    void logAxisCutsLinesAtValuesNotAboveZero();
    void stackedAreasAddUp();
    void thresholdsDrawnAsLines();
    void crosshairFollowsTheMouseAndMarksAnInstant();
    void highlightEmphasisesMatchingLines();
    void compareOverlaysTheEarlierRange();
    void aDayAtOneSecondKeepsItsSpike();
    void hoverNamesTheNearestLine();
    void axisAndHoverInHumanUnits();
    void statementLineShortInLegendWholeOnHover();
    void tableLegendSortsAndIsolates();
    void listLegendClickIsolates();
};

namespace {
PanelSeriesData series(int id, const QString &cpu, std::vector<Sample> points)
{
    PanelSeriesData s;
    s.seriesId = id;
    s.info = SeriesInfo { { u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, cpu } } },
                          u"%"_s,
                          u"cpu"_s,
                          UseKind::Utilization,
                          false };
    s.points = std::move(points);
    for (const auto &part : splitAtGaps(s.points))
        s.segmentStarts.push_back(part.first);
    return s;
}

PanelData emptyData(const QString &id, qint64 fromMs, qint64 toMs)
{
    PanelData data;
    data.panelId = id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    return data;
}

DashboardPanel panelConfig()
{
    DashboardPanel config;
    config.id = u"cpu"_s;
    config.type = PanelType::TimeSeries;
    config.title = u"CPU"_s;
    return config;
}

// The plot area of a shown panel, in the panel's own pixels: where lines are drawn,
// without the legend's markers in the same colors.
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
    for (QLegendMarker *m : panel.chartView()->chart()->legend()->markers())
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
    for (const auto &[value, text] : panel.axes()->yLabels())
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

void TestTimeSeriesPanel::dragSelectsRange()
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
    QStringList names;
    for (QAbstractSeries *line : panel.chartView()->chart()->series())
        names << line->name();
    QCOMPARE(names,
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
    QStringList names;
    int visibleMarkers = 0;
    for (QAbstractSeries *line : panel.chartView()->chart()->series())
        names << line->name();
    for (QLegendMarker *m : panel.chartView()->chart()->legend()->markers())
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
    for (QLegendMarker *m : panel.chartView()->chart()->legend()->markers()) {
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

void TestTimeSeriesPanel::crosshairFollowsTheMouseAndMarksAnInstant()
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

void TestTimeSeriesPanel::highlightEmphasisesMatchingLines()
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
    QStringList names;
    for (QAbstractSeries *line : panel.chartView()->chart()->series())
        names << line->name();
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

void TestTimeSeriesPanel::hoverNamesTheNearestLine()
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
void TestTimeSeriesPanel::axisAndHoverInHumanUnits()
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
void TestTimeSeriesPanel::statementLineShortInLegendWholeOnHover()
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

QTEST_MAIN(TestTimeSeriesPanel)

void TestTimeSeriesPanel::tableLegendSortsAndIsolates()
{
    DashboardPanel config = panelConfig();
    config.options.insert(u"legendDisplay"_s, u"table"_s);
    TimeSeriesPanel panel(config);
    panel.resize(700, 420);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const qint64 base = 1'700'000'000'000;
    PanelData data = emptyData(u"cpu"_s, base, base + 10'000);
    const QStringList cpus { u"cpu0"_s, u"cpu1"_s, u"cpu2"_s };
    for (int i = 0; i < 3; ++i) {
        PanelSeriesData s = series(i + 1, cpus[i],
                                   { { base, 10.0 * (3 - i) }, { base + 10'000, 20.0 * (i + 1) } });
        // A name longer than the table is wide: elided there, whole on hover.
        s.name = cpus[i] + u" on a host whose name is far too long to fit in the column"_s;
        s.stats.last = 20.0 * (i + 1);
        s.stats.min = std::min(10.0 * (3 - i), s.stats.last);
        s.stats.max = std::max(10.0 * (3 - i), s.stats.last);
        s.stats.mean = (10.0 * (3 - i) + s.stats.last) / 2;
        s.stats.count = 2;
        data.series.append(s);
    }
    panel.setData(data);
    QVERIFY(!panel.chartView()->chart()->legend()->isVisible());
    QTableView *table = panel.legendTable();
    QVERIFY(table && table->isVisible());
    QAbstractItemModel *shown = table->model();
    QCOMPARE(shown->rowCount(), 3);
    // The panel's order until a column is sorted.
    QVERIFY(shown->index(0, 0).data().toString().startsWith(u"cpu0"_s));
    QCOMPARE(shown->index(2, LegendTableModel::LastColumn).data().toString(), u"60 %"_s);
    QVERIFY(shown->index(0, 0).data(Qt::ToolTipRole).toString().startsWith(data.series[0].name));
    // The chart is still most of the panel.
    QVERIFY2(panel.chartView()->height() > table->height(),
             qPrintable(u"%1 vs %2"_s.arg(panel.chartView()->height()).arg(table->height())));

    // Sorting by the header: the largest last value first.
    table->horizontalHeader()->setSortIndicator(LegendTableModel::LastColumn, Qt::DescendingOrder);
    QVERIFY(shown->index(0, 0).data().toString().startsWith(u"cpu2"_s));

    // A click on a row isolates its line; the others are not drawn, their rows greyed.
    const SeriesKey cpu1 = data.series[1].info.key;
    const QModelIndex cpu1Row = shown->index(1, 0);
    QCOMPARE(cpu1Row.data(LegendTableModel::KeyRole).value<SeriesKey>(), cpu1);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cpu1Row).center());
    QCOMPARE(panel.isolated(), QSet<SeriesKey> { cpu1 });
    QVERIFY(panel.lineWidth(cpu1) > 0);
    QCOMPARE(panel.lineWidth(data.series[0].info.key), 0.0);
    QCOMPARE(panel.lineWidth(data.series[2].info.key), 0.0);
    QCOMPARE(shown->index(0, 0).data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
    QVERIFY(!shown->index(1, 0).data(Qt::ForegroundRole).isValid());
    // A refresh keeps the isolation and the sort.
    panel.setData(data);
    QCOMPARE(panel.isolated(), QSet<SeriesKey> { cpu1 });
    QVERIFY(shown->index(0, 0).data().toString().startsWith(u"cpu2"_s));
    // Clicking it again shows every line.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(shown->index(1, 0)).center());
    QVERIFY(panel.isolated().isEmpty());
    for (const PanelSeriesData &s : std::as_const(data.series))
        QVERIFY(panel.lineWidth(s.info.key) > 0);
    // An isolated line that leaves the data isolates nothing.
    panel.toggleIsolated(data.series[2].info.key);
    data.series.removeLast();
    panel.setData(data);
    QVERIFY(panel.isolated().isEmpty());
    QVERIFY(panel.lineWidth(data.series[0].info.key) > 0);
}

void TestTimeSeriesPanel::listLegendClickIsolates()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(600, 300);
    panel.show();
    const qint64 base = 1'700'000'000'000;
    PanelData data = emptyData(u"cpu"_s, base, base + 10'000);
    data.series.append(series(1, u"cpu0"_s, { { base, 10 }, { base + 10'000, 20 } }));
    data.series.append(series(2, u"cpu1"_s, { { base, 30 }, { base + 10'000, 40 } }));
    panel.setData(data);
    QVERIFY(panel.legendTable() == nullptr);
    QCoreApplication::processEvents(); // the legend is laid out on a posted event
    QLegendMarker *cpu0Marker = nullptr;
    for (QLegendMarker *m : panel.chartView()->chart()->legend()->markers())
        if (m->label() == u"cpu.utilization cpu0"_s)
            cpu0Marker = m;
    QVERIFY(cpu0Marker);
    Q_EMIT cpu0Marker->clicked();
    QCOMPARE(panel.isolated(), QSet<SeriesKey> { data.series[0].info.key });
    QVERIFY(panel.lineWidth(data.series[0].info.key) > 0);
    QCOMPARE(panel.lineWidth(data.series[1].info.key), 0.0);
    // The hidden line's name is greyed, the shown one keeps the chart's colour.
    for (QLegendMarker *m : panel.chartView()->chart()->legend()->markers())
        if (m->label() == u"cpu.utilization cpu1"_s)
            QCOMPARE(m->labelBrush().color(), QColor(Qt::gray));
    QVERIFY(cpu0Marker->labelBrush().color() != QColor(Qt::gray));
    Q_EMIT cpu0Marker->clicked();
    QVERIFY(panel.isolated().isEmpty());
    QVERIFY(panel.lineWidth(data.series[1].info.key) > 0);
}

#include "tst_timeseriespanel.moc"
