// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shard load histogram: on the left, how many shards are in each 10 % load bucket
// now (one bar per bucket, the count above it, buckets that can hold overloaded shards
// red-ish); on the right the same counts over time as one image (x = time, y = bucket,
// colour = shard count), with the count of overloaded shards as a line beneath it.
// Hover tells bucket, time and counts; the time part follows and moves the linked
// crosshair; a highlighted shard outlines its bucket's bar.
#pragma once

#include "panels/panelwidget.h"

#include <QImage>

namespace Headroom {

class ShardHistogramPanel : public PanelWidget
{
    Q_OBJECT
public:
    explicit ShardHistogramPanel(const DashboardPanel &config, QWidget *parent = nullptr);

    void setCrosshair(qint64 ms) override;
    void setHighlight(const Labels &labels) override;

    // For tests and hover: what is drawn where.
    int nowCount(int bucket) const;
    QRect barRect(int bucket) const; // the bar of `bucket` (zero height for 0 shards)
    QRect gridRect() const; // where the over-time image is drawn
    QRect overloadedRect() const; // the overloaded line's strip
    const QImage &gridImage() const { return m_grid; } // one pixel per column and bucket
    int crosshairX() const; // -1 when no crosshair is drawn
    QList<int> highlightedBuckets() const;
    // The text hover shows at a point of the panel (empty where there is nothing).
    QString hoverText(const QPoint &pos) const;

    static QColor barColor(bool overloaded);
    // Colour of a grid cell: count 0 of maxCount is light grey, more is darker, blue
    // for buckets below the threshold and red for the overloaded ones.
    static QColor cellColor(int count, int maxCount, bool overloaded);

protected:
    void showData() override;
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    struct Geometry
    {
        QRect title;
        QRect bars; // bars and their counts, without the bucket labels below
        QRect barLabels;
        QRect axis; // bucket labels left of the grid
        QRect grid;
        QRect strip;
        QRect times;
    };
    Geometry geometry() const;
    qint64 timeAt(int x, const QRect &area) const;
    int columnAt(int x) const;

    QImage m_grid;
    qint64 m_crosshairMs = -1;
    qint64 m_hoverMs = -1; // last instant reported by crosshairMoved
    Labels m_highlight;
};

} // namespace Headroom
