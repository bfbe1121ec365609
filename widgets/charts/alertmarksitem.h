// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alerts on a time panel, painted by one item in the chart's scene, behind the lines:
// a band in the severity's colour (translucent) over every span an alert on one of the
// panel's own series was firing, and a small triangle on the top edge at every firing
// of any alert of the dashboard, so an incident's start lines up across panels.
#pragma once

#include "engine/runtime/alertevent.h"

#include <QGraphicsItem>

class QAbstractAxis;
class QChart;
class QDateTimeAxis;

namespace Headroom {

struct AlertMark
{
    qint64 tsMs = 0;
    AlertSeverity severity = AlertSeverity::Warning;
    QString text; // the event's message
};

class AlertMarksItem : public QGraphicsItem
{
public:
    static constexpr int BandAlpha = 48;
    static constexpr qreal MarkerSize = 7;

    AlertMarksItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY);

    void setAlerts(QList<AlertSpan> spans, QList<AlertMark> marks);
    const QList<AlertSpan> &spans() const { return m_spans; }
    const QList<AlertMark> &marks() const { return m_marks; }
    // The message of the firing marker within a few pixels of a point near the top of
    // the plot, or empty (hover text).
    QString markAt(const QPointF &chartPosition) const;
    void refresh();

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QChart *m_chart;
    QDateTimeAxis *m_axisX;
    QAbstractAxis *m_axisY;
    QList<AlertSpan> m_spans;
    QList<AlertMark> m_marks;
    QRectF m_bounds;
};

} // namespace Headroom
