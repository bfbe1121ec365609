// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shipped dashboards as the headless PNG export draws them (exportRange() and
// showForExport(), what `headroom --export-png` runs), after a short collection by the
// real collectors and from a fixed set of samples, judged by what makes the PNG worth
// sending:
// - every time panel spends its plot width on data: the share of the width between its
//   first and last point is at least 80 % of what the range rule allows (the data's
//   span over the range, which is at least a minute long);
// - no two entries of a legend read alike unless their whole names do, none is empty
//   or cut by Qt Charts (each shows exactly the name the panel gave it);
// - every row of a USE matrix has a name, and the matrix has no empty band under its
//   rows.
// The exports are written to the build directory for review (export-look/NAME.png).
#include "charts/zoomablechartview.h"
#include "dashboardview.h"
#include "document/dashboardfile.h"
#include "engine/monitoringsession.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "exportrange.h"
#include "exportview.h"
#include "imageexport.h"
#include "itemmodels/usematrixmodel.h"
#include "panels/timeseriespanel.h"
#include "panels/usematrixpanel.h"
#include "query/datastart.h"
#include "rangecontroller.h"

#include <QChart>
#include <QDateTime>
#include <QDir>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QTableView>
#include <QTest>
#include <QTextDocumentFragment>
#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Headroom;

namespace {

constexpr double MinimumShareOfAllowed = 0.8;
constexpr int MaxBandPx = 8; // the panel's margin and a pixel or two of rounding
constexpr qint64 RecordedSeconds = 180;
constexpr qint64 RecordingEndMs = 1'790'000'000'000;

QString shippedPath(const QString &name)
{
    return QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards/") + name;
}

// Every visible text a legend draws, in no particular order.
QStringList drawnTexts(const QGraphicsItem *item)
{
    QStringList texts;
    const auto children = item->childItems();
    for (const QGraphicsItem *child : children) {
        if (!child->isVisible())
            continue;
        if (const auto *text = dynamic_cast<const QGraphicsTextItem *>(child))
            texts.append(text->toPlainText());
        texts += drawnTexts(child);
    }
    return texts;
}

// What a panel's legend shows, against the whole names behind it.
QStringList legendProblems(TimeSeriesPanel *panel)
{
    QStringList problems;
    const QString id = panel->config().id;
    QLegend *legend = panel->chartView()->chart()->legend();
    if (!legend->isVisible())
        return problems; // the table legend shows the names whole
    QStringList shown;
    QStringList whole;
    const auto markers = legend->markers();
    for (const QLegendMarker *marker : markers) {
        if (!marker->isVisible())
            continue;
        shown.append(QTextDocumentFragment::fromHtml(marker->label()).toPlainText());
        whole.append(panel->legendFullName(marker));
    }
    for (qsizetype i = 0; i < shown.size(); ++i) {
        const QString text = shown.at(i).trimmed();
        if (text.isEmpty() || text == u"..."_s || text == QString(QChar(0x2026)))
            problems << u"%1: an empty legend entry (%2)"_s.arg(id, whole.at(i));
        if (whole.at(i).isEmpty())
            problems << u"%1: legend entry \"%2\" has no whole name"_s.arg(id, text);
        for (qsizetype j = i + 1; j < shown.size(); ++j) {
            if (shown.at(i) == shown.at(j) && whole.at(i) != whole.at(j))
                problems << u"%1: \"%2\" and \"%3\" both read \"%4\""_s.arg(
                    id, whole.at(i), whole.at(j), shown.at(i));
        }
    }
    // Qt Charts cuts an entry it has no room for: then it draws other text than given.
    QStringList drawn = drawnTexts(legend);
    drawn.removeAll(QString()); // the legend's title, which it has none of
    QStringList given = shown;
    drawn.sort();
    given.sort();
    if (drawn != given)
        problems << u"%1: the legend draws [%2], not [%3]"_s.arg(id, drawn.join(u" | "_s),
                                                                 given.join(u" | "_s));
    return problems;
}

// The share of the plot width between the panel's first and last point, against the
// least the range rule allows for data from dataStartMs to toMs.
QStringList shareProblems(TimeSeriesPanel *panel, qint64 dataStartMs, qint64 toMs,
                          QStringList *figures)
{
    qint64 first = 0, last = 0;
    for (const PanelSeriesData &series : panel->data().series) {
        if (series.points.empty())
            continue;
        first
            = first == 0 ? series.points.front().tsMs : std::min(first, series.points.front().tsMs);
        last = std::max(last, series.points.back().tsMs);
    }
    if (first == 0 || last <= first)
        return {}; // no line, or a single point: nothing to spread
    QChart *chart = panel->chartView()->chart();
    QAbstractSeries *anchor = chart->series().constFirst();
    const double x0 = chart->mapToPosition(QPointF(double(first), 0), anchor).x();
    const double x1 = chart->mapToPosition(QPointF(double(last), 0), anchor).x();
    const double share = (x1 - x0) / chart->plotArea().width();
    const double allowed = double(last - first)
        / double(std::max(toMs - dataStartMs, RangeController::MinimumGrowingMs));
    figures->append(u"%1 %2 %"_s.arg(panel->config().id).arg(100 * share, 0, 'f', 1));
    if (share < MinimumShareOfAllowed * std::min(1.0, allowed))
        return { u"%1: data on %2 % of the plot width, the range allows %3 %"_s
                     .arg(panel->config().id)
                     .arg(100 * share, 0, 'f', 1)
                     .arg(100 * allowed, 0, 'f', 1) };
    return {};
}

QStringList useProblems(UseMatrixPanel *panel)
{
    QStringList problems;
    const QString id = panel->config().id;
    const QAbstractItemModel *model = panel->tableView()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->headerData(row, Qt::Vertical).toString().trimmed().isEmpty()) {
            QStringList cells;
            for (int column = 0; column < model->columnCount(); ++column)
                cells << model->index(row, column).data().toString();
            problems << u"%1: row %2 has no name (%3)"_s.arg(id).arg(row).arg(cells.join(u", "_s));
        }
    }
    if (model->rowCount() > 0) {
        const int band = panel->height() - panel->tableView()->geometry().bottom() - 1;
        if (band > MaxBandPx)
            problems << u"%1: %2 px empty under its %3 rows"_s.arg(id).arg(band).arg(
                model->rowCount());
    }
    return problems;
}

// Exports the dashboard from the store as `headroom --export-png` does, with the
// default range (no --from, --to or --range), and measures it.
void exportAndMeasure(const Dashboard &dashboard, const SeriesRegistry &registry,
                      const SeriesStore &store, qint64 endMs, const QString &name)
{
    const CommandLine options; // the defaults: the range rule applies
    QString error;
    const auto range = exportRange(dashboard, options, registry, store, endMs,
                                   endMs - dashboard.rangeMs, &error);
    QVERIFY2(range, qPrintable(error));
    const auto [from, to] = *range;
    DashboardView view(&registry);
    view.setStore(&store);
    view.setDashboard(dashboard);
    showForExport(&view, options.width, from, to);

    const qint64 dataStart = dashboardDataStartMs(dashboard.panels, registry, store,
                                                  endMs - dashboard.rangeMs, endMs, 1600);
    QStringList problems;
    QStringList figures;
    int timePanels = 0, legends = 0, matrices = 0;
    for (PanelWidget *panel : view.panels()) {
        if (auto *chart = qobject_cast<TimeSeriesPanel *>(panel)) {
            if (!panel->config().query.isEmpty())
                continue; // a PromQL engine's lines: none here
            problems += shareProblems(chart, dataStart, to, &figures);
            problems += legendProblems(chart);
            timePanels += !panel->data().series.isEmpty();
            legends += chart->chartView()->chart()->legend()->markers().size();
        } else if (auto *use = qobject_cast<UseMatrixPanel *>(panel)) {
            problems += useProblems(use);
            ++matrices;
        }
    }
    const QString dir = QStringLiteral(HEADROOM_BUILD_DIR "/export-look");
    QVERIFY(QDir().mkpath(dir));
    const QString png = dir + u'/' + name + u".png"_s;
    QVERIFY2(writePng(&view, 1.0, png, &error), qPrintable(error));
    qInfo("%s: range %s to %s, %d time panels with lines, %d legend entries, %d USE "
          "matrices; data share: %s; PNG in %s",
          qPrintable(name), qPrintable(QDateTime::fromMSecsSinceEpoch(from).toString(Qt::ISODate)),
          qPrintable(QDateTime::fromMSecsSinceEpoch(to).toString(Qt::ISODate)), timePanels, legends,
          matrices, qPrintable(figures.join(u", "_s)), qPrintable(png));
    QVERIFY(timePanels > 0 || matrices > 0);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

// Samples for every time and USE panel's selectors of a dashboard: eight lines per
// selector whose names share a schema and a suffix and differ in the middle and at
// the end, one of them with no resource; RecordedSeconds at 1 s, up to RecordingEndMs.
void recordSeriesFor(const Dashboard &dashboard, SeriesRegistry *registry, LiveBuffers *live)
{
    int n = 0;
    for (const DashboardPanel &panel : dashboard.panels) {
        if (panel.type != PanelType::TimeSeries && panel.type != PanelType::UseMatrix)
            continue;
        for (const SeriesSelector &selector : panel.series) {
            QString metric = selector.metric;
            metric.replace(u'*', u"synthetic"_s);
            for (int line = 0; line < 8; ++line, ++n) {
                Labels labels;
                for (auto it = selector.labels.cbegin(); it != selector.labels.cend(); ++it)
                    labels.insert(it.key(),
                                  it.value().contains(u'*')
                                      ? u"public.kv_hot_%1_p%2"_s.arg(n % 3).arg(line)
                                      : it.value());
                labels.insert(u"relname"_s, u"public.kv_hot_%1_p%2.rate"_s.arg(n % 3).arg(line));
                const QString resource = line == 0 ? QString() : u"db:app%1"_s.arg(line % 2);
                const int id = registry->idFor(SeriesInfo { { selector.source, metric, labels },
                                                            u"%"_s,
                                                            resource,
                                                            UseKind::Utilization,
                                                            false });
                for (qint64 t = 0; t < RecordedSeconds; ++t)
                    live->append(id,
                                 { RecordingEndMs - (RecordedSeconds - 1 - t) * 1000,
                                   double((t + n) % 17) });
            }
        }
    }
}

} // namespace

class TestExportLook : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fixedData_data();
    void fixedData();
    void shortCollection_data();
    void shortCollection();
};

void TestExportLook::fixedData_data()
{
    QTest::addColumn<QString>("name");
    const QStringList names
        = QDir(shippedPath({})).entryList({ u"*.json"_s }, QDir::Files, QDir::Name);
    QVERIFY(names.size() >= 2);
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << name;
}

void TestExportLook::fixedData()
{
    QFETCH(QString, name);
    const DashboardLoadResult loaded = loadDashboard(shippedPath(name));
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    SeriesRegistry registry;
    LiveBuffers live(int(RecordedSeconds) + 10);
    recordSeriesFor(*loaded.dashboard, &registry, &live);
    const SeriesStore store(&live, nullptr);
    exportAndMeasure(*loaded.dashboard, registry, store, RecordingEndMs,
                     u"fixed-"_s + QFileInfo(name).completeBaseName());
}

void TestExportLook::shortCollection_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("conninfo"); // the PostgreSQL dashboard's server
    QTest::newRow("host-use") << u"host-use.json"_s << QString();
    const QString host = qEnvironmentVariable("HEADROOM_TEST_PGHOST");
    const QString port = qEnvironmentVariable("HEADROOM_TEST_PGPORT");
    QTest::newRow("postgres-use") << u"postgres-use.json"_s
                                  << (host.isEmpty()
                                          ? QString()
                                          : u"host=%1 port=%2 dbname=postgres user=postgres"_s.arg(
                                                host, port));
}

// A collection of a few seconds by the real collectors, then the export: the charts
// must show it across their width, not in a sliver at the right edge of the
// dashboard's 15 minutes.
void TestExportLook::shortCollection()
{
    QFETCH(QString, name);
    QFETCH(QString, conninfo);
    if (name.startsWith(u"postgres"_s) && conninfo.isEmpty())
        QSKIP("no test PostgreSQL: run through tests/run-tests (./dev test)");
    const DashboardLoadResult loaded = loadDashboard(shippedPath(name));
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    Dashboard dashboard = *loaded.dashboard;
    MonitoringSession session;
    QCOMPARE(session.loadPlugins(), QStringList());
    QMap<QString, QString> variables;
    if (!conninfo.isEmpty())
        variables.insert(u"pg"_s, conninfo);
    session.start(dashboard, variables);
    // Until the charts have 8 s of data (rates need two polls): polled, not slept.
    constexpr qint64 Collected = 8000;
    const qint64 started = QDateTime::currentMSecsSinceEpoch();
    const auto collected = [&] {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 start = dashboardDataStartMs(dashboard.panels, session.registry(),
                                                  *session.store(), started - 1000, now, 400);
        return start > 0 && now - start >= Collected;
    };
    QTRY_VERIFY_WITH_TIMEOUT(collected(), 30000);
    session.stop();
    exportAndMeasure(dashboard, session.registry(), *session.store(),
                     QDateTime::currentMSecsSinceEpoch(),
                     u"live-"_s + QFileInfo(name).completeBaseName());
}

QTEST_MAIN(TestExportLook)
#include "tst_exportlook.moc"
