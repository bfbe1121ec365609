// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A timeseries panel with a PromQL `query`, read from its promql source's engine over
// the panel's range: about one point per pixel column (the step is the range over the
// columns, rounded up to 1, 2, 5, 10, 15 or 30 s, 1, 2, 5, 10, 15 or 30 min, 1, 2, 3,
// 6 or 12 h, or a day; CSV exports, which ask for every sample, get 2,000 points), as
// /api/v1/query_range on the calling thread (the query pool; never the GUI thread).
//
// The range is fetched in chunks of 500 steps aligned to the epoch (the last one up to
// the range's end), so a pan or a refresh asks only for what it has not seen: a chunk
// that ended more than two minutes ago (past the engines' ingest delay) is kept in
// PromqlEngines' cache, so a re-render asks the engine nothing; the chunk at "now" is
// asked each time. One deadline of 10 s
// covers a panel's chunks: a slow or dead engine gives a message and a gap, never a hang.
// The engine's own errors ("bad_data: 1:7: parse error: ...") are the panel's message.
#pragma once

#include "collector/promql/promqlresponse.h"
#include "query/panelquery.h"

#include <QDeadlineTimer>
#include <QUrl>
#include <optional>

namespace Headroom {

class PromqlEngines;

inline constexpr int PromqlPanelDeadlineMs = 10'000;
inline constexpr int PromqlChunkSteps = 500;
inline constexpr qint64 PromqlFinalAfterMs = 2 * 60'000;
inline constexpr int PromqlCsvPoints = 2'000;

// The step for a range drawn `columns` wide (columns <= 0: PromqlCsvPoints points).
qint64 promqlStepMs(qint64 fromMs, qint64 toMs, int columns);
// The query with the dashboard's variables in: ${name} and $name (Grafana's spelling),
// longest names first so $hostname is not $host + "name".
QString substitutePromqlVariables(QString query, const QMap<QString, QString> &variables);

// The engine a panel's queries go to: its promql source (querySource, or the only one
// running), that source's URL and the dashboard's variable values; nullopt with
// *message saying why there is none.
struct PromqlTarget
{
    QString sourceId;
    QUrl url;
    // As substitutePromqlVariables() takes them: a multi-value variable's values made
    // one regular expression (promqlRegexOfValues), the panel's own values (a repeated
    // panel's copy) as they are.
    QMap<QString, QString> variables;
};
std::optional<PromqlTarget> promqlTarget(const QString &querySource, const PromqlEngines *engines,
                                         QString *message,
                                         const QMap<QString, QString> &panelVariables = {});

// A PromQL string literal holding text: "web\"2" (quotes, backslashes, newlines escaped).
QString promqlQuoted(QString text);

// A multi-value variable's value as PromQL reads it inside a =~"..." matcher: "(a|b)"
// with each value's regular-expression characters escaped (and the escapes written
// for a PromQL string, "10\\.0\\.0\\.1:9100"); AllValues is ".+".
QString promqlRegexOfValues(const QString &value);

// What an expression gave over a range: its series (points in the range, oldest
// first), and the engine's error (the range's later chunks are then missing) and
// warnings.
struct PromqlRange
{
    QList<PromqlSeries> series;
    QString message;
    QStringList warnings;
};
// The range in chunks as described above, with the cache of engines.
PromqlRange fetchPromqlRange(const PromqlEngines &engines, const QUrl &url, const QString &query,
                             qint64 fromMs, qint64 toMs, qint64 stepMs, qint64 nowMs,
                             const QDeadlineTimer &deadline);

// A panel's `query` (its variables in) over the range at stepMs from its engine:
// the answer's series and the source they came from; nullopt when the panel has no
// engine. The engine's message and warnings are set in *data.
struct PanelPromqlAnswer
{
    QString sourceId;
    QList<PromqlSeries> series;
};
std::optional<PanelPromqlAnswer> fetchPanelQuery(const DashboardPanel &panel,
                                                 const PromqlEngines *engines, qint64 fromMs,
                                                 qint64 toMs, qint64 stepMs, qint64 nowMs,
                                                 PanelData *data);

// The key a series of the engine is drawn under: the source, __name__ as the metric
// ("promql" when the expression dropped it), the other labels.
SeriesKey promqlSeriesKey(const QString &sourceId, Labels labels);

// The panel's series (ids negative: they are no series of the registry), with
// PanelData::message set when the engine could not be read; nowMs decides which
// chunks are complete. A histogram in the answer (promqlhistograms.h) draws as its
// percentile lines (the panel's "percentiles", else p50, p95, p99 and max), each
// labelled {percentile="p99"}, computed per step as PromQL's histogram_quantile.
PanelData queryPromqlPanel(const DashboardPanel &panel, const PromqlEngines *engines, qint64 fromMs,
                           qint64 toMs, int columns, qint64 nowMs);

} // namespace Headroom
