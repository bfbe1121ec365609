// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/collectorscheduler.h"

#include "engine/runtime/collectorworker.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "schedulerlogging.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QThread>
#include <atomic>
#include <memory>

namespace Headroom {

using namespace Qt::StringLiterals;

QString sourceStateName(SourceState state)
{
    switch (state) {
    case SourceState::Starting:
        return u"starting"_s;
    case SourceState::Ok:
        return u"ok"_s;
    case SourceState::Stale:
        return u"stale"_s;
    case SourceState::Error:
        return u"error"_s;
    case SourceState::Stopped:
        break;
    }
    return u"stopped"_s;
}

CollectorScheduler::CollectorScheduler(SampleBus *bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
{
    m_watchdog.setInterval(250);
    connect(&m_watchdog, &QTimer::timeout, this, &CollectorScheduler::checkStale);
}

CollectorScheduler::~CollectorScheduler()
{
    stop();
}

bool CollectorScheduler::addSource(const QString &plugin, const CollectorConfig &config,
                                   std::unique_ptr<Collector> collector, QString *error)
{
    if (m_sources.contains(config.sourceId)) {
        if (error)
            *error = u"source id \"%1\" is used twice"_s.arg(config.sourceId);
        return false;
    }
    Source source;
    source.config = config;
    source.thread = new QThread; // not parented: may outlive us if its poll hangs
    source.thread->setObjectName(u"collector:"_s + config.sourceId);
    source.worker = new CollectorWorker(config, std::move(collector), m_bus);
    source.worker->moveToThread(source.thread);
    connect(source.worker, &CollectorWorker::pollFinished, this,
            &CollectorScheduler::onPollFinished, Qt::QueuedConnection);
    m_sources.insert(config.sourceId, source);
    setStatus({ config.sourceId, plugin, SourceState::Starting, {}, 0, 0, 0 });
    if (m_running) {
        source.thread->start();
        source.startedMs = QDateTime::currentMSecsSinceEpoch();
        m_sources[config.sourceId].startedMs = source.startedMs;
        QMetaObject::invokeMethod(source.worker, &CollectorWorker::begin, Qt::QueuedConnection);
    }
    return true;
}

void CollectorScheduler::addFailedSource(const QString &sourceId, const QString &plugin,
                                         const QString &error)
{
    setStatus({ sourceId, plugin, SourceState::Error, error, 0, 0, 0 });
}

void CollectorScheduler::start()
{
    if (m_running)
        return;
    m_running = true;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto &running : m_sources) {
        running.startedMs = now;
        running.thread->start();
        QMetaObject::invokeMethod(running.worker, &CollectorWorker::begin, Qt::QueuedConnection);
    }
    m_watchdog.start();
}

void CollectorScheduler::stop(int waitMs)
{
    m_watchdog.stop();
    m_running = false;
    if (m_sources.isEmpty())
        return;
    for (const auto &running : std::as_const(m_sources)) {
        // end() quits the thread once it has run.
        QMetaObject::invokeMethod(running.worker, &CollectorWorker::end, Qt::QueuedConnection);
    }
    QDeadlineTimer deadline(waitMs);
    for (auto it = m_sources.begin(); it != m_sources.end(); ++it) {
        if (!it->thread->isRunning() || it->thread->wait(deadline)) {
            delete it->worker;
            delete it->thread;
        } else {
            // Deleting a running QThread aborts the process; an abandoned hung poll
            // costs one thread until exit, which is the lesser harm.
            qCWarning(lcScheduler)
                << "collector" << it.key() << "did not stop in time; abandoning its thread";
            // Clean up whenever the poll finally returns; it publishes nothing then.
            QThread *thread = it->thread;
            CollectorWorker *worker = it->worker;
            worker->abandon();
            disconnect(worker, nullptr, this, nullptr);
            // Whoever claims first deletes: the thread when the poll returns, or we
            // when it finished between the wait above and the connect.
            auto claimed = std::make_shared<std::atomic_bool>(false);
            connect(
                thread, &QThread::finished, thread,
                [worker, thread, claimed] {
                    if (!claimed->exchange(true)) {
                        delete worker;
                        thread->deleteLater();
                    }
                },
                Qt::DirectConnection);
            if (thread->wait(0) && !claimed->exchange(true)) {
                delete worker;
                delete thread;
            }
        }
        auto status = m_statuses.value(it.key());
        status.state = SourceState::Stopped;
        m_statuses.insert(it.key(), status);
    }
    m_sources.clear();
}

void CollectorScheduler::clearStatuses()
{
    for (auto it = m_statuses.begin(); it != m_statuses.end();) {
        if (!m_sources.contains(it.key()))
            it = m_statuses.erase(it);
        else
            ++it;
    }
}

QList<SourceStatus> CollectorScheduler::statuses() const
{
    return m_statuses.values();
}

SourceStatus CollectorScheduler::status(const QString &sourceId) const
{
    return m_statuses.value(sourceId);
}

void CollectorScheduler::onPollFinished(const QString &sourceId, qint64 endMs, int durationMs,
                                        int values, int droppedSeries, const QString &error,
                                        const QStringList &warnings)
{
    if (!m_sources.contains(sourceId))
        return;
    SourceStatus status = m_statuses.value(sourceId);
    status.lastPollDurationMs = durationMs;
    if (!error.isEmpty()) {
        status.state = SourceState::Error;
        status.message = error;
    } else {
        status.state = SourceState::Ok;
        status.message = warnings.join(u"; "_s);
        status.lastSuccessMs = endMs;
        status.seriesCount = values;
        status.droppedSeries = droppedSeries;
    }
    status.seriesCap = m_bus->registry()->seriesCap(sourceId);
    setStatus(status);
}

void CollectorScheduler::checkStale()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto it = m_sources.cbegin(); it != m_sources.cend(); ++it) {
        SourceStatus status = m_statuses.value(it.key());
        if (status.state == SourceState::Error || status.state == SourceState::Stale)
            continue;
        const qint64 since = status.lastSuccessMs ? status.lastSuccessMs : it->startedMs;
        const qint64 allowed = std::max<qint64>(it->config.timeoutMs, 2LL * it->config.intervalMs);
        if (now - since > allowed) {
            status.state = SourceState::Stale;
            status.message = it->worker->isPolling()
                ? u"no answer for %1 s (poll still running)"_s.arg((now - since) / 1000.0, 0, 'f',
                                                                   1)
                : u"no samples for %1 s"_s.arg((now - since) / 1000.0, 0, 'f', 1);
            setStatus(status);
        }
    }
}

void CollectorScheduler::setStatus(const SourceStatus &status)
{
    m_statuses.insert(status.sourceId, status);
    Q_EMIT statusChanged(status);
}

} // namespace Headroom
