// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/promql/promqlpanelquery.h"

#include "collector/promql/promqlclient.h"
#include "core/percentilelabel.h"
#include "engine/cache/rollup.h" // floorTo
#include "engine/promqlengines.h"
#include "query/downsample.h"
#include "query/heatmap/percentilelines.h" // defaultPercentiles
#include "query/legendnames.h"
#include "query/promql/promqlhistograms.h"

#include <QDeadlineTimer>
#include <algorithm>
#include <array>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

qint64 promqlStepMs(qint64 fromMs, qint64 toMs, int columns)
{
    static constexpr std::array<qint64, 20> Steps {
        1'000,      2'000,      5'000,      10'000,     15'000,      30'000,      60'000,
        120'000,    300'000,    600'000,    900'000,    1'800'000,   3'600'000,   7'200'000,
        10'800'000, 21'600'000, 43'200'000, 86'400'000, 172'800'000, 604'800'000,
    };
    const qint64 points = columns > 0 ? columns : PromqlCsvPoints;
    const qint64 wanted = std::max<qint64>(1, (toMs - fromMs + points - 1) / points);
    for (const qint64 step : Steps) {
        if (step >= wanted)
            return step;
    }
    return Steps.back();
}

QString substitutePromqlVariables(QString query, const QMap<QString, QString> &variables)
{
    QStringList names = variables.keys();
    std::sort(names.begin(), names.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &name : std::as_const(names))
        query.replace(u"${"_s + name + u'}', variables.value(name));
    for (const QString &name : std::as_const(names))
        query.replace(u'$' + name, variables.value(name));
    return query;
}

QString promqlQuoted(QString text)
{
    text.replace(u'\\', u"\\\\"_s).replace(u'"', u"\\\""_s).replace(u'\n', u"\\n"_s);
    return u'"' + text + u'"';
}

QString promqlRegexOfValues(const QString &value)
{
    if (value.trimmed() == AllValues)
        return u".+"_s;
    QStringList escaped;
    for (const auto alternatives = variableValues(value); const QString &one : alternatives) {
        // RE2's metacharacters escaped by a backslash, then the whole written as the
        // inside of a PromQL string literal.
        QString regex;
        for (const QChar c : one) {
            if (u"\\.+*?()|[]{}^$"_s.contains(c))
                regex += u'\\';
            regex += c;
        }
        const QString quoted = promqlQuoted(regex);
        escaped.append(quoted.mid(1, quoted.size() - 2));
    }
    return u'(' + escaped.join(u'|') + u')';
}

std::optional<PromqlTarget> promqlTarget(const QString &querySource, const PromqlEngines *engines,
                                         QString *message,
                                         const QMap<QString, QString> &panelVariables)
{
    const auto snapshot = engines ? engines->snapshot() : nullptr;
    QString sourceId = querySource;
    if (sourceId.isEmpty() && snapshot && snapshot->urls.size() == 1)
        sourceId = snapshot->urls.cbegin().key();
    if (!snapshot || !snapshot->urls.contains(sourceId)) {
        *message = sourceId.isEmpty()
            ? u"no promql source is running: this panel's query has no engine to ask"_s
            : u"source %1 is not running (not trusted yet, or refused: see the status bar)"_s.arg(
                  sourceId);
        return std::nullopt;
    }
    QMap<QString, QString> variables = snapshot->variables;
    for (const QString &name : snapshot->multi) {
        if (variables.contains(name))
            variables.insert(name, promqlRegexOfValues(variables.value(name)));
    }
    for (auto it = panelVariables.cbegin(); it != panelVariables.cend(); ++it)
        variables.insert(it.key(), it.value());
    return PromqlTarget { sourceId, snapshot->urls.value(sourceId), variables };
}

PromqlRange fetchPromqlRange(const PromqlEngines &engines, const QUrl &url, const QString &query,
                             qint64 fromMs, qint64 toMs, qint64 stepMs, qint64 nowMs,
                             const QDeadlineTimer &deadline)
{
    PromqlRange range;
    const qint64 span = stepMs * PromqlChunkSteps;
    QMap<QString, PromqlSeries> merged; // by label text, so a series' chunks join
    for (qint64 chunk = floorTo(fromMs, span); chunk <= toMs; chunk += span) {
        // The chunk up to the range's end (its last step): a range that ends in the
        // middle of a chunk caches that part, under its own end.
        const qint64 fetchEnd = std::min(chunk + span - stepMs, floorTo(toMs + stepMs - 1, stepMs));
        // Complete: no sample of it can still arrive at the engine.
        const bool complete = fetchEnd < nowMs - PromqlFinalAfterMs;
        const QString key = url.toString() + u'\n' + query + u'\n' + QString::number(stepMs) + u'\n'
            + QString::number(chunk) + u'\n' + QString::number(fetchEnd);
        std::optional<PromqlResult> answer = complete ? engines.cached(key) : std::nullopt;
        if (!answer) {
            answer = promqlRangeQuery(url, query, chunk, fetchEnd, stepMs, deadline);
            engines.countMiss();
            if (!answer->error.isEmpty()) {
                // What the earlier chunks gave stays: the rest of the range is a gap.
                range.message = answer->error;
                break;
            }
            if (complete)
                engines.cache(key, *answer);
        }
        for (const QString &warning : std::as_const(answer->warnings)) {
            if (!range.warnings.contains(warning))
                range.warnings.append(warning);
        }
        for (const PromqlSeries &series : std::as_const(answer->series)) {
            PromqlSeries &into = merged[labelsToString(series.labels)];
            into.labels = series.labels;
            for (const Sample &point : series.points) {
                if (point.tsMs >= fromMs && point.tsMs <= toMs)
                    into.points.push_back(point);
            }
            for (const PromqlHistogramPoint &point : series.histograms) {
                if (point.tsMs >= fromMs && point.tsMs <= toMs)
                    into.histograms.push_back(point);
            }
        }
    }
    for (PromqlSeries &series : merged) {
        std::stable_sort(series.points.begin(), series.points.end(),
                         [](const Sample &a, const Sample &b) { return a.tsMs < b.tsMs; });
        std::stable_sort(series.histograms.begin(), series.histograms.end(),
                         [](const PromqlHistogramPoint &a, const PromqlHistogramPoint &b) {
                             return a.tsMs < b.tsMs;
                         });
        range.series.append(std::move(series));
    }
    return range;
}

namespace {

// A line of the panel from the engine's points: broken where a step has no point (a
// gap in the engine's data), reduced to the columns.
PanelSeriesData promqlLine(int index, const SeriesKey &key, const QString &unit,
                           const std::vector<Sample> &raw, qint64 stepMs, qint64 fromMs,
                           qint64 toMs, int columns)
{
    PanelSeriesData s;
    s.seriesId = -index;
    s.info.key = key;
    s.info.unit = unit;
    s.rawCount = qint64(raw.size());
    s.stats = seriesStats(raw);
    for (const auto &[begin, end] : splitAtGaps(raw, stepMs + stepMs / 2)) {
        const std::span<const Sample> part(raw.data() + begin, end - begin);
        s.segmentStarts.push_back(s.points.size());
        if (columns > 0) {
            const auto reduced = downsampleMinMax(part, fromMs, toMs, columns);
            s.points.insert(s.points.end(), reduced.begin(), reduced.end());
        } else {
            s.points.insert(s.points.end(), part.begin(), part.end());
        }
    }
    return s;
}

} // namespace

SeriesKey promqlSeriesKey(const QString &sourceId, Labels labels)
{
    const QString name = labels.take(u"__name__"_s);
    return { sourceId, name.isEmpty() ? u"promql"_s : name, labels };
}

std::optional<PanelPromqlAnswer> fetchPanelQuery(const DashboardPanel &panel,
                                                 const PromqlEngines *engines, qint64 fromMs,
                                                 qint64 toMs, qint64 stepMs, qint64 nowMs,
                                                 PanelData *data)
{
    const std::optional<PromqlTarget> target
        = promqlTarget(panel.querySource, engines, &data->message, panel.variables);
    if (!target)
        return std::nullopt;
    PromqlRange range = fetchPromqlRange(
        *engines, target->url, substitutePromqlVariables(panel.query, target->variables), fromMs,
        toMs, stepMs, nowMs, QDeadlineTimer(PromqlPanelDeadlineMs));
    data->message = range.message;
    data->warnings = range.warnings;
    return PanelPromqlAnswer { target->sourceId, std::move(range.series) };
}

PanelData queryPromqlPanel(const DashboardPanel &panel, const PromqlEngines *engines, qint64 fromMs,
                           qint64 toMs, int columns, qint64 nowMs)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    const qint64 step = promqlStepMs(fromMs, toMs, columns);
    std::optional<PanelPromqlAnswer> answer
        = fetchPanelQuery(panel, engines, fromMs, toMs, step, nowMs, &data);
    if (!answer)
        return data;
    const PromqlHistogramSplit split = splitPromqlHistograms(std::move(answer->series));
    int index = 0;
    for (const PromqlSeries &series : std::as_const(split.plain))
        data.series.append(promqlLine(++index, promqlSeriesKey(answer->sourceId, series.labels),
                                      panel.unit, series.points, step, fromMs, toMs, columns));
    // A histogram (classic `le` bounds or native) draws as its percentile lines, as a
    // local histogram series does: a line per bound would say nothing.
    const QList<double> percentiles
        = panel.percentiles.isEmpty() ? defaultPercentiles() : panel.percentiles;
    for (const PromqlHistogram &histogram : std::as_const(split.histograms)) {
        if (!histogram.hasInfBucket) {
            data.warnings.append(
                u"%1 has no le=\"+Inf\" bucket: its percentiles cannot be told"_s.arg(
                    labelsToString(histogram.labels)));
            continue;
        }
        for (const double p : percentiles) {
            std::vector<Sample> line;
            for (const PromqlHistogramPoint &point : histogram.points) {
                const double value = histogramQuantile(p / 100, point,
                                                       histogram.native ? HistogramForm::Native
                                                                        : HistogramForm::Classic);
                if (!std::isnan(value)) // no events at that time: no point
                    line.push_back({ point.tsMs, value });
            }
            Labels labels = histogram.labels;
            labels.insert(u"percentile"_s, percentileLabel(p, PercentileLabelStyle::Line));
            data.series.append(promqlLine(++index, promqlSeriesKey(answer->sourceId, labels),
                                          panel.unit, line, step, fromMs, toMs, columns));
        }
    }
    return data;
}

} // namespace Headroom
