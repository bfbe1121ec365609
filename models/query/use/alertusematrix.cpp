#include "query/use/alertusematrix.h"

#include "engine/runtime/seriesregistry.h"

#include <algorithm>

namespace Headroom {

namespace {

UseLevel levelOf(AlertSeverity severity)
{
    switch (severity) {
    case AlertSeverity::Critical:
        return UseLevel::Critical;
    case AlertSeverity::Warning:
        return UseLevel::Warning;
    case AlertSeverity::Info:
        break;
    }
    return UseLevel::NotMeasured;
}

} // namespace

void applyFiringAlerts(UseMatrix *matrix, const QList<AlertEvent> &events,
                       const SeriesRegistry &registry)
{
    const auto spans = alertFiringSpans(events, matrix->atMs, matrix->atMs);
    for (const AlertSpan &span : spans) {
        if (!span.open)
            continue;
        const auto id = registry.find(span.series);
        const auto info = id ? registry.info(*id) : std::nullopt;
        const auto column = info ? useColumnOf(info->kind) : std::nullopt;
        const UseLevel level = levelOf(span.severity);
        if (!column || level == UseLevel::NotMeasured)
            continue;
        int row = matrix->rowOf(info->resource);
        if (row < 0) {
            UseMatrixRow added;
            added.resource = info->resource;
            added.label = useResourceLabel(info->resource);
            const auto at
                = std::lower_bound(matrix->rows.begin(), matrix->rows.end(), info->resource,
                                   [](const UseMatrixRow &r, const QString &res) {
                                       return useResourceLess(r.resource, res);
                                   });
            row = int(at - matrix->rows.begin());
            matrix->rows.insert(at, added);
        }
        UseCell &cell = matrix->rows[row].cells.at(size_t(*column));
        if (level < cell.level || (level == cell.level && !cell.alert.isEmpty()))
            continue;
        cell.level = level;
        // The event that opened the span carries the message.
        const auto opening
            = std::find_if(events.crbegin(), events.crend(), [&](const AlertEvent &e) {
                  return e.state == AlertState::Firing && e.ruleId == span.ruleId
                      && e.series == span.series;
              });
        cell.alert = opening != events.crend() ? opening->message : span.ruleName;
    }
}

} // namespace Headroom
