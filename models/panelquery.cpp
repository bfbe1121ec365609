#include "panelquery.h"

#include "downsample.h"
#include "percentilelines.h"
#include "seriesregistry.h"
#include "seriesstore.h"

#include <algorithm>

namespace Headroom {

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
    for (int id : matchSeries(panel.series, registry)) {
        PanelSeriesData s;
        s.seriesId = id;
        s.info = registry.info(id).value_or(SeriesInfo {});
        if (s.info.histogram) {
            data.series.append(percentileLines(id, s.info, store.readHistograms(id, fromMs, toMs),
                                               percentiles, fromMs, toMs, columns));
            continue;
        }
        const std::vector<Sample> raw = store.read(id, fromMs, toMs);
        s.rawCount = qint64(raw.size());
        for (const auto &[begin, end] : splitAtGaps(raw)) {
            const std::span<const Sample> part(raw.data() + begin, end - begin);
            s.segmentStarts.push_back(s.points.size());
            if (columns > 0) {
                const auto reduced = downsampleMinMax(part, fromMs, toMs, columns);
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

PanelData queryPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                     const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    // One query per panel type (knownPanelTypes()); "timeseries" is also what a panel
    // built in code with another type gets.
    return queryTimeSeriesPanel(panel, registry, store, fromMs, toMs, columns);
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
