// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/samplebus.h"

#include "engine/runtime/seriesregistry.h"

namespace Headroom {

SampleBus::SampleBus(SeriesRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
{
}

void SampleBus::addSink(SampleSink *sink)
{
    QMutexLocker locker(&m_sinksLock);
    if (!m_sinks.contains(sink))
        m_sinks.append(sink);
}

void SampleBus::removeSink(SampleSink *sink)
{
    QMutexLocker locker(&m_sinksLock);
    m_sinks.removeAll(sink);
}

namespace {

// The batch without the samples whose id is -1 (refused by the series cap).
ResolvedBatch withoutRefused(const ResolvedBatch &resolved)
{
    ResolvedBatch kept;
    kept.batch.source = resolved.batch.source;
    kept.batch.tsMs = resolved.batch.tsMs;
    kept.newSeriesIds = resolved.newSeriesIds;
    for (qsizetype i = 0; i < resolved.valueIds.size(); ++i) {
        if (resolved.valueIds.at(i) < 0)
            continue;
        kept.batch.values.append(resolved.batch.values.at(i));
        kept.valueIds.append(resolved.valueIds.at(i));
    }
    for (qsizetype i = 0; i < resolved.histogramIds.size(); ++i) {
        if (resolved.histogramIds.at(i) < 0)
            continue;
        kept.batch.histograms.append(resolved.batch.histograms.at(i));
        kept.histogramIds.append(resolved.histogramIds.at(i));
    }
    return kept;
}

} // namespace

void SampleBus::publish(const SampleBatch &batch)
{
    if (batch.isEmpty())
        return;
    ResolvedBatch resolved;
    resolved.batch = batch;
    resolved.valueIds.reserve(batch.values.size());
    resolved.histogramIds.reserve(batch.histograms.size());
    int refused = 0;
    // One hash lookup per sample, as before the cap: a refused series costs a second
    // lookup (its source's tally) under the same read lock, and nothing is allocated.
    auto resolve = [&](const SeriesInfo &info) {
        bool isNew = false;
        const std::optional<int> id = m_registry->admit(info, &isNew);
        if (!id) {
            ++refused;
            return -1;
        }
        if (isNew)
            resolved.newSeriesIds.append(*id);
        return *id;
    };
    for (const SeriesValue &v : batch.values)
        resolved.valueIds.append(resolve(v.info));
    for (const SeriesHistogram &h : batch.histograms)
        resolved.histogramIds.append(resolve(h.info));
    if (refused > 0) {
        {
            QMutexLocker locker(&m_droppedLock);
            m_droppedBySource[batch.source] += refused;
        }
        resolved = withoutRefused(resolved);
        if (resolved.batch.isEmpty())
            return;
    }

    QList<SampleSink *> sinks;
    {
        QMutexLocker locker(&m_sinksLock);
        sinks = m_sinks;
    }
    for (SampleSink *sink : std::as_const(sinks))
        sink->consume(resolved);
    Q_EMIT published(batch.source, batch.tsMs);
}

int SampleBus::takeDroppedSeries(const QString &source)
{
    QMutexLocker locker(&m_droppedLock);
    return int(m_droppedBySource.take(source));
}

} // namespace Headroom
