// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/legendnames.h"

#include "core/legendtemplate.h"

#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

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
        if (s.name.isEmpty() && oneMetric)
            s.name = seriesLabelValues(s.info);
        if (s.name.isEmpty()) // several metrics, or a series without labels
            s.name = seriesDisplayName(s.info);
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

SeriesStats seriesStats(std::span<const Aggregate> aggregates)
{
    SeriesStats stats;
    double sum = 0;
    for (const Aggregate &a : aggregates) {
        if (a.count == 0)
            continue;
        stats.min = stats.count == 0 ? a.min : std::min(stats.min, a.min);
        stats.max = stats.count == 0 ? a.max : std::max(stats.max, a.max);
        stats.last = a.mean();
        sum += a.sum;
        stats.count += a.count;
    }
    if (stats.count > 0)
        stats.mean = sum / double(stats.count);
    return stats;
}

} // namespace Headroom
