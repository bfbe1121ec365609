// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How a rule would have behaved over a past range: its evaluation replayed on the
// stored data of every series it reads, for the rule editor's preview. GUI-free and
// thread-safe (reads the store only), so the editor runs it in the pool.
#pragma once

#include "core/sample.h"
#include "engine/runtime/alertevent.h"

namespace Headroom {

class SeriesRegistry;
class SeriesStore;

struct AlertPreview
{
    qint64 fromMs = 0;
    qint64 toMs = 0;
    int matchedSeries = 0; // series the rule watches (guards not counted)
    QList<AlertEvent> events; // within [from, to], oldest first
    QList<AlertSpan> spans; // firing spans within [from, to]
    int firings = 0;
    qint64 firingMs = 0; // summed over spans
    // The watched series' samples over the range (histogram series: their p-value or
    // mean per poll, as the rule reduces them), at most MaxPlotted, for the chart.
    static constexpr int MaxPlotted = 8;
    QList<std::pair<SeriesInfo, std::vector<Sample>>> plotted;

    QString summary() const; // "Would have fired 3 times on 2 of 5 series (4m 10s in all)."
};

// Replays from fromMs - the rule's window (and baseline), so the first verdicts in the
// range are as the live engine would have given them.
AlertPreview previewAlertRule(const AlertRule &rule, const SeriesRegistry &registry,
                              const SeriesStore &store, qint64 fromMs, qint64 toMs);

} // namespace Headroom
