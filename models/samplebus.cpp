#include "samplebus.h"

#include "seriesregistry.h"

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

void SampleBus::publish(const SampleBatch &batch)
{
    if (batch.isEmpty())
        return;
    ResolvedBatch resolved;
    resolved.batch = batch;
    resolved.valueIds.reserve(batch.values.size());
    auto resolve = [&](const SeriesInfo &info) {
        bool isNew = false;
        const int id = m_registry->idFor(info, &isNew);
        if (isNew)
            resolved.newSeriesIds.append(id);
        return id;
    };
    for (const SeriesValue &v : batch.values)
        resolved.valueIds.append(resolve(v.info));
    for (const SeriesHistogram &h : batch.histograms)
        resolved.histogramIds.append(resolve(h.info));

    QList<SampleSink *> sinks;
    {
        QMutexLocker locker(&m_sinksLock);
        sinks = m_sinks;
    }
    for (SampleSink *sink : std::as_const(sinks))
        sink->consume(resolved);
    Q_EMIT published(batch.source, batch.tsMs);
}

} // namespace Headroom
