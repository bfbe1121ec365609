// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/timeaxesitem.h"

#include "charts/axisticks.h"

#include <QAbstractAxis>
#include <QChart>
#include <QDateTime>
#include <QFontMetrics>
#include <QPainter>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr int Pad = 4;
constexpr int TickLength = 4;
const QColor GridColor(0xdc, 0xdc, 0xdc);
const QColor MinorGridColor(0xef, 0xef, 0xef);
const QColor FrameColor(0xa8, 0xa8, 0xa8);
const QColor LabelColor(0x40, 0x40, 0x40);
} // namespace

TimeAxesItem::TimeAxesItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY)
    : QGraphicsItem(chart)
    , m_chart(chart)
    , m_axisX(axisX)
    , m_axisY(axisY)
{
    setZValue(-0.5); // behind the series, in front of the chart's background
    setAcceptedMouseButtons(Qt::NoButton);
}

void TimeAxesItem::setUnit(const QString &unit)
{
    m_unit = unit;
    update();
}

UnitScale TimeAxesItem::yScale(const PlotMapping &mapping) const
{
    // A log axis keeps its decades in the values' own unit.
    if (mapping.logY)
        return { 1, m_unit };
    return unitScale(m_unit, std::max(std::abs(mapping.yMin), std::abs(mapping.yMax)));
}

QString TimeAxesItem::title() const
{
    return yScale(chartMapping(m_chart, m_axisX, m_axisY)).unit;
}

int TimeAxesItem::maxYTicks(const PlotMapping &mapping) const
{
    const QFontMetrics fm(m_axisY->labelsFont());
    return std::clamp(int(mapping.plot.height() / (fm.height() * 2.5)), 2, 8);
}

int TimeAxesItem::timeRoom(const PlotMapping &mapping) const
{
    const QFontMetrics fm(m_axisY->labelsFont());
    return int(mapping.plot.width() / (fm.horizontalAdvance(u"00:00:00"_s) + 4 * Pad));
}

QList<std::pair<double, QString>> TimeAxesItem::yLabels() const
{
    const PlotMapping m = chartMapping(m_chart, m_axisX, m_axisY);
    QList<std::pair<double, QString>> labels;
    if (!m.logY) {
        // Ticks on whole steps of the unit shown: 0, 0.5, 1 MiB/s rather than 0, 500k.
        const double factor = yScale(m).factor;
        const ValueTicks ticks = valueTicks(m.yMin / factor, m.yMax / factor, maxYTicks(m));
        for (double v : ticks.ticks)
            labels.append({ v * factor, axisNumber(v, ticks.step) });
        return labels;
    }
    // Decades; every k-th when there are more than fit.
    const int first = int(std::floor(std::log10(m.yMin) + 1e-9));
    const int last = int(std::floor(std::log10(m.yMax) + 1e-9));
    const int every = std::max(1, int(std::ceil(double(last - first + 1) / maxYTicks(m))));
    for (int k = first; k <= last; k += every) {
        const double v = std::pow(10.0, k);
        labels.append({ v, axisNumber(v, v) });
    }
    return labels;
}

QList<std::pair<qint64, QString>> TimeAxesItem::xLabels() const
{
    const PlotMapping m = chartMapping(m_chart, m_axisX, m_axisY);
    const TimeTicks ticks = timeTicks(qint64(m.xMin), qint64(m.xMax), timeRoom(m));
    QList<std::pair<qint64, QString>> labels;
    for (qint64 t : ticks.ticks)
        labels.append({ t, QDateTime::fromMSecsSinceEpoch(t).toString(ticks.format) });
    return labels;
}

QList<double> TimeAxesItem::minorYValues(const PlotMapping &mapping) const
{
    QList<double> values;
    if (!mapping.logY)
        return values;
    const double decades = std::log10(mapping.yMax) - std::log10(mapping.yMin);
    if (decades <= 0 || mapping.plot.height() / decades < 40)
        return values; // too tight to tell the lines apart
    for (double decade = mapping.yMin; decade < mapping.yMax; decade *= 10) {
        for (int m = 2; m <= 9; ++m)
            values.append(decade * m);
    }
    return values;
}

QMargins TimeAxesItem::margins() const
{
    const QFontMetrics fm(m_axisY->labelsFont());
    int widest = 0;
    for (const auto allLabels = yLabels(); const auto &label : allLabels)
        widest = std::max(widest, fm.horizontalAdvance(label.second));
    const int title = m_unit.isEmpty() ? 0 : QFontMetrics(m_axisY->titleFont()).height() + Pad;
    // Right: room for half of a last time label centred on the plot's right edge.
    return QMargins(Pad + title + widest + TickLength + Pad, 2,
                    fm.horizontalAdvance(u"00:00:00"_s) / 2 + Pad, TickLength + fm.height() + Pad);
}

void TimeAxesItem::refresh()
{
    const QRectF bounds = m_chart->rect();
    if (bounds != m_bounds) {
        prepareGeometryChange();
        m_bounds = bounds;
    }
    update();
}

QRectF TimeAxesItem::boundingRect() const
{
    return m_bounds;
}

void TimeAxesItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const PlotMapping m = chartMapping(m_chart, m_axisX, m_axisY);
    const QRectF plot = m.plot;
    if (plot.isEmpty())
        return;
    const QList<std::pair<double, QString>> ys = yLabels();
    const QList<std::pair<qint64, QString>> xs = xLabels();
    const auto yAt = [&](double v) { return std::round(m.map(QPointF(m.xMin, v)).y()) + 0.5; };
    const auto xAt = [&](qint64 t) { return std::round(m.map(QPointF(double(t), 1)).x()) + 0.5; };
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);

    painter->setPen(QPen(MinorGridColor, 0));
    for (const auto minorValues = minorYValues(m); double v : minorValues)
        painter->drawLine(QLineF(plot.left(), yAt(v), plot.right(), yAt(v)));
    painter->setPen(QPen(GridColor, 0));
    for (const auto &[v, text] : ys)
        painter->drawLine(QLineF(plot.left(), yAt(v), plot.right(), yAt(v)));
    for (const auto &[t, text] : xs)
        painter->drawLine(QLineF(xAt(t), plot.top(), xAt(t), plot.bottom()));
    painter->setPen(QPen(FrameColor, 0));
    painter->drawLine(QLineF(plot.left(), plot.top(), plot.left(), plot.bottom()));
    painter->drawLine(QLineF(plot.left(), plot.bottom(), plot.right(), plot.bottom()));

    const QFont font = m_axisY->labelsFont();
    const QFontMetricsF fm(font);
    painter->setFont(font);
    painter->setPen(LabelColor);
    for (const auto &[v, text] : ys) {
        const double y = yAt(v);
        painter->drawLine(QLineF(plot.left() - TickLength, y, plot.left(), y));
        const QRectF box(m_bounds.left(), y - fm.height() / 2,
                         plot.left() - TickLength - 2 - m_bounds.left(), fm.height());
        painter->drawText(box, Qt::AlignRight | Qt::AlignVCenter, text);
    }
    for (const auto &[t, text] : xs) {
        const double x = xAt(t);
        painter->drawLine(QLineF(x, plot.bottom(), x, plot.bottom() + TickLength));
        const double w = fm.horizontalAdvance(text);
        // Not left of the plot, where the lowest value label is.
        const double left = std::clamp(x - w / 2, plot.left(), m_bounds.right() - w);
        painter->drawText(QRectF(left, plot.bottom() + TickLength, w + 1, fm.height()),
                          Qt::AlignCenter, text);
    }
    if (const QString title = yScale(m).unit; !title.isEmpty()) {
        // The unit, written upwards along the left edge, centred on the plot.
        painter->setFont(m_axisY->titleFont());
        const QFontMetricsF tm(m_axisY->titleFont());
        painter->translate(m_bounds.left() + Pad + tm.ascent(), plot.center().y());
        painter->rotate(-90);
        const double w = tm.horizontalAdvance(title);
        painter->drawText(QPointF(-w / 2, 0), title);
    }
    painter->restore();
}

} // namespace Headroom
