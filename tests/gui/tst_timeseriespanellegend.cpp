// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The legends of a time series panel: the table legend sorts and isolates a line, a
// click on the list legend isolates one; and a target's text (a label value, a title)
// shows as text in the legend, the title and the hover, never as markup.
#include "charts/charttext.h"
#include "charts/zoomablechartview.h"
#include "imageexport.h"
#include "imagetestutil.h"
#include "itemmodels/legendtablemodel.h"
#include "literaltestutil.h"
#include "panels/timeseriespanel.h"
#include "timeseriespaneltestutil.h"

#include <QChart>
#include <QDir>
#include <QElapsedTimer>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestTimeSeriesPanelLegend : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableLegendSortsAndIsolates();
    void listLegendClickIsolates();
    void targetTextIsNeverMarkup_data();
    void targetTextIsNeverMarkup();
    void longNamesReachTheChartCut_data();
    void longNamesReachTheChartCut();
    void narrowLegendTellsLinesApart_data();
    void narrowLegendTellsLinesApart();
};

void TestTimeSeriesPanelLegend::tableLegendSortsAndIsolates()
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

void TestTimeSeriesPanelLegend::listLegendClickIsolates()
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
    for (const auto markers = panel.chartView()->chart()->legend()->markers();
         QLegendMarker * m : markers)
        if (m->label() == u"cpu.utilization cpu0"_s)
            cpu0Marker = m;
    QVERIFY(cpu0Marker);
    Q_EMIT cpu0Marker->clicked();
    QCOMPARE(panel.isolated(), QSet<SeriesKey> { data.series[0].info.key });
    QVERIFY(panel.lineWidth(data.series[0].info.key) > 0);
    QCOMPARE(panel.lineWidth(data.series[1].info.key), 0.0);
    // The hidden line's name is greyed, the shown one keeps the chart's colour.
    for (const auto markers = panel.chartView()->chart()->legend()->markers();
         QLegendMarker * m : markers)
        if (m->label() == u"cpu.utilization cpu1"_s)
            QCOMPARE(m->labelBrush().color(), QColor(Qt::gray));
    QVERIFY(cpu0Marker->labelBrush().color() != QColor(Qt::gray));
    Q_EMIT cpu0Marker->clicked();
    QVERIFY(panel.isolated().isEmpty());
    QVERIFY(panel.lineWidth(data.series[1].info.key) > 0);
}

void TestTimeSeriesPanelLegend::targetTextIsNeverMarkup_data()
{
    QTest::addColumn<QString>("legendDisplay");
    QTest::addColumn<bool>("stacked");
    QTest::newRow("list legend") << u"list"_s << false;
    QTest::newRow("stacked") << u"list"_s << true;
    QTest::newRow("table legend") << u"table"_s << false;
}

// A label value (an application_name, an engine's instance label) and a panel title
// with a tag naming a local image: the legend, the title and the hover show the text,
// and the exported PNG has not one pixel of the image.
void TestTimeSeriesPanelLegend::targetTextIsNeverMarkup()
{
    QFETCH(QString, legendDisplay);
    QFETCH(bool, stacked);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString red = Headroom::Test::writeRedPng(QDir(dir.path()));
    QVERIFY(!red.isEmpty());
    const QString tag = u"<img src=%1>"_s.arg(red);
    DashboardPanel config = panelConfig();
    config.title = tag;
    config.options.insert(u"legendDisplay"_s, legendDisplay);
    config.options.insert(u"stacked"_s, stacked);
    TimeSeriesPanel panel(config);
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    data.series.append(series(1, tag, { { 0, 40 }, { 5000, 40 }, { 10'000, 40 } }));
    panel.setData(data);
    QCoreApplication::processEvents(); // the legend is laid out on a posted event
    const QString name = u"cpu.utilization "_s + tag;

    // What the chart shows as text: the title, and the legend entry unless in a table.
    QStringList texts;
    const auto items = panel.chartView()->scene()->items();
    for (QGraphicsItem *item : items)
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
            texts.append(text->toPlainText());
    QVERIFY2(texts.contains(tag), qPrintable(texts.join(u" | "_s)));
    if (legendDisplay == u"list"_s)
        QVERIFY2(texts.contains(name), qPrintable(texts.join(u" | "_s)));

    // The PNG export: the panel as the app writes it.
    const QString png = dir.filePath(u"panel.png"_s);
    QString error;
    QVERIFY2(writePng(&panel, 1.0, png, &error), qPrintable(error));
    QCOMPARE(countColor(QImage(png), QColor(255, 0, 0)), 0);

    // The hover over the line, and the table legend's tooltip.
    if (!stacked) {
        QChart *chart = panel.chartView()->chart();
        const QPointF onLine
            = chart->mapToPosition(QPointF(5000, 40), chart->series().constFirst());
        Q_EMIT panel.chartView()->plotHovered(onLine, true);
        QVERIFY(Headroom::Test::visibleToolTip());
        QVERIFY2(Headroom::Test::shownAsAutoText(QToolTip::text()).startsWith(name + u'\n'),
                 qPrintable(QToolTip::text()));
        QCOMPARE(countColor(Headroom::Test::visibleToolTip()->grab().toImage(), QColor(255, 0, 0)),
                 0);
        QToolTip::hideText();
    }
    if (QTableView *table = panel.legendTable()) {
        Headroom::Test::hoverItem(table, table->model()->index(0, LegendTableModel::NameColumn));
        QVERIFY(Headroom::Test::visibleToolTip());
        QVERIFY2(Headroom::Test::shownAsAutoText(QToolTip::text()).startsWith(name),
                 qPrintable(QToolTip::text()));
        QCOMPARE(countColor(Headroom::Test::visibleToolTip()->grab().toImage(), QColor(255, 0, 0)),
                 0);
        QToolTip::hideText();
    }
}

// A name from a recording's labels or a dashboard's title may be hundreds of KB. Qt
// Charts fits a text too wide for its place by building every prefix of it (time and
// memory quadratic in its length: a 400 KB legend name took a PNG export 69 s), so the
// panel names a line, in the legend and on hover, by at most MaxChartTextChars, and
// cuts the title alike. The time is printed, not asserted.
void TestTimeSeriesPanelLegend::longNamesReachTheChartCut_data()
{
    QTest::addColumn<int>("chars");
    QTest::newRow("10 KB") << 10 * 1024;
    QTest::newRow("400 KB") << 400 * 1024;
}

void TestTimeSeriesPanelLegend::longNamesReachTheChartCut()
{
    QFETCH(int, chars);
    const QString value(chars, u'x');
    DashboardPanel config = panelConfig();
    config.title = value;
    QElapsedTimer timer;
    timer.start();
    TimeSeriesPanel panel(config);
    panel.resize(800, 300);
    panel.show();
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    data.series.append(series(1, value, { { 0, 4 }, { 5000, 5 }, { 10'000, 6 } }));
    panel.setData(data);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents(); // the legend and the title are laid out
    const QImage image = panel.grab().toImage();
    qInfo("a legend name and a title of %d characters: shown in %lld ms", chars,
          qint64(timer.elapsed()));
    QVERIFY(!image.isNull());
    QChart *chart = panel.chartView()->chart();
    auto *line = qobject_cast<QLineSeries *>(chart->series().constFirst());
    // The legend shows what fits its width; the whole name is cut at the chart's limit.
    const QString whole = panel.legendFullName(chart->legend()->markers(line).constFirst());
    QCOMPARE(whole.size(), MaxChartTextChars);
    QVERIFY(whole.endsWith(QChar(0x2026)));
    QVERIFY(line->name().size() < 200);
    QCOMPARE(chart->title().size(), MaxChartTextChars);
    const QString hover = panel.hoverText(chart->mapToPosition(QPointF(5000, 5), line));
    QVERIFY2(hover.startsWith(whole + u'\n'), qPrintable(hover.left(80)));
}

// Eight shards of one table in a narrow panel: Qt Charts alone cuts every name to the
// same "cpu.utilization p…", or to a marker without text. The legend drops what they
// share and their middles, so each entry reads differently and is drawn whole, and
// hovering one shows its whole name.
void TestTimeSeriesPanelLegend::narrowLegendTellsLinesApart_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("lines");
    QTest::newRow("420 px, 8 lines") << 420 << 8;
    QTest::newRow("800 px, 8 lines") << 800 << 8;
    QTest::newRow("300 px, 12 lines") << 300 << 12;
}

void TestTimeSeriesPanelLegend::narrowLegendTellsLinesApart()
{
    QFETCH(int, width);
    QFETCH(int, lines);
    TimeSeriesPanel panel(panelConfig());
    panel.resize(width, 260);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    PanelData data = emptyData(u"cpu"_s, 0, 10'000);
    QStringList whole;
    for (int i = 1; i <= lines; ++i) {
        data.series.append(series(i, u"public.kv_hot_partitioned_p%1"_s.arg(i),
                                  { { 0, double(i) }, { 10'000, double(i) } }));
        whole << u"cpu.utilization public.kv_hot_partitioned_p%1"_s.arg(i);
    }
    panel.setData(data);
    QCoreApplication::processEvents(); // the legend is laid out on a posted event

    QLegend *legend = panel.chartView()->chart()->legend();
    QStringList shown;
    QStringList names;
    for (const auto allMarkers = legend->markers(); QLegendMarker * marker : allMarkers) {
        shown << marker->label();
        names << panel.legendFullName(marker);
    }
    QCOMPARE(names, whole);
    QCOMPARE(int(QSet<QString>(shown.cbegin(), shown.cend()).size()), lines);
    // What the legend draws is what it was given: nothing cut, nothing empty.
    QStringList drawn;
    const auto items = panel.chartView()->scene()->items();
    for (QGraphicsItem *item : items) {
        auto *text = dynamic_cast<QGraphicsTextItem *>(item);
        if (text && text->isVisible() && legend->isAncestorOf(text)
            && !text->toPlainText().isEmpty())
            drawn << text->toPlainText();
    }
    drawn.sort();
    shown.sort();
    QCOMPARE(drawn, shown);
    for (const QString &text : std::as_const(shown))
        QVERIFY2(QString(text).remove(QChar(0x2026)).size() >= 3, qPrintable(text));

    QLegendMarker *third = legend->markers().at(2);
    Q_EMIT third->hovered(true);
    QVERIFY(Headroom::Test::visibleToolTip());
    QCOMPARE(Headroom::Test::shownAsAutoText(QToolTip::text()), whole.at(2));
    Q_EMIT third->hovered(false);
}

QTEST_MAIN(TestTimeSeriesPanelLegend)
#include "tst_timeseriespanellegend.moc"
