// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "report/evidencechart.h"

#include "charts/zoomablechartview.h"
#include "engine/runtime/seriesregistry.h"
#include "imageexport.h"
#include "panels/timeseriespanel.h"
#include "query/analysis/findingsreport.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QPainter>
#include <QSet>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr int MaxCharts = 3;
constexpr int MaxSeriesPerChart = 6;
const QColor OnsetColor { 0xc0, 0x00, 0x60 };

// The onset line across the plot area of the rendered panel, labelled with its time.
void drawOnsetMarker(QImage *image, const TimeSeriesPanel &panel, qint64 fromMs, qint64 toMs,
                     qint64 onsetMs)
{
    const QChartView *view = panel.chartView();
    const QChart *chart = view->chart();
    if (toMs <= fromMs || onsetMs < fromMs || onsetMs > toMs)
        return;
    const QRectF plotInScene = chart->mapRectToScene(chart->plotArea());
    const QRect plotInView = view->mapFromScene(plotInScene).boundingRect();
    const QPoint topLeft = view->mapTo(&panel, plotInView.topLeft());
    const QRectF plot(topLeft, plotInView.size());
    const double x = plot.left() + double(onsetMs - fromMs) / double(toMs - fromMs) * plot.width();
    QPainter painter(image);
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(OnsetColor, 2, Qt::DashLine);
    painter.setPen(pen);
    painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    const QString label
        = u"onset "_s + QDateTime::fromMSecsSinceEpoch(onsetMs).toString(u"HH:mm:ss"_s);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    const QRectF text = painter.boundingRect(QRectF(), Qt::AlignLeft, label);
    // Right of the line unless that leaves the plot.
    const double left = x + 4 + text.width() <= plot.right() ? x + 4 : x - 4 - text.width();
    // On a light box: the label sits over the lines it explains.
    const QRectF box(left - 2, plot.top() + 2, text.width() + 4, text.height());
    painter.fillRect(box, QColor(255, 255, 255, 220));
    painter.drawText(box, Qt::AlignCenter, label);
}

} // namespace

std::pair<qint64, qint64> evidenceWindow(const Analysis::Finding &finding, qint64 rangeFromMs,
                                         qint64 rangeToMs, qint64 binMs)
{
    const qint64 bin = std::max<qint64>(binMs, 1000);
    const qint64 length = std::max<qint64>(finding.untilMs - finding.sinceMs, 0);
    const qint64 before = std::max(3 * length, 20 * bin);
    const qint64 after = std::max(length / 4, 5 * bin);
    const qint64 from = std::max(rangeFromMs, finding.sinceMs - before);
    const qint64 to = std::min(rangeToMs, std::max(finding.untilMs, finding.sinceMs) + after);
    return { from, std::max(to, from + bin) };
}

QList<EvidenceChart> evidenceCharts(const Analysis::Finding &finding,
                                    const SeriesRegistry &registry, const SeriesStore &store,
                                    qint64 rangeFromMs, qint64 rangeToMs, qint64 binMs, int widthPx,
                                    int heightPx, qreal scale)
{
    // Group the evidence by unit, the signal's group first (the signal is first in
    // the evidence), in evidence order.
    QList<std::pair<QString, QList<int>>> groups;
    for (const int id : finding.evidenceSeriesIds) {
        const auto info = registry.info(id);
        if (!info)
            continue;
        auto group = std::find_if(groups.begin(), groups.end(),
                                  [&](const auto &g) { return g.first == info->unit; });
        if (group == groups.end()) {
            if (groups.size() == MaxCharts)
                continue;
            groups.append(std::pair<QString, QList<int>>(info->unit, {}));
            group = groups.end() - 1;
        }
        if (group->second.size() < MaxSeriesPerChart)
            group->second.append(id);
    }

    const auto [fromMs, toMs] = evidenceWindow(finding, rangeFromMs, rangeToMs, binMs);
    QList<EvidenceChart> charts;
    for (const auto &[unit, ids] : std::as_const(groups)) {
        DashboardPanel panel;
        panel.id = u"evidence"_s;
        panel.type = PanelType::TimeSeries;
        panel.unit = unit;
        QSet<int> wanted;
        for (const int id : ids) {
            const SeriesKey key = registry.info(id)->key;
            panel.series.append(SeriesSelector { key.source, key.metric, key.labels });
            wanted.insert(id);
        }
        panel.title = charts.isEmpty() ? QString(finding.resource + u" — "_s + finding.signal)
                                       : QString(finding.resource + u" — evidence ("_s
                                                 + (unit.isEmpty() ? u"no unit"_s : unit) + u')');
        PanelData data = queryPanel(panel, registry, store, fromMs, toMs, widthPx);
        // A selector's labels constrain only the labels it names: keep the exact series.
        data.series.removeIf(
            [&](const PanelSeriesData &series) { return !wanted.contains(series.seriesId); });
        if (data.series.isEmpty())
            continue;

        TimeSeriesPanel widget(panel);
        widget.setAttribute(Qt::WA_DontShowOnScreen);
        widget.resize(widthPx, heightPx);
        widget.show();
        QApplication::processEvents(); // lay out so the chart knows its plot area
        widget.setData(data);
        QApplication::processEvents();
        QImage image = renderWidget(&widget, scale);
        drawOnsetMarker(&image, widget, fromMs, toMs, finding.sinceMs);
        QStringList names;
        for (const PanelSeriesData &series : std::as_const(data.series))
            names.append(series.info.key.toString());
        charts.append(EvidenceChart { u"%1 to %2 UTC, onset at %3: %4"_s.arg(
                                          Analysis::isoUtc(fromMs), Analysis::isoUtc(toMs),
                                          Analysis::isoUtc(finding.sinceMs), names.join(u", "_s)),
                                      image });
    }
    return charts;
}

} // namespace Headroom
