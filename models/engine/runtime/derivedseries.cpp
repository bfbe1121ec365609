// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/derivedseries.h"

#include "core/apdex.h"

#include <QHash>
#include <algorithm>

namespace Headroom {

namespace {
// Derived series may read other derived series; a definition that (indirectly) reads
// itself must not recurse without end.
thread_local int t_depth = 0;
constexpr int MaxDepth = 4;
} // namespace

DerivedSeries::DerivedSeries(SampleBus *bus)
    : m_bus(bus)
{
}

void DerivedSeries::setDefinitions(const QList<DerivedSeriesDefinition> &definitions)
{
    QWriteLocker locker(&m_lock);
    m_definitions = definitions;
}

void DerivedSeries::consume(const ResolvedBatch &resolved)
{
    if (t_depth >= MaxDepth)
        return;
    const SampleBatch &batch = resolved.batch;
    SampleBatch out;
    out.source = batch.source;
    out.tsMs = batch.tsMs;
    {
        QReadLocker locker(&m_lock);
        bool any = false;
        for (const DerivedSeriesDefinition &d : std::as_const(m_definitions))
            any = any || d.source == batch.source;
        if (!any)
            return;
        // label set -> metric -> value, for this batch.
        struct Group
        {
            Labels labels;
            QString resource; // of the first value: a ratio about db:erp is about db:erp
            QHash<QString, double> values;
        };
        QHash<QString, Group> byLabels;
        for (const SeriesValue &v : batch.values) {
            Group &g = byLabels[labelsToString(v.info.key.labels)];
            g.labels = v.info.key.labels;
            if (g.resource.isEmpty())
                g.resource = v.info.resource;
            g.values.insert(v.info.key.metric, v.value);
        }
        const QHash<QString, double> unlabeled = byLabels.value(labelsToString(Labels())).values;
        for (const DerivedSeriesDefinition &d : std::as_const(m_definitions)) {
            if (d.source != batch.source)
                continue;
            if (!d.apdexHistogram.isEmpty()) {
                for (const SeriesHistogram &h : batch.histograms) {
                    if (h.info.key.metric != d.apdexHistogram)
                        continue;
                    // A poll that saw no request has no APDEX: a gap, not a 1 or a 0.
                    if (const auto score = apdexScore(h.histogram, d.apdexTMs))
                        out.add(SeriesInfo { { d.source, d.metric, h.info.key.labels },
                                             d.unit,
                                             d.resource.isEmpty() ? h.info.resource : d.resource,
                                             d.kind,
                                             false },
                                *score);
                }
                continue;
            }
            for (const auto &group : std::as_const(byLabels)) {
                const QHash<QString, double> &values = group.values;
                // Only label sets that carry at least one operand themselves produce a
                // result; the unlabeled set fills in the rest.
                const bool relevant
                    = std::any_of(d.expression.metrics().cbegin(), d.expression.metrics().cend(),
                                  [&](const QString &m) { return values.contains(m); });
                if (!relevant)
                    continue;
                const auto value
                    = d.expression.evaluate([&](const QString &metric) -> std::optional<double> {
                          if (auto it = values.constFind(metric); it != values.cend())
                              return *it;
                          if (auto it = unlabeled.constFind(metric); it != unlabeled.cend())
                              return *it;
                          return std::nullopt;
                      });
                if (value)
                    out.add(SeriesInfo { { d.source, d.metric, group.labels },
                                         d.unit,
                                         d.resource.isEmpty() ? group.resource : d.resource,
                                         d.kind,
                                         false },
                            *value);
            }
        }
    }
    if (out.isEmpty())
        return;
    ++t_depth;
    m_bus->publish(out);
    --t_depth;
}

} // namespace Headroom
