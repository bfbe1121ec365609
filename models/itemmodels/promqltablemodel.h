// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The table panel's model: PromqlTableData (query/promql/promqltabledata.h) as rows, one
// column per label the table names and the value last (formatted with the table's
// unit; SortRole gives the number, so a sort proxy orders values as numbers and labels
// in natural order). setTable() resets the model: each answer is a new snapshot.
#pragma once

#include "query/promql/promqltabledata.h"

#include <QAbstractTableModel>

namespace Headroom {

class PromqlTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role
    {
        SortRole = Qt::UserRole + 1, // the value as a double, a label as its text
    };

    explicit PromqlTableModel(QObject *parent = nullptr);

    void setTable(const PromqlTableData &table);
    const PromqlTableData &table() const { return m_table; }
    // The value's column: after every label column.
    int valueColumn() const { return int(m_table.columns.size()); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    PromqlTableData m_table;
};

} // namespace Headroom
