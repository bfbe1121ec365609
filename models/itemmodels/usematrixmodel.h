// The USE matrix as a table model: rows are resources, columns Utilization,
// Saturation, Errors. GUI-free (no colours): views map LevelRole to colours.
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
        ValueRole, // double: the headline's latest value; invalid without one
    };

    explicit UseMatrixModel(QObject *parent = nullptr);

    // Replaces the matrix: dataChanged when the resources are the same, a reset when
    // rows come or go. Emits levelChanged for every cell whose level changed.
    void setMatrix(const UseMatrix &matrix);
    const UseMatrix &matrix() const { return m_matrix; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The text a cell shows: the headline's figure, "—" when stale, "" when nothing
    // of that kind is measured on the resource.
    static QString cellText(const UseCell &cell);
    // Cell, headline, then every series with value, unit and age.
    static QString cellToolTip(const UseMatrixRow &row, UseColumn column);

Q_SIGNALS:
    // The hook for alert rules (a later issue): a cell's level changed.
    void levelChanged(const Headroom::UseLevelChange &change);

private:
    const UseCell *cellAt(const QModelIndex &index) const;

    UseMatrix m_matrix;
};

} // namespace Headroom
