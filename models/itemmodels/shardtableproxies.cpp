// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/shardtableproxies.h"

#include "itemmodels/shardtablemodel.h"

#include <cmath>
#include <limits>

namespace Headroom {

// ---- ShardExtraColumnsProxyModel ---------------------------------------------------------

ShardExtraColumnsProxyModel::ShardExtraColumnsProxyModel(QObject *parent)
    : KExtraColumnsProxyModel(parent)
{
    // In ShardColumn order: share, then change.
    appendColumn(ShardTableModel::columnTitle(ShardShareColumn));
    appendColumn(ShardTableModel::columnTitle(ShardChangeColumn));
}

void ShardExtraColumnsProxyModel::setSourceModel(QAbstractItemModel *model)
{
    disconnect(m_sourceChanged);
    KExtraColumnsProxyModel::setSourceModel(model);
    if (!model)
        return;
    // Connected after the base class, so the source's own columns are announced first.
    // Share and change derive from the row's own values and its set's total, which the
    // model reports as a change of the row.
    m_sourceChanged = connect(model, &QAbstractItemModel::dataChanged, this,
                              [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                                  if (topLeft.parent().isValid())
                                      return;
                                  const int first = proxyColumnForExtraColumn(0);
                                  Q_EMIT dataChanged(index(topLeft.row(), first),
                                                     index(bottomRight.row(), first + 1));
                              });
}

double ShardExtraColumnsProxyModel::value(int row, int extraColumn) const
{
    const QAbstractItemModel *source = sourceModel();
    const auto at
        = [&](int column, int role) { return source->index(row, column).data(role).toDouble(); };
    if (extraColumn == 0)
        return shardOpsShare(at(ShardOpsColumn, ShardTableModel::ValueRole),
                             at(ShardSetColumn, ShardTableModel::SetOpsTotalRole));
    return at(ShardLoadColumn, ShardTableModel::ValueRole)
        - at(ShardPreviousColumn, ShardTableModel::ValueRole);
}

QVariant ShardExtraColumnsProxyModel::extraColumnData(const QModelIndex &parent, int row,
                                                      int extraColumn, int role) const
{
    if (parent.isValid() || !sourceModel())
        return {};
    const int column = extraColumn == 0 ? ShardShareColumn : ShardChangeColumn;
    switch (role) {
    case Qt::DisplayRole:
        return ShardTableModel::formatValue(column, value(row, extraColumn));
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case ShardTableModel::ValueRole:
        return value(row, extraColumn);
    case ShardTableModel::SortRole: {
        const double v = value(row, extraColumn);
        return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
    }
    default:
        // Row-wide roles (labels, resource, time, tooltip) are the row's, whichever column.
        return sourceModel()->index(row, ShardNameColumn).data(role);
    }
}

// ---- ShardSortFilterProxyModel -----------------------------------------------------------

ShardSortFilterProxyModel::ShardSortFilterProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(ShardTableModel::SortRole);
    setFilterKeyColumn(ShardNameColumn);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setDynamicSortFilter(true);
}

void ShardSortFilterProxyModel::setFilterText(const QString &text)
{
    setFilterFixedString(text.trimmed());
}

bool ShardSortFilterProxyModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    if (a.typeId() == QMetaType::QString || b.typeId() == QMetaType::QString) {
        const int order = a.toString().compare(b.toString(), sortCaseSensitivity());
        if (order != 0)
            return order < 0;
    } else if (a.toDouble() != b.toDouble()) {
        return a.toDouble() < b.toDouble();
    }
    // Ties by set, then shard, A to Z in either direction: a descending sort asks
    // lessThan(right, left), so the names compare the other way round then.
    const QAbstractItemModel *source = left.model();
    const auto name = [&](const QModelIndex &index) -> QString {
        return source->index(index.row(), ShardSetColumn, index.parent()).data().toString()
            + u'\x1f'
            + source->index(index.row(), ShardNameColumn, index.parent()).data().toString();
    };
    const int order = name(left).compare(name(right));
    return sortOrder() == Qt::DescendingOrder ? order > 0 : order < 0;
}

// ---- TopRowsProxyModel -------------------------------------------------------------------

TopRowsProxyModel::TopRowsProxyModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    // It never sorts: the order is its source's.
    setDynamicSortFilter(false);
}

void TopRowsProxyModel::setTop(int top)
{
    if (top == m_top)
        return;
    m_top = top;
    invalidateRowsFilter();
}

void TopRowsProxyModel::setSourceModel(QAbstractItemModel *model)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_rerank))
        disconnect(connection);
    m_rerank.clear();
    QSortFilterProxyModel::setSourceModel(model);
    if (!model)
        return;
    // After the base class has mapped an insertion or removal, rows below it have new
    // ranks: decide again which are in the top. (A reorder arrives as layoutChanged,
    // after which the base class maps every row afresh anyway.)
    const auto rerank = [this] { invalidateRowsFilter(); };
    m_rerank = { connect(model, &QAbstractItemModel::rowsInserted, this, rerank),
                 connect(model, &QAbstractItemModel::rowsRemoved, this, rerank),
                 connect(model, &QAbstractItemModel::rowsMoved, this, rerank) };
}

void TopRowsProxyModel::sort(int column, Qt::SortOrder order)
{
    if (sourceModel())
        sourceModel()->sort(column, order);
}

bool TopRowsProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    return sourceParent.isValid() || m_top <= 0 || sourceRow < m_top;
}

// ---- ShardColumnsProxyModel --------------------------------------------------------------

ShardColumnsProxyModel::ShardColumnsProxyModel(QObject *parent)
    : KRearrangeColumnsProxyModel(parent)
{
    setColumns(defaultShardColumns(false));
}

void ShardColumnsProxyModel::setColumns(const QList<int> &columns)
{
    if (columns == m_columns)
        return;
    m_columns = columns;
    setSourceColumns(columns); // resets the model when a source is set
}

void ShardColumnsProxyModel::setSourceModel(QAbstractItemModel *model)
{
    disconnect(m_sourceChanged);
    KRearrangeColumnsProxyModel::setSourceModel(model);
    if (!model)
        return;
    // Replaces QIdentityProxyModel's forwarding of dataChanged (see the header).
    disconnect(model, &QAbstractItemModel::dataChanged, this, nullptr);
    m_sourceChanged
        = connect(model, &QAbstractItemModel::dataChanged, this,
                  [this](const QModelIndex &topLeft, const QModelIndex &bottomRight,
                         const QList<int> &roles) {
                      if (topLeft.parent().isValid() || columnCount() == 0)
                          return;
                      Q_EMIT dataChanged(index(topLeft.row(), 0),
                                         index(bottomRight.row(), columnCount() - 1), roles);
                  });
}

void ShardColumnsProxyModel::sort(int column, Qt::SortOrder order)
{
    if (sourceModel() && column >= 0 && column < m_columns.size())
        sourceModel()->sort(sourceColumnForProxyColumn(column), order);
}

// ---- ShardTableChain ---------------------------------------------------------------------

ShardTableChain::ShardTableChain(ShardTableModel *tableModel, QObject *parent)
    : model(tableModel)
    , extra(new ShardExtraColumnsProxyModel(parent))
    , sort(new ShardSortFilterProxyModel(parent))
    , top(new TopRowsProxyModel(parent))
    , columns(new ShardColumnsProxyModel(parent))
{
    extra->setSourceModel(tableModel);
    sort->setSourceModel(extra);
    sort->sort(ShardLoadColumn, Qt::DescendingOrder);
    top->setSourceModel(sort);
    columns->setSourceModel(top);
}

} // namespace Headroom
