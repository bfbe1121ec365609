// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "editors/alertpreviewchart.h"

#include "charts/alertcolors.h"

#include <QPainter>
#include <QPainterPath>
#include <cmath>

namespace Headroom {

namespace {

const QColor LineColors[]
    = { QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0x9467bd),
        QColor(0x8c564b), QColor(0xe377c2), QColor(0x7f7f7f), QColor(0x17becf) };

} // namespace

AlertPreviewChart::AlertPreviewChart(QWidget *parent)
    : QWidget(parent)
{
    setMinimumHeight(120);
}

void AlertPreviewChart::setPreview(const AlertPreview &preview, const AlertRule &rule)
{
    m_preview = preview;
    m_rule = rule;
    update();
}

void AlertPreviewChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QRectF plot = QRectF(rect()).adjusted(8, 8, -8, -8);
    if (m_preview.toMs <= m_preview.fromMs)
        return;
    // The value range covers the data and both thresholds, so the lines are in view.
    double lo = m_rule.threshold;
    double hi = m_rule.threshold;
    lo = std::min(lo, m_rule.effectiveRecovery());
    hi = std::max(hi, m_rule.effectiveRecovery());
    for (const auto &[info, samples] : std::as_const(m_preview.plotted))
        for (const Sample &s : samples)
            if (std::isfinite(s.value)) {
                lo = std::min(lo, s.value);
                hi = std::max(hi, s.value);
            }
    if (hi <= lo)
        hi = lo + 1;
    const double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
    const double span = double(m_preview.toMs - m_preview.fromMs);
    const auto x = [&](qint64 ms) {
        return plot.left() + double(ms - m_preview.fromMs) / span * plot.width();
    };
    const auto y = [&](double v) { return plot.bottom() - (v - lo) / (hi - lo) * plot.height(); };

    for (const AlertSpan &s : std::as_const(m_preview.spans)) {
        QColor color = alertSeverityColor(m_rule.severity);
        color.setAlpha(60);
        const double left = x(s.startMs);
        painter.fillRect(QRectF(left, plot.top(), std::max(1.0, x(s.endMs) - left), plot.height()),
                         color);
    }
    painter.setRenderHint(QPainter::Antialiasing);
    int i = 0;
    for (const auto &[info, samples] : std::as_const(m_preview.plotted)) {
        QPainterPath path;
        bool open = false;
        for (const Sample &s : samples) {
            if (!std::isfinite(s.value)) {
                open = false;
                continue;
            }
            const QPointF p(x(s.tsMs), y(s.value));
            if (open)
                path.lineTo(p);
            else
                path.moveTo(p);
            open = true;
        }
        painter.setPen(QPen(LineColors[i++ % std::size(LineColors)], 1.5));
        painter.drawPath(path);
    }
    const QColor bound = alertSeverityColor(m_rule.severity);
    painter.setPen(QPen(bound, 1.5, Qt::DashLine));
    painter.drawLine(QPointF(plot.left(), y(m_rule.threshold)),
                     QPointF(plot.right(), y(m_rule.threshold)));
    if (m_rule.effectiveRecovery() != m_rule.threshold) {
        painter.setPen(QPen(bound, 1, Qt::DotLine));
        painter.drawLine(QPointF(plot.left(), y(m_rule.effectiveRecovery())),
                         QPointF(plot.right(), y(m_rule.effectiveRecovery())));
    }
}

} // namespace Headroom
