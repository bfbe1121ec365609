// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Lives on a collector instance's own thread: a timer, the collector, and the bus.
#pragma once

#include "collector/collector.h"

#include <QAtomicInteger>
#include <QMutex>
#include <QObject>
#include <QTimer>
#include <memory>

namespace Headroom {

class SampleBus;

class CollectorWorker : public QObject
{
    Q_OBJECT
public:
    CollectorWorker(CollectorConfig config, std::unique_ptr<Collector> collector, SampleBus *bus);

    // Called on the worker thread (by queued invocation).
    void begin();
    void end(); // stops polling, destroys the collector and quits the worker's thread
    bool isPolling() const { return m_polling.loadRelaxed(); }
    // Called from the scheduler's thread when it gives up waiting for a hung poll:
    // once this returns, the worker never touches the bus or signals again, so the
    // bus may be destroyed while the poll is still stuck.
    void abandon();

Q_SIGNALS:
    // droppedSeries: new series refused by the source's series cap in this poll (also
    // in warnings).
    void pollFinished(const QString &sourceId, qint64 endMs, int durationMs, int values,
                      int droppedSeries, const QString &error, const QStringList &warnings);

private:
    void pollOnce();

    CollectorConfig m_config;
    std::unique_ptr<Collector> m_collector;
    SampleBus *m_bus;
    QTimer *m_timer = nullptr;
    QAtomicInteger<int> m_polling = 0;
    QMutex m_publishLock; // held while publishing; abandon() waits for it
    bool m_abandoned = false;
};

} // namespace Headroom
