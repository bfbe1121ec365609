// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Runs the alert rules as data arrives, off the GUI thread.
//
// consume() is a SampleSink on the collectors' threads: it keeps the samples of the
// series some rule watches and queues them, in arrival order, to the engine's own
// thread, where one AlertEvaluator turns them into events. A timer there applies the
// no-data policies once a second. Events go to the cache (they survive a restart) and
// out through eventsRaised(), which GUI objects receive by queued call.
#pragma once

#include "engine/alerts/alertevaluator.h"
#include "engine/alerts/alerteventlog.h"
#include "engine/runtime/samplebus.h"

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QThread>

namespace Headroom {

class SampleCache;
class AlertEngineWorker;

class AlertEngine : public QObject, public SampleSink
{
    Q_OBJECT
public:
    explicit AlertEngine(SeriesRegistry *registry, QObject *parent = nullptr);
    ~AlertEngine() override;

    // Where events are stored and instances restored from; nullptr: not stored.
    // Call before setRules(), from the thread that owns the engine.
    void setCache(SampleCache *cache);
    // Replaces the rules. Instances continue from the newest stored event of each.
    void setRules(const QList<AlertRule> &rules);
    QList<AlertRule> rules() const;

    void consume(const ResolvedBatch &batch) override;

    // Marks an instance's pending and firing events up to upToMs as seen, in the cache
    // and in eventsAcknowledged().
    void acknowledge(const QString &ruleId, const SeriesKey &series, qint64 upToMs);

    // Every event raised in this run, newest kept (what panels read without a cache).
    const AlertEventLog *log() const { return &m_log; }
    // A copy of every instance's state, safe from any thread.
    QList<AlertInstanceStatus> instances() const;
    // Blocks until everything consumed before the call is evaluated (tests, reports).
    void waitIdle();
    // Runs the no-data check now with the given clock (tests; the timer uses wall time).
    void checkNoData(qint64 nowMs);

Q_SIGNALS:
    // Emitted on the engine's thread; connect with the default (queued) connection.
    void eventsRaised(const QList<Headroom::AlertEvent> &events);
    void eventsAcknowledged(const QString &ruleId, const Headroom::SeriesKey &series,
                            qint64 upToMs);

private:
    friend class AlertEngineWorker;
    void publish(const QList<AlertEvent> &events, const QList<AlertInstanceStatus> &instances);

    SeriesRegistry *m_registry;
    AlertEventLog m_log;
    SampleCache *m_cache = nullptr;
    QThread m_thread;
    AlertEngineWorker *m_worker;

    mutable QMutex m_lock;
    QList<AlertRule> m_rules;
    QHash<int, bool> m_watched; // series id -> some rule matches it
    QList<AlertInstanceStatus> m_instances;
};

} // namespace Headroom
