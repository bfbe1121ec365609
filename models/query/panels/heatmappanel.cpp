// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The heatmap panel ("type": "heatmap"): its latency series summed into one HeatmapGrid
// (query/heatmap/heatmapquery.h; options checked by document/panels/heatmapoptions.h).
//
// CSV rows: one per non-empty cell, columns in time order, the fastest row first within
// a column. time = the column's start; source and metric = those of the panel's first
// matched series (PanelData::series); labels = {bucket=<heatmapRowLabel>,gt_ms=<lower
// bound>,le_ms=<upper bound>}, e.g. {bucket=4–8 ms,gt_ms=4,le_ms=8} (the catch-all row 0
// has gt_ms=0), so scripts read the bounds without parsing the label; value = events per
// second in that cell, unit "1/s".
#include "core/csvcell.h"
#include "engine/seriesstore.h"
#include "query/heatmap/heatmapquery.h"
#include "query/panels/paneldescriptor.h"
#include "query/promql/promqlheatmap.h"

#include <QDateTime>
#include <QLocale>
#include <QTimeZone>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QString heatmapCsvRows(const PanelData &data)
{
    QString out;
    const HeatmapGrid &grid = data.as<HeatmapGrid>();
    if (grid.rows() == 0 || grid.columns <= 0 || data.series.isEmpty())
        return out;
    const SeriesKey &key = data.series.first().info.key;
    const QString prefix = u',' + csvText(data.panelId) + u',' + csvText(key.source) + u','
        + csvText(key.metric) + u',';
    QStringList rowFields; // labels and the separators around them, per row
    for (int r = 0; r < grid.rows(); ++r) {
        const Labels labels {
            { u"bucket"_s, heatmapRowLabel(grid, r) },
            { u"gt_ms"_s,
              QString::number(grid.lowerBoundMs(r), 'g', QLocale::FloatingPointShortest) },
            { u"le_ms"_s,
              QString::number(grid.upperBoundsMs.at(r), 'g', QLocale::FloatingPointShortest) },
        };
        rowFields.append(csvText(labelsToString(labels)) + u',');
    }
    const double columnMs = double(grid.toMs - grid.fromMs) / grid.columns;
    for (int c = 0; c < grid.columns; ++c) {
        const QString time = QDateTime::fromMSecsSinceEpoch(
                                 grid.fromMs + qint64(std::floor(c * columnMs)), QTimeZone::UTC)
                                 .toString(Qt::ISODateWithMs);
        for (int r = 0; r < grid.rows(); ++r) {
            const double value = grid.at(r, c);
            if (value > 0)
                out += time + prefix + rowFields.at(r) + csvNumber(value) + u",1/s\r\n"_s;
        }
    }
    return out;
}

} // namespace

template<> const PanelDescriptor &panelDescriptorOf<PanelType::Heatmap>()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::Heatmap,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = true,
        .query =
            [](const PanelQueryRequest &r) {
                if (!r.panel.query.isEmpty())
                    return queryPromqlHeatmap(r.panel, r.store.promqlEngines(), r.fromMs, r.toMs,
                                              r.columns, QDateTime::currentMSecsSinceEpoch());
                return queryHeatmapPanel(r.panel, r.registry, r.store, r.fromMs, r.toMs, r.columns);
            },
        .csvRows = heatmapCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
