// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/seriestreemodel.h"

#include "core/naturalsort.h"
#include "engine/runtime/seriesregistry.h"

#include <algorithm>
#include <vector>

namespace Headroom {

using namespace Qt::StringLiterals;

struct SeriesTreeModel::Node
{
    Node *parent = nullptr;
    int row = 0; // kept up to date on insertion so parent() needs no search
    NodeKind kind = NodeKind::Source;
    QString text;
    SeriesSelector selector;
    QString unit;
    QString resource;
    UseKind useKind = UseKind::Info;
    bool histogram = false;
    int seriesId = -1; // the one series this node stands for, or -1
    int seriesCount = 0;
    std::vector<std::unique_ptr<Node>> children;
};

namespace {

QString unitText(const QString &unit)
{
    return unit.isEmpty() ? u"no unit"_s : unit;
}

} // namespace

SeriesTreeModel::SeriesTreeModel(const SeriesRegistry &registry, QObject *parent)
    : QAbstractItemModel(parent)
    , m_registry(registry)
    , m_root(std::make_unique<Node>())
{
    refresh();
}

SeriesTreeModel::~SeriesTreeModel() = default;

QString SeriesTreeModel::labelsText(const Labels &labels)
{
    QStringList parts;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it)
        parts.append(it.key() + u'=' + it.value());
    return parts.join(u", ");
}

int SeriesTreeModel::refresh()
{
    // The registry only grows; comparing sizes keeps a timer-driven refresh cheap.
    if (m_registry.size() == m_known.size())
        return 0;
    // The first fill is one reset: no per-row signals, nothing to keep valid yet.
    m_bulk = m_root->children.empty();
    if (m_bulk)
        beginResetModel();
    int added = 0;
    const QList<int> ids = m_registry.ids();
    for (int id : ids) {
        if (m_known.contains(id))
            continue;
        const std::optional<SeriesInfo> info = m_registry.info(id);
        if (!info)
            continue;
        m_known.insert(id);
        addSeries(id, *info);
        ++added;
    }
    if (m_bulk)
        endResetModel();
    m_bulk = false;
    return added;
}

SeriesTreeModel::Node *SeriesTreeModel::childFor(Node *parent, NodeKind kind, const QString &text,
                                                 bool *created)
{
    auto &children = parent->children;
    auto it = std::lower_bound(children.begin(), children.end(), text,
                               [](const std::unique_ptr<Node> &node, const QString &t) {
                                   // cpu=2 before cpu=10; case does not separate names
                                   return naturalLess(node->text, t, Qt::CaseInsensitive);
                               });
    // Sources and metrics are shared by their series. A series node is always new: the
    // registry has one id per key (and two label sets may print alike).
    if (kind != NodeKind::Series && it != children.end() && (*it)->text == text) {
        *created = false;
        return it->get();
    }
    const int row = int(it - children.begin());
    if (!m_bulk)
        beginInsertRows(indexFor(parent), row, row);
    auto node = std::make_unique<Node>();
    node->parent = parent;
    node->kind = kind;
    node->text = text;
    Node *raw = node.get();
    it = children.insert(it, std::move(node));
    for (auto next = it; next != children.end(); ++next)
        (*next)->row = int(next - children.begin());
    if (!m_bulk)
        endInsertRows();
    *created = true;
    return raw;
}

void SeriesTreeModel::addSeries(int id, const SeriesInfo &info)
{
    const auto describe = [&](Node *node, const SeriesSelector &selector) {
        node->selector = selector;
        node->unit = info.unit;
        node->resource = info.resource;
        node->useKind = info.kind;
        node->histogram = info.histogram;
    };
    const auto counted = [&](Node *node, bool created) {
        ++node->seriesCount;
        if (!created && !m_bulk) { // the tooltip names the count
            const QModelIndex index = indexFor(node);
            Q_EMIT dataChanged(index, index, { Qt::ToolTipRole, SeriesCountRole });
        }
    };

    bool created = false;
    Node *source = childFor(m_root.get(), NodeKind::Source, info.key.source, &created);
    if (created)
        describe(source, { info.key.source, u"*"_s, {} });
    counted(source, created);

    Node *metric = childFor(source, NodeKind::Metric, info.key.metric, &created);
    if (created)
        describe(metric, { info.key.source, info.key.metric, {} });
    counted(metric, created);

    // A series without labels is its metric node: its selector would be the same.
    if (info.key.labels.isEmpty()) {
        metric->seriesId = id;
        const QModelIndex index = indexFor(metric);
        if (!m_bulk)
            Q_EMIT dataChanged(index, index, { SeriesIdRole });
        return;
    }
    const QString text = labelsText(info.key.labels);
    Node *series = childFor(metric, NodeKind::Series, text, &created);
    describe(series, { info.key.source, info.key.metric, info.key.labels });
    series->seriesId = id;
    series->seriesCount = 1;
}

SeriesTreeModel::Node *SeriesTreeModel::nodeFor(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex SeriesTreeModel::indexFor(Node *node) const
{
    return node == m_root.get() ? QModelIndex() : createIndex(node->row, 0, node);
}

QModelIndex SeriesTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, nodeFor(parent)->children[size_t(row)].get());
}

QModelIndex SeriesTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexFor(nodeFor(child)->parent);
}

int SeriesTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(nodeFor(parent)->children.size());
}

int SeriesTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QVariant SeriesTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *node = nodeFor(index);
    switch (role) {
    case Qt::DisplayRole:
        return node->text;
    case Qt::ToolTipRole:
        return toolTip(node);
    case SelectorRole:
        return QVariant::fromValue(node->selector);
    case UnitRole:
        return node->unit;
    case UseKindRole:
        return int(node->useKind);
    case NodeKindRole:
        return int(node->kind);
    case SeriesIdRole:
        return node->seriesId > 0 ? QVariant(node->seriesId) : QVariant();
    case SeriesCountRole:
        return node->seriesCount;
    default:
        return {};
    }
}

QHash<int, QByteArray> SeriesTreeModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(SelectorRole, "selector");
    names.insert(UnitRole, "unit");
    names.insert(UseKindRole, "useKind");
    names.insert(NodeKindRole, "nodeKind");
    names.insert(SeriesIdRole, "seriesId");
    names.insert(SeriesCountRole, "seriesCount");
    return names;
}

QString SeriesTreeModel::toolTip(const Node *node) const
{
    const QString series
        = node->seriesCount == 1 ? u"1 series"_s : u"%1 series"_s.arg(node->seriesCount);
    switch (node->kind) {
    case NodeKind::Source:
        return u"Source %1: every metric (%2)"_s.arg(node->text, series);
    case NodeKind::Metric: {
        QString text
            = u"%1\n%2, %3"_s.arg(node->text, unitText(node->unit), useKindName(node->useKind));
        if (!node->resource.isEmpty())
            text += u", resource "_s + node->resource;
        if (node->histogram)
            text += u", histogram"_s;
        return text + u"\n"_s
            + (node->children.empty() ? u"one series"_s : u"every label set ("_s + series + u')');
    }
    case NodeKind::Series:
        break;
    }
    QString text = u"%1{%2}\n%3, %4"_s.arg(node->selector.metric, node->text, unitText(node->unit),
                                           useKindName(node->useKind));
    if (!node->resource.isEmpty())
        text += u", resource "_s + node->resource;
    if (node->histogram)
        text += u", histogram"_s;
    return text;
}

} // namespace Headroom
