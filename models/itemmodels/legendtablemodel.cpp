// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/legendtablemodel.h"

#include "core/valueformat.h"

#include <algorithm>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
double figure(const SeriesStats &stats, int column)
{
    switch (column) {
    case LegendTableModel::LastColumn:
        return stats.last;
    case LegendTableModel::MinColumn:
        return stats.min;
    case LegendTableModel::MaxColumn:
        return stats.max;
    case LegendTableModel::MeanColumn:
        return stats.mean;
    default:
        return qQNaN();
    }
}

bool sameStats(const SeriesStats &a, const SeriesStats &b)
{
    const auto same = [](double x, double y) { return x == y || (qIsNaN(x) && qIsNaN(y)); };
    return same(a.last, b.last) && same(a.min, b.min) && same(a.max, b.max) && same(a.mean, b.mean)
        && a.count == b.count;
}
} // namespace

LegendTableModel::LegendTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void LegendTableModel::setRows(const QList<Row> &rows)
{
    bool sameLines = rows.size() == m_rows.size();
    for (qsizetype i = 0; sameLines && i < rows.size(); ++i)
        sameLines = rows.at(i).key == m_rows.at(i).key;
    if (!sameLines) {
        beginResetModel();
        m_rows = rows;
        endResetModel();
        return;
    }
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row &now = rows.at(i);
        Row &was = m_rows[i];
        if (now.name == was.name && now.unit == was.unit && now.argb == was.argb
            && now.shown == was.shown && sameStats(now.stats, was.stats))
            continue;
        was = now;
        Q_EMIT dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
}

int LegendTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LegendTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LegendTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (column == NameColumn)
            return row.name;
        return formatValue(figure(row.stats, column), row.unit);
    case Qt::ToolTipRole:
        return fullDescription(row);
    case Qt::TextAlignmentRole:
        return column == NameColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case SortRole: {
        if (column == NameColumn)
            return row.name;
        const double value = figure(row.stats, column);
        return qIsNaN(value) ? -std::numeric_limits<double>::infinity() : value;
    }
    case KeyRole:
        return QVariant::fromValue(row.key);
    case ValueRole:
        return column == NameColumn ? QVariant() : QVariant(figure(row.stats, column));
    case ColorRole:
        return row.argb;
    case ShownRole:
        return row.shown;
    default:
        return {};
    }
}

QVariant LegendTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Series");
    case LastColumn:
        return tr("Last");
    case MinColumn:
        return tr("Min");
    case MaxColumn:
        return tr("Max");
    case MeanColumn:
        return tr("Mean");
    default:
        return {};
    }
}

QString LegendTableModel::fullDescription(const Row &row)
{
    QStringList lines { row.name };
    QString series = row.key.metric;
    if (!row.key.source.isEmpty())
        series = row.key.source + u' ' + series;
    lines << series;
    for (auto it = row.key.labels.cbegin(); it != row.key.labels.cend(); ++it)
        lines << it.key() + u" = "_s + it.value();
    if (row.stats.count > 0)
        lines << tr("%n value(s) in the range", nullptr,
                    int(std::min<qint64>(row.stats.count, std::numeric_limits<int>::max())));
    return lines.join(u'\n');
}

} // namespace Headroom
