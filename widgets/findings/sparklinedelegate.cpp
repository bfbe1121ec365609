// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "findings/sparklinedelegate.h"

#include "charts/alertcolors.h"
#include "itemmodels/findingsmodel.h"

#include <QPainter>
#include <cmath>

namespace Headroom {

QColor SparklineDelegate::scoreColor(double score)
{
    if (score >= Analysis::CriticalScore)
        return alertSeverityColor(AlertSeverity::Critical);
    if (score >= Analysis::WarningScore)
        return alertSeverityColor(AlertSeverity::Warning);
    return QColor(0x80, 0x80, 0x80);
}

QPolygonF SparklineDelegate::sparkline(const QList<double> &values, const QRectF &rect)
{
    double lo = INFINITY, hi = -INFINITY;
    int finite = 0;
    for (double v : values) {
        if (!std::isfinite(v))
            continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        ++finite;
    }
    QPolygonF points;
    if (finite < 2)
        return points;
    const QRectF r = rect.adjusted(2, 2, -2, -2);
    const double span = hi > lo ? hi - lo : 1;
    const double step = r.width() / double(std::max<qsizetype>(1, values.size() - 1));
    for (qsizetype i = 0; i < values.size(); ++i) {
        const double v = values.at(i);
        if (!std::isfinite(v))
            continue;
        // A flat line sits in the middle rather than on the floor.
        const double y = hi > lo ? r.bottom() - (v - lo) / span * r.height() : r.center().y();
        points.append(QPointF(r.left() + double(i) * step, y));
    }
    return points;
}

void SparklineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                              const QModelIndex &index) const
{
    const double score = index.data(FindingsModel::ScoreRole).toDouble();
    if (index.column() == FindingsModel::TrendColumn) {
        QStyledItemDelegate::paint(painter, option, index); // selection background
        const QPolygonF points = sparkline(
            index.data(FindingsModel::SparklineRole).value<QList<double>>(), QRectF(option.rect));
        if (points.isEmpty())
            return;
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(QPen(scoreColor(score), 1.5));
        painter->drawPolyline(points);
        painter->restore();
        return;
    }
    if (index.column() == FindingsModel::ScoreColumn) {
        QStyledItemDelegate::paint(painter, option, index);
        painter->save();
        QColor chip = scoreColor(score);
        chip.setAlpha(70);
        painter->fillRect(QRectF(option.rect).adjusted(2, 3, -2, -3), chip);
        painter->restore();
        return;
    }
    QStyledItemDelegate::paint(painter, option, index);
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem &option,
                                  const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == FindingsModel::TrendColumn)
        size.setWidth(std::max(size.width(), 90));
    size.setHeight(std::max(size.height(), 20));
    return size;
}

} // namespace Headroom
