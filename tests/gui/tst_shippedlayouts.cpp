// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Every shipped dashboard as a user first sees it on a 1920×1080 screen: the dashboard
// area of the window (the screen less title bar, menu, toolbar and status bar), panels
// at their grid heights, no two overlapping, none shorter than 160 px, a USE matrix as
// tall as its rows (every row shown, no empty band under them), and every legend name
// reachable in full (the whole name behind each list legend entry, which it shows on
// hover, or the table legend's tooltip; the legends of panels read from a PromQL engine
// are not drawn here).
// The first screen of each is written to the build directory for review
// (shipped-layouts/NAME.png).
#include "charts/zoomablechartview.h"
#include "dashboardview.h"
#include "document/dashboardfile.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "panels/panelwidget.h"
#include "panels/timeseriespanel.h"
#include "panels/usematrixpanel.h"

#include <QChart>
#include <QDir>
#include <QLegend>
#include <QLegendMarker>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Headroom;

namespace {

constexpr QSize Screen { 1920, 1080 };
// Title bar, menu bar, toolbar and status bar of the main window, as on this desktop.
constexpr int WindowChromePx = 150;
constexpr int MinimumPanelPx = 160;
constexpr qint64 Seconds = 120;

// A value longer than any legend entry has room for.
QString longValue(const QString &what, int n)
{
    return u"%1-%2-a-name-long-enough-that-no-legend-entry-can-show-it-whole"_s.arg(what).arg(n);
}

// Series for every time series panel's selectors, with long label values (those its
// legend template names, and one more), 2 minutes at 1 s.
void addSeriesFor(const Dashboard &dashboard, SeriesRegistry *registry, LiveBuffers *live)
{
    static const QRegularExpression placeholder(u"\\{(\\w+)\\}"_s);
    int n = 0;
    for (const DashboardPanel &panel : dashboard.panels) {
        if (panel.type != PanelType::TimeSeries)
            continue;
        for (const SeriesSelector &selector : panel.series) {
            for (int line = 0; line < 3; ++line) {
                Labels labels;
                for (auto it = selector.labels.cbegin(); it != selector.labels.cend(); ++it)
                    labels.insert(it.key(),
                                  it.value().contains(u'*') ? longValue(it.key(), n) : it.value());
                for (const auto &match : placeholder.globalMatch(panel.legend)) {
                    if (!labels.contains(match.captured(1)))
                        labels.insert(match.captured(1), longValue(match.captured(1), n));
                }
                labels.insert(u"name"_s, longValue(u"name"_s, n));
                QString metric = selector.metric;
                metric.replace(u'*', u"synthetic"_s);
                const int id = registry->idFor(SeriesInfo { { selector.source, metric, labels },
                                                            u"1"_s,
                                                            u"r"_s,
                                                            UseKind::Utilization,
                                                            false });
                for (qint64 t = 0; t < Seconds; ++t)
                    live->append(id, { t * 1000, double((t + n) % 17) });
                ++n;
            }
        }
    }
}

} // namespace

class TestShippedLayouts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void firstScreen_data();
    void firstScreen();
};

void TestShippedLayouts::firstScreen_data()
{
    QTest::addColumn<QString>("path");
    const QDir shipped(QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards"));
    const QStringList names = shipped.entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    QVERIFY(names.size() >= 2);
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << shipped.filePath(name);
}

void TestShippedLayouts::firstScreen()
{
    QFETCH(QString, path);
    const DashboardLoadResult loaded = loadDashboard(path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    const Dashboard &dashboard = *loaded.dashboard;

    SeriesRegistry registry;
    LiveBuffers live(int(Seconds) + 10);
    addSeriesFor(dashboard, &registry, &live);
    const SeriesStore store(&live, nullptr);

    QScrollArea window;
    window.setWidgetResizable(true);
    auto *view = new DashboardView(&registry);
    view->setStore(&store);
    view->setDashboard(dashboard);
    window.setWidget(view);
    window.resize(Screen.width(), Screen.height() - WindowChromePx);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy refreshed(view, &DashboardView::refreshed);
    view->refresh(0, (Seconds - 1) * 1000);
    QTRY_VERIFY(refreshed.count() >= 1);
    QCoreApplication::processEvents();

    const QList<PanelWidget *> &panels = view->panels();
    QCOMPARE(panels.size(), dashboard.panels.size());
    for (qsizetype i = 0; i < panels.size(); ++i) {
        const PanelWidget *panel = panels.at(i);
        const QString what = u"%1 (%2)"_s.arg(panel->config().id).arg(panel->geometry().height());
        if (const auto *use = qobject_cast<const UseMatrixPanel *>(panel)) {
            // As tall as its rows: all of them shown, nothing empty below.
            const QTableView *table = use->tableView();
            QVERIFY2(panel->fittedHeight() > 0, qPrintable(what));
            QVERIFY2(
                std::abs(panel->height() - panel->fittedHeight()) <= 1,
                qPrintable(
                    what + u" is not as tall as its content, %1 px"_s.arg(panel->fittedHeight())));
            QVERIFY2(table->verticalScrollBar()->maximum() == 0,
                     qPrintable(what + u" scrolls its rows"_s));
            QVERIFY2(table->model()->rowCount() == 0
                         || panel->height() - table->geometry().bottom() - 1 <= 8,
                     qPrintable(what + u" has an empty band under its rows"_s));
            continue;
        }
        QVERIFY2(panel->height() >= MinimumPanelPx, qPrintable(what + u" is too short"_s));
        // Its height is the grid's, never squeezed to fit the window (which scrolls).
        QVERIFY2(panel->height() >= panel->config().layout.h
                         * (DashboardView::RowUnitPx - DashboardView::GridSpacingPx),
                 qPrintable(what + u" is squeezed"_s));
        for (qsizetype j = i + 1; j < panels.size(); ++j) {
            QVERIFY2(!panel->geometry().intersects(panels.at(j)->geometry()),
                     qPrintable(what + u" overlaps "_s + panels.at(j)->config().id));
        }
    }
    int names = 0;
    for (PanelWidget *panel : panels) {
        auto *timeSeries = qobject_cast<TimeSeriesPanel *>(panel);
        // A PromQL panel's lines come from an engine, which this test runs none of
        // (tst_fleetuse draws the fleet dashboard from a real Prometheus).
        if (!timeSeries || !panel->config().query.isEmpty())
            continue;
        const QString id = panel->config().id;
        QVERIFY2(!panel->data().series.isEmpty(), qPrintable(id + u": no lines"_s));
        QStringList expected;
        for (const PanelSeriesData &series : panel->data().series)
            expected << series.name;
        if (QTableView *table = timeSeries->legendTable()) {
            // Cut in the cell, whole in its tooltip.
            const QAbstractItemModel *model = table->model();
            QCOMPARE(model->rowCount(), expected.size());
            for (int row = 0; row < model->rowCount(); ++row) {
                const QString tip = model->index(row, LegendTableModel::NameColumn)
                                        .data(Qt::ToolTipRole)
                                        .toString();
                const bool whole
                    = std::any_of(expected.cbegin(), expected.cend(),
                                  [&](const QString &name) { return tip.contains(name); });
                QVERIFY2(whole, qPrintable(id + u": tooltip "_s + tip));
                ++names;
            }
            continue;
        }
        // The chart's own legend shows a short name where a long one has no room, and
        // the whole name on hover: compared with that, not with the text shown.
        QLegend *legend = timeSeries->chartView()->chart()->legend();
        QStringList wholeNames;
        for (const auto allMarkers = legend->markers(); QLegendMarker * marker : allMarkers)
            wholeNames << timeSeries->legendFullName(marker);
        for (const QString &name : std::as_const(expected)) {
            QVERIFY2(wholeNames.contains(name), qPrintable(id + u": no legend entry "_s + name));
            ++names;
        }
    }
    const bool readsEngines = std::all_of(
        dashboard.panels.cbegin(), dashboard.panels.cend(), [](const DashboardPanel &p) {
            return p.type != PanelType::TimeSeries || !p.query.isEmpty();
        });
    QVERIFY(names > 0 || readsEngines);

    const QString dir = QStringLiteral(HEADROOM_BUILD_DIR "/shipped-layouts");
    QVERIFY(QDir().mkpath(dir));
    const QString png = dir + u'/' + QFileInfo(path).completeBaseName() + u".png"_s;
    QVERIFY2(window.grab().save(png), qPrintable(png));
    qInfo("%s: %d panels, %d legend names, first screen in %s", qPrintable(path),
          int(panels.size()), names, qPrintable(png));
}

QTEST_MAIN(TestShippedLayouts)
#include "tst_shippedlayouts.moc"
