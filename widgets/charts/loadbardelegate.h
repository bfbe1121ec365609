// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Draws a load % cell as a bar as wide as the load (100 % fills the cell; more, in
// capacity mode, too), red-ish above the overloaded threshold, with the number on top.
// The value comes from ShardTableModel::ValueRole.
#pragma once

#include "query/shards/shardload.h"

#include <QStyledItemDelegate>

namespace Headroom {

class LoadBarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit LoadBarDelegate(QObject *parent = nullptr);

    void setOverloadedPercent(double percent) { m_overloadedPercent = percent; }
    double overloadedPercent() const { return m_overloadedPercent; }

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;

    // The bar of `load` in a cell's rectangle: inset 2 px left and right, 3 px top and
    // bottom, as wide as min(load, 100) % of that (empty for 0, NaN or below).
    static QRect barRect(const QRect &cell, double load);
    static QColor barColor(bool overloaded);

private:
    double m_overloadedPercent = DefaultOverloadedPercent;
};

} // namespace Headroom
