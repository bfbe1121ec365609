// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/shardhistogrampanel.h"

#include "core/valueformat.h"
#include "literaltext.h"
#include "panels/panelfactory.h"
#include "query/shards/shardload.h"

#include <QDateTime>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr int Buckets = ShardLoadBuckets;

// 8 bits a channel, as the grid image stores it.
QColor mix(const QColor &a, const QColor &b, double t)
{
    const auto channel = [t](int from, int to) { return int(std::lround(from + (to - from) * t)); };
    return QColor(channel(a.red(), b.red()), channel(a.green(), b.green()),
                  channel(a.blue(), b.blue()));
}

const QColor NoData(0xff, 0xff, 0xff);
const QColor OverloadedLine(0xc0, 0x1c, 0x28);

QString timeText(qint64 ms, qint64 spanMs)
{
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(ms);
    return when.toString(spanMs > 48 * 3600 * 1000LL ? u"MM-dd HH:mm"_s : u"HH:mm:ss"_s);
}
} // namespace

ShardHistogramPanel::ShardHistogramPanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
{
    setMouseTracking(true);
    setMinimumHeight(120);
    setAutoFillBackground(true);
    showData();
}

QColor ShardHistogramPanel::barColor(bool overloaded)
{
    return overloaded ? QColor(0xe0, 0x6c, 0x5f) : QColor(0x8a, 0x96, 0xa3);
}

QColor ShardHistogramPanel::cellColor(int count, int maxCount, bool overloaded)
{
    if (count <= 0 || maxCount <= 0)
        return QColor(0xee, 0xee, 0xee);
    const double t = double(count) / maxCount;
    return overloaded ? mix(QColor(0xfc, 0xbb, 0xa1), QColor(0xa5, 0x0f, 0x15), t)
                      : mix(QColor(0xc6, 0xdb, 0xef), QColor(0x08, 0x45, 0x94), t);
}

void ShardHistogramPanel::showData()
{
    // The over-time grid as one image, one pixel per (column, bucket); painting scales it.
    const ShardLoadHistogram &h = m_data.as<ShardLoadHistogram>();
    if (h.columns <= 0) {
        m_grid = QImage();
    } else {
        m_grid = QImage(h.columns, Buckets, QImage::Format_RGB32);
        for (int b = 0; b < Buckets; ++b) {
            const bool overloaded = shardLoadBucketOverloaded(b, h.overloadedPercent);
            auto *line
                = reinterpret_cast<QRgb *>(m_grid.scanLine(Buckets - 1 - b)); // top: 90-100 %
            for (int c = 0; c < h.columns; ++c)
                line[c] = h.columnTimeMs[size_t(c)] == 0
                    ? NoData.rgb()
                    : cellColor(h.at(b, c), h.maxCount, overloaded).rgb();
        }
    }
    update();
}

ShardHistogramPanel::Geometry ShardHistogramPanel::geometry() const
{
    Geometry g;
    const QFontMetrics fm = fontMetrics();
    const QRect all = rect().adjusted(6, 4, -6, -4);
    g.title = QRect(all.left(), all.top(), all.width(), fm.height() + 4);
    const QRect body(all.left(), g.title.bottom() + 4, all.width(),
                     all.bottom() - g.title.bottom() - 4);
    const int leftWidth = std::max(120, body.width() * 32 / 100);
    const QRect left(body.left(), body.top(), leftWidth, body.height());
    g.barLabels = QRect(left.left(), left.bottom() - fm.height(), left.width(), fm.height() + 1);
    g.bars = QRect(left.left(), left.top(), left.width(), g.barLabels.top() - left.top() - 2);

    const int axisWidth = fm.horizontalAdvance(u"100%"_s) + 4;
    const QRect right(left.right() + 12, body.top(), body.right() - left.right() - 12,
                      body.height());
    g.times = QRect(right.left() + axisWidth, right.bottom() - fm.height(),
                    right.width() - axisWidth, fm.height() + 1);
    const int stripHeight = std::max(fm.height() + 6, right.height() / 4);
    g.strip = QRect(g.times.left(), g.times.top() - 2 - stripHeight, g.times.width(), stripHeight);
    g.grid = QRect(g.times.left(), right.top(), g.times.width(), g.strip.top() - 4 - right.top());
    g.axis = QRect(right.left(), g.grid.top(), axisWidth - 2, g.grid.height());
    return g;
}

int ShardHistogramPanel::nowCount(int bucket) const
{
    return m_data.as<ShardLoadHistogram>().now.at(size_t(bucket));
}

QRect ShardHistogramPanel::barRect(int bucket) const
{
    const Geometry g = geometry();
    const ShardLoadHistogram &h = m_data.as<ShardLoadHistogram>();
    int most = 1;
    for (int count : h.now)
        most = std::max(most, count);
    // Room above the highest bar for its count.
    const int room = fontMetrics().height() + 2;
    const int usable = std::max(1, g.bars.height() - room);
    const double slot = double(g.bars.width()) / Buckets;
    const int height = int(std::lround(double(usable) * nowCount(bucket) / most));
    const int left = g.bars.left() + int(std::lround(slot * bucket + slot * 0.15));
    const int right = g.bars.left() + int(std::lround(slot * bucket + slot * 0.85));
    return QRect(left, g.bars.bottom() + 1 - height, right - left, height);
}

QRect ShardHistogramPanel::gridRect() const
{
    return geometry().grid;
}

QRect ShardHistogramPanel::overloadedRect() const
{
    return geometry().strip;
}

qint64 ShardHistogramPanel::timeAt(int x, const QRect &area) const
{
    const double fraction
        = std::clamp(double(x - area.left()) / std::max(1, area.width()), 0.0, 1.0);
    return m_data.fromMs + qint64(std::llround(fraction * double(m_data.toMs - m_data.fromMs)));
}

int ShardHistogramPanel::columnAt(int x) const
{
    const QRect grid = gridRect();
    const int columns = m_data.as<ShardLoadHistogram>().columns;
    if (columns <= 0 || grid.width() <= 0)
        return -1;
    return std::clamp(int(double(x - grid.left()) * columns / grid.width()), 0, columns - 1);
}

int ShardHistogramPanel::crosshairX() const
{
    if (m_crosshairMs < 0 || m_data.toMs <= m_data.fromMs || m_crosshairMs < m_data.fromMs
        || m_crosshairMs > m_data.toMs)
        return -1;
    const QRect grid = gridRect();
    return grid.left()
        + int(std::lround(double(m_crosshairMs - m_data.fromMs) * grid.width()
                          / double(m_data.toMs - m_data.fromMs)));
}

void ShardHistogramPanel::setCrosshair(qint64 ms)
{
    if (ms == m_crosshairMs)
        return;
    m_crosshairMs = ms;
    update();
}

void ShardHistogramPanel::setHighlight(const Labels &labels)
{
    m_highlight = labels;
    update();
}

QList<int> ShardHistogramPanel::highlightedBuckets() const
{
    QList<int> buckets;
    if (m_highlight.isEmpty())
        return buckets;
    for (const ShardLoadRow &row : m_data.as<ShardLoadHistogram>().nowShards) {
        const int bucket = shardLoadBucket(row.load);
        if (bucket >= 0 && labelsInclude(row.labels, m_highlight) && !buckets.contains(bucket))
            buckets.append(bucket);
    }
    std::sort(buckets.begin(), buckets.end());
    return buckets;
}

QString ShardHistogramPanel::hoverText(const QPoint &pos) const
{
    const ShardLoadHistogram &h = m_data.as<ShardLoadHistogram>();
    if (h.isEmpty())
        return {};
    const Geometry g = geometry();
    if (g.bars.contains(pos) || g.barLabels.contains(pos)) {
        const int bucket = std::clamp(
            int(double(pos.x() - g.bars.left()) * Buckets / g.bars.width()), 0, Buckets - 1);
        QStringList shards;
        ValueFormat loadFormat;
        loadFormat.digits = ValueFormat::Digits::Fixed;
        loadFormat.precision = 1;
        for (const ShardLoadRow &row : h.nowShards) {
            if (shardLoadBucket(row.load) == bucket)
                shards << row.shard + u' ' + formatValue(row.load, u"%"_s, loadFormat);
        }
        QString text = tr("%1: %n shard(s) now", nullptr, nowCount(bucket))
                           .arg(shardLoadBucketLabel(bucket));
        if (shards.size() > 8)
            shards = shards.mid(0, 8) << tr("… %n more", nullptr, int(shards.size()) - 8);
        if (!shards.isEmpty())
            text += u'\n' + shards.join(u'\n');
        return text;
    }
    const bool inGrid = g.grid.contains(pos);
    if (!inGrid && !g.strip.contains(pos))
        return {};
    const int column = columnAt(pos.x());
    if (column < 0 || h.columnTimeMs[size_t(column)] == 0)
        return tr("No data at %1").arg(timeText(timeAt(pos.x(), g.grid), h.toMs - h.fromMs));
    const QString when = timeText(h.columnTimeMs[size_t(column)], h.toMs - h.fromMs);
    const QString overloaded
        = tr("%n overloaded (above %1%)", nullptr, h.overloaded[size_t(column)])
              .arg(h.overloadedPercent, 0, 'g', 4);
    if (!inGrid)
        return when + u'\n' + overloaded;
    const int bucket = std::clamp(
        Buckets - 1 - (pos.y() - g.grid.top()) * Buckets / std::max(1, g.grid.height()), 0,
        Buckets - 1);
    return u"%1\n%2\n%3"_s.arg(
        when,
        tr("%1: %n shard(s)", nullptr, h.at(bucket, column)).arg(shardLoadBucketLabel(bucket)),
        overloaded);
}

void ShardHistogramPanel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const Geometry g = geometry();
    const ShardLoadHistogram &h = m_data.as<ShardLoadHistogram>();
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().color(QPalette::WindowText);

    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(m_config.title, Qt::ElideRight, g.title.width()));
    p.setFont(font());
    if (h.isEmpty() || h.columns <= 0) {
        p.setPen(Qt::gray);
        p.drawText(rect(), Qt::AlignCenter, tr("No data in this range"));
        return;
    }

    // Now: one bar per bucket, its count above it, bucket starts below.
    const QList<int> highlighted = highlightedBuckets();
    const double slot = double(g.bars.width()) / Buckets;
    for (int b = 0; b < Buckets; ++b) {
        const QRect bar = barRect(b);
        const bool overloaded = shardLoadBucketOverloaded(b, h.overloadedPercent);
        if (bar.height() > 0)
            p.fillRect(bar, barColor(overloaded));
        if (highlighted.contains(b)) {
            p.setPen(QPen(text, 2));
            p.drawRect(bar.adjusted(-2, -2, 1, 1));
        }
        p.setPen(text);
        const QRect count(bar.left() - 8, bar.top() - fm.height() - 1, bar.width() + 16,
                          fm.height());
        p.drawText(count, Qt::AlignHCenter | Qt::AlignBottom, QString::number(nowCount(b)));
        const QRect label(g.barLabels.left() + int(slot * b), g.barLabels.top(), int(slot),
                          g.barLabels.height());
        p.setPen(Qt::gray);
        p.drawText(label, Qt::AlignHCenter | Qt::AlignTop, QString::number(b * 10));
    }
    p.setPen(QColor(0xbb, 0xbb, 0xbb)); // the baseline, just under the bars
    p.drawLine(g.bars.left(), g.bars.bottom() + 1, g.bars.right(), g.bars.bottom() + 1);

    // Over time: the grid image, scaled up without smoothing so cells stay crisp; were
    // it wider than its place, smoothing keeps a narrow spike from being dropped.
    p.setRenderHint(QPainter::SmoothPixmapTransform, m_grid.width() > g.grid.width());
    p.drawImage(g.grid, m_grid);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.setPen(QColor(0xbb, 0xbb, 0xbb));
    p.drawRect(g.grid.adjusted(0, 0, -1, -1));
    p.setPen(Qt::gray);
    for (const int percent : { 0, 50, 100 }) {
        const int y = g.grid.bottom() - g.grid.height() * percent / 100;
        p.drawText(QRect(g.axis.left(), y - fm.height() / 2, g.axis.width(), fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, u"%1%"_s.arg(percent));
    }
    // The threshold, where the red rows begin.
    if (h.overloadedPercent >= 0 && h.overloadedPercent <= 100) {
        const int y
            = g.grid.bottom() - int(std::lround(g.grid.height() * h.overloadedPercent / 100.0));
        p.setPen(QPen(OverloadedLine, 1, Qt::DashLine));
        p.drawLine(g.grid.left(), y, g.grid.right(), y);
    }

    // Overloaded shards per column, a line under the grid, and the figure now.
    p.fillRect(g.strip, QColor(0xf6, 0xf6, 0xf6));
    int most = 1;
    for (int c = 0; c < h.columns; ++c)
        most = std::max(most, h.overloaded[size_t(c)]);
    // Empty columns are gaps in the line; a point between two gaps is a dot.
    QPainterPath line;
    QList<QPointF> dots;
    bool open = false;
    const auto pointAt = [&](int c) {
        return QPointF(g.strip.left() + (c + 0.5) * g.strip.width() / h.columns,
                       g.strip.bottom() - 2.0
                           - double(g.strip.height() - 4) * h.overloaded[size_t(c)] / most);
    };
    const auto hasData
        = [&](int c) { return c >= 0 && c < h.columns && h.columnTimeMs[size_t(c)] != 0; };
    for (int c = 0; c < h.columns; ++c) {
        if (!hasData(c)) {
            open = false;
            continue;
        }
        if (open)
            line.lineTo(pointAt(c));
        else if (hasData(c + 1))
            line.moveTo(pointAt(c));
        else
            dots.append(pointAt(c));
        open = true;
    }
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(OverloadedLine, 1.5));
    p.drawPath(line);
    p.setBrush(OverloadedLine);
    for (const QPointF &dot : std::as_const(dots))
        p.drawEllipse(dot, 1.5, 1.5);
    p.setBrush(Qt::NoBrush);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(text);
    p.drawText(g.strip.adjusted(4, 1, -4, -1), Qt::AlignLeft | Qt::AlignTop,
               tr("%n overloaded now (above %1%)", nullptr, h.nowOverloaded())
                   .arg(h.overloadedPercent, 0, 'g', 4));

    p.setPen(Qt::gray);
    const qint64 span = h.toMs - h.fromMs;
    p.drawText(g.times, Qt::AlignLeft | Qt::AlignTop, timeText(h.fromMs, span));
    p.drawText(g.times, Qt::AlignRight | Qt::AlignTop, timeText(h.toMs, span));

    if (const int x = crosshairX(); x >= 0) {
        p.setPen(QPen(QColor(0x55, 0x55, 0x55), 1, Qt::DashLine));
        p.drawLine(x, g.grid.top(), x, g.strip.bottom());
    }
}

void ShardHistogramPanel::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const Geometry g = geometry();
    const bool overTime = !m_data.as<ShardLoadHistogram>().isEmpty() && pos.x() >= g.grid.left()
        && pos.x() <= g.grid.right() && pos.y() >= g.grid.top() && pos.y() <= g.strip.bottom();
    const qint64 hover = overTime ? timeAt(pos.x(), g.grid) : -1;
    if (hover != m_hoverMs) {
        m_hoverMs = hover;
        Q_EMIT crosshairMoved(hover);
    }
    showLiteralToolTip(event->globalPosition().toPoint(), hoverText(pos), this); // shard names
    PanelWidget::mouseMoveEvent(event);
}

void ShardHistogramPanel::leaveEvent(QEvent *event)
{
    if (m_hoverMs != -1) {
        m_hoverMs = -1;
        Q_EMIT crosshairMoved(-1);
    }
    QToolTip::hideText();
    PanelWidget::leaveEvent(event);
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::ShardHistogram>(const DashboardPanel &config,
                                                            QWidget *parent)
{
    return new ShardHistogramPanel(config, parent);
}

} // namespace Headroom
