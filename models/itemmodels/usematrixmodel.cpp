// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/usematrixmodel.h"

#include <QDateTime>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
QString ageText(qint64 ageMs)
{
    if (ageMs < 0)
        return u"no sample in the range"_s;
    if (ageMs < 1000)
        return u"now"_s;
    if (ageMs < 120'000)
        return u"%1 s ago"_s.arg(ageMs / 1000);
    return u"%1 min ago"_s.arg(ageMs / 60000);
}

QString levelText(UseLevel level)
{
    return level == UseLevel::NotMeasured ? u"not measured"_s : useLevelName(level);
}
} // namespace

UseMatrixModel::UseMatrixModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void UseMatrixModel::setMatrix(const UseMatrix &matrix)
{
    const QList<UseLevelChange> changes = useLevelChanges(m_matrix, matrix);
    bool sameRows = matrix.rows.size() == m_matrix.rows.size();
    for (qsizetype i = 0; sameRows && i < matrix.rows.size(); ++i)
        sameRows = matrix.rows.at(i).resource == m_matrix.rows.at(i).resource
            && matrix.rows.at(i).source == m_matrix.rows.at(i).source;
    if (sameRows) {
        m_matrix = matrix;
        if (!m_matrix.rows.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, UseColumnCount - 1));
    } else {
        beginResetModel();
        m_matrix = matrix;
        endResetModel();
    }
    for (const UseLevelChange &change : changes)
        Q_EMIT levelChanged(change);
}

int UseMatrixModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_matrix.rows.size());
}

int UseMatrixModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : UseColumnCount;
}

const UseCell *UseMatrixModel::cellAt(const QModelIndex &index) const
{
    // Not checkIndex(): views and the model tester ask about invalid indexes on purpose.
    if (!index.isValid() || index.model() != this || index.row() >= m_matrix.rows.size()
        || index.column() >= UseColumnCount)
        return nullptr;
    return &m_matrix.rows.at(index.row()).cells.at(size_t(index.column()));
}

QString UseMatrixModel::timeText(qint64 ms, qint64 atMs)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms);
    if (t.date() == QDateTime::fromMSecsSinceEpoch(atMs).date())
        return t.toString(u"HH:mm"_s);
    return t.toString(u"d MMM HH:mm"_s);
}

QString UseMatrixModel::cellText(const UseCell &cell, qint64 atMs)
{
    if (cell.level == UseLevel::NotMeasured)
        return {};
    const UseCellSeries *headline = cell.headlineSeries();
    const UseWorst *worst = cell.worst();
    if (!cell.hasValue() || !headline || !worst)
        return u"—"_s;
    QString text = formatUseValue(worst->sample.value, headline->info.unit);
    if (cell.raised() && cell.sinceMs >= 0) {
        const QString since = timeText(cell.sinceMs, atMs);
        const QString until = cell.untilMs >= 0 ? timeText(cell.untilMs, atMs) : QString();
        if (cell.ongoing || until.isEmpty())
            text += u" since "_s + since;
        else if (until == since)
            text += u" at "_s + since; // a stretch within one minute
        else
            text += u' ' + since + u'–' + until;
    }
    return text;
}

QString UseMatrixModel::cellToolTip(const UseMatrixRow &row, UseColumn column)
{
    const auto when = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms).toString(u"yyyy-MM-dd HH:mm:ss"_s);
    };
    const UseCell &cell = row.cell(column);
    QStringList lines { u"%1 — %2: %3%4"_s.arg(
        row.label, useColumnTitle(column), levelText(cell.level),
        cell.stale && cell.hasValue() ? u" (stale: no current sample)"_s : QString()) };
    if (!cell.alert.isEmpty())
        lines << u"alert firing: "_s + cell.alert;
    if (cell.series.isEmpty()) {
        lines << u"no %1 series on %2"_s.arg(useColumnKey(column), row.resource);
        return lines.join(u'\n');
    }
    if (const UseWorst *worst = cell.worst()) {
        lines << u"worst in range: %1 at %2"_s.arg(
            formatUseValue(worst->sample.value, cell.headlineSeries()->info.unit),
            when(worst->sample.tsMs));
        if (cell.raised() && cell.sinceMs >= 0) {
            lines << (cell.ongoing || cell.untilMs < 0
                          ? u"%1 since %2"_s.arg(levelText(cell.level), when(cell.sinceMs))
                          : u"%1 from %2 until %3"_s.arg(levelText(cell.level), when(cell.sinceMs),
                                                         when(cell.untilMs)));
        }
    }
    for (int i = 0; i < cell.series.size(); ++i) {
        const UseCellSeries &s = cell.series.at(i);
        QString name = s.info.key.metric;
        if (!s.info.key.labels.isEmpty())
            name += u' ' + labelsToString(s.info.key.labels);
        const QString value = s.worst
            ? u"worst "_s + formatUseValue(s.worst->sample.value, s.info.unit)
            : u"no value"_s;
        QString unit = s.info.unit.isEmpty() ? QString() : u" [%1]"_s.arg(s.info.unit);
        lines << u"%1%2%3: %4, last sample %5%6"_s.arg(
            i == cell.headline ? u"▶ "_s : u"   "_s, name, unit, value, ageText(s.ageMs),
            s.stale && s.worst ? u" (stale)"_s : QString());
    }
    lines << u"Click to chart these series."_s;
    return lines.join(u'\n');
}

QVariant UseMatrixModel::data(const QModelIndex &index, int role) const
{
    const UseCell *cell = cellAt(index);
    if (!cell)
        return {};
    const UseMatrixRow &row = m_matrix.rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return cellText(*cell, m_matrix.atMs);
    case Qt::ToolTipRole:
        return cellToolTip(row, UseColumn(index.column()));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignCenter));
    case LevelRole:
        return int(cell->level);
    case SeriesKeysRole:
        return QVariant::fromValue(cell->seriesKeys());
    case ResourceRole:
        return row.resource;
    case SourceRole:
        return row.source;
    case StaleRole:
        return cell->hasValue() && cell->stale;
    case ValueRole:
        if (const UseWorst *w = cell->worst(); w && cell->hasValue())
            return w->sample.value;
        return {};
    case WorstTimeRole:
        if (const UseWorst *w = cell->worst(); w && cell->hasValue())
            return w->sample.tsMs;
        return {};
    case SinceRole:
        if (cell->raised() && cell->sinceMs >= 0)
            return cell->sinceMs;
        return {};
    case UntilRole:
        if (cell->raised() && !cell->ongoing && cell->untilMs >= 0)
            return cell->untilMs;
        return {};
    default:
        return {};
    }
}

QVariant UseMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= UseColumnCount)
            return {};
        if (role == Qt::DisplayRole)
            return useColumnTitle(UseColumn(section));
        return {};
    }
    if (section < 0 || section >= m_matrix.rows.size())
        return {};
    const UseMatrixRow &row = m_matrix.rows.at(section);
    if (role == Qt::DisplayRole)
        return row.label;
    if (role == Qt::ToolTipRole)
        return u"%1 on source %2"_s.arg(row.resource, row.source);
    if (role == ResourceRole)
        return row.resource;
    if (role == SourceRole)
        return row.source;
    return {};
}

Qt::ItemFlags UseMatrixModel::flags(const QModelIndex &index) const
{
    if (!cellAt(index))
        return Qt::NoItemFlags;
    // Enabled (clickable) without being selectable: a click opens a chart.
    return Qt::ItemIsEnabled | Qt::ItemNeverHasChildren;
}

QHash<int, QByteArray> UseMatrixModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(LevelRole, "level");
    names.insert(SeriesKeysRole, "seriesKeys");
    names.insert(ResourceRole, "resource");
    names.insert(ValueRole, "value");
    names.insert(SourceRole, "source");
    names.insert(StaleRole, "stale");
    names.insert(SinceRole, "since");
    names.insert(UntilRole, "until");
    names.insert(WorstTimeRole, "worstTime");
    return names;
}

} // namespace Headroom
