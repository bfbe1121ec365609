// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/promql/promqltable.h"

#include "collector/promql/promqlclient.h"
#include "core/naturalsort.h"
#include "document/panels/tableoptions.h"
#include "engine/promqlengines.h"
#include "query/csvexport.h"
#include "query/promql/promqlpanelquery.h"

#include <QDeadlineTimer>
#include <algorithm>
#include <cmath>
#include <set>

namespace Headroom {

using namespace Qt::StringLiterals;

PromqlTableData promqlTableOf(const QList<PromqlSeries> &series, const DashboardPanel &panel)
{
    const TableOptions options = tableOptions(panel);
    PromqlTableData table;
    QStringList labels;
    for (const PromqlSeries &one : series) {
        if (one.points.empty())
            continue; // a native histogram, or nothing at that instant
        table.rows.append({ one.labels, one.points.back().value });
        for (auto it = one.labels.cbegin(); it != one.labels.cend(); ++it) {
            if (it.key() != u"__name__"_s && !labels.contains(it.key()))
                labels.append(it.key());
        }
    }
    std::sort(labels.begin(), labels.end(), [](const QString &a, const QString &b) {
        return naturalLess(a, b, Qt::CaseSensitive);
    });
    table.columns = options.columns.isEmpty() ? labels : options.columns;
    std::stable_sort(table.rows.begin(), table.rows.end(),
                     [&options](const PromqlTableRow &a, const PromqlTableRow &b) {
                         if (std::isnan(a.value) != std::isnan(b.value))
                             return std::isnan(b.value);
                         if (a.value != b.value && !std::isnan(a.value))
                             return options.ascending ? a.value < b.value : a.value > b.value;
                         return naturalLess(labelsToString(a.labels), labelsToString(b.labels),
                                            Qt::CaseSensitive);
                     });
    if (table.rows.size() > options.limit) {
        table.leftOut = int(table.rows.size()) - options.limit;
        table.rows.resize(options.limit);
    }
    return table;
}

PanelData queryPromqlTable(const DashboardPanel &panel, const PromqlEngines *engines, qint64 toMs,
                           qint64 nowMs)
{
    PanelData data;
    data.panelId = panel.id;
    data.toMs = toMs;
    PromqlTableData &table = data.payload.emplace<PromqlTableData>();
    table.atMs = std::min(toMs, nowMs);
    const std::optional<PromqlTarget> target
        = promqlTarget(panel.querySource, engines, &data.message, panel.variables);
    if (!target)
        return data;
    const QString query = substitutePromqlVariables(panel.query, target->variables);
    const bool final = table.atMs < nowMs - PromqlFinalAfterMs;
    const QString key = u"instant\n"_s + target->url.toString() + u'\n' + query + u'\n'
        + QString::number(table.atMs);
    std::optional<PromqlResult> answer = final ? engines->cached(key) : std::nullopt;
    if (!answer) {
        answer = promqlInstantQuery(target->url, query, table.atMs,
                                    QDeadlineTimer(PromqlPanelDeadlineMs));
        engines->countMiss();
        if (final && answer->error.isEmpty())
            engines->cache(key, *answer);
    }
    data.message = answer->error;
    data.warnings = answer->warnings;
    const qsizetype histograms
        = std::count_if(answer->series.cbegin(), answer->series.cend(),
                        [](const PromqlSeries &one) { return !one.histograms.empty(); });
    if (histograms > 0)
        data.warnings.append(
            u"%1 native histogram series left out: a table shows one value "
            "per series (histogram_quantile() or histogram_count() give one)"_s.arg(histograms));
    const qint64 at = table.atMs;
    table = promqlTableOf(answer->series, panel);
    table.source = target->sourceId;
    table.atMs = at;
    table.unit = panel.unit;
    if (table.leftOut > 0)
        data.warnings.append(
            u"%1 more rows than the panel's limit of %2 are not shown"_s.arg(table.leftOut)
                .arg(table.rows.size()));
    return data;
}

QString promqlTableCsvRows(const PanelData &data)
{
    const PromqlTableData &table = data.as<PromqlTableData>();
    QString out;
    for (const PromqlTableRow &row : table.rows) {
        Labels labels = row.labels;
        const QString name = labels.take(u"__name__"_s);
        out += csvRow(table.atMs, data.panelId, table.source, name.isEmpty() ? u"promql"_s : name,
                      labels, row.value, table.unit);
    }
    return out;
}

} // namespace Headroom
