// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/linerasterizer.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace Headroom {

QPointF PlotMapping::map(const QPointF &point) const
{
    const double x = plot.left() + (point.x() - xMin) / (xMax - xMin) * plot.width();
    const double y = logY
        ? (std::log10(point.y()) - std::log10(yMin)) / (std::log10(yMax) - std::log10(yMin))
        : (point.y() - yMin) / (yMax - yMin);
    return { x, plot.bottom() - y * plot.height() };
}

QPolygonF columnPolyline(const QPolygonF &points, const PlotMapping &mapping)
{
    QPolygonF out;
    out.reserve(std::min<qsizetype>(points.size(), qsizetype(mapping.plot.width() + 2) * 2));
    bool open = false;
    double column = 0;
    QPointF low, high; // the column's extremes in pixels (low = smaller y = higher value)
    qsizetype count = 0;
    const auto flush = [&] {
        if (count == 1) {
            out.append(low);
            return;
        }
        // A vertical stroke from one extreme to the other, entered from the one
        // nearer the previous column's end so the line does not cross itself; every
        // point that fell in the column lies on it.
        const bool lowFirst = out.isEmpty()
            || std::abs(out.constLast().y() - low.y()) <= std::abs(out.constLast().y() - high.y());
        const double x = column + 0.5;
        out.append(QPointF(x, lowFirst ? low.y() : high.y()));
        out.append(QPointF(x, lowFirst ? high.y() : low.y()));
    };
    for (const QPointF &point : points) {
        if (!std::isfinite(point.y()))
            continue;
        const QPointF p = mapping.map(point);
        if (!std::isfinite(p.y()))
            continue;
        const double c = std::floor(p.x());
        if (open && c == column) {
            if (p.y() < low.y())
                low = p;
            if (p.y() > high.y())
                high = p;
            ++count;
            continue;
        }
        if (open)
            flush();
        open = true;
        column = c;
        low = high = p;
        count = 1;
    }
    if (open)
        flush();
    return out;
}

namespace {
// Each pixel column's span of rows, as the union of what the line covers there.
struct Spans
{
    int first = 0; // column of top[0]
    std::vector<double> top, bottom;

    void include(int column, double y0, double y1)
    {
        const size_t i = size_t(column - first);
        if (column < first || i >= top.size())
            return;
        top[i] = std::min({ top[i], y0, y1 });
        bottom[i] = std::max({ bottom[i], y0, y1 });
    }
};

// src over dst, both premultiplied, src with alpha a (0..255).
inline QRgb blend(QRgb src, QRgb dst, uint a)
{
    if (a == 255)
        return src;
    const uint keep = 255 - a;
    const auto channel = [&](int shift) {
        const uint d = (dst >> shift) & 0xff;
        return (((src >> shift) & 0xff) + (d * keep + 127) / 255) << shift;
    };
    return channel(24) | channel(16) | channel(8) | channel(0);
}
} // namespace

void rasterizeLine(QImage *image, const QPolygonF &points, const PlotMapping &pixels,
                   const SpanPen &pen)
{
    const int width = image->width(), height = image->height();
    if (points.isEmpty() || width == 0 || height == 0)
        return;
    // map() with its divisions and (for linear axes) logs hoisted out of the loop: this
    // runs for every point of every dense line.
    const double ax = pixels.plot.width() / (pixels.xMax - pixels.xMin);
    const double bx = pixels.plot.left() - pixels.xMin * ax;
    const double lo = pixels.logY ? std::log10(pixels.yMin) : pixels.yMin;
    const double hi = pixels.logY ? std::log10(pixels.yMax) : pixels.yMax;
    const double ay = -pixels.plot.height() / (hi - lo);
    const double by = pixels.plot.bottom() - lo * ay;
    const auto place = [&](const QPointF &p, QPointF *out) {
        const double v = pixels.logY ? (p.y() > 0 ? std::log10(p.y()) : NAN) : p.y();
        *out = QPointF(bx + p.x() * ax, by + v * ay);
        return std::isfinite(out->y());
    };
    QPointF firstPixel, lastPixel;
    if (!place(points.constFirst(), &firstPixel))
        firstPixel.setX(bx + points.constFirst().x() * ax);
    lastPixel.setX(bx + points.constLast().x() * ax);

    Spans spans;
    spans.first = std::max(0, int(std::floor(firstPixel.x())));
    const int last = std::min(width - 1, int(std::floor(lastPixel.x())));
    if (last < spans.first)
        return;
    spans.top.assign(size_t(last - spans.first) + 1, INFINITY);
    spans.bottom.assign(spans.top.size(), -INFINITY);

    bool havePrevious = false;
    QPointF a;
    for (const QPointF &point : points) {
        QPointF b;
        if (!place(point, &b))
            continue; // left out, as columnPolyline() does
        const int cb = int(std::floor(b.x()));
        if (!havePrevious) {
            spans.include(cb, b.y(), b.y());
            havePrevious = true;
            a = b;
            continue;
        }
        const int ca = int(std::floor(a.x()));
        if (ca == cb) {
            spans.include(ca, a.y(), b.y());
        } else {
            // Across columns: in each, the rows the segment passes through there.
            const double slope = (b.y() - a.y()) / (b.x() - a.x());
            for (int c = std::max(ca, spans.first); c <= std::min(cb, last); ++c) {
                const double x0 = std::max(a.x(), double(c));
                const double x1 = std::min(b.x(), double(c + 1));
                spans.include(c, a.y() + slope * (x0 - a.x()), a.y() + slope * (x1 - a.x()));
            }
        }
        a = b;
    }

    const QRgb src = qPremultiply(pen.color);
    const uint alpha = qAlpha(pen.color);
    uchar *bits = image->bits();
    const qsizetype stride = image->bytesPerLine();
    // A wider pen: each column takes the spans of its neighbours within reach, grown
    // by the same reach up and down (a square brush), still once per pixel.
    const int before = (pen.width - 1) / 2, after = pen.width / 2;
    constexpr int Dash = 8; // columns drawn, then as many left out
    for (int c = std::max(0, spans.first - after); c <= std::min(width - 1, last + before); ++c) {
        if (pen.dashed && (c / Dash) % 2 == 1)
            continue;
        double top = INFINITY, bottom = -INFINITY;
        for (int n = c - before; n <= c + after; ++n) {
            const size_t i = size_t(n - spans.first);
            if (n < spans.first || i >= spans.top.size())
                continue;
            top = std::min(top, spans.top[i]);
            bottom = std::max(bottom, spans.bottom[i]);
        }
        if (!(top <= bottom))
            continue;
        const int r0 = std::max(0, int(std::floor(top)) - before);
        const int r1 = std::min(height - 1, int(std::floor(bottom)) + after);
        for (int r = r0; r <= r1; ++r) {
            auto *pixel = reinterpret_cast<QRgb *>(bits + r * stride) + c;
            *pixel = blend(src, *pixel, alpha);
        }
    }
}

} // namespace Headroom
