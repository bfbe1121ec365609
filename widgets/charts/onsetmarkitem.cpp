// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/onsetmarkitem.h"

#include "charts/lineplotitem.h"

#include <QChart>
#include <QDateTime>
#include <QFontMetricsF>
#include <QPainter>

namespace Headroom {

using namespace Qt::StringLiterals;

OnsetMarkItem::OnsetMarkItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY)
    : QGraphicsItem(chart)
    , m_chart(chart)
    , m_axisX(axisX)
    , m_axisY(axisY)
{
    setZValue(20); // above the lines (10), below the crosshair (1000)
    setAcceptedMouseButtons(Qt::NoButton);
}

void OnsetMarkItem::setOnset(qint64 ms)
{
    m_onsetMs = ms;
    refresh();
}

QString OnsetMarkItem::label() const
{
    if (m_onsetMs < 0)
        return {};
    return u"onset "_s + QDateTime::fromMSecsSinceEpoch(m_onsetMs).toString(u"HH:mm:ss"_s);
}

qreal OnsetMarkItem::lineX() const
{
    if (m_onsetMs < 0)
        return -1;
    const PlotMapping m = chartMapping(m_chart, m_axisX, m_axisY);
    if (double(m_onsetMs) < m.xMin || double(m_onsetMs) > m.xMax || m.plot.width() <= 0)
        return -1;
    return m.map({ double(m_onsetMs), m.yMin }).x();
}

void OnsetMarkItem::refresh()
{
    prepareGeometryChange();
    // Room above the plot for the label.
    m_bounds = m_chart->plotArea().adjusted(-100, -20, 100, 0);
    update();
}

QRectF OnsetMarkItem::boundingRect() const
{
    return m_bounds;
}

void OnsetMarkItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const qreal x = lineX();
    if (x < 0)
        return;
    const QRectF plot = m_chart->plotArea();
    painter->save();
    QPen pen(Color, PenWidth);
    pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    // The label inside the plot's top, right of the line (left of it near the right
    // edge), on a light backing so it reads over the lines.
    QFont font = painter->font();
    font.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    painter->setFont(font);
    const QString text = label();
    const QFontMetricsF metrics(font);
    const QSizeF size(metrics.horizontalAdvance(text) + 6, metrics.height() + 2);
    qreal left = x + 3;
    if (left + size.width() > plot.right())
        left = x - 3 - size.width();
    const QRectF box(QPointF(left, plot.top() + 2), size);
    painter->fillRect(box, QColor(255, 255, 255, 210));
    painter->setPen(Color);
    painter->drawText(box, Qt::AlignCenter, text);
    painter->restore();
}

} // namespace Headroom
