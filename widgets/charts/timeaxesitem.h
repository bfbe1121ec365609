// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The axes of a time panel, painted by one item in the chart's scene: grid lines on
// whole time and value steps, tick labels, the unit. QtCharts' own axes lay their
// labels out again as rich text on every range change, which was most of what a live
// panel cost at 1 Hz; they stay hidden and only hold the ranges the chart maps with.
#pragma once

#include "charts/lineplotitem.h"
#include "core/valueformat.h"

#include <QGraphicsItem>
#include <QMargins>

class QAbstractAxis;
class QChart;
class QDateTimeAxis;

namespace Headroom {

class TimeAxesItem : public QGraphicsItem
{
public:
    // Child of the chart, behind the series; reads the axes' ranges when it paints.
    TimeAxesItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY);

    // The unit of the values; the axis shows them in the unit that reads best at its
    // range (bytes as MiB/s, ms as s: core/valueformat.h's unitScale), on a linear axis.
    void setUnit(const QString &unit);
    // The unit written along the Y axis at the current range.
    QString title() const;
    // The room the labels need left of and below the plot at the current ranges; the
    // panel gives the chart these margins.
    QMargins margins() const;
    void refresh();

    // The labels as painted, at their value (Y) or instant (X), for tests.
    QList<std::pair<double, QString>> yLabels() const;
    QList<std::pair<qint64, QString>> xLabels() const;

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    int maxYTicks(const PlotMapping &mapping) const;
    UnitScale yScale(const PlotMapping &mapping) const;
    int timeRoom(const PlotMapping &mapping) const;
    // Minor grid values of a log axis (2..9 times each decade), empty on a linear one.
    QList<double> minorYValues(const PlotMapping &mapping) const;

    QChart *m_chart;
    QDateTimeAxis *m_axisX;
    QAbstractAxis *m_axisY;
    QString m_unit;
    QRectF m_bounds;
};

} // namespace Headroom
