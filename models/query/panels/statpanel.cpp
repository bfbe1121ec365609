// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The stat panel ("type": "stat"): one big figure per series, its last, mean, min or max
// over the range (options checked by document/panels/statoptions.h). It reads its series
// as a time chart does (queryTimeSeries: stored series, histogram percentiles, or a
// PromQL query) and reduces each line's figures over the raw samples (SeriesStats).
//
// CSV rows: one per figure with a value, in the series' order: time = the sample's for
// "last", the range's end otherwise; source, metric, unit = the series'; labels = its
// labels plus reduce=<last|mean|min|max>.
#include "query/csvexport.h"
#include "query/panels/paneldescriptor.h"
#include "query/panels/timeseriespanel.h"

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

StatFigure statFigure(const PanelSeriesData &line, qsizetype index, StatReduce reduce, qint64 toMs)
{
    StatFigure figure;
    figure.series = index;
    figure.tsMs = toMs;
    if (line.stats.count == 0)
        return figure;
    switch (reduce) {
    case StatReduce::Last:
        figure.value = line.stats.last;
        if (!line.points.empty())
            figure.tsMs = line.points.back().tsMs;
        break;
    case StatReduce::Mean:
        figure.value = line.stats.mean;
        break;
    case StatReduce::Min:
        figure.value = line.stats.min;
        break;
    case StatReduce::Max:
        figure.value = line.stats.max;
        break;
    }
    return figure;
}

PanelData queryStat(const PanelQueryRequest &r)
{
    PanelData data = queryTimeSeries(r.panel, r.registry, r.store, r.fromMs, r.toMs, r.columns);
    StatData stat;
    stat.reduce = statReduce(r.panel);
    for (qsizetype i = 0; i < data.series.size(); ++i)
        stat.figures.append(statFigure(data.series.at(i), i, stat.reduce, r.toMs));
    data.payload = std::move(stat);
    return data;
}

QString statCsvRows(const PanelData &data)
{
    const StatData &stat = data.as<StatData>();
    QString out;
    for (const StatFigure &figure : stat.figures) {
        if (qIsNaN(figure.value) || figure.series >= data.series.size())
            continue;
        const SeriesInfo &info = data.series.at(figure.series).info;
        Labels labels = info.key.labels;
        labels.insert(u"reduce"_s, statReduceName(stat.reduce));
        out += csvRow(figure.tsMs, data.panelId, info.key.source, info.key.metric, labels,
                      figure.value, info.unit);
    }
    return out;
}

} // namespace

template<> const PanelDescriptor &panelDescriptorOf<PanelType::Stat>()
{
    static constexpr PanelDescriptor descriptor {
        .type = PanelType::Stat,
        .showsAlerts = false,
        .supportsCompare = false,
        .readsSeries = true,
        .query = queryStat,
        .csvRows = statCsvRows,
    };
    return descriptor;
}

} // namespace Headroom
