// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Dense time-series lines to pixels without a general-purpose stroker. A line whose x
// never goes back passes each pixel column once, so the pixels it covers there are one
// contiguous span of rows: the rasterizer collects that span per column from the
// points and fills it, which is exact for a one-pixel line, costs a few operations per
// point, and blends each pixel once (a faded line shows no darker joints). The column
// polyline (lowest and highest value per column) is the same reduction for lines
// that QPainter strokes.
#pragma once

#include <QImage>
#include <QPolygonF>
#include <QRectF>

namespace Headroom {

// Data (ms since the epoch, value) to the plot's pixels, as the chart's axes place
// them: linear in time, linear or logarithmic in value.
struct PlotMapping
{
    QRectF plot;
    double xMin = 0, xMax = 1;
    double yMin = 0, yMax = 1;
    bool logY = false;

    QPointF map(const QPointF &point) const;
    bool operator==(const PlotMapping &) const = default;
};

// The points of one line segment as a polyline in pixels, at most two points per
// pixel column (a column with one point keeps it as it is; one with more becomes a
// vertical stroke from its lowest to its highest value): what the eye sees of
// thousands of points, at the cost of the columns. Values that cannot be placed
// (not finite, or not above zero on a log axis) are left out.
QPolygonF columnPolyline(const QPolygonF &points, const PlotMapping &mapping);

struct SpanPen
{
    QRgb color = 0xff000000; // not premultiplied
    int width = 1; // pixels; wider lines grow by whole pixels around the span
    bool dashed = false; // every other stretch of columns left out
};

// Paints the line through points (data coordinates, sorted by time) into the image,
// one pixel column at a time; pixels maps data to the image's own pixels (its plot is
// the image's rectangle). Each covered pixel is blended once. image must be
// Format_ARGB32_Premultiplied.
void rasterizeLine(QImage *image, const QPolygonF &points, const PlotMapping &pixels,
                   const SpanPen &pen);

} // namespace Headroom
