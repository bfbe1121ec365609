// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A latency heatmap panel: time across, power-of-two latency rows up (the fastest at the
// bottom), each cell coloured by events per second (see heatmapquery.h for the data,
// heatmapcolors.h for the colours). The cells are one QImage, a pixel per cell, drawn
// scaled without smoothing, so a redraw costs the same for 40 rows x 900 columns as for
// 4 x 10. Hover names the cell, a drag selects a time range, the crosshair links it to
// the time charts.
#pragma once

#include "charts/heatmapcolors.h"
#include "panels/panelwidget.h"

#include <QImage>

class QRubberBand;

namespace Headroom {

class HeatmapPanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit HeatmapPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    void setCrosshair(qint64 ms) override;
    qint64 crosshair() const { return m_crosshairMs; }

    // One pixel per cell: x = column, y = 0 the slowest row; null when there is no data.
    const QImage &cellImage() const { return m_image; }
    const HeatmapColorRange &colorRange() const { return m_colors; }
    // Where the cells and the colour bar are drawn, in this widget's pixels.
    QRect plotRect() const;
    QRect colorBarRect() const;
    // The tooltip for a point of this widget: the cell's row range ("4–8 ms"), its events
    // per second and the time of its column; empty outside the cells.
    QString hoverText(QPoint pos) const;
    // True while the panel shows "No data in this range".
    bool showsNoData() const { return m_image.isNull(); }

    QSize sizeHint() const override { return { 480, 240 }; }
    QSize minimumSizeHint() const override { return { 220, 120 }; }

protected:
    void showData() override;
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    struct Layout
    {
        QRect title;
        QRect plot;
        QRect colorBar;
    };
    Layout layoutFor(const QSize &size) const;
    qint64 msAt(int x) const;
    int xAt(qint64 ms) const;
    void paintYAxis(QPainter &painter, const QRect &plot) const;
    void paintTimeAxis(QPainter &painter, const QRect &plot) const;
    void paintColorBar(QPainter &painter, const QRect &bar) const;
    void setHovering(bool inside);

    HeatmapColorRange m_colors;
    QImage m_image;
    QStringList m_yLabels; // per row boundary r: the label of upperBoundsMs[r]
    QStringList m_barLabels;
    qint64 m_crosshairMs = -1;
    QRubberBand *m_band = nullptr;
    int m_dragOriginX = -1;
    bool m_hovering = false;
};

} // namespace Headroom
