// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/alertevent.h"

#include <QHash>
#include <algorithm>

namespace Headroom {

QList<AlertSpan> alertFiringSpans(const QList<AlertEvent> &events, qint64 fromMs, qint64 toMs)
{
    QList<AlertSpan> spans;
    QHash<QString, qsizetype> open; // instance -> index into spans
    for (const AlertEvent &event : events) {
        const QString key = event.instanceKey();
        const auto it = open.constFind(key);
        if (event.state == AlertState::Firing) {
            if (it != open.cend())
                continue; // already open (a restart repeated it)
            open.insert(key, spans.size());
            spans.append({ event.ruleId, event.ruleName, event.series, event.severity, event.tsMs,
                           toMs, true });
        } else if (it != open.cend()) {
            AlertSpan &span = spans[*it];
            span.endMs = event.tsMs;
            span.open = false;
            open.erase(it);
        }
    }
    QList<AlertSpan> clipped;
    for (AlertSpan span : std::as_const(spans)) {
        if (span.endMs < fromMs || span.startMs > toMs)
            continue;
        span.startMs = std::max(span.startMs, fromMs);
        span.endMs = std::min(span.endMs, toMs);
        clipped.append(span);
    }
    return clipped;
}

} // namespace Headroom
