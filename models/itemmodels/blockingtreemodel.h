// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The blocking tree panel's model: each root blocker a top-level row, the sessions
// waiting on it its children, as BlockingTreeData (query/locks/blockingtreedata.h)
// holds them. Columns: session (pid), blocks (sessions below it), application, user,
// state, wait, transaction age, query.
//
// setTree() resets the model: the tree of each poll is a new snapshot, whose sessions
// move between parents as locks change hands, so rows are not kept across polls; the
// view expands every row again (a tree of a lock storm is shallow).
#pragma once

#include "query/locks/blockingtreedata.h"

#include <QAbstractItemModel>

namespace Headroom {

class BlockingTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        SessionColumn,
        BlocksColumn,
        ApplicationColumn,
        UserColumn,
        StateColumn,
        WaitColumn,
        AgeColumn,
        QueryColumn,
        ColumnCount
    };
    enum Role
    {
        PidRole = Qt::UserRole + 1, // int
        SourceRole, // QString
        BlockedInAllRole, // int
    };

    explicit BlockingTreeModel(QObject *parent = nullptr);

    void setTree(const BlockingTreeData &tree);
    const BlockingTreeData &tree() const { return m_tree; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const QList<int> &childrenOf(const QModelIndex &parent) const;

    BlockingTreeData m_tree;
};

} // namespace Headroom
