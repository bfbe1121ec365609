// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/collectorworker.h"

#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

CollectorWorker::CollectorWorker(CollectorConfig config, std::unique_ptr<Collector> collector,
                                 SampleBus *bus)
    : m_config(std::move(config))
    , m_collector(std::move(collector))
    , m_bus(bus)
{
}

void CollectorWorker::begin()
{
    m_timer = new QTimer(this);
    m_timer->setTimerType(Qt::PreciseTimer);
    m_timer->setInterval(m_config.intervalMs);
    connect(m_timer, &QTimer::timeout, this, &CollectorWorker::pollOnce);
    m_timer->start();
    pollOnce(); // the first figures should not wait a whole interval
}

void CollectorWorker::end()
{
    if (m_timer)
        m_timer->stop();
    m_collector.reset(); // close connections on the thread that opened them
    // The thread quits here, after the above, not when the scheduler asks: a quit from
    // outside while a poll runs could end the event loop before this call is served,
    // leaving the timer and the collector to be destroyed on the wrong thread.
    thread()->quit();
}

void CollectorWorker::abandon()
{
    QMutexLocker locker(&m_publishLock);
    m_abandoned = true;
}

void CollectorWorker::pollOnce()
{
    if (!m_collector)
        return;
    m_polling.storeRelaxed(1);
    QElapsedTimer clock;
    clock.start();
    PollResult result = m_collector->poll(QDeadlineTimer(m_config.timeoutMs));
    const int duration = int(clock.elapsed());
    if (result.batch.source.isEmpty())
        result.batch.source = m_config.sourceId;
    QMutexLocker locker(&m_publishLock);
    m_polling.storeRelaxed(0);
    if (m_abandoned)
        return;
    int dropped = 0;
    if (!result.error.isEmpty() && !result.failed.isEmpty()) {
        if (result.failed.source.isEmpty())
            result.failed.source = m_config.sourceId;
        if (result.failed.tsMs == 0)
            result.failed.tsMs = result.batch.tsMs;
        m_bus->publish(result.failed);
        dropped = m_bus->takeDroppedSeries(m_config.sourceId);
    }
    if (result.error.isEmpty()) {
        m_bus->publish(result.batch);
        dropped = m_bus->takeDroppedSeries(m_config.sourceId);
        if (dropped > 0)
            result.warnings << u"series cap %1 reached: %2 new series dropped this poll"_s
                                   .arg(m_bus->registry()->seriesCap(m_config.sourceId))
                                   .arg(dropped);
    }
    Q_EMIT pollFinished(
        m_config.sourceId, QDateTime::currentMSecsSinceEpoch(), duration,
        // dropped may include derived series published for this source
        std::max(0, int(result.batch.values.size() + result.batch.histograms.size()) - dropped),
        dropped, result.error, result.warnings + result.notes);
}

} // namespace Headroom
