// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alert events as a table, newest first, for the alert list panel: time, state,
// severity, rule, series, value, message, seen. Live updates insert new events at the
// top and change acknowledged flags in place, so a selection survives a refresh.
// AlertEventFilterModel keeps the states and severities the user picked.
#pragma once

#include "engine/runtime/alertevent.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

namespace Headroom {

class AlertEventModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        TimeColumn,
        StateColumn,
        SeverityColumn,
        RuleColumn,
        SeriesColumn,
        ValueColumn,
        MessageColumn,
        SeenColumn,
        ColumnCount
    };
    enum Role
    {
        StateRole = Qt::UserRole + 1, // int(AlertState)
        SeverityRole, // int(AlertSeverity)
        TimeRole, // qint64 ms since the epoch
        AcknowledgedRole, // bool
    };

    using QAbstractTableModel::QAbstractTableModel;

    // Events oldest first, as the store returns them.
    void setEvents(const QList<AlertEvent> &events);
    const AlertEvent *eventAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<AlertEvent> m_events; // newest first
};

class AlertEventFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    // Empty: every state.
    void setStates(const QSet<AlertState> &states);
    void setMinimumSeverity(AlertSeverity severity);
    // Only events not acknowledged yet (of pending and firing, the ones to act on).
    void setUnacknowledgedOnly(bool only);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QSet<AlertState> m_states;
    AlertSeverity m_minimum = AlertSeverity::Info;
    bool m_unacknowledgedOnly = false;
};

} // namespace Headroom
