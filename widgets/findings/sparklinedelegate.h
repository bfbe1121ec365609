// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Paints a finding's row pieces in the Findings dock: the Trend column as a sparkline
// of the signal's bin values over the analysed range (FindingsModel::SparklineRole),
// and the Score column on a chip in the score's level colour (critical, warning,
// below warning), so the list reads at a glance.
#pragma once

#include <QStyledItemDelegate>

namespace Headroom {

class SparklineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // Critical and warning as the alert severities; below warning a quiet grey.
    static QColor scoreColor(double score);
    // The sparkline of values in rect (inset 2 px), min to max of the values; empty
    // for fewer than two finite values.
    static QPolygonF sparkline(const QList<double> &values, const QRectF &rect);
};

} // namespace Headroom
