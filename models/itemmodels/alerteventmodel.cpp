// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "itemmodels/alerteventmodel.h"

#include "core/valueformat.h"
#include "engine/alerts/alerteventlog.h"

#include <QDateTime>

namespace Headroom {

using namespace Qt::StringLiterals;

void AlertEventModel::setEvents(const QList<AlertEvent> &events)
{
    QList<AlertEvent> next(events.crbegin(), events.crend());
    // The common live case: the old list is the tail of the new one (events were added
    // at the top, none dropped). Otherwise (another range) start over.
    const qsizetype added = next.size() - m_events.size();
    bool tail = added >= 0;
    for (qsizetype i = 0; tail && i < m_events.size(); ++i)
        tail = sameAlertEvent(next[added + i], m_events[i]);
    if (!tail) {
        beginResetModel();
        m_events = std::move(next);
        endResetModel();
        return;
    }
    if (added > 0) {
        beginInsertRows({}, 0, int(added) - 1);
        for (qsizetype i = added - 1; i >= 0; --i)
            m_events.prepend(next[i]);
        endInsertRows();
    }
    for (qsizetype i = added; i < next.size(); ++i) {
        if (m_events[i].acknowledged == next[i].acknowledged)
            continue;
        m_events[i].acknowledged = next[i].acknowledged;
        Q_EMIT dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
}

const AlertEvent *AlertEventModel::eventAt(int row) const
{
    return row >= 0 && row < m_events.size() ? &m_events[row] : nullptr;
}

int AlertEventModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int AlertEventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AlertEventModel::data(const QModelIndex &index, int role) const
{
    const AlertEvent *e
        = checkIndex(index, CheckIndexOption::IndexIsValid) ? eventAt(index.row()) : nullptr;
    if (!e)
        return {};
    switch (role) {
    case StateRole:
        return int(e->state);
    case SeverityRole:
        return int(e->severity);
    case TimeRole:
        return e->tsMs;
    case AcknowledgedRole:
        return e->acknowledged;
    case Qt::ToolTipRole:
        return e->hint.isEmpty() ? e->message : e->message + u"\nWhat to check: "_s + e->hint;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (Column(index.column())) {
    case TimeColumn:
        return QDateTime::fromMSecsSinceEpoch(e->tsMs).toString(u"yyyy-MM-dd HH:mm:ss"_s);
    case StateColumn:
        return alertStateName(e->state);
    case SeverityColumn:
        return alertSeverityName(e->severity);
    case RuleColumn:
        return e->ruleName;
    case SeriesColumn:
        return e->series.toString();
    case ValueColumn:
        return qIsNaN(e->value) ? u"no data"_s : formatUseValue(e->value, QString());
    case MessageColumn:
        return e->message;
    case SeenColumn:
        return e->acknowledged ? u"yes"_s : QString();
    case ColumnCount:
        break;
    }
    return {};
}

QVariant AlertEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const QStringList titles { u"Time"_s,   u"State"_s, u"Severity"_s, u"Rule"_s,
                                      u"Series"_s, u"Value"_s, u"Message"_s,  u"Seen"_s };
    return titles.value(section);
}

void AlertEventFilterModel::setStates(const QSet<AlertState> &states)
{
    m_states = states;
    invalidateRowsFilter();
}

void AlertEventFilterModel::setMinimumSeverity(AlertSeverity severity)
{
    m_minimum = severity;
    invalidateRowsFilter();
}

void AlertEventFilterModel::setUnacknowledgedOnly(bool only)
{
    m_unacknowledgedOnly = only;
    invalidateRowsFilter();
}

bool AlertEventFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto state = AlertState(index.data(AlertEventModel::StateRole).toInt());
    const auto severity = AlertSeverity(index.data(AlertEventModel::SeverityRole).toInt());
    if (!m_states.isEmpty() && !m_states.contains(state))
        return false;
    if (int(severity) < int(m_minimum))
        return false;
    return !m_unacknowledgedOnly || !index.data(AlertEventModel::AcknowledgedRole).toBool();
}

} // namespace Headroom
