// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Runs every configured collector instance on its own worker thread at its own
// interval. A collector that hangs holds only its own thread: the others keep their
// rhythm and the GUI keeps painting; the watchdog marks the hung one stale.
#pragma once

#include "collector/collector.h"
#include "collector/sourcestatus.h"

#include <QHash>
#include <QObject>
#include <QTimer>
#include <memory>

class QThread;

namespace Headroom {

class SampleBus;
class CollectorWorker;

class CollectorScheduler : public QObject
{
    Q_OBJECT
public:
    explicit CollectorScheduler(SampleBus *bus, QObject *parent = nullptr);
    ~CollectorScheduler() override;

    // Takes ownership of the collector. Fails when the id is taken.
    bool addSource(const QString &plugin, const CollectorConfig &config,
                   std::unique_ptr<Collector> collector, QString *error = nullptr);
    // A source that could not even be created (bad config, missing plugin) is listed
    // with its error so the window shows it.
    void addFailedSource(const QString &sourceId, const QString &plugin, const QString &error);

    void start();
    // Stops all workers, waiting up to waitMs in total for polls in flight. A worker
    // stuck in a poll past that is abandoned (its thread is left to die with the
    // process) rather than blocking the caller.
    void stop(int waitMs = 3000);
    bool isRunning() const { return m_running; }

    // Forgets the statuses of stopped sources (before starting a different set).
    void clearStatuses();
    QList<SourceStatus> statuses() const;
    SourceStatus status(const QString &sourceId) const;

Q_SIGNALS:
    void statusChanged(const Headroom::SourceStatus &status);

private:
    void onPollFinished(const QString &sourceId, qint64 endMs, int durationMs, int values,
                        int droppedSeries, const QString &error, const QStringList &warnings);
    void checkStale();
    void setStatus(const SourceStatus &status);

    struct Source
    {
        CollectorConfig config;
        QThread *thread = nullptr;
        CollectorWorker *worker = nullptr;
        qint64 startedMs = 0;
    };
    SampleBus *m_bus;
    QHash<QString, Source> m_sources;
    QHash<QString, SourceStatus> m_statuses;
    QTimer m_watchdog;
    bool m_running = false;
};

} // namespace Headroom
