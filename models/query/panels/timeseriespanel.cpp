// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/panels/timeseriespanel.h"

#include "document/panels/timeseriesoptions.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/downsample.h"
#include "query/heatmap/percentilelines.h"
#include "query/legendnames.h"
#include "query/promql/promqlpanelquery.h"

#include <QDateTime>

namespace Headroom {

using namespace Qt::StringLiterals;

PanelData queryTimeSeries(const DashboardPanel &panel, const SeriesRegistry &registry,
                          const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    if (!panel.query.isEmpty())
        return queryPromqlPanel(panel, store.promqlEngines(), fromMs, toMs, columns,
                                QDateTime::currentMSecsSinceEpoch());
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    const QList<double> percentiles
        = panel.percentiles.isEmpty() ? defaultPercentiles() : panel.percentiles;
    // Stacked bands add up only on shared timestamps: one mean point per column.
    const bool stacked = panel.options.value(u"stacked"_s).toBool();
    const std::optional<qint64> apdexT = timeSeriesApdexTMs(panel);
    for (const auto ids = matchSeries(panel.series, registry); int id : ids) {
        PanelSeriesData s;
        s.seriesId = id;
        s.info = registry.info(id).value_or(SeriesInfo {});
        if (s.info.histogram && apdexT) {
            data.series.append(apdexLine(id, s.info,
                                         store.readHistogramsForColumns(id, fromMs, toMs, columns),
                                         *apdexT, fromMs, toMs, columns));
            continue;
        }
        if (s.info.histogram) {
            data.series.append(percentileLines(
                id, s.info, store.readHistogramsForColumns(id, fromMs, toMs, columns), percentiles,
                fromMs, toMs, columns));
            continue;
        }
        std::vector<Sample> raw;
        if (SeriesStore::readsTiers(fromMs, toMs, columns)) {
            // Weeks at a minute or more per column: the rollup tiers' sums and counts give
            // the true means (stacked bands, the legend's mean), their extremes the line.
            const std::vector<Aggregate> aggregates
                = store.readAggregates(id, fromMs, toMs, columns);
            s.stats = seriesStats(aggregates);
            s.rawCount = s.stats.count;
            raw = stacked ? downsampleMean(aggregates, fromMs, toMs, columns)
                          : aggregatePoints(aggregates);
        } else {
            // Stacked bands need true means, which block summaries (min, max) do not give.
            raw = stacked ? store.read(id, fromMs, toMs)
                          : store.readForColumns(id, fromMs, toMs, columns);
            s.rawCount = qint64(raw.size());
            s.stats = seriesStats(raw);
        }
        for (const auto &[begin, end] : splitAtGaps(raw)) {
            const std::span<const Sample> part(raw.data() + begin, end - begin);
            s.segmentStarts.push_back(s.points.size());
            if (columns > 0) {
                const auto reduced = stacked ? downsampleMean(part, fromMs, toMs, columns)
                                             : downsampleMinMax(part, fromMs, toMs, columns);
                s.points.insert(s.points.end(), reduced.begin(), reduced.end());
            } else {
                s.points.insert(s.points.end(), part.begin(), part.end());
            }
        }
        data.series.append(std::move(s));
    }
    // Percentile and APDEX lines have no samples of their own: their points are theirs.
    for (PanelSeriesData &s : data.series) {
        if (s.info.histogram)
            s.stats = seriesStats(s.points);
    }
    return data;
}

template<> const PanelDescriptor &panelDescriptorOf<PanelType::TimeSeries>()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::TimeSeries,
        .showsAlerts = true, // firing spans shaded, firings marked
        .supportsCompare = true,
        .readsSeries = true,
        .query =
            [](const PanelQueryRequest &r) {
                return queryTimeSeries(r.panel, r.registry, r.store, r.fromMs, r.toMs, r.columns);
            },
        .csvRows = nullptr,
    };
    return descriptor;
}

} // namespace Headroom
