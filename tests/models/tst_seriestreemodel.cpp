// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The series tree (source → metric → series) and the picker chain over it: model
// contracts while series appear, the flattened text, word filtering, selectors.
#include "engine/runtime/seriesregistry.h"
#include "itemmodels/seriespickermodel.h"
#include "itemmodels/seriestreemodel.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QPersistentModelIndex>
#include <QTest>
#include <ctime>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

SeriesInfo info(const QString &source, const QString &metric, const QString &labels,
                const QString &unit = u"%"_s, UseKind kind = UseKind::Utilization)
{
    bool ok = false;
    const Labels parsed = labels.isEmpty() ? Labels() : labelsFromString(labels, &ok);
    if (!labels.isEmpty() && !ok)
        qFatal("bad labels in test data");
    return { { source, metric, parsed }, unit, u"cpu"_s, kind, false };
}

QStringList displayed(const QAbstractItemModel &model)
{
    QStringList rows;
    for (int r = 0; r < model.rowCount(); ++r)
        rows.append(model.index(r, 0).data().toString());
    return rows;
}

SeriesSelector selectorAt(const QModelIndex &index)
{
    return index.data(SeriesTreeModel::SelectorRole).value<SeriesSelector>();
}

} // namespace

class TestSeriesTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void growsInPlaceUnderTesters();
    void filter_data();
    void filter();
    void selectorPerLevel();
    void rolesAndToolTips();
    void manySeries();
};

void TestSeriesTreeModel::growsInPlaceUnderTesters()
{
    SeriesRegistry registry;
    registry.idFor(info(u"host"_s, u"host.cpu.utilization"_s, u"{cpu=all}"_s));
    SeriesTreeModel tree(registry);
    SeriesPickerModel picker(&tree);
    using Mode = QAbstractItemModelTester::FailureReportingMode;
    QAbstractItemModelTester treeTester(&tree, Mode::Fatal);
    QAbstractItemModelTester descendantsTester(picker.descendants(), Mode::Fatal);
    QAbstractItemModelTester pickerTester(&picker, Mode::Fatal);
    picker.setFilterText(u"cpu"_s);

    QCOMPARE(tree.rowCount(), 1);
    const QPersistentModelIndex cpuMetric = tree.index(0, 0, tree.index(0, 0));
    QCOMPARE(cpuMetric.data().toString(), u"host.cpu.utilization"_s);
    QCOMPARE(tree.refresh(), 0); // nothing new

    // New series land in sorted places, before and after the existing ones, at every
    // level; refresh() reports how many it inserted.
    registry.idFor(info(u"host"_s, u"host.cpu.utilization"_s, u"{cpu=10}"_s));
    registry.idFor(info(u"host"_s, u"host.cpu.utilization"_s, u"{cpu=2}"_s));
    registry.idFor(info(u"host"_s, u"host.aaa"_s, {}));
    registry.idFor(info(u"db"_s, u"pg.up"_s, {}, u""_s, UseKind::Info));
    registry.idFor(info(u"host"_s, u"host.mem.utilization"_s, {}));
    QCOMPARE(tree.refresh(), 5);
    QCOMPARE(tree.refresh(), 0);

    // The index taken before still points at the same node.
    QVERIFY(cpuMetric.isValid());
    QCOMPARE(cpuMetric.data().toString(), u"host.cpu.utilization"_s);
    QCOMPARE(cpuMetric.row(), 1);
    QCOMPARE(displayed(tree), (QStringList { u"db"_s, u"host"_s }));
    // Natural order: 2 before 10.
    QStringList labelRows;
    for (int r = 0; r < tree.rowCount(cpuMetric); ++r)
        labelRows.append(tree.index(r, 0, cpuMetric).data().toString());
    QCOMPARE(labelRows, (QStringList { u"cpu=2"_s, u"cpu=10"_s, u"cpu=all"_s }));

    // Flattened: every node is a row, named with its ancestors, in tree order.
    QCOMPARE(displayed(*picker.descendants()),
             (QStringList {
                 u"db"_s, u"db / pg.up"_s, u"host"_s, u"host / host.aaa"_s,
                 u"host / host.cpu.utilization"_s, u"host / host.cpu.utilization / cpu=2"_s,
                 u"host / host.cpu.utilization / cpu=10"_s,
                 u"host / host.cpu.utilization / cpu=all"_s, u"host / host.mem.utilization"_s }));
    // The filter set before the series arrived applies to the new rows.
    QCOMPARE(picker.rowCount(), 4);
    picker.setFilterText({});
    QCOMPARE(picker.rowCount(), 9);
}

void TestSeriesTreeModel::filter_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("rows");
    const QString all = u"host / host.cpu.utilization / cpu=all"_s;
    QTest::newRow("two words") << u"cpu all"_s << QStringList { all };
    QTest::newRow("any order, any case") << u"  ALL\tCpu "_s << QStringList { all };
    QTest::newRow("across levels")
        << u"host util 0"_s << QStringList { u"host / host.cpu.utilization / cpu=0"_s };
    QTest::newRow("a metric and its series")
        << u"sessions"_s
        << QStringList { u"db / pg.activity.sessions"_s,
                         u"db / pg.activity.sessions / state=active"_s,
                         u"db / pg.activity.sessions / state=idle"_s };
    QTest::newRow("every word must match") << u"cpu sessions"_s << QStringList {};
    QTest::newRow("a word inside a label value")
        << u"alloc"_s << QStringList { u"db / pg.db.commits.rate / datname=allocs"_s };
    QTest::newRow("empty shows all") << u"   "_s
                                     << QStringList {
                                            u"db"_s,
                                            u"db / pg.activity.sessions"_s,
                                            u"db / pg.activity.sessions / state=active"_s,
                                            u"db / pg.activity.sessions / state=idle"_s,
                                            u"db / pg.db.commits.rate"_s,
                                            u"db / pg.db.commits.rate / datname=allocs"_s,
                                            u"host"_s,
                                            u"host / host.cpu.utilization"_s,
                                            u"host / host.cpu.utilization / cpu=0"_s,
                                            all,
                                            u"host / host.mem.utilization"_s,
                                        };
}

void TestSeriesTreeModel::filter()
{
    QFETCH(QString, text);
    QFETCH(QStringList, rows);
    SeriesRegistry registry;
    SeriesTreeModel tree(registry);
    SeriesPickerModel picker(&tree);
    QAbstractItemModelTester tester(&picker, QAbstractItemModelTester::FailureReportingMode::Fatal);
    picker.setFilterText(text);
    // Series arriving after the filter was set are filtered too.
    registry.idFor(info(u"host"_s, u"host.cpu.utilization"_s, u"{cpu=all}"_s));
    registry.idFor(info(u"host"_s, u"host.cpu.utilization"_s, u"{cpu=0}"_s));
    registry.idFor(info(u"host"_s, u"host.mem.utilization"_s, {}));
    registry.idFor(info(u"db"_s, u"pg.activity.sessions"_s, u"{state=active}"_s));
    registry.idFor(info(u"db"_s, u"pg.activity.sessions"_s, u"{state=idle}"_s));
    registry.idFor(info(u"db"_s, u"pg.db.commits.rate"_s, u"{datname=allocs}"_s));
    tree.refresh();
    QCOMPARE(displayed(picker), rows);
    QCOMPARE(picker.filterText(), text);
}

void TestSeriesTreeModel::selectorPerLevel()
{
    SeriesRegistry registry;
    const int all = registry.idFor(info(u"host"_s, u"host.cpu.utilization"_s, u"{cpu=all}"_s));
    const int mem = registry.idFor(info(u"host"_s, u"host.mem.utilization"_s, {}));
    SeriesTreeModel tree(registry);
    SeriesPickerModel picker(&tree);

    const QModelIndex source = tree.index(0, 0);
    const QModelIndex metric = tree.index(0, 0, source);
    const QModelIndex series = tree.index(0, 0, metric);
    const QModelIndex memMetric = tree.index(1, 0, source);
    QCOMPARE(selectorAt(source), (SeriesSelector { u"host"_s, u"*"_s, {} }));
    QCOMPARE(selectorAt(metric), (SeriesSelector { u"host"_s, u"host.cpu.utilization"_s, {} }));
    QCOMPARE(selectorAt(series),
             (SeriesSelector { u"host"_s, u"host.cpu.utilization"_s,
                               Labels { { u"cpu"_s, u"all"_s } } }));
    // A series without labels is its metric's node; no empty child row.
    QCOMPARE(tree.rowCount(memMetric), 0);
    QCOMPARE(memMetric.data(SeriesTreeModel::SeriesIdRole).toInt(), mem);
    QCOMPARE(series.data(SeriesTreeModel::SeriesIdRole).toInt(), all);
    QVERIFY(!metric.data(SeriesTreeModel::SeriesIdRole).isValid());
    QCOMPARE(source.data(SeriesTreeModel::NodeKindRole).toInt(),
             int(SeriesTreeModel::NodeKind::Source));
    QCOMPARE(metric.data(SeriesTreeModel::NodeKindRole).toInt(),
             int(SeriesTreeModel::NodeKind::Metric));
    QCOMPARE(series.data(SeriesTreeModel::NodeKindRole).toInt(),
             int(SeriesTreeModel::NodeKind::Series));

    // Through the whole chain each selector still matches what its level stands for.
    picker.setFilterText(u"cpu all"_s);
    QCOMPARE(picker.rowCount(), 1);
    const SeriesSelector picked = selectorAt(picker.index(0, 0));
    QVERIFY(picked.matches({ u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } } }));
    QVERIFY(!picked.matches({ u"host"_s, u"host.cpu.utilization"_s, { { u"cpu"_s, u"0"_s } } }));
    picker.setFilterText(u"host"_s);
    const SeriesSelector everything = selectorAt(picker.index(0, 0));
    QVERIFY(everything.matches({ u"host"_s, u"host.mem.utilization"_s, {} }));
    QVERIFY(!everything.matches({ u"db"_s, u"host.mem.utilization"_s, {} }));
}

void TestSeriesTreeModel::rolesAndToolTips()
{
    SeriesRegistry registry;
    registry.idFor(
        info(u"host"_s, u"host.disk.latency"_s, u"{disk=vda}"_s, u"ms"_s, UseKind::Latency));
    SeriesTreeModel tree(registry);
    SeriesPickerModel picker(&tree);
    const QModelIndex source = tree.index(0, 0);
    const QModelIndex metric = tree.index(0, 0, source);
    const QModelIndex series = tree.index(0, 0, metric);
    QCOMPARE(series.data(SeriesTreeModel::UnitRole).toString(), u"ms"_s);
    QCOMPARE(series.data(SeriesTreeModel::UseKindRole).toInt(), int(UseKind::Latency));
    QCOMPARE(metric.data(SeriesTreeModel::UnitRole).toString(), u"ms"_s);
    const QString tip = series.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(u"host.disk.latency{disk=vda}"_s) && tip.contains(u"ms"_s)
                 && tip.contains(useKindName(UseKind::Latency)),
             qPrintable(tip));
    QVERIFY(source.data(Qt::ToolTipRole).toString().contains(u"1 series"_s));

    // The source's count follows new series (dataChanged keeps views current).
    registry.idFor(
        info(u"host"_s, u"host.disk.latency"_s, u"{disk=vdb}"_s, u"ms"_s, UseKind::Latency));
    tree.refresh();
    QCOMPARE(source.data(SeriesTreeModel::SeriesCountRole).toInt(), 2);
    QVERIFY(source.data(Qt::ToolTipRole).toString().contains(u"2 series"_s));
    // Roles other than the text pass through the flattening proxy and the filter.
    picker.setFilterText(u"vdb"_s);
    QCOMPARE(picker.rowCount(), 1);
    QCOMPARE(picker.index(0, 0).data(SeriesTreeModel::UnitRole).toString(), u"ms"_s);
    QCOMPARE(picker.index(0, 0).data().toString(), u"host / host.disk.latency / disk=vdb"_s);
}

// A big registry (a PostgreSQL source with many tables) builds and filters at once;
// timings are printed, not asserted, but a quadratic step would show here.
void TestSeriesTreeModel::manySeries()
{
    SeriesRegistry registry;
    for (int table = 0; table < 2500; ++table) {
        for (const QString &metric :
             { u"pg.table.tup_read.rate"_s, u"pg.table.tup_written.rate"_s })
            registry.idFor(info(u"db"_s, metric, u"{table=t%1}"_s.arg(table), u"1/s"_s));
    }
    QElapsedTimer timer;
    timer.start();
    const std::clock_t cpuStart = std::clock(); // the machine may be busy: CPU time too
    SeriesTreeModel tree(registry);
    const qint64 buildMs = timer.restart();
    const qint64 buildCpuMs = qint64(std::clock() - cpuStart) * 1000 / CLOCKS_PER_SEC;
    SeriesPickerModel picker(&tree);
    QCOMPARE(picker.rowCount(), 1 + 2 + 5000);
    const qint64 flattenMs = timer.restart();
    picker.setFilterText(u"written t1234"_s);
    QCOMPARE(picker.rowCount(), 1);
    QCOMPARE(picker.index(0, 0).data().toString(),
             u"db / pg.table.tup_written.rate / table=t1234"_s);
    const qint64 filterMs = timer.restart();
    // Growing in place with views attached: 500 more series, one refresh.
    for (int table = 2500; table < 3000; ++table)
        registry.idFor(info(u"db"_s, u"pg.table.tup_read.rate"_s, u"{table=t%1}"_s.arg(table)));
    QCOMPARE(tree.refresh(), 500);
    QCOMPARE(picker.descendants()->rowCount(), 1 + 2 + 5500);
    qInfo("5000 series: tree %lld ms (CPU %lld ms), flatten %lld ms, filter %lld ms; "
          "+500 live: %lld ms",
          buildMs, buildCpuMs, flattenMs, filterMs, timer.elapsed());
}

QTEST_GUILESS_MAIN(TestSeriesTreeModel)
#include "tst_seriestreemodel.moc"
