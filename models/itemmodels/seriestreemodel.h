// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The known series as a tree: source → metric → series (label set), so a picker can
// offer "everything of host", "host.cpu.utilization of every cpu" or one series.
// GUI-free; the registry has no change signal, so the owner calls refresh() (the
// picker does it on a timer) and new series are inserted in place: indexes handed
// out earlier stay valid.
#pragma once

#include "core/series.h"
#include "document/dashboard.h"

#include <QAbstractItemModel>
#include <QSet>
#include <memory>

namespace Headroom {

class SeriesRegistry;

class SeriesTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum class NodeKind
    {
        Source,
        Metric,
        Series
    };

    enum Role
    {
        // SeriesSelector: source node {source, "*"}, metric node {source, metric},
        // series node {source, metric, labels}.
        SelectorRole = Qt::UserRole + 1,
        UnitRole, // QString; a metric or source node carries its first series' unit
        UseKindRole, // int(UseKind)
        NodeKindRole, // int(NodeKind)
        SeriesIdRole, // int registry id of the series a node stands for, or invalid
        SeriesCountRole, // int: series below (or at) this node
    };

    // The registry must outlive the model. The tree is filled at once.
    explicit SeriesTreeModel(const SeriesRegistry &registry, QObject *parent = nullptr);
    ~SeriesTreeModel() override;

    // Inserts the series registered since the last call; returns how many.
    int refresh();

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Display text of a label set: "cpu=all", "datname=orders, state=active".
    static QString labelsText(const Labels &labels);

private:
    struct Node;

    Node *nodeFor(const QModelIndex &index) const;
    QModelIndex indexFor(Node *node) const;
    // The child of parent with this text, created (in sorted position, with
    // beginInsertRows) when missing.
    Node *childFor(Node *parent, NodeKind kind, const QString &text, bool *created);
    void addSeries(int id, const SeriesInfo &info);
    QString toolTip(const Node *node) const;

    const SeriesRegistry &m_registry;
    std::unique_ptr<Node> m_root;
    QSet<int> m_known;
    bool m_bulk = false; // filling an empty tree inside a model reset
};

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::SeriesSelector)
