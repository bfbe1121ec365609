#include "query/panelquery.h"

#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/downsample.h"
#include "query/heatmap/heatmapquery.h"
#include "query/heatmap/percentilelines.h"
#include "query/shards/shardquery.h"
#include "query/use/alertusematrix.h"
#include "query/use/usematrixquery.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

QList<int> matchSeries(const QList<SeriesSelector> &selectors, const SeriesRegistry &registry)
{
    QList<std::pair<QString, int>> matched;
    for (int id : registry.ids()) {
        const auto info = registry.info(id);
        if (!info)
            continue;
        const bool hit = std::any_of(selectors.cbegin(), selectors.cend(),
                                     [&](const SeriesSelector &s) { return s.matches(info->key); });
        if (hit)
            matched.append({ info->key.toString(), id });
    }
    std::sort(matched.begin(), matched.end());
    QList<int> ids;
    ids.reserve(matched.size());
    for (const auto &m : std::as_const(matched))
        ids.append(m.second);
    return ids;
}

namespace {
PanelData queryTimeSeriesPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                               const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    const QList<double> percentiles
        = panel.percentiles.isEmpty() ? defaultPercentiles() : panel.percentiles;
    // Stacked bands add up only on shared timestamps: one mean point per column.
    const bool stacked = panel.options.value(u"stacked"_s).toBool();
    for (int id : matchSeries(panel.series, registry)) {
        PanelSeriesData s;
        s.seriesId = id;
        s.info = registry.info(id).value_or(SeriesInfo {});
        if (s.info.histogram) {
            data.series.append(percentileLines(id, s.info, store.readHistograms(id, fromMs, toMs),
                                               percentiles, fromMs, toMs, columns));
            continue;
        }
        // Stacked bands need true means, which block summaries (min, max) do not give.
        const std::vector<Sample> raw = stacked ? store.read(id, fromMs, toMs)
                                                : store.readForColumns(id, fromMs, toMs, columns);
        s.rawCount = qint64(raw.size());
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
    return data;
}
} // namespace

bool panelShowsAlerts(const QString &type)
{
    return type == "timeseries"_L1 || type == "alerts"_L1 || type == "usematrix"_L1;
}

namespace {

PanelData queryPanelData(const DashboardPanel &panel, const SeriesRegistry &registry,
                         const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    // One query per panel type (knownPanelTypes()); "timeseries" is also what a panel
    // built in code with another type gets.
    if (panel.type == u"alerts"_s) {
        PanelData data;
        data.panelId = panel.id;
        data.fromMs = fromMs;
        data.toMs = toMs;
        return data;
    }
    if (panel.type == u"heatmap"_s)
        return queryHeatmapPanel(panel, registry, store, fromMs, toMs, columns);
    if (panel.type == u"usematrix"_s)
        return queryUseMatrixPanel(panel, registry, store, fromMs, toMs);
    if (panel.type == u"shardhistogram"_s)
        return queryShardHistogramPanel(panel, registry, store, fromMs, toMs, columns);
    if (panel.type == u"shardtable"_s)
        return queryShardTablePanel(panel, registry, store, fromMs, toMs, columns);
    return queryTimeSeriesPanel(panel, registry, store, fromMs, toMs, columns);
}

} // namespace

PanelData queryPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                     const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    PanelData data = queryPanelData(panel, registry, store, fromMs, toMs, columns);
    if (panelShowsAlerts(panel.type))
        data.alerts = store.readAlertEvents(fromMs - AlertLookbackMs, toMs);
    if (panel.type == u"usematrix"_s)
        applyFiringAlerts(&data.useMatrix, data.alerts, registry);
    return data;
}

void addComparison(PanelData *data, const DashboardPanel &panel, const SeriesRegistry &registry,
                   const SeriesStore &store, qint64 offsetMs, int columns)
{
    data->compare.clear();
    data->compareOffsetMs = 0;
    if (offsetMs <= 0)
        return;
    PanelData earlier = queryTimeSeriesPanel(panel, registry, store, data->fromMs - offsetMs,
                                             data->toMs - offsetMs, columns);
    for (PanelSeriesData &s : earlier.series) {
        for (Sample &p : s.points)
            p.tsMs += offsetMs;
    }
    data->compare = std::move(earlier.series);
    data->compareOffsetMs = offsetMs;
}

QString seriesDisplayName(const SeriesInfo &info)
{
    // The metric without its family prefix ("host.", "nic.": the panel says that), then
    // the label values that tell series apart.
    const qsizetype dot = info.key.metric.indexOf(u'.');
    QString name = dot > 0 && dot + 1 < info.key.metric.size() ? info.key.metric.mid(dot + 1)
                                                               : info.key.metric;
    QStringList values;
    for (auto it = info.key.labels.cbegin(); it != info.key.labels.cend(); ++it)
        values << it.value();
    if (!values.isEmpty())
        name += u' ' + values.join(u'/');
    return name;
}

} // namespace Headroom
