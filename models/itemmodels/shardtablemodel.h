// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shardtable panel's model: one row per shard (set, shard, load %, ops/s, load at
// the previous interval), columns numbered as ShardColumn (shardload.h) up to
// ShardPreviousColumn; share and change are added by ShardExtraColumnsProxyModel.
//
// setRows() updates in place: a shard already shown keeps its row and gets
// dataChanged, new shards are inserted, gone ones removed, so a selection (held by
// persistent indexes in the view's selection model) survives every refresh. The
// rows are in no particular order: the sort proxy orders them.
#pragma once

#include "query/shards/shardload.h"

#include <QAbstractTableModel>
#include <QHash>

namespace Headroom {

class ShardTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role
    {
        // The number behind a cell (double; NaN when unknown), or the text of a text
        // column: what the delegate draws and tests read.
        ValueRole = Qt::UserRole + 1,
        // As ValueRole, but NaN sorts below every number (-infinity): the sort role.
        SortRole,
        // The row's {set, shard} labels (Labels): what selecting it highlights elsewhere.
        LabelsRole,
        ResourceRole, // the series' resource, e.g. "shardset:public.orders"
                      // Ops of every shard of the row's set added (double): for the share column.
        SetOpsTotalRole,
        TimeRole, // the load sample's time, ms since the epoch (qint64)
    };

    explicit ShardTableModel(QObject *parent = nullptr);

    void setRows(const QList<ShardLoadRow> &rows);
    const ShardLoadRow &row(int row) const { return m_rows.at(row).row; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Header text of any ShardColumn, the computed ones included.
    static QString columnTitle(int column);
    // How a number of the column is shown: "87.5" for loads, "1.2k" style for ops.
    static QString formatValue(int column, double value);

private:
    struct Entry
    {
        ShardLoadRow row;
        double setTotal = qQNaN();
    };
    static QString keyOf(const ShardLoadRow &row);
    static bool sameValues(const Entry &a, const Entry &b);

    QList<Entry> m_rows;
    QHash<QString, int> m_rowOfKey; // source + labels -> row
};

} // namespace Headroom
