// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/promql/promqlheatmap.h"

#include "engine/promqlengines.h"
#include "query/heatmap/heatmapquery.h"
#include "query/heatmap/latencyheatmap.h"
#include "query/promql/promqlhistograms.h"
#include "query/promql/promqlpanelquery.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

PanelData queryPromqlHeatmap(const DashboardPanel &panel, const PromqlEngines *engines,
                             qint64 fromMs, qint64 toMs, int columns, qint64 nowMs)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    const qint64 step = promqlStepMs(fromMs, toMs, columns);
    const qint64 span = std::max<qint64>(0, toMs - fromMs);
    const int gridColumns = int(std::clamp<qint64>(
        span / step, 1, columns > 0 ? qint64(columns) : qint64(HeatmapMaxExportColumns)));
    HeatmapGrid &grid = data.payload.emplace<HeatmapGrid>();
    // Still a grid over the range when nothing is read, so the view knows its time axis.
    grid.fromMs = fromMs;
    grid.toMs = toMs;
    grid.columns = gridColumns;

    std::optional<PanelPromqlAnswer> answer
        = fetchPanelQuery(panel, engines, fromMs, toMs, step, nowMs, &data);
    if (!answer)
        return data;
    const PromqlHistogramSplit split = splitPromqlHistograms(std::move(answer->series));
    if (!split.plain.isEmpty())
        data.warnings.append(u"%1 series without an le label or histogram values are not "
                             "drawn (a heatmap draws histograms)"_s.arg(split.plain.size()));

    const QString unitOption = panel.options.value(u"bucketUnit"_s).toString();
    const double msPerUnit
        = msPerBucketUnit(unitOption).value_or(msPerBucketUnit(panel.unit).value_or(1000.0));
    QList<HeatmapGrid> grids;
    for (const PromqlHistogram &histogram : split.histograms) {
        grids.append(heatmapFromCumulativeBuckets(cumulativeBoundSeries(histogram), msPerUnit,
                                                  fromMs, toMs, gridColumns));
        PanelSeriesData s;
        s.seriesId = -(int(data.series.size()) + 1);
        s.info.key = promqlSeriesKey(answer->sourceId, histogram.labels);
        s.info.unit = panel.unit;
        s.rawCount = qint64(histogram.points.size());
        data.series.append(std::move(s));
    }
    if (!grids.isEmpty())
        grid = sumHeatmapGrids(grids);
    return data;
}

} // namespace Headroom
