#include "query/legendnames.h"

#include "core/legendtemplate.h"
#include "core/statementname.h"

#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// The default name without the metric: the label values, as seriesDisplayName joins them.
QString labelsOnlyName(const SeriesInfo &info)
{
    const QString full = seriesDisplayName(info);
    const QString metric = metricWithoutFamily(info.key.metric);
    return full.size() > metric.size() + 1 ? full.mid(metric.size() + 1) : full;
}
} // namespace

void nameSeries(QList<PanelSeriesData> *series, const QString &legendTemplate)
{
    const std::optional<LegendTemplate> format
        = legendTemplate.isEmpty() ? std::nullopt : LegendTemplate::parse(legendTemplate, nullptr);
    bool oneMetric = !series->isEmpty();
    for (const PanelSeriesData &s : std::as_const(*series))
        oneMetric = oneMetric && s.info.key.metric == series->constFirst().info.key.metric;
    for (PanelSeriesData &s : *series) {
        if (format)
            s.name = format->expand(s.info);
        if (s.name.isEmpty())
            s.name = oneMetric ? labelsOnlyName(s.info) : seriesDisplayName(s.info);
    }
}

SeriesStats seriesStats(std::span<const Sample> samples)
{
    SeriesStats stats;
    double sum = 0;
    for (const Sample &sample : samples) {
        if (std::isnan(sample.value))
            continue;
        if (stats.count == 0) {
            stats.min = stats.max = sample.value;
        } else {
            stats.min = std::min(stats.min, sample.value);
            stats.max = std::max(stats.max, sample.value);
        }
        stats.last = sample.value;
        sum += sample.value;
        ++stats.count;
    }
    if (stats.count > 0)
        stats.mean = sum / double(stats.count);
    return stats;
}

} // namespace Headroom
