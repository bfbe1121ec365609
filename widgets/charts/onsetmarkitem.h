// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A finding's onset on a time panel: a dashed vertical line over the plot at the
// instant, with a small "onset HH:MM:SS" label at its top, painted above the lines so
// the moment reads the same on every panel. Hidden when no onset is set or the instant
// is outside the X axis range.
#pragma once

#include <QColor>
#include <QGraphicsItem>

class QAbstractAxis;
class QChart;
class QDateTimeAxis;

namespace Headroom {

class OnsetMarkItem : public QGraphicsItem
{
public:
    // Apart from the series palette and the alert and threshold colours.
    static inline const QColor Color { 0xc8, 0x00, 0x78 };
    static constexpr qreal PenWidth = 2.0;

    OnsetMarkItem(QChart *chart, QDateTimeAxis *axisX, QAbstractAxis *axisY);

    void setOnset(qint64 ms); // -1: none
    qint64 onset() const { return m_onsetMs; }
    QString label() const; // "onset HH:MM:SS" (local time), empty without an onset
    // The line's x in chart coordinates, or -1 when it is not drawn.
    qreal lineX() const;
    void refresh();

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QChart *m_chart;
    QDateTimeAxis *m_axisX;
    QAbstractAxis *m_axisY;
    qint64 m_onsetMs = -1;
    QRectF m_bounds;
};

} // namespace Headroom
