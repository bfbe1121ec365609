// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "repeatexpander.h"

#include "document/dashboardrepeat.h"
#include "engine/seriesstore.h"
#include "query/promql/repeatvalues.h"

#include <QFutureWatcher>
#include <QtConcurrentRun>

namespace Headroom {

RepeatExpander::~RepeatExpander()
{
    m_expansion.waitForFinished();
}

void RepeatExpander::expand(const Dashboard &dashboard, const SeriesStore *store, qint64 fromMs,
                            qint64 toMs, bool mayAskEngines)
{
    const int generation = ++m_generation;
    // Repeats need their values; a variable with labelValues is offered the engine's.
    const bool repeats = hasRepeats(dashboard);
    const bool lists = mayAskEngines
        && std::any_of(dashboard.variables.cbegin(), dashboard.variables.cend(),
                       [](const DashboardVariable &v) { return !v.labelValues.label.isEmpty(); });
    if (!repeats && !lists)
        return;
    auto *watcher = new QFutureWatcher<RepeatExpansion>(this);
    connect(watcher, &QFutureWatcher<RepeatExpansion>::finished, this, [this, watcher, generation] {
        const RepeatExpansion expansion = watcher->result();
        watcher->deleteLater();
        // Another dashboard, edit or value since: that one's expansion counts.
        if (generation == m_generation)
            Q_EMIT expanded(expansion);
    });
    // A copy: the user may open another dashboard meanwhile.
    m_expansion = QtConcurrent::run([dashboard, store, fromMs, toMs, repeats, lists] {
        QStringList messages;
        const PromqlEngines *engines = store->promqlEngines();
        const VariableValues values = lists
            ? resolveVariableValues(dashboard, engines, fromMs, toMs, &messages)
            : VariableValues { resolveRepeatValues(dashboard, engines, fromMs, toMs, &messages),
                               {} };
        return RepeatExpansion { repeats, expandRepeats(dashboard, values.repeat), values.listed,
                                 messages };
    });
    watcher->setFuture(m_expansion);
}

} // namespace Headroom
