// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The lines of a time panel, painted straight from their points by one item in the
// chart's scene. QLineSeries rebuilds a stroked outline of every line on every update
// (hundreds of ms for 20 lines of a day at 1 s); this item maps the points to pixel
// columns at paint time: dense lines are rasterized as column spans into one image
// (kept until the lines or axes change, so a crosshair move costs a blit), sparse ones
// (zoomed in) are stroked by QPainter, antialiased. The chart keeps axes, grid, legend.
#pragma once

#include "charts/linerasterizer.h"
#include "core/series.h"

#include <QGraphicsItem>
#include <QImage>
#include <QPen>

class QAbstractAxis;
class QChart;
class QDateTimeAxis;

namespace Headroom {

// How the chart's axes place data in its plot area now.
PlotMapping chartMapping(const QChart *chart, const QDateTimeAxis *axisX,
                         const QAbstractAxis *axisY);

struct PlotLine
{
    SeriesKey key;
    QList<QPolygonF> segments; // in data coordinates, each sorted by time
    QPen pen;
};

class LinePlotItem : public QGraphicsItem
{
public:
    // Child of the chart, so it moves with it; reads the axes' ranges at paint time.
    LinePlotItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY);

    void setLines(QList<PlotLine> lines);
    const QList<PlotLine> &lines() const { return m_lines; }
    // The line with this key, or nullptr.
    PlotLine *line(const SeriesKey &key);
    const PlotLine *line(const SeriesKey &key) const;
    // Call when the lines' pens changed, or the axes or the plot area moved.
    void refresh();
    // Whether a line is drawn as pixel-column spans (about a point per 4 pixels or
    // more) rather than stroked.
    static bool isDense(const PlotLine &line, double plotWidth);

    PlotMapping mapping() const;
    int segmentCount() const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QChart *m_chart;
    QDateTimeAxis *m_axisX;
    QAbstractAxis *m_axisY;
    void paintDenseLines(QPainter *painter, const PlotMapping &mapping);

    QList<PlotLine> m_lines;
    QRectF m_bounds;
    // The dense lines as last rasterized, and what they were rasterized for.
    QImage m_dense;
    PlotMapping m_denseMapping;
    QSize m_denseSize;
    bool m_denseValid = false;
};

} // namespace Headroom
