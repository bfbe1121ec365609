// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/zoomablechartview.h"

#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLineItem>
#include <QMouseEvent>
#include <QRubberBand>

namespace Headroom {

ZoomableChartView::ZoomableChartView(QChart *chart, QWidget *parent)
    : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::NoRubberBand); // ours only selects, never zooms the axes itself
    setMouseTracking(true); // the crosshair follows the mouse without a button held
    m_crosshair = new QGraphicsLineItem(chart);
    QPen pen(QColor(90, 90, 90, 200));
    pen.setStyle(Qt::DashLine);
    pen.setCosmetic(true);
    m_crosshair->setPen(pen);
    m_crosshair->setZValue(1000); // above the series
    m_crosshair->hide();
    // The plot moves when axes, legend or size change; keep the line on its instant.
    connect(chart, &QChart::plotAreaChanged, this, &ZoomableChartView::placeCrosshair);
}

void ZoomableChartView::setCrosshair(qint64 ms)
{
    m_crosshairMs = ms;
    placeCrosshair();
}

void ZoomableChartView::placeCrosshair()
{
    const auto axes = chart()->axes(Qt::Horizontal);
    const auto *axis = axes.isEmpty() ? nullptr : qobject_cast<QDateTimeAxis *>(axes.first());
    if (m_crosshairMs < 0 || !axis || m_crosshairMs < axis->min().toMSecsSinceEpoch()
        || m_crosshairMs > axis->max().toMSecsSinceEpoch()) {
        m_crosshair->hide();
        return;
    }
    const QRectF plot = chart()->plotArea();
    const qint64 from = axis->min().toMSecsSinceEpoch();
    const qint64 span = std::max<qint64>(1, axis->max().toMSecsSinceEpoch() - from);
    // Linear in time, whatever the series attached: the axis alone decides.
    const qreal x = plot.left() + plot.width() * qreal(m_crosshairMs - from) / qreal(span);
    m_crosshair->setLine(QLineF(x, plot.top(), x, plot.bottom()));
    m_crosshair->show();
}

bool ZoomableChartView::crosshairVisible() const
{
    return m_crosshair->isVisible();
}

int ZoomableChartView::crosshairX() const
{
    return mapFromScene(chart()->mapToScene(m_crosshair->line().p1())).x();
}

void ZoomableChartView::reportHover(const QPointF &position)
{
    qint64 ms = -1;
    const QRectF plot = chart()->plotArea();
    const auto axes = chart()->axes(Qt::Horizontal);
    const auto *axis = axes.isEmpty() ? nullptr : qobject_cast<QDateTimeAxis *>(axes.first());
    if (axis && plot.width() > 0 && plot.contains(position)) {
        const qint64 from = axis->min().toMSecsSinceEpoch();
        const qint64 span = axis->max().toMSecsSinceEpoch() - from;
        ms = from + qint64(double(span) * (position.x() - plot.left()) / plot.width());
    }
    Q_EMIT plotHovered(chart()->mapFromScene(mapToScene(position.toPoint())), ms >= 0);
    if (ms != m_hoverMs) {
        m_hoverMs = ms;
        Q_EMIT hoverTimeChanged(ms);
    }
}

void ZoomableChartView::leaveEvent(QEvent *event)
{
    reportHover(QPointF(-1, -1));
    QChartView::leaveEvent(event);
}

void ZoomableChartView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    placeCrosshair();
}

void ZoomableChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && chart()->plotArea().contains(event->position())) {
        m_originX = event->position().toPoint().x();
        m_explainDrag = event->modifiers().testFlag(Qt::ShiftModifier);
        if (!m_band)
            m_band = new QRubberBand(QRubberBand::Rectangle, viewport());
        const QRectF plot = chart()->plotArea();
        m_band->setGeometry(QRect(m_originX, int(plot.top()), 1, int(plot.height())));
        m_band->show();
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void ZoomableChartView::mouseMoveEvent(QMouseEvent *event)
{
    reportHover(event->position());
    if (m_originX >= 0 && m_band) {
        const QRectF plot = chart()->plotArea();
        const int x
            = std::clamp(event->position().toPoint().x(), int(plot.left()), int(plot.right()));
        m_band->setGeometry(QRect(std::min(x, m_originX), int(plot.top()), std::abs(x - m_originX),
                                  int(plot.height())));
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void ZoomableChartView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_originX >= 0 && event->button() == Qt::LeftButton) {
        const int x = event->position().toPoint().x();
        if (m_band)
            m_band->hide();
        const int origin = std::exchange(m_originX, -1);
        if (std::abs(x - origin) >= 5) { // a click is not a zoom
            const qreal plotY = chart()->plotArea().center().y();
            const qreal a = chart()->mapToValue(QPointF(origin, plotY)).x();
            const qreal b = chart()->mapToValue(QPointF(x, plotY)).x();
            if (m_explainDrag)
                Q_EMIT windowSelected(qint64(std::min(a, b)), qint64(std::max(a, b)));
            else
                Q_EMIT rangeSelected(qint64(std::min(a, b)), qint64(std::max(a, b)));
        }
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

} // namespace Headroom
