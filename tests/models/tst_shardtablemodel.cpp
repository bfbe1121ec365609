// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shard table model and its proxy chain (shardtablemodel.h, shardtableproxies.h),
// every model under QAbstractItemModelTester (fatal): values, share and change, column
// choice and order, sort (busiest first by default), the shard-name filter, top N, and
// updates in place that keep a selection.
#include "itemmodels/shardtablemodel.h"
#include "itemmodels/shardtableproxies.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <memory>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

ShardLoadRow row(const QString &set, const QString &shard, double load, double ops,
                 double previous = qQNaN())
{
    ShardLoadRow r;
    r.source = u"pg"_s;
    r.set = set;
    r.shard = shard;
    r.labels = { { u"set"_s, set }, { u"shard"_s, shard } };
    r.resource = u"shardset:"_s + set;
    r.tsMs = 1000;
    r.load = load;
    r.ops = ops;
    r.previousLoad = previous;
    r.previousTsMs = std::isnan(previous) ? 0 : 500;
    return r;
}

// Set "o" (orders): p0..p3; set "t" (tenants): t1.
QList<ShardLoadRow> baseRows()
{
    return {
        row(u"o"_s, u"p0"_s, 25, 100, 20), row(u"o"_s, u"p1"_s, 100, 400, 90),
        row(u"o"_s, u"p2"_s, 50, 200, 60), row(u"o"_s, u"p3"_s, 12.5, 50),
        row(u"t"_s, u"t1"_s, 80, 30, 80),
    };
}

// The shard names down the view's rows.
QStringList shardsShown(const QAbstractItemModel *model)
{
    QStringList shards;
    for (int r = 0; r < model->rowCount(); ++r)
        shards << model->index(r, 0)
                      .data(ShardTableModel::LabelsRole)
                      .value<Labels>()
                      .value(u"shard"_s);
    return shards;
}

QStringList headers(const QAbstractItemModel *model)
{
    QStringList titles;
    for (int c = 0; c < model->columnCount(); ++c)
        titles << model->headerData(c, Qt::Horizontal).toString();
    return titles;
}

double numberAt(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data(ShardTableModel::ValueRole).toDouble();
}

// The value of a ShardColumn for a shard, read through `model` whose columns are chain's.
int rowOf(const QAbstractItemModel *model, const QString &shard)
{
    return int(shardsShown(model).indexOf(shard));
}

struct Fixture
{
    Fixture()
        : model(new ShardTableModel(&owner))
        , chain(model, &owner)
    {
        const auto mode = QAbstractItemModelTester::FailureReportingMode::Fatal;
        for (QAbstractItemModel *m : std::initializer_list<QAbstractItemModel *> {
                 model, chain.extra, chain.sort, chain.top, chain.columns })
            testers.emplace_back(std::make_unique<QAbstractItemModelTester>(m, mode));
    }
    QObject owner;
    ShardTableModel *model;
    ShardTableChain chain;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
};

} // namespace

class TestShardTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelValues();
    void shareAndChange();
    void columnsRearranged();
    void sortedBusiestFirst();
    void sortByOtherColumns();
    void filterByShardName();
    void topN();
    void updateInPlace();
    void shareFollowsOtherRows();
    void selectionSurvivesRefresh();
};

void TestShardTableModel::modelValues()
{
    Fixture f;
    f.model->setRows(baseRows());
    QCOMPARE(f.model->rowCount(), 5);
    QCOMPARE(f.model->columnCount(), 5);
    QCOMPARE(headers(f.model),
             (QStringList { u"Set"_s, u"Shard"_s, u"Load %"_s, u"Ops/s"_s, u"Previous %"_s }));
    const int p1 = 1;
    QCOMPARE(f.model->index(p1, ShardNameColumn).data().toString(), u"p1"_s);
    QCOMPARE(f.model->index(p1, ShardLoadColumn).data().toString(), u"100.0"_s);
    QCOMPARE(numberAt(f.model, p1, ShardLoadColumn), 100.0);
    QCOMPARE(numberAt(f.model, p1, ShardOpsColumn), 400.0);
    QCOMPARE(numberAt(f.model, p1, ShardPreviousColumn), 90.0);
    QCOMPARE(f.model->index(p1, 0).data(ShardTableModel::ResourceRole).toString(), u"shardset:o"_s);
    QCOMPARE(f.model->index(p1, 0).data(ShardTableModel::LabelsRole).value<Labels>(),
             (Labels { { u"set"_s, u"o"_s }, { u"shard"_s, u"p1"_s } }));
    QCOMPARE(f.model->index(p1, 0).data(ShardTableModel::SetOpsTotalRole).toDouble(), 750.0);
    QCOMPARE(f.model->index(4, 0).data(ShardTableModel::SetOpsTotalRole).toDouble(), 30.0);
    // An unknown number: empty text, NaN value, and it sorts below everything.
    QCOMPARE(f.model->index(3, ShardPreviousColumn).data().toString(), QString());
    QVERIFY(qIsNaN(numberAt(f.model, 3, ShardPreviousColumn)));
    QVERIFY(f.model->index(3, ShardPreviousColumn).data(ShardTableModel::SortRole).toDouble()
            < -1e300);
    QCOMPARE(ShardTableModel::formatValue(ShardOpsColumn, 12345), u"12.3k"_s);
    QCOMPARE(ShardTableModel::formatValue(ShardOpsColumn, 2.5e6), u"2.50M"_s);
    QCOMPARE(ShardTableModel::formatValue(ShardChangeColumn, 3), u"+3.0"_s);
    QCOMPARE(ShardTableModel::formatValue(ShardChangeColumn, -3), u"-3.0"_s);
}

void TestShardTableModel::shareAndChange()
{
    Fixture f;
    f.model->setRows(baseRows());
    const QAbstractItemModel *extra = f.chain.extra;
    QCOMPARE(extra->columnCount(), int(ShardColumnCount));
    QCOMPARE(extra->headerData(ShardShareColumn, Qt::Horizontal).toString(), u"Share %"_s);
    QCOMPARE(extra->headerData(ShardChangeColumn, Qt::Horizontal).toString(), u"Change"_s);
    // Set o does 750 ops/s: p1 400 (53.33 %), p0 100 (13.33 %); t1 is all of its set.
    QCOMPARE(numberAt(extra, 1, ShardShareColumn), 100.0 * 400 / 750);
    QCOMPARE(numberAt(extra, 0, ShardShareColumn), 100.0 * 100 / 750);
    QCOMPARE(numberAt(extra, 4, ShardShareColumn), 100.0);
    QCOMPARE(extra->index(1, ShardShareColumn).data().toString(), u"53.3"_s);
    // Change in points: p0 25 - 20, p1 100 - 90, p2 50 - 60; p3 has no previous.
    QCOMPARE(numberAt(extra, 0, ShardChangeColumn), 5.0);
    QCOMPARE(numberAt(extra, 1, ShardChangeColumn), 10.0);
    QCOMPARE(numberAt(extra, 2, ShardChangeColumn), -10.0);
    QCOMPARE(extra->index(2, ShardChangeColumn).data().toString(), u"-10.0"_s);
    QVERIFY(qIsNaN(numberAt(extra, 3, ShardChangeColumn)));
    QCOMPARE(extra->index(3, ShardChangeColumn).data().toString(), QString());
    // Row-wide roles hold in the computed columns too.
    QCOMPARE(extra->index(1, ShardChangeColumn).data(ShardTableModel::LabelsRole).value<Labels>(),
             (Labels { { u"set"_s, u"o"_s }, { u"shard"_s, u"p1"_s } }));
}

void TestShardTableModel::columnsRearranged()
{
    Fixture f;
    f.model->setRows(baseRows());
    f.chain.columns->setColumns(
        *shardColumnsFromNames({ u"shard"_s, u"load"_s, u"share"_s, u"change"_s, u"ops"_s }));
    const QAbstractItemModel *view = f.chain.columns;
    QCOMPARE(view->columnCount(), 5);
    QCOMPARE(headers(view),
             (QStringList { u"Shard"_s, u"Load %"_s, u"Share %"_s, u"Change"_s, u"Ops/s"_s }));
    // Row 0 is the busiest, p1: every column is p1's.
    QCOMPARE(view->index(0, 0).data().toString(), u"p1"_s);
    QCOMPARE(numberAt(view, 0, 1), 100.0);
    QCOMPARE(numberAt(view, 0, 2), 100.0 * 400 / 750);
    QCOMPARE(numberAt(view, 0, 3), 10.0);
    QCOMPARE(numberAt(view, 0, 4), 400.0);
    QCOMPARE(f.chain.columns->viewColumn(ShardShareColumn), 2);
    QCOMPARE(f.chain.columns->viewColumn(ShardSetColumn), -1);

    // Another order, with the previous load, and without the shard name.
    f.chain.columns->setColumns({ ShardChangeColumn, ShardPreviousColumn, ShardSetColumn });
    QCOMPARE(headers(view), (QStringList { u"Change"_s, u"Previous %"_s, u"Set"_s }));
    QCOMPARE(numberAt(view, 0, 0), 10.0);
    QCOMPARE(numberAt(view, 0, 1), 90.0);
    QCOMPARE(view->index(0, 2).data().toString(), u"o"_s);
}

void TestShardTableModel::sortedBusiestFirst()
{
    Fixture f;
    f.chain.top->setTop(0);
    f.model->setRows(baseRows());
    QCOMPARE(f.chain.sort->sortColumn(), int(ShardLoadColumn));
    QCOMPARE(f.chain.sort->sortOrder(), Qt::DescendingOrder);
    QCOMPARE(shardsShown(f.chain.columns),
             (QStringList { u"p1"_s, u"t1"_s, u"p2"_s, u"p0"_s, u"p3"_s }));
    // Equal loads: by set, then shard name, A to Z.
    QList<ShardLoadRow> rows = baseRows();
    rows << row(u"a"_s, u"z9"_s, 50, 1) << row(u"o"_s, u"a0"_s, 50, 1);
    f.model->setRows(rows);
    QCOMPARE(shardsShown(f.chain.columns),
             (QStringList { u"p1"_s, u"t1"_s, u"z9"_s, u"a0"_s, u"p2"_s, u"p0"_s, u"p3"_s }));
}

void TestShardTableModel::sortByOtherColumns()
{
    Fixture f;
    f.chain.top->setTop(0);
    f.chain.columns->setColumns(
        { ShardNameColumn, ShardLoadColumn, ShardChangeColumn, ShardOpsColumn });
    f.model->setRows(baseRows());
    // Through the view's model, as a header click does: view column 0 is the shard name.
    f.chain.columns->sort(0, Qt::AscendingOrder);
    QCOMPARE(f.chain.sort->sortColumn(), int(ShardNameColumn));
    QCOMPARE(shardsShown(f.chain.columns),
             (QStringList { u"p0"_s, u"p1"_s, u"p2"_s, u"p3"_s, u"t1"_s }));
    // Change, highest first: p1 +10, p0 +5, t1 0, p2 -10, p3 (none) last.
    f.chain.columns->sort(2, Qt::DescendingOrder);
    QCOMPARE(f.chain.sort->sortColumn(), int(ShardChangeColumn));
    QCOMPARE(shardsShown(f.chain.columns),
             (QStringList { u"p1"_s, u"p0"_s, u"t1"_s, u"p2"_s, u"p3"_s }));
    // Ops, lowest first.
    f.chain.columns->sort(3, Qt::AscendingOrder);
    QCOMPARE(shardsShown(f.chain.columns),
             (QStringList { u"t1"_s, u"p3"_s, u"p0"_s, u"p2"_s, u"p1"_s }));
}

void TestShardTableModel::filterByShardName()
{
    Fixture f;
    f.chain.top->setTop(0);
    f.model->setRows(baseRows());
    f.chain.sort->setFilterText(u"P"_s); // case-insensitive: every p, not t1
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p1"_s, u"p2"_s, u"p0"_s, u"p3"_s }));
    f.chain.sort->setFilterText(u"2"_s);
    QCOMPARE(shardsShown(f.chain.columns), QStringList { u"p2"_s });
    f.chain.sort->setFilterText(u"nothing"_s);
    QCOMPARE(f.chain.columns->rowCount(), 0);
    f.chain.sort->setFilterText(QString());
    QCOMPARE(f.chain.columns->rowCount(), 5);
    // The filter works on the name even when the shard column is not shown.
    f.chain.columns->setColumns({ ShardLoadColumn });
    f.chain.sort->setFilterText(u"t"_s);
    QCOMPARE(shardsShown(f.chain.columns), QStringList { u"t1"_s });
    QCOMPARE(numberAt(f.chain.columns, 0, 0), 80.0);
}

void TestShardTableModel::topN()
{
    Fixture f;
    QCOMPARE(f.chain.top->top(), 10);
    f.chain.top->setTop(2);
    f.model->setRows(baseRows());
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p1"_s, u"t1"_s }));
    // Top N of what the filter keeps.
    f.chain.sort->setFilterText(u"p"_s);
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p1"_s, u"p2"_s }));
    f.chain.sort->setFilterText(QString());
    // A new busiest shard pushes the second out; ranks follow the new loads.
    QList<ShardLoadRow> rows = baseRows();
    rows << row(u"o"_s, u"p4"_s, 150, 1000);
    f.model->setRows(rows);
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p4"_s, u"p1"_s }));
    rows[0].load = 99; // p0 from the bottom into the top two
    rows[1].load = 10;
    f.model->setRows(rows);
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p4"_s, u"p0"_s }));
    // The busiest goes away: the third moves up.
    rows.removeLast();
    f.model->setRows(rows);
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p0"_s, u"t1"_s }));
    // Top N of another order, and more than there are.
    f.chain.columns->sort(f.chain.columns->viewColumn(ShardNameColumn), Qt::AscendingOrder);
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p0"_s, u"p1"_s }));
    f.chain.top->setTop(50);
    QCOMPARE(f.chain.columns->rowCount(), 5);
    f.model->setRows({});
    QCOMPARE(f.chain.columns->rowCount(), 0);
}

void TestShardTableModel::updateInPlace()
{
    Fixture f;
    f.model->setRows(baseRows());
    const QPersistentModelIndex p2(f.model->index(2, ShardLoadColumn));
    QSignalSpy reset(f.model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(f.model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(f.model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(f.model, &QAbstractItemModel::dataChanged);

    QList<ShardLoadRow> rows = baseRows();
    rows[2].load = 75;
    f.model->setRows(rows);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(inserted.count(), 0);
    QCOMPARE(removed.count(), 0);
    QCOMPARE(changed.count(), 1); // one signal for the rows that changed
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 2);
    QCOMPARE(changed.first().at(1).toModelIndex().row(), 2);
    QVERIFY(p2.isValid());
    QCOMPARE(p2.data(ShardTableModel::ValueRole).toDouble(), 75.0);

    // Nothing new: no signal at all.
    changed.clear();
    f.model->setRows(rows);
    QCOMPARE(changed.count(), 0);

    // p0 gone, p9 new: one removal, one insertion at the end, p2 keeps its data.
    rows.removeFirst();
    rows << row(u"o"_s, u"p9"_s, 5, 5);
    changed.clear();
    f.model->setRows(rows);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(f.model->rowCount(), 5);
    QCOMPARE(f.model->index(4, ShardNameColumn).data().toString(), u"p9"_s);
    QVERIFY(p2.isValid());
    QCOMPARE(p2.row(), 1);
    QCOMPARE(p2.data(ShardTableModel::ValueRole).toDouble(), 75.0);
    QCOMPARE(reset.count(), 0);
}

void TestShardTableModel::shareFollowsOtherRows()
{
    // p1 doubles its ops: the share of every shard of set o changes, t1's does not.
    Fixture f;
    f.model->setRows(baseRows());
    QSignalSpy extraChanged(f.chain.extra, &QAbstractItemModel::dataChanged);
    QList<ShardLoadRow> rows = baseRows();
    rows[1].ops = 1050; // set o: 1400
    f.model->setRows(rows);
    QCOMPARE(numberAt(f.chain.extra, 0, ShardShareColumn), 100.0 * 100 / 1400);
    QCOMPARE(numberAt(f.chain.extra, 1, ShardShareColumn), 75.0);
    QCOMPARE(numberAt(f.chain.extra, 4, ShardShareColumn), 100.0);
    // Announced for the share column of every row of set o.
    bool shareAnnounced = false;
    for (const QList<QVariant> &signal : std::as_const(extraChanged)) {
        const QModelIndex from = signal.at(0).toModelIndex();
        const QModelIndex to = signal.at(1).toModelIndex();
        shareAnnounced = shareAnnounced
            || (from.column() <= ShardShareColumn && to.column() >= ShardShareColumn
                && from.row() <= 0 && to.row() >= 3);
    }
    QVERIFY(shareAnnounced);
}

void TestShardTableModel::selectionSurvivesRefresh()
{
    Fixture f;
    f.chain.top->setTop(3);
    f.model->setRows(baseRows());
    QItemSelectionModel selection(f.chain.columns);
    const int p2 = rowOf(f.chain.columns, u"p2"_s);
    QCOMPARE(p2, 2);
    selection.select(f.chain.columns->index(p2, 0),
                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const auto selectedShard = [&] {
        const QModelIndexList rows = selection.selectedRows();
        return rows.size() == 1
            ? rows.first().data(ShardTableModel::LabelsRole).value<Labels>().value(u"shard"_s)
            : QString();
    };
    QCOMPARE(selectedShard(), u"p2"_s);

    // New values that move p2 to the top: still selected, now in row 0.
    QList<ShardLoadRow> rows = baseRows();
    rows[2].load = 120;
    f.model->setRows(rows);
    QCOMPARE(shardsShown(f.chain.columns), (QStringList { u"p2"_s, u"p1"_s, u"t1"_s }));
    QCOMPARE(selectedShard(), u"p2"_s);
    QCOMPARE(selection.selectedRows().first().row(), 0);
    // Another shard appears and others change: the selection stays on p2.
    rows << row(u"t"_s, u"t2"_s, 1, 1);
    rows[1].load = 10;
    f.model->setRows(rows);
    QCOMPARE(selectedShard(), u"p2"_s);
}

QTEST_GUILESS_MAIN(TestShardTableModel)
#include "tst_shardtablemodel.moc"
