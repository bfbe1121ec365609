// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/blockingtreemodel.h"

#include "core/valueformat.h"

using namespace Qt::StringLiterals;

namespace Headroom {

BlockingTreeModel::BlockingTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void BlockingTreeModel::setTree(const BlockingTreeData &tree)
{
    beginResetModel();
    m_tree = tree;
    endResetModel();
}

const QList<int> &BlockingTreeModel::childrenOf(const QModelIndex &parent) const
{
    // A node's internal id is its index in m_tree.nodes.
    return parent.isValid() ? m_tree.nodes.at(qsizetype(parent.internalId())).children
                            : m_tree.roots;
}

QModelIndex BlockingTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || parent.column() > 0)
        return {};
    const QList<int> &children = childrenOf(parent);
    if (row >= children.size())
        return {};
    return createIndex(row, column, quintptr(children.at(row)));
}

QModelIndex BlockingTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const int parent = m_tree.nodes.at(qsizetype(child.internalId())).parent;
    if (parent < 0)
        return {};
    const int grandparent = m_tree.nodes.at(parent).parent;
    const QList<int> &siblings
        = grandparent < 0 ? m_tree.roots : m_tree.nodes.at(grandparent).children;
    return createIndex(int(siblings.indexOf(parent)), 0, quintptr(parent));
}

int BlockingTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(childrenOf(parent).size());
}

int BlockingTreeModel::columnCount(const QModelIndex &parent) const
{
    Q_UNUSED(parent)
    return ColumnCount;
}

QVariant BlockingTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const BlockingNode &n = m_tree.nodes.at(qsizetype(index.internalId()));
    switch (role) {
    case PidRole:
        return n.pid;
    case SourceRole:
        return n.source;
    case BlockedInAllRole:
        return n.blockedInAll;
    case Qt::ToolTipRole:
        if (index.column() == QueryColumn)
            return n.query;
        if (index.column() == SessionColumn && !n.client.isEmpty())
            return tr("pid %1 from %2 (%3)").arg(n.pid).arg(n.client, n.source);
        if (index.column() == SessionColumn)
            return tr("pid %1 (%2)").arg(n.pid).arg(n.source);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == BlocksColumn || index.column() == AgeColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (Column(index.column())) {
    case SessionColumn:
        return QString::number(n.pid);
    case BlocksColumn:
        return n.blockedInAll > 0 ? QVariant(n.blockedInAll) : QVariant();
    case ApplicationColumn:
        return n.application;
    case UserColumn:
        return n.user;
    case StateColumn:
        return n.state;
    case WaitColumn:
        return n.wait;
    case AgeColumn:
        return formatUseValue(n.xactAgeS, u"s"_s);
    case QueryColumn:
        return n.query;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant BlockingTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case SessionColumn:
        return tr("Session");
    case BlocksColumn:
        return tr("Blocks");
    case ApplicationColumn:
        return tr("Application");
    case UserColumn:
        return tr("User");
    case StateColumn:
        return tr("State");
    case WaitColumn:
        return tr("Waits on");
    case AgeColumn:
        return tr("Transaction age");
    case QueryColumn:
        return tr("Query");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace Headroom
