// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "panels/heatmappanel.h"

#include "charts/axisticks.h"
#include "core/valueformat.h"
#include "literaltext.h"
#include "panels/panelfactory.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRubberBand>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr int Pad = 4;
constexpr int BarWidth = 12;
constexpr int TickLength = 3;
constexpr int MinDragPx = 5; // a click is not a zoom
const QColor CrosshairColor(0x00, 0xa0, 0xff); // far from every palette colour
const QColor AxisColor(0x60, 0x60, 0x60);

// An axis label of a row bound: "0.25 ms", "512 ms", "2.05 s".
QString boundLabel(double ms)
{
    ValueFormat format;
    format.digits = ValueFormat::Digits::Significant;
    format.precision = 3;
    format.prefixFrom = ValueFormat::NoPrefix;
    return formatValue(ms, u"ms"_s, format);
}

// A colour-bar figure: "0/s", "8.5/s", "12.3k/s".
QString rateLabel(double perSecond)
{
    ValueFormat format;
    format.digits = ValueFormat::Digits::Significant;
    format.precision = 3;
    format.prefixFrom = 1e3;
    format.largestPrefix = 1e6;
    format.spaceBeforeUnit = false;
    return formatValue(perSecond, u"1/s"_s, format);
}

} // namespace

HeatmapPanel::HeatmapPanel(const DashboardPanel &config, QWidget *parent)
    : PanelWidget(config, parent)
{
    setMouseTracking(true); // the crosshair follows the mouse without a button pressed
    setAutoFillBackground(true);
    showData();
}

void HeatmapPanel::showData()
{
    const HeatmapGrid &grid = m_data.as<HeatmapGrid>();
    double minPositive = 0;
    for (double v : grid.perSecond) {
        if (v > 0 && (minPositive == 0 || v < minPositive))
            minPositive = v;
    }
    m_colors = HeatmapColorRange::of(
        heatmapColorScaleFromName(m_config.options.value(u"colorScale"_s).toString()), minPositive,
        grid.maxPerSecond);

    m_image = QImage();
    m_yLabels.clear();
    m_barLabels.clear();
    if (grid.rows() > 0 && grid.columns > 0) {
        // The image's top line is the slowest row, as on screen.
        m_image = QImage(grid.columns, grid.rows(), QImage::Format_RGB32);
        for (int r = 0; r < grid.rows(); ++r) {
            auto *line = reinterpret_cast<QRgb *>(m_image.scanLine(grid.rows() - 1 - r));
            for (int c = 0; c < grid.columns; ++c)
                line[c] = m_colors.color(grid.at(r, c)).rgb();
        }
        for (double bound : grid.upperBoundsMs)
            m_yLabels.append(boundLabel(bound));
        for (const auto allTicks = m_colors.ticks(); double tick : allTicks)
            m_barLabels.append(rateLabel(tick));
    }
    update();
}

HeatmapPanel::Layout HeatmapPanel::layoutFor(const QSize &size) const
{
    const QFontMetrics fm(font());
    Layout layout;
    int top = Pad;
    if (!m_config.title.isEmpty()) {
        layout.title = QRect(Pad, top, size.width() - 2 * Pad, fm.height());
        top += fm.height() + Pad;
    }
    top += fm.height() / 2; // room for the top row's label, centred on the plot's edge
    int yLabelWidth = fm.horizontalAdvance(u"0.5 ms"_s);
    for (const QString &label : m_yLabels)
        yLabelWidth = std::max(yLabelWidth, fm.horizontalAdvance(label));
    int barLabelWidth = 0;
    for (const QString &label : m_barLabels)
        barLabelWidth = std::max(barLabelWidth, fm.horizontalAdvance(label));
    const int left = Pad + yLabelWidth + TickLength + Pad;
    // Without data there is no colour bar: the plot takes its room.
    const int barSpace = m_image.isNull() ? 0 : 2 * Pad + BarWidth + Pad + barLabelWidth;
    const int right = size.width() - Pad - barSpace;
    const int bottom = size.height() - Pad - fm.height() - TickLength;
    layout.plot = QRect(left, top, std::max(1, right - left), std::max(1, bottom - top));
    if (!m_image.isNull())
        layout.colorBar = QRect(right + 2 * Pad, top, BarWidth, layout.plot.height());
    return layout;
}

QRect HeatmapPanel::plotRect() const
{
    return layoutFor(size()).plot;
}

QRect HeatmapPanel::colorBarRect() const
{
    return layoutFor(size()).colorBar;
}

qint64 HeatmapPanel::msAt(int x) const
{
    const QRect plot = plotRect();
    const qint64 span = m_data.toMs - m_data.fromMs;
    return m_data.fromMs
        + qint64(std::llround(double(x - plot.left()) * double(span) / plot.width()));
}

int HeatmapPanel::xAt(qint64 ms) const
{
    const QRect plot = plotRect();
    const qint64 span = std::max<qint64>(1, m_data.toMs - m_data.fromMs);
    return plot.left() + int(std::lround(double(ms - m_data.fromMs) * plot.width() / double(span)));
}

QString HeatmapPanel::hoverText(QPoint pos) const
{
    const QRect plot = plotRect();
    if (m_image.isNull() || !plot.contains(pos))
        return {};
    const HeatmapGrid &grid = m_data.as<HeatmapGrid>();
    // Pixel centres, as the unsmoothed scaling samples them.
    const int column = std::clamp(int((pos.x() - plot.left() + 0.5) * grid.columns / plot.width()),
                                  0, grid.columns - 1);
    const int fromTop = std::clamp(int((pos.y() - plot.top() + 0.5) * grid.rows() / plot.height()),
                                   0, grid.rows() - 1);
    const int row = grid.rows() - 1 - fromTop;
    const double value = grid.at(row, column);
    const double columnMs = double(grid.toMs - grid.fromMs) / grid.columns;
    const QDateTime start
        = QDateTime::fromMSecsSinceEpoch(grid.fromMs + qint64(std::floor(column * columnMs)));
    const QDateTime end
        = QDateTime::fromMSecsSinceEpoch(grid.fromMs + qint64(std::floor((column + 1) * columnMs)));
    ValueFormat format;
    format.digits = ValueFormat::Digits::Significant;
    format.precision = 4;
    const QString count = value > 0 ? formatValue(value, tr("events/s"), format) : tr("no events");
    return u"%1\n%2\n%3 – %4"_s.arg(heatmapRowLabel(grid, row), count,
                                    start.toString(u"yyyy-MM-dd HH:mm:ss"_s),
                                    end.toString(u"HH:mm:ss"_s));
}

void HeatmapPanel::setCrosshair(qint64 ms)
{
    if (ms == m_crosshairMs)
        return;
    m_crosshairMs = ms;
    update();
}

bool HeatmapPanel::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        showLiteralToolTip(help->globalPos(), hoverText(help->pos()), this);
        return true;
    }
    return PanelWidget::event(event);
}

void HeatmapPanel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const Layout layout = layoutFor(size());
    const QRect &plot = layout.plot;

    if (!layout.title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(
            layout.title, Qt::AlignLeft | Qt::AlignVCenter,
            QFontMetrics(bold).elidedText(m_config.title, Qt::ElideRight, layout.title.width()));
        painter.setFont(font());
    }

    painter.fillRect(plot, heatmapEmptyColor());
    // An engine's message (a PromQL heatmap it could not read, or read in part) is
    // plain text drawn over the plot.
    const QRect inside = plot.adjusted(Pad, Pad, -Pad, -Pad);
    if (m_image.isNull()) {
        painter.setPen(Qt::gray);
        painter.drawText(inside, Qt::AlignCenter | Qt::TextWordWrap,
                         m_data.message.isEmpty() ? tr("No data in this range") : m_data.message);
    } else {
        // One pixel per cell, scaled up without blending neighbours: sharp cell edges.
        painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
        painter.drawImage(QRectF(plot), m_image);
        paintYAxis(painter, plot);
        paintColorBar(painter, layout.colorBar);
        if (!m_data.message.isEmpty()) {
            painter.setPen(Qt::gray);
            painter.drawText(inside, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                             m_data.message);
        }
    }
    painter.setPen(AxisColor);
    painter.drawRect(plot.adjusted(0, 0, -1, -1));
    paintTimeAxis(painter, plot);

    if (m_crosshairMs >= m_data.fromMs && m_crosshairMs <= m_data.toMs
        && m_data.toMs > m_data.fromMs) {
        const int x = std::clamp(xAt(m_crosshairMs), plot.left(), plot.right());
        painter.setPen(QPen(CrosshairColor, 1));
        painter.drawLine(x, plot.top(), x, plot.bottom());
    }
}

void HeatmapPanel::paintYAxis(QPainter &painter, const QRect &plot) const
{
    const QFontMetrics fm(font());
    const int rows = int(m_yLabels.size());
    const double rowHeight = double(plot.height()) / rows;
    // Every k-th bound, from the top, so labels never overlap.
    const int every = std::max(1, int(std::ceil((fm.height() + 2) / rowHeight)));
    painter.setPen(palette().color(QPalette::WindowText));
    for (int r = rows - 1; r >= 0; r -= every) {
        // The bound upperBoundsMs[r] is the top edge of row r.
        const int y = plot.top() + int(std::lround((rows - 1 - r) * rowHeight));
        painter.drawLine(plot.left() - TickLength, y, plot.left() - 1, y);
        const QRect box(0, y - fm.height() / 2, plot.left() - TickLength - 2, fm.height());
        painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, m_yLabels.at(r));
    }
}

void HeatmapPanel::paintTimeAxis(QPainter &painter, const QRect &plot) const
{
    const qint64 from = m_data.fromMs;
    const qint64 to = m_data.toMs;
    if (to <= from)
        return;
    const QFontMetrics fm(font());
    const int labelWidth = fm.horizontalAdvance(u"00:00:00"_s) + 3 * Pad;
    const TimeTicks ticks = timeTicks(from, to, plot.width() / labelWidth);
    painter.setPen(palette().color(QPalette::WindowText));
    for (const qint64 tick : ticks.ticks) {
        const int x = xAt(tick);
        painter.drawLine(x, plot.bottom() + 1, x, plot.bottom() + TickLength);
        const QString text = QDateTime::fromMSecsSinceEpoch(tick).toString(ticks.format);
        const int w = fm.horizontalAdvance(text);
        const int left = std::clamp(x - w / 2, 0, std::max(0, width() - w));
        painter.drawText(QRect(left, plot.bottom() + TickLength + 1, w, fm.height()),
                         Qt::AlignCenter, text);
    }
}

void HeatmapPanel::paintColorBar(QPainter &painter, const QRect &bar) const
{
    if (bar.isEmpty())
        return;
    QImage gradient(1, bar.height(), QImage::Format_RGB32);
    for (int y = 0; y < bar.height(); ++y) {
        const double t = bar.height() > 1 ? 1.0 - double(y) / (bar.height() - 1) : 1.0;
        gradient.setPixel(0, y, heatmapPalette(t).rgb());
    }
    painter.drawImage(bar, gradient);
    painter.setPen(AxisColor);
    painter.drawRect(bar.adjusted(0, 0, -1, -1));

    const QFontMetrics fm(font());
    const QList<double> ticks = m_colors.ticks();
    painter.setPen(palette().color(QPalette::WindowText));
    for (qsizetype i = 0; i < ticks.size() && i < m_barLabels.size(); ++i) {
        const double t = m_colors.position(ticks.at(i));
        const int y = bar.bottom() - int(std::lround(t * (bar.height() - 1)));
        painter.drawLine(bar.right() + 1, y, bar.right() + TickLength, y);
        const QRect box(bar.right() + TickLength + 2, y - fm.height() / 2,
                        width() - bar.right() - TickLength - 2, fm.height());
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, m_barLabels.at(i));
    }
}

void HeatmapPanel::mousePressEvent(QMouseEvent *event)
{
    const QRect plot = plotRect();
    const QPoint pos = event->position().toPoint();
    if (event->button() == Qt::LeftButton && plot.contains(pos) && m_data.toMs > m_data.fromMs) {
        m_dragOriginX = pos.x();
        if (!m_band)
            m_band = new QRubberBand(QRubberBand::Rectangle, this);
        m_band->setGeometry(QRect(m_dragOriginX, plot.top(), 1, plot.height()));
        m_band->show();
        event->accept();
        return;
    }
    PanelWidget::mousePressEvent(event);
}

void HeatmapPanel::mouseMoveEvent(QMouseEvent *event)
{
    const QRect plot = plotRect();
    const QPoint pos = event->position().toPoint();
    if (m_dragOriginX >= 0 && m_band) {
        const int x = std::clamp(pos.x(), plot.left(), plot.right());
        m_band->setGeometry(QRect(std::min(x, m_dragOriginX), plot.top(),
                                  std::abs(x - m_dragOriginX), plot.height()));
    }
    const bool inside = plot.contains(pos) && m_data.toMs > m_data.fromMs;
    setHovering(inside);
    if (inside)
        Q_EMIT crosshairMoved(msAt(pos.x()));
    if (QToolTip::isVisible()) // follow the mouse from cell to cell
        showLiteralToolTip(event->globalPosition().toPoint(), hoverText(pos), this);
    event->accept();
}

void HeatmapPanel::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragOriginX >= 0 && event->button() == Qt::LeftButton) {
        const QRect plot = plotRect();
        const int x = std::clamp(event->position().toPoint().x(), plot.left(), plot.right());
        if (m_band)
            m_band->hide();
        const int origin = std::exchange(m_dragOriginX, -1);
        if (std::abs(x - origin) >= MinDragPx) {
            const qint64 a = msAt(origin);
            const qint64 b = msAt(x);
            Q_EMIT rangeSelected(std::min(a, b), std::max(a, b));
        }
        event->accept();
        return;
    }
    PanelWidget::mouseReleaseEvent(event);
}

void HeatmapPanel::leaveEvent(QEvent *event)
{
    setHovering(false);
    PanelWidget::leaveEvent(event);
}

void HeatmapPanel::setHovering(bool inside)
{
    if (m_hovering && !inside)
        Q_EMIT crosshairMoved(-1);
    m_hovering = inside;
}

template<>
PanelWidget *createPanelWidgetOf<PanelType::Heatmap>(const DashboardPanel &config, QWidget *parent)
{
    return new HeatmapPanel(config, parent);
}

} // namespace Headroom
