// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix as a table model: rows are sources' resources (headers: the row
// labels, "CPU" or "web2 · CPU"), columns Utilization, Saturation, Errors; a cell shows
// the worst figure in the range and, raised, since when ("92 % since 14:03"). GUI-free
// (no colours): views map LevelRole and StaleRole to colours.
#pragma once

#include "query/use/usematrix.h"

#include <QAbstractTableModel>

namespace Headroom {

class UseMatrixModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Role
    {
        LevelRole = Qt::UserRole + 1, // int(UseLevel) of the cell
        SeriesKeysRole, // QList<SeriesKey>: every series of the cell
        ResourceRole, // QString, e.g. "disk:sda"
        ValueRole, // double: the headline's worst value in the range; invalid without one
        SourceRole, // QString, e.g. "host"
        StaleRole, // bool: a figure is shown, but no series of the cell is current
        SinceRole, // qint64 ms since the epoch: raised since (UseCell::sinceMs); else invalid
        UntilRole, // qint64: the raised stretch's end; invalid while it holds or not raised
        WorstTimeRole, // qint64: the time of the worst sample; invalid without one
    };

    explicit UseMatrixModel(QObject *parent = nullptr);

    // Replaces the matrix: dataChanged when the rows (source and resource) are the
    // same, a reset when rows come or go. Emits levelChanged for every cell whose level changed.
    void setMatrix(const UseMatrix &matrix);
    const UseMatrix &matrix() const { return m_matrix; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The text a cell shows: the headline's worst figure, then for a raised cell
    // " since 14:03" (the stretch holds at atMs) or " 14:03–14:10" (it ended; " at
    // 14:03" when both fall in one minute); times
    // in local time, with the day ("2 Dec 14:03") when not atMs's day. "—" without a
    // sample in the range, "" when nothing of that kind is measured on the resource.
    static QString cellText(const UseCell &cell, qint64 atMs);
    // Cell, headline (worst value and its time, since / until), then every series
    // with its worst value, unit and age.
    static QString cellToolTip(const UseMatrixRow &row, UseColumn column);
    // "14:03", or "2 Dec 14:03" when ms is not on atMs's (local) day.
    static QString timeText(qint64 ms, qint64 atMs);

Q_SIGNALS:
    // A cell's level changed, for what reacts to the matrix itself (alert rules do not:
    // AlertEngine evaluates the series).
    void levelChanged(const Headroom::UseLevelChange &change);

private:
    const UseCell *cellAt(const QModelIndex &index) const;

    UseMatrix m_matrix;
};

} // namespace Headroom
