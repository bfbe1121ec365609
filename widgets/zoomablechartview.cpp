#include "zoomablechartview.h"

#include <QMouseEvent>
#include <QRubberBand>

namespace Headroom {

ZoomableChartView::ZoomableChartView(QChart *chart, QWidget *parent)
    : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::NoRubberBand); // ours only selects, never zooms the axes itself
}

void ZoomableChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && chart()->plotArea().contains(event->position())) {
        m_originX = event->position().toPoint().x();
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
            Q_EMIT rangeSelected(qint64(std::min(a, b)), qint64(std::max(a, b)));
        }
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

} // namespace Headroom
