// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/shards/shardquery.h"

#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/csvexport.h"
#include "query/shards/shardload.h"

#include <QDateTime>
#include <QJsonArray>
#include <QLocale>
#include <QSet>
#include <QTimeZone>
#include <algorithm>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QString DefaultOpsMetric = u"pg.shard.ops.rate"_s;

QString opsMetricOf(const DashboardPanel &panel)
{
    const QString metric = panel.options.value("opsMetric"_L1).toString();
    return metric.isEmpty() ? DefaultOpsMetric : metric;
}

// The load series the selectors match, read over the range; with the ops series of the
// same source and labels when `withOps`.
QList<ShardLoadSeries> readShardLoads(const DashboardPanel &panel, const SeriesRegistry &registry,
                                      const SeriesStore &store, qint64 fromMs, qint64 toMs,
                                      bool withOps)
{
    const QString opsMetric = opsMetricOf(panel);
    QList<ShardLoadSeries> shards;
    for (const auto ids = matchSeries(panel.series, registry); int id : ids) {
        const auto info = registry.info(id);
        if (!info || info->histogram || info->key.metric == opsMetric)
            continue;
        ShardLoadSeries s;
        s.info = *info;
        s.load = store.read(id, fromMs, toMs);
        if (withOps) {
            if (const auto ops = registry.find({ info->key.source, opsMetric, info->key.labels }))
                s.ops = store.read(*ops, fromMs, toMs);
        }
        shards.append(std::move(s));
    }
    return shards;
}

QString setLabel(const QStringList &sets)
{
    return sets.size() == 1 ? sets.constFirst() : u"*"_s;
}

} // namespace

double shardOverloadedPercent(const DashboardPanel &panel)
{
    const QJsonValue option = panel.options.value("overloadedPercent"_L1);
    if (option.isDouble())
        return option.toDouble();
    if (!qIsNaN(panel.thresholds.warning))
        return panel.thresholds.warning;
    return DefaultOverloadedPercent;
}

PanelData queryShardHistogramPanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                                   const SeriesStore &store, qint64 fromMs, qint64 toMs,
                                   int columns)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    const QList<ShardLoadSeries> shards
        = readShardLoads(panel, registry, store, fromMs, toMs, false);
    // The over-time grid gets about 3/5 of the panel's width (the bars take the left
    // third): a column per pixel of it, not of the panel.
    const int gridColumns = columns > 0 ? std::max(1, columns * 3 / 5) : columns;
    const ShardLoadHistogram &h = data.payload.emplace<ShardLoadHistogram>(
        shardLoadHistogram(shards, fromMs, toMs, gridColumns, shardOverloadedPercent(panel)));
    if (h.isEmpty())
        return data; // nothing in the range: no line either

    // The overloaded count is a line of its own, so legends, hover and CSV need nothing
    // special for it.
    QSet<QString> sources;
    QSet<QString> resources;
    for (const ShardLoadSeries &s : shards) {
        if (!s.load.empty()) {
            sources.insert(s.info.key.source);
            resources.insert(s.info.resource);
        }
    }
    PanelSeriesData overloaded;
    overloaded.info.key = { sources.size() == 1 ? *sources.cbegin() : QString(),
                            u"shard.load.overloaded"_s,
                            { { u"set"_s, setLabel(h.sets) } } };
    overloaded.info.unit = u"shards"_s;
    overloaded.info.resource = resources.size() == 1 ? *resources.cbegin() : QString();
    overloaded.info.kind = UseKind::Saturation;
    overloaded.points = overloadedSamples(h);
    overloaded.rawCount = qint64(overloaded.points.size());
    if (!overloaded.points.empty())
        overloaded.segmentStarts.push_back(0);
    data.series.append(std::move(overloaded));
    return data;
}

PanelData queryShardTablePanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                               const SeriesStore &store, qint64 fromMs, qint64 toMs, int columns)
{
    Q_UNUSED(columns) // a table shows values, not lines: nothing to reduce
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    const QList<ShardLoadSeries> shards
        = readShardLoads(panel, registry, store, fromMs, toMs, true);
    ShardTableData &table = data.payload.emplace<ShardTableData>();
    table.rows = currentShardRows(shards);
    table.top = panel.options.value("top"_L1).toInt(DefaultShardTableTop);
    table.overloadedPercent = shardOverloadedPercent(panel);
    table.opsMetric = opsMetricOf(panel);
    QSet<QString> sets;
    for (const ShardLoadRow &row : std::as_const(table.rows))
        sets.insert(row.set);
    QStringList names;
    for (const auto allNames = panel.options.value("columns"_L1).toArray();
         const auto &name : allNames)
        names << name.toString();
    const auto chosen = shardColumnsFromNames(names);
    table.columns = chosen && !chosen->isEmpty() ? *chosen : defaultShardColumns(sets.size() > 1);
    for (const ShardLoadSeries &s : shards) {
        if (table.loadMetric.isEmpty() && !s.load.empty()) {
            table.loadMetric = s.info.key.metric;
            table.loadUnit = s.info.unit;
        }
        if (table.opsUnit.isEmpty() && !s.ops.empty()) {
            const auto opsId
                = registry.find({ s.info.key.source, table.opsMetric, s.info.key.labels });
            if (const auto info = opsId ? registry.info(*opsId) : std::nullopt)
                table.opsUnit = info->unit;
        }
    }
    return data;
}

QString shardHistogramCsvRows(const PanelData &data)
{
    const ShardLoadHistogram &h = data.as<ShardLoadHistogram>();
    QString out;
    if (h.columns == 0)
        return out;
    const QString source = data.series.isEmpty() ? QString() : data.series[0].info.key.source;
    const QString set = setLabel(h.sets);
    for (int c = 0; c < h.columns; ++c) {
        const qint64 ts = h.columnTimeMs[size_t(c)];
        if (ts == 0)
            continue;
        for (int b = 0; b < ShardLoadBuckets; ++b)
            out += csvRow(ts, data.panelId, source, u"shard.load.bucket"_s,
                          { { u"set"_s, set }, { u"bucket"_s, shardLoadBucketLabel(b) } },
                          h.at(b, c), u"shards"_s);
    }
    return out;
}

QString shardTableCsvRows(const PanelData &data)
{
    const ShardTableData &table = data.as<ShardTableData>();
    QString out;
    const QHash<QString, double> totals = shardSetOpsTotals(table.rows);
    const qsizetype shown
        = table.top > 0 ? std::min<qsizetype>(table.top, table.rows.size()) : table.rows.size();
    for (qsizetype i = 0; i < shown; ++i) {
        const ShardLoadRow &row = table.rows.at(i);
        Labels labels = row.labels;
        labels.insert(u"rank"_s, QString::number(i + 1));
        const auto add = [&](qint64 ts, const QString &metric, double value, const QString &unit) {
            if (!std::isnan(value))
                out += csvRow(ts, data.panelId, row.source, metric, labels, value, unit);
        };
        for (const int column : table.columns) {
            switch (column) {
            case ShardLoadColumn:
                add(row.tsMs, table.loadMetric, row.load, table.loadUnit);
                break;
            case ShardOpsColumn:
                add(row.tsMs, table.opsMetric, row.ops, table.opsUnit);
                break;
            case ShardPreviousColumn:
                add(row.previousTsMs, table.loadMetric, row.previousLoad, table.loadUnit);
                break;
            case ShardShareColumn:
                add(row.tsMs, u"shard.ops.share"_s, shardOpsShare(row.ops, totals.value(row.set)),
                    u"%"_s);
                break;
            case ShardChangeColumn:
                add(row.tsMs, u"shard.load.change"_s, shardLoadChange(row), u"points"_s);
                break;
            default: // set and shard are in the labels
                break;
            }
        }
    }
    return out;
}

} // namespace Headroom
