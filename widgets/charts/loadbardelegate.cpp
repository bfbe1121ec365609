// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/loadbardelegate.h"

#include "itemmodels/shardtablemodel.h"

#include <QApplication>
#include <QPainter>
#include <cmath>

namespace Headroom {

LoadBarDelegate::LoadBarDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

QRect LoadBarDelegate::barRect(const QRect &cell, double load)
{
    const QRect inner = cell.adjusted(2, 3, -2, -3);
    if (!(load > 0) || inner.width() <= 0)
        return {};
    const double fraction = std::min(load, 100.0) / 100.0;
    return QRect(inner.left(), inner.top(), int(std::lround(inner.width() * fraction)),
                 inner.height());
}

QColor LoadBarDelegate::barColor(bool overloaded)
{
    // Light enough for black text on top of it.
    return overloaded ? QColor(0xf4, 0x8c, 0x82) : QColor(0x9e, 0xc5, 0xe8);
}

void LoadBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                            const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    // Background and selection as the style draws them, then the bar, then the number.
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const double load = index.data(ShardTableModel::ValueRole).toDouble();
    const QRect bar = barRect(option.rect, load);
    painter->save();
    if (!bar.isEmpty())
        painter->fillRect(bar, barColor(load > m_overloadedPercent));
    painter->setPen(opt.palette.color(QPalette::Text));
    painter->drawText(option.rect.adjusted(4, 0, -4, 0), Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

} // namespace Headroom
