// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/use/promqlusematrix.h"

#include "core/legendtemplate.h"
#include "engine/promqlengines.h"
#include "query/promql/promqlpanelquery.h"

namespace Headroom {

using namespace Qt::StringLiterals;

QList<UseSeriesReading> readPromqlUseSeries(const DashboardPanel &panel,
                                            const UseMatrixOptions &options,
                                            const PromqlEngines *engines, qint64 fromMs,
                                            qint64 toMs, qint64 nowMs, QString *message,
                                            QStringList *warnings)
{
    QList<UseSeriesReading> readings;
    const std::optional<PromqlTarget> target
        = promqlTarget(panel.querySource, engines, message, panel.variables);
    if (!target)
        return readings;
    const qint64 step = promqlStepMs(fromMs, toMs, UseFleetPoints);
    const QDeadlineTimer deadline(PromqlPanelDeadlineMs);
    int nextId = 0;
    for (const UseMatrixQuery &query : options.queries) {
        PromqlRange range = fetchPromqlRange(
            *engines, target->url, substitutePromqlVariables(query.query, target->variables),
            fromMs, toMs, step, nowMs, deadline);
        for (const QString &warning : std::as_const(range.warnings)) {
            if (!warnings->contains(warning))
                warnings->append(warning);
        }
        QString templateError; // the reader checked the template
        const auto resource = LegendTemplate::parse(query.resource, &templateError);
        const PanelThresholds thresholds = options.thresholdsFor(query.column, query.unit);
        for (PromqlSeries &series : range.series) {
            UseSeriesReading reading;
            reading.seriesId = -(++nextId);
            Labels labels = series.labels;
            const QString name = labels.take(u"__name__"_s);
            const QString host = labels.value(options.by, target->sourceId);
            reading.info.key = { host, name.isEmpty() ? u"promql"_s : name, labels };
            reading.info.unit = query.unit;
            reading.info.kind = useKindOf(query.column);
            reading.info.resource = resource ? resource->expand(reading.info) : query.resource;
            reading.info.key.labels.remove(options.by); // the row says which host
            reading.worst = useWorstInRange(series.points, thresholds);
            if (!series.points.empty()) {
                reading.latest = series.points.back();
                reading.spacingMs = step;
            }
            readings.append(std::move(reading));
        }
        if (!range.message.isEmpty()) {
            *message = range.message;
            break;
        }
    }
    return readings;
}

PanelData queryPromqlUseMatrix(const DashboardPanel &panel, const UseMatrixOptions &options,
                               const PromqlEngines *engines, qint64 fromMs, qint64 toMs,
                               qint64 nowMs)
{
    PanelData data;
    data.panelId = panel.id;
    data.fromMs = fromMs;
    data.toMs = toMs;
    data.payload = buildUseMatrix(readPromqlUseSeries(panel, options, engines, fromMs, toMs, nowMs,
                                                      &data.message, &data.warnings),
                                  options, toMs);
    return data;
}

} // namespace Headroom
