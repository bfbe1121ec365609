// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/use/alertusematrix.h"

#include "engine/runtime/seriesregistry.h"

#include <algorithm>
#include <limits>

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
    // Unclipped at the start: a span's start is the cell's since time.
    const auto spans = alertFiringSpans(events, std::numeric_limits<qint64>::min(), matrix->atMs);
    for (const AlertSpan &span : spans) {
        if (!span.open)
            continue;
        const auto id = registry.find(span.series);
        const auto info = id ? registry.info(*id) : std::nullopt;
        const auto column = info ? useColumnOf(info->kind) : std::nullopt;
        const UseLevel level = levelOf(span.severity);
        if (!column || level == UseLevel::NotMeasured)
            continue;
        const QString &source = info->key.source;
        int row = matrix->rowOf(source, info->resource);
        if (row < 0) {
            UseMatrixRow added;
            added.source = source;
            added.resource = info->resource;
            const auto at
                = std::lower_bound(matrix->rows.begin(), matrix->rows.end(), added, useRowLess);
            row = int(at - matrix->rows.begin());
            matrix->rows.insert(at, added);
            labelUseRows(&matrix->rows);
        }
        UseCell &cell = matrix->rows[row].cells.at(size_t(*column));
        if (level < cell.level || (level == cell.level && !cell.alert.isEmpty()))
            continue;
        // Since when: the thresholds' stretch when they already say as much, else the
        // alert's own start.
        if (level > cell.level || cell.sinceMs < 0) {
            cell.sinceMs = span.startMs;
            cell.untilMs = matrix->atMs;
            cell.ongoing = true;
        }
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
