// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// TimeSeriesPanel's list legend: which entries it has, the names that fit its width
// (charts/legendfit.h), and the whole name on hover.
#include "charts/legendfit.h"
#include "charts/zoomablechartview.h"
#include "literaltext.h"
#include "panels/timeseriespanel.h"

#include <QAreaSeries>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Marks a legend marker whose hover shows the whole name.
constexpr const char *HoverConnected = "headroomHoverConnected";

} // namespace

QList<std::pair<QAbstractSeries *, QString>> TimeSeriesPanel::legendSeries() const
{
    QHash<const QAbstractSeries *, QString> names;
    for (auto it = m_legend.cbegin(); it != m_legend.cend(); ++it)
        names.insert(it.value(), m_names.value(it.key()));
    for (auto it = m_areas.cbegin(); it != m_areas.cend(); ++it)
        names.insert(it.value(), m_names.value(it.key()));
    // In the legend's order.
    QList<std::pair<QAbstractSeries *, QString>> entries;
    const auto series = m_chart->series();
    for (QAbstractSeries *s : series) {
        if (const auto it = names.constFind(s); it != names.cend())
            entries.append({ s, *it });
    }
    return entries;
}

QString TimeSeriesPanel::legendFullName(const QLegendMarker *marker) const
{
    // QLegendMarker::series() only reads, but is not declared const.
    const QAbstractSeries *markerSeries = const_cast<QLegendMarker *>(marker)->series();
    for (const auto legendEntries = legendSeries(); const auto &[series, name] : legendEntries) {
        if (series == markerSeries)
            return name;
    }
    return {};
}

void TimeSeriesPanel::fitLegend()
{
    QLegend *legend = m_chart->legend();
    if (!legend->isVisible() && m_legendTable)
        return; // the table legend shows every name whole
    const QList<std::pair<QAbstractSeries *, QString>> entries = legendSeries();
    // The legend lies within the chart's margins, which hold our axis labels.
    const int width
        = m_view->contentsRect().width() - m_chart->margins().left() - m_chart->margins().right();
    // Fitting measures every name several times: only when a name or the width changed.
    if (entries == m_fittedFor && width == m_fittedWidth)
        return;
    m_fittedFor = entries;
    m_fittedWidth = width;
    QStringList names;
    for (const auto &entry : entries)
        names.append(entry.second);
    const LegendFit fit = fitLegendNames(names, legend->font(), width);
    if (legend->alignment() != fit.alignment)
        legend->setAlignment(fit.alignment);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        QAbstractSeries *series = entries.at(i).first;
        // The legend reads names as HTML: they are label values of targets.
        if (const QString shown = literalChartText(fit.names.at(i)); series->name() != shown)
            series->setName(shown);
        const auto markers = legend->markers(series);
        for (QLegendMarker *marker : markers) {
            // Once per marker: a property of its own, as Qt Charts makes and deletes them.
            if (!marker->property(HoverConnected).toBool()) {
                marker->setProperty(HoverConnected, true);
                // The whole name on hover: the legend shows a short one.
                connect(marker, &QLegendMarker::hovered, this, [this, marker](bool over) {
                    showLiteralToolTip(QCursor::pos(), over ? legendFullName(marker) : QString(),
                                       m_view);
                });
            }
        }
    }
}

} // namespace Headroom
