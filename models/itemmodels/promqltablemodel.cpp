// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/promqltablemodel.h"

#include "core/valueformat.h"

using namespace Qt::StringLiterals;

namespace Headroom {

PromqlTableModel::PromqlTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PromqlTableModel::setTable(const PromqlTableData &table)
{
    beginResetModel();
    m_table = table;
    endResetModel();
}

int PromqlTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_table.rows.size());
}

int PromqlTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : valueColumn() + 1;
}

QVariant PromqlTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PromqlTableRow &row = m_table.rows.at(index.row());
    const bool isValue = index.column() == valueColumn();
    switch (role) {
    case Qt::DisplayRole:
        return isValue ? formatValue(row.value, m_table.unit)
                       : row.labels.value(m_table.columns.at(index.column()));
    case SortRole:
        return isValue ? QVariant(row.value)
                       : QVariant(row.labels.value(m_table.columns.at(index.column())));
    case Qt::ToolTipRole:
        return labelsToString(row.labels);
    case Qt::TextAlignmentRole:
        return isValue ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
        return {};
    }
}

QVariant PromqlTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section > valueColumn())
        return {};
    return section == valueColumn() ? tr("Value") : m_table.columns.at(section);
}

} // namespace Headroom
