// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A time-series panel's legend as a table: one row per line with its name, and last,
// min, max and mean over the range (query/legendnames.h), for the "table" legend.
//
// setRows() updates in place when the lines are the same ones (a live refresh): rows
// keep their place and get dataChanged, so a sort proxy and a selection survive it;
// another set of lines resets the model. Rows are in the panel's order (its colours);
// a QSortFilterProxyModel on SortRole orders them by any column. GUI-free: the line's
// colour and whether it is shown are roles the view turns into a swatch and grey text.
#pragma once

#include "query/panelquery.h"

#include <QAbstractTableModel>

namespace Headroom {

class LegendTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        LastColumn,
        MinColumn,
        MaxColumn,
        MeanColumn,
        ColumnCount
    };
    enum Role
    {
        SortRole = Qt::UserRole + 1, // the name, or the number (NaN below every number)
        KeyRole, // the line's SeriesKey (QVariant of SeriesKey)
        ValueRole, // the number of a figure column (double, NaN when none)
        ColorRole, // the line's colour as 0xAARRGGBB (uint), on every column
        ShownRole, // false while another line is isolated (bool)
    };

    struct Row
    {
        SeriesKey key; // as the panel draws it (compare lines carry their label)
        QString name; // the legend name
        QString unit;
        quint32 argb = 0; // the line's colour
        SeriesStats stats;
        bool shown = true; // false: hidden while another line is isolated (greyed)
    };

    explicit LegendTableModel(QObject *parent = nullptr);

    void setRows(const QList<Row> &rows);
    const Row &row(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // What hovering a row shows: the whole name, then the series it is (source, metric
    // and every label, a statement's whole text included).
    static QString fullDescription(const Row &row);

private:
    QList<Row> m_rows;
};

} // namespace Headroom
