#include "downsample.h"
#include "imagetestutil.h"
#include "timeseriespanel.h"
#include "zoomablechartview.h"

#include <QChart>
#include <QLegendMarker>
#include <QSignalSpy>
#include <QTest>
#include <QValueAxis>

using namespace Headroom;
using Headroom::Test::countColor;

class TestTimeSeriesPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void drawsSeriesWithGaps();
    void dragSelectsRange();
    void replacesAndRemovesSeries();
    void mixedUnitsMoveToTheLegend();
};

namespace {
PanelSeriesData series(int id, const QString &cpu, std::vector<Sample> points)
{
    PanelSeriesData s;
    s.seriesId = id;
    s.info = SeriesInfo { { QStringLiteral("host"),
                            QStringLiteral("host.cpu.utilization"),
                            { { QStringLiteral("cpu"), cpu } } },
                          QStringLiteral("%"),
                          QStringLiteral("cpu"),
                          UseKind::Utilization,
                          false };
    s.points = std::move(points);
    for (const auto &part : splitAtGaps(s.points))
        s.segmentStarts.push_back(part.first);
    return s;
}

DashboardPanel panelConfig()
{
    DashboardPanel config;
    config.id = QStringLiteral("cpu");
    config.type = QStringLiteral("timeseries");
    config.title = QStringLiteral("CPU");
    return config;
}
} // namespace

void TestTimeSeriesPanel::drawsSeriesWithGaps()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(600, 300);
    panel.show();
    const qint64 base = 1'700'000'000'000;
    PanelData data { QStringLiteral("cpu"), base, base + 120000, {} };
    std::vector<Sample> withGap;
    for (qint64 t = 0; t <= 20000; t += 1000)
        withGap.push_back({ base + t, 40 });
    for (qint64 t = 80000; t <= 120000; t += 1000) // a 60 s outage in between
        withGap.push_back({ base + t, 60 });
    data.series.append(series(1, QStringLiteral("all"), withGap));
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 2);
    // One legend entry per series, however many segments it has.
    int visibleMarkers = 0;
    for (QLegendMarker *m : panel.chartView()->chart()->legend()->markers())
        visibleMarkers += m->isVisible();
    QCOMPARE(visibleMarkers, 1);
    auto *axisY
        = qobject_cast<QValueAxis *>(panel.chartView()->chart()->axes(Qt::Vertical).constFirst());
    QCOMPARE(axisY->titleText(), QStringLiteral("%"));
    QVERIFY(axisY->max() >= 60);
    QCOMPARE(axisY->min(), 0.0);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents(); // QChart lays out on a posted event
    const QImage image = panel.grab().toImage();
    if (!qEnvironmentVariableIsEmpty("HEADROOM_TEST_SAVE_IMAGES"))
        image.save(QStringLiteral("/tmp/test_timeseriespanel.png"));
    QVERIFY2(countColor(image, QColor(0x1f77b4)) > 100, "the series line was not drawn");
}

void TestTimeSeriesPanel::dragSelectsRange()
{
    TimeSeriesPanel panel(panelConfig());
    panel.resize(800, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PanelData data { QStringLiteral("cpu"), 1'000'000, 1'600'000, {} };
    data.series.append(series(1, QStringLiteral("all"), { { 1'000'000, 1 }, { 1'600'000, 2 } }));
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
    PanelData data { QStringLiteral("cpu"), 0, 10000, {} };
    data.series.append(series(1, QStringLiteral("cpu0"), { { 0, 1 }, { 1000, 2 } }));
    data.series.append(series(2, QStringLiteral("cpu1"), { { 0, 1 }, { 1000, 2 } }));
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 2);
    data.series.removeFirst();
    panel.setData(data);
    QCOMPARE(panel.segmentCount(), 1);
    QCOMPARE(panel.chartView()->chart()->series().size(), 1);
    panel.setData(PanelData { QStringLiteral("cpu"), 0, 10000, {} });
    QCOMPARE(panel.segmentCount(), 0);
}

void TestTimeSeriesPanel::mixedUnitsMoveToTheLegend()
{
    TimeSeriesPanel panel(panelConfig());
    PanelData data { QStringLiteral("cpu"), 1'000'000, 1'010'000, {} };
    data.series.append(series(1, QStringLiteral("cpu0"), { { 1'000'000, 1 }, { 1'001'000, 2 } }));
    panel.setData(data);
    QCOMPARE(panel.axisUnit(), QStringLiteral("%"));
    PanelSeriesData queue
        = series(2, QStringLiteral("cpu1"), { { 1'000'000, 1 }, { 1'001'000, 2 } });
    queue.info.unit = QStringLiteral("pages/s");
    data.series.append(queue);
    panel.setData(data);
    QCOMPARE(panel.axisUnit(), QString());
    QStringList names;
    for (QAbstractSeries *line : panel.chartView()->chart()->series())
        names << line->name();
    QCOMPARE(names,
             (QStringList { QStringLiteral("cpu.utilization cpu0 (%)"),
                            QStringLiteral("cpu.utilization cpu1 (pages/s)") }));
}

QTEST_MAIN(TestTimeSeriesPanel)
#include "tst_timeseriespanel.moc"
