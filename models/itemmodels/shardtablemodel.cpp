// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/shardtablemodel.h"

#include "core/valueformat.h"

#include <QSet>
#include <cmath>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr int ModelColumns = ShardPreviousColumn + 1;

bool sameNumber(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}
} // namespace

ShardTableModel::ShardTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

QString ShardTableModel::keyOf(const ShardLoadRow &row)
{
    return row.source + u'\x1f' + labelsToString(row.labels);
}

bool ShardTableModel::sameValues(const Entry &a, const Entry &b)
{
    const ShardLoadRow &x = a.row;
    const ShardLoadRow &y = b.row;
    return x.tsMs == y.tsMs && sameNumber(x.load, y.load) && sameNumber(x.ops, y.ops)
        && sameNumber(x.previousLoad, y.previousLoad) && x.previousTsMs == y.previousTsMs
        && x.resource == y.resource && x.shard == y.shard && sameNumber(a.setTotal, b.setTotal);
}

void ShardTableModel::setRows(const QList<ShardLoadRow> &rows)
{
    const QHash<QString, double> totals = shardSetOpsTotals(rows);
    QHash<QString, qsizetype> incoming; // key -> index in rows
    for (qsizetype i = 0; i < rows.size(); ++i)
        incoming.insert(keyOf(rows.at(i)), i);

    // Gone shards first, bottom up, a contiguous run at a time.
    for (int last = int(m_rows.size()) - 1; last >= 0;) {
        if (incoming.contains(keyOf(m_rows.at(last).row))) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !incoming.contains(keyOf(m_rows.at(first - 1).row)))
            --first;
        beginRemoveRows({}, first, last);
        m_rows.remove(first, last - first + 1);
        endRemoveRows();
        last = first - 1;
    }
    m_rowOfKey.clear();
    for (int r = 0; r < m_rows.size(); ++r)
        m_rowOfKey.insert(keyOf(m_rows.at(r).row), r);

    // Shards still there: in place, one dataChanged over the rows that changed (with
    // every row's values changing each poll, one signal instead of one per row).
    int firstChanged = -1;
    int lastChanged = -1;
    QList<qsizetype> added;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Entry entry { rows.at(i), totals.value(rows.at(i).set, qQNaN()) };
        const auto existing = m_rowOfKey.constFind(keyOf(entry.row));
        if (existing == m_rowOfKey.cend()) {
            added.append(i);
            continue;
        }
        Entry &current = m_rows[*existing];
        if (sameValues(current, entry))
            continue;
        current = entry;
        firstChanged = firstChanged < 0 ? *existing : std::min(firstChanged, *existing);
        lastChanged = std::max(lastChanged, *existing);
    }
    if (firstChanged >= 0)
        Q_EMIT dataChanged(index(firstChanged, 0), index(lastChanged, ModelColumns - 1));

    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        for (const qsizetype i : std::as_const(added)) {
            m_rowOfKey.insert(keyOf(rows.at(i)), int(m_rows.size()));
            m_rows.append({ rows.at(i), totals.value(rows.at(i).set, qQNaN()) });
        }
        endInsertRows();
    }
}

int ShardTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ShardTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ModelColumns;
}

QString ShardTableModel::columnTitle(int column)
{
    switch (column) {
    case ShardSetColumn:
        return tr("Set");
    case ShardNameColumn:
        return tr("Shard");
    case ShardLoadColumn:
        return tr("Load %");
    case ShardOpsColumn:
        return tr("Ops/s");
    case ShardPreviousColumn:
        return tr("Previous %");
    case ShardShareColumn:
        return tr("Share %");
    case ShardChangeColumn:
        return tr("Change");
    default:
        return {};
    }
}

QString ShardTableModel::formatValue(int column, double value)
{
    ValueFormat format;
    format.noValue = QString(); // an empty cell
    format.digits = ValueFormat::Digits::Fixed;
    format.precision = 1;
    format.prefixFrom = ValueFormat::NoPrefix;
    switch (column) {
    case ShardOpsColumn: // "850", "12.3k", "1.25M"
        format.digits = ValueFormat::Digits::DecimalsByPrefix;
        format.prefixFrom = 1e4;
        format.largestPrefix = 1e6;
        break;
    case ShardChangeColumn:
        // Percentage points, signed so a rise and a fall read apart at a glance.
        format.plusSign = true;
        break;
    default:
        break;
    }
    return Headroom::formatValue(value, QString(), format); // not this class's
}

QVariant ShardTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &entry = m_rows.at(index.row());
    const ShardLoadRow &row = entry.row;
    const int column = index.column();
    const auto number = [&]() -> double {
        switch (column) {
        case ShardLoadColumn:
            return row.load;
        case ShardOpsColumn:
            return row.ops;
        case ShardPreviousColumn:
            return row.previousLoad;
        default:
            return qQNaN();
        }
    };
    const bool isText = column == ShardSetColumn || column == ShardNameColumn;
    const QString text = column == ShardSetColumn ? row.set : row.shard;
    switch (role) {
    case Qt::DisplayRole:
        return isText ? text : formatValue(column, number());
    case Qt::ToolTipRole:
        return u"%1 / %2\n%3"_s.arg(row.set, row.shard, row.resource);
    case Qt::TextAlignmentRole:
        return isText ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                      : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case ValueRole:
        return isText ? QVariant(text) : QVariant(number());
    case SortRole: {
        if (isText)
            return text;
        const double value = number();
        return std::isnan(value) ? -std::numeric_limits<double>::infinity() : value;
    }
    case LabelsRole:
        return QVariant::fromValue(row.labels);
    case ResourceRole:
        return row.resource;
    case SetOpsTotalRole:
        return entry.setTotal;
    case TimeRole:
        return row.tsMs;
    default:
        return {};
    }
}

QVariant ShardTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= ModelColumns)
        return QAbstractTableModel::headerData(section, orientation, role);
    return columnTitle(section);
}

QHash<int, QByteArray> ShardTableModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(ValueRole, "value");
    names.insert(SortRole, "sortValue");
    names.insert(LabelsRole, "labels");
    names.insert(ResourceRole, "resource");
    names.insert(SetOpsTotalRole, "setOpsTotal");
    names.insert(TimeRole, "time");
    return names;
}

} // namespace Headroom
