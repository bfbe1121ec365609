// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shard table's proxy chain, model to view:
//
//   ShardTableModel → ShardExtraColumnsProxyModel (+ share, change)
//     → ShardSortFilterProxyModel (sort, busiest first by default; text filter on the
//       shard name) → TopRowsProxyModel (the first N rows of that order)
//     → ShardColumnsProxyModel (the user's columns and their order)
//
// Sorting and filtering come before the column choice so that they work on columns
// the user hides (sorted by load with no load column, filtered by shard name with no
// shard column). Top N is its own proxy after the sort: a row's rank is its position
// in the sorted proxy, which a filter of the sort proxy itself cannot know.
#pragma once

#include "query/shards/shardload.h"

#include <KExtraColumnsProxyModel>
#include <KRearrangeColumnsProxyModel>
#include <QSortFilterProxyModel>

namespace Headroom {

class ShardTableModel;

// Adds ShardShareColumn (the shard's share of its set's ops, %) and ShardChangeColumn
// (load now - previous load, percentage points), with the model's roles (ValueRole,
// SortRole ...) for them too. Both follow every change of a source row: the model
// signals a row whenever its values or its set's total changed.
class ShardExtraColumnsProxyModel : public KExtraColumnsProxyModel
{
    Q_OBJECT
public:
    explicit ShardExtraColumnsProxyModel(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;
    QVariant extraColumnData(const QModelIndex &parent, int row, int extraColumn,
                             int role) const override;

private:
    double value(int row, int extraColumn) const;

    QMetaObject::Connection m_sourceChanged;
};

// Sorts by ShardTableModel::SortRole (default: load, highest first; ties by set and
// shard name, A to Z whatever the direction) and keeps rows whose shard name contains
// the filter text (case-insensitive).
class ShardSortFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ShardSortFilterProxyModel(QObject *parent = nullptr);

    void setFilterText(const QString &text);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

// The first `top` rows of its source, in its order (0: all). Rows are re-ranked when
// the source inserts, removes or reorders rows. sort() is handed to the source.
class TopRowsProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit TopRowsProxyModel(QObject *parent = nullptr);

    void setTop(int top);
    int top() const { return m_top; }
    void setSourceModel(QAbstractItemModel *model) override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    static constexpr int DefaultTop = 10;
    int m_top = DefaultTop;
    QList<QMetaObject::Connection> m_rerank;
};

// The columns the user chose (ShardColumn values), in their order; sort() maps the
// view's column to the source's, so clicking a header sorts the whole chain.
//
// A change in the source is announced over whole rows: KRearrangeColumnsProxyModel
// (6.13) forwards dataChanged by mapping its corners, and a corner in a hidden column
// (the set, which the shipped table does not show) maps to an invalid index, while
// reordered columns can put topLeft right of bottomRight.
class ShardColumnsProxyModel : public KRearrangeColumnsProxyModel
{
    Q_OBJECT
public:
    explicit ShardColumnsProxyModel(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;

    void setColumns(const QList<int> &columns);
    const QList<int> &columns() const { return m_columns; }
    // The view column showing `column` (a ShardColumn), or -1.
    int viewColumn(int column) const { return int(m_columns.indexOf(column)); }
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    QList<int> m_columns;
    QMetaObject::Connection m_sourceChanged;
};

// The chain above over `model`, owned by `parent`.
struct ShardTableChain
{
    ShardTableChain(ShardTableModel *tableModel, QObject *parent);

    ShardTableModel *model;
    ShardExtraColumnsProxyModel *extra;
    ShardSortFilterProxyModel *sort;
    TopRowsProxyModel *top;
    ShardColumnsProxyModel *columns; // what the view shows
};

} // namespace Headroom
