// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/alertmarksitem.h"

#include "charts/alertcolors.h"
#include "charts/lineplotitem.h"

#include <QChart>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace Headroom {

AlertMarksItem::AlertMarksItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY)
    : QGraphicsItem(chart)
    , m_chart(chart)
    , m_axisX(axisX)
    , m_axisY(axisY)
{
    setZValue(5); // above the grid, below the lines (10) and the crosshair
    setAcceptedMouseButtons(Qt::NoButton);
}

void AlertMarksItem::setAlerts(QList<AlertSpan> spans, QList<AlertMark> marks)
{
    m_spans = std::move(spans);
    m_marks = std::move(marks);
    refresh();
}

void AlertMarksItem::refresh()
{
    prepareGeometryChange();
    m_bounds = m_chart->plotArea().adjusted(-MarkerSize, -MarkerSize, MarkerSize, MarkerSize);
    update();
}

QRectF AlertMarksItem::boundingRect() const
{
    return m_bounds;
}

QString AlertMarksItem::markAt(const QPointF &chartPosition) const
{
    const PlotMapping m = chartMapping(m_chart, m_axisX, m_axisY);
    if (chartPosition.y() > m.plot.top() + 3 * MarkerSize
        || chartPosition.y() < m.plot.top() - MarkerSize)
        return {};
    QStringList texts;
    for (const AlertMark &mark : m_marks) {
        const double x = m.map({ double(mark.tsMs), m.yMin }).x();
        if (std::abs(x - chartPosition.x()) <= MarkerSize)
            texts << mark.text;
    }
    return texts.join(u'\n');
}

void AlertMarksItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const PlotMapping m = chartMapping(m_chart, m_axisX, m_axisY);
    const auto xOf = [&](qint64 ms) { return m.map({ double(ms), m.yMin }).x(); };
    painter->save();
    painter->setClipRect(m.plot.adjusted(0, -MarkerSize, 0, 0));
    // Overlapping spans of one severity (several series of the panel alerting at once)
    // are one band, so the tint says "alerting", not how many.
    for (AlertSeverity severity :
         { AlertSeverity::Info, AlertSeverity::Warning, AlertSeverity::Critical }) {
        QList<std::pair<qint64, qint64>> spans;
        for (const AlertSpan &span : std::as_const(m_spans))
            if (span.severity == severity)
                spans.append({ span.startMs, span.endMs });
        std::sort(spans.begin(), spans.end());
        QList<std::pair<qint64, qint64>> merged;
        for (const auto &span : std::as_const(spans)) {
            if (!merged.isEmpty() && span.first <= merged.last().second)
                merged.last().second = std::max(merged.last().second, span.second);
            else
                merged.append(span);
        }
        QColor color = alertSeverityColor(severity);
        color.setAlpha(BandAlpha);
        for (const auto &[startMs, endMs] : std::as_const(merged)) {
            // At least a pixel wide, so a span shorter than a column still shows.
            const double left = xOf(startMs);
            const double right = std::max(xOf(endMs), left + 1);
            painter->fillRect(QRectF(left, m.plot.top(), right - left, m.plot.height()), color);
        }
    }
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    for (const AlertMark &mark : std::as_const(m_marks)) {
        const double x = xOf(mark.tsMs);
        QPainterPath triangle;
        triangle.moveTo(x - MarkerSize / 2, m.plot.top());
        triangle.lineTo(x + MarkerSize / 2, m.plot.top());
        triangle.lineTo(x, m.plot.top() + MarkerSize);
        triangle.closeSubpath();
        painter->setBrush(alertSeverityColor(mark.severity));
        painter->drawPath(triangle);
    }
    painter->restore();
}

} // namespace Headroom
