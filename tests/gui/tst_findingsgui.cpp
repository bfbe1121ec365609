// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The Findings GUI: the onset marker and the evidence emphasis on a time panel (in
// its pixels), the Findings dock over a store with a stepped series (analysis off the
// GUI thread, coalesced refreshes, What changed ranking the stepped series first), and
// the main window: the dock lists the step's finding, clicking it zooms around the
// onset and marks it, "Compare before/after" sets the overlay and the combo, Shift+drag
// explains a window, Esc clears the focus. A finding whose summary and resource carry
// a tag naming a local image shows them as text in the dock and its tooltips.
#include "charts/onsetmarkitem.h"
#include "charts/zoomablechartview.h"
#include "dashboardview.h"
#include "engine/monitoringsession.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "findings/explainview.h"
#include "findings/findingsdock.h"
#include "imagetestutil.h"
#include "itemmodels/findingsmodel.h"
#include "literaltestutil.h"
#include "mainwindow.h"
#include "panels/timeseriespanel.h"
#include "query/analysis/analysisrun.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDateTime>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTreeView>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace Headroom;
using Headroom::Test::countColor;

class TestFindingsGui : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void onsetMarkerIsDrawnAtItsTime();
    void evidenceIsEmphasised();
    void dockAnalysesOffTheGuiThread();
    void dockShowsTargetTextAsText();
    void mainWindowFocusCompareExplain();
};

namespace {
constexpr qint64 Base = 1'700'000'000'000;

SeriesInfo cpuInfo(const QString &source, const QString &cpu)
{
    return SeriesInfo { { source, u"host.cpu.utilization"_s, { { u"cpu"_s, cpu } } },
                        u"%"_s,
                        u"cpu"_s,
                        UseKind::Utilization,
                        false };
}

// A little deterministic noise, so the analysis has a noise level to judge against.
double noise(qint64 t)
{
    return std::sin(double(t) * 1.7) * 0.8;
}

// One series steps from 10 % to 95 % at stepMs, the other stays near 30 %, 1 s apart
// over [fromMs, toMs].
void fillStep(LiveBuffers &live, int stepped, int flat, qint64 fromMs, qint64 toMs, qint64 stepMs)
{
    for (qint64 t = fromMs; t <= toMs; t += 1000) {
        live.append(stepped, { t, (t < stepMs ? 10.0 : 95.0) + noise(t / 1000) });
        live.append(flat, { t, 30.0 + noise(t / 1000 + 7) });
    }
}

PanelData panelData(qint64 fromMs, qint64 toMs, const QList<SeriesInfo> &infos)
{
    PanelData data;
    data.panelId = u"p"_s;
    data.fromMs = fromMs;
    data.toMs = toMs;
    int id = 1;
    for (const SeriesInfo &info : infos) {
        PanelSeriesData s;
        s.seriesId = id;
        s.info = info;
        for (qint64 t = fromMs; t <= toMs; t += 1000)
            s.points.push_back({ t, id == 1 ? 20.0 + 10.0 * (t > (fromMs + toMs) / 2) : 60.0 });
        s.segmentStarts = { 0 };
        data.series.append(s);
        ++id;
    }
    return data;
}

DashboardPanel timePanel()
{
    DashboardPanel panel;
    panel.id = u"p"_s;
    panel.type = PanelType::TimeSeries;
    panel.title = u"cpu"_s;
    return panel;
}

// The plot area of a panel in the panel's own pixels.
QRect plotInPanel(const TimeSeriesPanel &panel)
{
    const ZoomableChartView *view = panel.chartView();
    const QRect inView = view->mapFromScene(view->chart()->plotArea()).boundingRect();
    return QRect(view->viewport()->mapTo(&panel, inView.topLeft()), inView.size());
}
} // namespace

void TestFindingsGui::onsetMarkerIsDrawnAtItsTime()
{
    TimeSeriesPanel panel(timePanel());
    panel.resize(800, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setData(panelData(Base, Base + 120'000, { cpuInfo(u"h"_s, u"0"_s) }));
    QCoreApplication::processEvents();
    const QRect plot = plotInPanel(panel);
    const qint64 onset = Base + 30'000; // a quarter of the range
    const int x = plot.left() + plot.width() / 4;
    const auto markerPixels = [&] {
        const QImage image = panel.grab().toImage();
        return countColor(image.copy(x - 2, plot.top(), 5, plot.height()), OnsetMarkItem::Color);
    };
    QCOMPARE(markerPixels(), 0);
    panel.setFindingFocus(onset, {});
    QCOMPARE(panel.onsetMark()->label(),
             u"onset "_s + QDateTime::fromMSecsSinceEpoch(onset).toString(u"HH:mm:ss"_s));
    // Dashed: at least a third of the column is the marker's colour.
    const int on = markerPixels();
    QVERIFY2(on > plot.height() / 3, qPrintable(QString::number(on)));
    // Nowhere else: a column in the middle of the plot has none.
    const QImage image = panel.grab().toImage();
    QCOMPARE(countColor(image.copy(plot.left() + plot.width() * 3 / 4, plot.top() + 30, 3,
                                   plot.height() - 30),
                        OnsetMarkItem::Color),
             0);
    // An onset outside the range is not drawn; clearing removes it.
    panel.setFindingFocus(Base - 60'000, {});
    QCOMPARE(panel.onsetMark()->lineX(), -1.0);
    panel.setFindingFocus(-1, {});
    QCOMPARE(markerPixels(), 0);
}

void TestFindingsGui::evidenceIsEmphasised()
{
    // Through a DashboardView, as the main window does it: every panel gets the focus.
    SeriesRegistry registry;
    LiveBuffers live(1000);
    SeriesStore store(&live, nullptr);
    const SeriesInfo a = cpuInfo(u"h"_s, u"0"_s);
    const SeriesInfo b = cpuInfo(u"h"_s, u"1"_s);
    const int ia = registry.idFor(a), ib = registry.idFor(b);
    for (qint64 t = 0; t <= 120; ++t) {
        live.append(ia, { Base + t * 1000, 20.0 });
        live.append(ib, { Base + t * 1000, 60.0 });
    }
    DashboardView view(&registry);
    view.setStore(&store);
    Dashboard dashboard;
    DashboardPanel panel = timePanel();
    panel.series = { { u"h"_s, u"host.cpu.utilization"_s, {} } };
    panel.layout = { 0, 0, 12, 4 };
    dashboard.panels = { panel };
    view.setDashboard(dashboard);
    view.resize(900, 320);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.refreshNow(Base, Base + 120'000);
    auto *chart = qobject_cast<TimeSeriesPanel *>(view.panels().first());
    QVERIFY(chart);
    QCoreApplication::processEvents();
    const QColor first(0x1f77b4); // the palette's first colour: series a
    const int before = countColor(chart->grab().toImage(), first);
    QCOMPARE(chart->lineWidth(a.key), TimeSeriesPanel::LineWidth);

    view.setFindingFocus(Base + 60'000, { b.key });
    QCOMPARE(view.focusOnset(), Base + 60'000);
    QCOMPARE(chart->lineWidth(b.key), TimeSeriesPanel::HighlightWidth);
    QCOMPARE(chart->lineWidth(a.key), TimeSeriesPanel::LineWidth);
    QVERIFY(chart->isHighlighted(b.key));
    QVERIFY(!chart->isHighlighted(a.key));
    // The other series is dimmed: its full colour is (nearly) gone from the pixels.
    const int dimmed = countColor(chart->grab().toImage(), first);
    QVERIFY2(dimmed < before / 4, qPrintable(u"%1 -> %2"_s.arg(before).arg(dimmed)));
    // It survives a refresh, and clearing restores the drawing.
    view.refreshNow(Base, Base + 120'000);
    QCOMPARE(chart->lineWidth(b.key), TimeSeriesPanel::HighlightWidth);
    view.clearFindingFocus();
    QCOMPARE(chart->lineWidth(b.key), TimeSeriesPanel::LineWidth);
    const int restored = countColor(chart->grab().toImage(), first);
    QVERIFY2(restored > before * 3 / 4, qPrintable(u"%1 -> %2"_s.arg(before).arg(restored)));
}

void TestFindingsGui::dockAnalysesOffTheGuiThread()
{
    SeriesRegistry registry;
    LiveBuffers live(4000);
    SeriesStore store(&live, nullptr);
    const int stepped = registry.idFor(cpuInfo(u"h"_s, u"0"_s));
    const int flat = registry.idFor(cpuInfo(u"h"_s, u"1"_s));
    const qint64 from = Base, to = Base + 1800'000, step = Base + 1200'000;
    fillStep(live, stepped, flat, from, to, step);

    FindingsDock dock(&registry);
    QAbstractItemModelTester tester(dock.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester changeTester(dock.changeModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    dock.setStore(&store);
    dock.setRangeSource([&] { return std::pair { from, to }; });
    QSignalSpy refreshed(&dock, &FindingsDock::refreshed);
    // Three asks while the first runs: one runs, one follow-up, never two at once.
    dock.refresh();
    dock.refresh();
    dock.refresh();
    QVERIFY(dock.isRefreshing());
    QCOMPARE(dock.refreshesStarted(), 1);
    QVERIFY(refreshed.wait(30'000));
    if (refreshed.count() < 2)
        QVERIFY(refreshed.wait(30'000));
    QCOMPARE(dock.refreshesStarted(), 2);
    QVERIFY(dock.lastAnalysisThread() != nullptr);
    QVERIFY(dock.lastAnalysisThread() != QThread::currentThreadId());

    QVERIFY(dock.model()->rowCount() >= 1);
    const Analysis::Finding top
        = dock.model()->index(0, 0).data(FindingsModel::FindingRole).value<Analysis::Finding>();
    QCOMPARE(top.signalSeriesId, stepped);
    QVERIFY2(std::abs(top.sinceMs - step) <= 2 * dock.report().binMs,
             qPrintable(QString::number(top.sinceMs - step)));
    QVERIFY(top.aboveWarning());
    const auto spark = dock.model()
                           ->index(0, FindingsModel::TrendColumn)
                           .data(FindingsModel::SparklineRole)
                           .value<QList<double>>();
    QVERIFY(spark.size() >= 10);
    QVERIFY(spark.first() < 20 && spark.last() > 90);

    QSignalSpy explained(&dock, &FindingsDock::explained);
    dock.explain(step - 10'000, step + 60'000);
    QCOMPARE(dock.tabs()->currentWidget(), dock.explainView());
    QVERIFY(explained.wait(30'000));
    const QList<int> order = dock.changeModel()->seriesInOrder();
    QVERIFY(!order.isEmpty());
    QCOMPARE(order.first(), stepped);
    QVERIFY(dock.explainView()->caption().contains(u"What changed"_s));
}

// The summary names what a target calls things (a session's application_name, a
// statement): in the list and in the row's tooltip it is text, not markup.
void TestFindingsGui::dockShowsTargetTextAsText()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString red = Test::writeRedPng(QDir(dir.path()));
    QVERIFY(!red.isEmpty());
    const QString tag = u"<img src=%1>"_s.arg(red);
    SeriesRegistry registry;
    FindingsDock dock(&registry);
    dock.resize(900, 300);
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    Analysis::Finding finding;
    finding.rank = 1;
    finding.source = u"pg"_s;
    finding.resource = u"session "_s + tag;
    finding.signal = u"pg.activity.sessions{application_name="_s + tag + u'}';
    finding.summary = u"session "_s + tag + u" holds the lock"_s;
    finding.sinceMs = Base;
    finding.untilMs = Base + 60'000;
    finding.score = 0.9;
    dock.model()->setFindings({ finding });
    QTreeView *list = dock.findingsView();
    QCOMPARE(countColor(dock.grab().toImage(), QColor(255, 0, 0)), 0);

    Test::hoverItem(list, dock.model()->index(0, FindingsModel::SummaryColumn));
    QLabel *tip = Test::visibleToolTip();
    QVERIFY(tip);
    const QString shown = Test::shownAsAutoText(QToolTip::text());
    QVERIFY2(shown.startsWith(finding.summary + u'\n' + finding.signal), qPrintable(shown));
    QCOMPARE(countColor(tip->grab().toImage(), QColor(255, 0, 0)), 0);
    QToolTip::hideText();
}

void TestFindingsGui::mainWindowFocusCompareExplain()
{
    QStandardPaths::setTestModeEnabled(true); // the recent-files list goes to a test location
    MonitoringSession session; // no plugins loaded: the dashboard's source collects nothing
    const SeriesInfo steppedInfo = cpuInfo(u"test"_s, u"0"_s);
    const int stepped = session.registry().idFor(steppedInfo);
    const int flat = session.registry().idFor(cpuInfo(u"test"_s, u"1"_s));
    const qint64 now = QDateTime::currentMSecsSinceEpoch() / 1000 * 1000;
    const qint64 step = now - 300'000;
    fillStep(session.live(), stepped, flat, now - 600'000, now, step);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"findings.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"schemaVersion": 1, "title": "Findings", "timeRange": "15m",
        "sources": [{"id": "test", "plugin": "host"}],
        "panels": [{"id": "cpu", "type": "timeseries", "layout": {"x": 0, "y": 0, "w": 12, "h": 4},
                    "series": [{"source": "test", "metric": "host.cpu.utilization"}]}]})");
    file.close();

    MainWindow window(&session);
    window.resize(1200, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    FindingsDock *dock = window.findingsDock();
    QSignalSpy refreshed(dock, &FindingsDock::refreshed);
    QVERIFY(window.openDashboard(path));
    QVERIFY(dock->isLive());
    QTRY_VERIFY_WITH_TIMEOUT(dock->model()->rowCount() > 0, 30'000);
    const FindingsModel *model = dock->model();
    const Analysis::Finding top
        = model->index(0, 0).data(FindingsModel::FindingRole).value<Analysis::Finding>();
    QCOMPARE(top.signalSeriesId, stepped);
    QVERIFY2(std::abs(top.sinceMs - step) <= 2 * std::max<qint64>(1000, dock->report().binMs),
             qPrintable(QString::number(top.sinceMs - step)));

    // Click the finding: the range closes around the onset, every time panel marks it.
    QTreeView *list = dock->findingsView();
    const QRect rowRect = list->visualRect(model->index(0, FindingsModel::ResourceColumn));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rowRect.center());
    QVERIFY(dock->hasFocusedFinding());
    const auto [from, to] = window.shownRange();
    QVERIFY(from < top.sinceMs && top.sinceMs < to);
    QVERIFY(to - from < 15 * 60'000);
    QCOMPARE(window.view()->focusOnset(), top.sinceMs);
    auto *panel = qobject_cast<TimeSeriesPanel *>(window.view()->panels().first());
    QVERIFY(panel);
    QTRY_VERIFY(panel->data().fromMs == from);
    QVERIFY(panel->onsetMark()->lineX() > 0);
    QVERIFY(panel->isHighlighted(steppedInfo.key));
    // The list is pinned while a finding is focused.
    const int started = dock->refreshesStarted();
    dock->refresh();
    QCOMPARE(dock->refreshesStarted(), started);

    // Compare before/after: the overlay is the span before the onset, the combo says so.
    QVERIFY(dock->compareButton()->isEnabled());
    QTest::mouseClick(dock->compareButton(), Qt::LeftButton);
    const qint64 offset = findingCompareOffset(top);
    QCOMPARE(window.view()->compareOffset(), offset);
    QCOMPARE(window.compareCombo()->currentData().toLongLong(), offset);
    QVERIFY(window.compareCombo()->currentText().contains(u"before the onset"_s));
    QTRY_VERIFY(panel->data().compareOffsetMs == offset);

    // Shift+drag over the panel from the onset a minute on: What changed ranks the
    // stepped series first.
    QSignalSpy explained(dock, &FindingsDock::explained);
    ZoomableChartView *chartView = panel->chartView();
    const QRectF plot = chartView->chart()->plotArea();
    const auto xOf = [&](qint64 ms) {
        const double chartX = plot.left() + plot.width() * double(ms - from) / double(to - from);
        return chartView->mapFromScene(chartView->chart()->mapToScene(QPointF(chartX, 0))).x();
    };
    const int y = chartView->mapFromScene(chartView->chart()->mapToScene(plot.center())).y();
    const qint64 windowEnd = std::min(to - 1000, top.sinceMs + 60'000);
    QTest::mousePress(chartView->viewport(), Qt::LeftButton, Qt::ShiftModifier,
                      QPoint(xOf(top.sinceMs), y));
    QTest::mouseMove(chartView->viewport(), QPoint(xOf(windowEnd), y));
    QTest::mouseRelease(chartView->viewport(), Qt::LeftButton, Qt::ShiftModifier,
                        QPoint(xOf(windowEnd), y));
    QVERIFY(explained.wait(30'000));
    QCOMPARE(dock->tabs()->currentWidget(), dock->explainView());
    QCOMPARE(dock->changeModel()->seriesInOrder().value(0), stepped);
    // A Shift+drag explains; it does not zoom.
    QCOMPARE(window.shownRange(), std::pair(from, to));

    // Esc clears the focus: no marker, no emphasis, the list refreshes again.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_Escape);
    QVERIFY(!dock->hasFocusedFinding());
    QCOMPARE(window.view()->focusOnset(), -1);
    QCOMPARE(panel->onsetMark()->onset(), -1);
    QVERIFY(!panel->isHighlighted(steppedInfo.key));
    dock->waitForIdle();
    const int idle = dock->refreshesStarted();
    dock->refresh();
    QCOMPARE(dock->refreshesStarted(), idle + 1);
    dock->waitForIdle();
}

QTEST_MAIN(TestFindingsGui)
#include "tst_findingsgui.moc"
