// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/lineplotitem.h"

#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLogValueAxis>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace Headroom {

LinePlotItem::LinePlotItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY)
    : QGraphicsItem(chart)
    , m_chart(chart)
    , m_axisX(axisX)
    , m_axisY(axisY)
{
    setZValue(10); // above the grid and areas, below the crosshair
    setAcceptedMouseButtons(Qt::NoButton);
}

void LinePlotItem::setLines(QList<PlotLine> lines)
{
    m_lines = std::move(lines);
    refresh();
}

PlotLine *LinePlotItem::line(const SeriesKey &key)
{
    for (PlotLine &l : m_lines) {
        if (l.key == key)
            return &l;
    }
    return nullptr;
}

const PlotLine *LinePlotItem::line(const SeriesKey &key) const
{
    return const_cast<LinePlotItem *>(this)->line(key);
}

void LinePlotItem::refresh()
{
    m_denseValid = false;
    const QRectF plot = m_chart->plotArea();
    if (plot != m_bounds) {
        prepareGeometryChange();
        m_bounds = plot;
    }
    update();
}

int LinePlotItem::segmentCount() const
{
    int n = 0;
    for (const PlotLine &l : m_lines)
        n += int(l.segments.size());
    return n;
}

PlotMapping chartMapping(const QChart *chart, const QDateTimeAxis *axisX,
                         const QAbstractAxis *axisY)
{
    PlotMapping m;
    m.plot = chart->plotArea();
    m.xMin = double(axisX->min().toMSecsSinceEpoch());
    m.xMax = std::max(m.xMin + 1, double(axisX->max().toMSecsSinceEpoch()));
    if (const auto *log = qobject_cast<const QLogValueAxis *>(axisY)) {
        m.logY = true;
        m.yMin = log->min();
        m.yMax = log->max();
    } else if (const auto *linear = qobject_cast<const QValueAxis *>(axisY)) {
        m.yMin = linear->min();
        m.yMax = linear->max();
    }
    if (!(m.yMax > m.yMin))
        m.yMax = m.yMin + 1;
    return m;
}

PlotMapping LinePlotItem::mapping() const
{
    return chartMapping(m_chart, m_axisX, m_axisY);
}

QRectF LinePlotItem::boundingRect() const
{
    return m_bounds;
}

bool LinePlotItem::isDense(const PlotLine &line, double plotWidth)
{
    qsizetype points = 0;
    for (const QPolygonF &segment : line.segments)
        points += segment.size();
    return double(points) * 4 >= plotWidth;
}

void LinePlotItem::paintDenseLines(QPainter *painter, const PlotMapping &m)
{
    // In device pixels, so an export at scale 2 gets lines as fine as on screen.
    const QTransform device = painter->deviceTransform();
    const qreal sx = std::abs(device.m11()) > 0 ? std::abs(device.m11()) : 1;
    const qreal sy = std::abs(device.m22()) > 0 ? std::abs(device.m22()) : 1;
    const QSize size(int(std::ceil(m.plot.width() * sx)), int(std::ceil(m.plot.height() * sy)));
    if (!m_denseValid || m_denseMapping != m || m_denseSize != size) {
        m_dense = QImage(size, QImage::Format_ARGB32_Premultiplied);
        m_dense.fill(Qt::transparent);
        PlotMapping pixels = m;
        pixels.plot = QRectF(QPointF(0, 0), QSizeF(size));
        for (const PlotLine &line : std::as_const(m_lines)) {
            if (!isDense(line, m.plot.width()))
                continue;
            // A dense line is drawn a pixel narrower than a sparse one: at a point per
            // pixel, 1 px shows every value and a wider line only hides its neighbours.
            SpanPen pen;
            pen.color = line.pen.color().rgba();
            pen.width = std::max(1, int(std::lround((line.pen.widthF() - 1) * sx)));
            pen.dashed = line.pen.style() != Qt::SolidLine;
            for (const QPolygonF &segment : line.segments)
                rasterizeLine(&m_dense, segment, pixels, pen);
        }
        m_denseMapping = m;
        m_denseSize = size;
        m_denseValid = true;
    }
    painter->drawImage(QRectF(m.plot.topLeft(), QSizeF(size.width() / sx, size.height() / sy)),
                       m_dense);
}

void LinePlotItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const PlotMapping m = mapping();
    if (m.plot.isEmpty())
        return;
    painter->save();
    // A little beyond the plot, so a line along its top or bottom edge keeps its width.
    painter->setClipRect(m.plot.adjusted(-2, -2, 2, 2));
    if (std::ranges::any_of(m_lines,
                            [&](const PlotLine &line) { return isDense(line, m.plot.width()); }))
        paintDenseLines(painter, m);
    // Sparse lines (zoomed in, a few points): smooth strokes.
    painter->setRenderHint(QPainter::Antialiasing);
    for (const PlotLine &line : std::as_const(m_lines)) {
        if (isDense(line, m.plot.width()))
            continue;
        painter->setPen(line.pen);
        for (const QPolygonF &segment : line.segments) {
            const QPolygonF pixels = columnPolyline(segment, m);
            if (pixels.size() == 1)
                painter->drawPoint(pixels.constFirst());
            else
                painter->drawPolyline(pixels);
        }
    }
    painter->restore();
}

} // namespace Headroom
