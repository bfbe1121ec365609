// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A QChartView that turns a horizontal drag into a time range (drag to zoom) and
// leaves the zoom decision to the owner, so every panel can follow the same range.
// It also reports the instant under the mouse and draws a crosshair at an instant
// given from outside, so time panels can mark the same moment together. A drag with
// Shift held selects a window to explain (windowSelected) instead of zooming: a
// modifier rather than a mode, so the plain drag stays the zoom everyone expects.
#pragma once

#include <QChartView>

class QGraphicsLineItem;
class QRubberBand;

namespace Headroom {

class ZoomableChartView : public QChartView
{
    Q_OBJECT
public:
    explicit ZoomableChartView(QChart *chart, QWidget *parent = nullptr);

    // Marks the instant ms (epoch) with a vertical line over the plot; -1 hides it, as
    // does an instant outside the X axis range.
    void setCrosshair(qint64 ms);
    qint64 crosshair() const { return m_crosshairMs; }
    // Whether the line is shown, and its x in viewport pixels (for tests).
    bool crosshairVisible() const;
    int crosshairX() const;

Q_SIGNALS:
    void rangeSelected(qint64 fromMs, qint64 toMs);
    void windowSelected(qint64 fromMs, qint64 toMs); // Shift+drag
    // The instant under the mouse over the plot; -1 when the mouse leaves it.
    void hoverTimeChanged(qint64 ms);
    // The mouse at a point of the chart (chart coordinates); inside is false when it
    // left the plot.
    void plotHovered(const QPointF &chartPosition, bool inside);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void placeCrosshair();
    void reportHover(const QPointF &position);

    QGraphicsLineItem *m_crosshair = nullptr;
    qint64 m_crosshairMs = -1;
    qint64 m_hoverMs = -1;
    QRubberBand *m_band = nullptr;
    int m_originX = -1;
    bool m_explainDrag = false; // Shift was held when the drag began
};

} // namespace Headroom
