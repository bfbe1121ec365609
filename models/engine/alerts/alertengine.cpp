// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/alerts/alertengine.h"

#include "engine/cache/samplecache.h"
#include "engine/runtime/seriesregistry.h"

#include <QDateTime>
#include <QTimer>

namespace Headroom {

using namespace Qt::StringLiterals;

// Lives on the engine's thread; owns the evaluator, so only that thread touches it.
class AlertEngineWorker : public QObject
{
public:
    explicit AlertEngineWorker(AlertEngine *engine)
        : m_engine(engine)
    {
    }

    void start()
    {
        m_timer = new QTimer(this);
        m_timer->setInterval(1000);
        connect(m_timer, &QTimer::timeout, this,
                [this] { checkNoData(QDateTime::currentMSecsSinceEpoch()); });
        m_timer->start();
    }

    void setRules(const QList<AlertRule> &rules, const QList<AlertEvent> &restored)
    {
        m_evaluator.setRules(rules);
        m_evaluator.restore(restored, QDateTime::currentMSecsSinceEpoch());
        m_engine->publish({}, m_evaluator.instances());
    }

    void evaluate(const QList<std::pair<SeriesInfo, Sample>> &values,
                  const QList<std::pair<SeriesInfo, TimedHistogram>> &histograms)
    {
        QList<AlertEvent> events;
        for (const auto &[info, sample] : values)
            events += m_evaluator.addSample(info, sample);
        for (const auto &[info, histogram] : histograms)
            events += m_evaluator.addHistogram(info, histogram.first, histogram.second);
        // Instances change their value at every sample; copying them is cheap next to
        // the evaluation, and the USE matrix wants current values.
        m_engine->publish(events, m_evaluator.instances());
    }

    void checkNoData(qint64 nowMs)
    {
        const QList<AlertEvent> events = m_evaluator.checkNoData(nowMs);
        if (!events.isEmpty())
            m_engine->publish(events, m_evaluator.instances());
    }

private:
    AlertEngine *m_engine;
    AlertEvaluator m_evaluator;
    QTimer *m_timer = nullptr;
};

AlertEngine::AlertEngine(SeriesRegistry *registry, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_worker(new AlertEngineWorker(this))
{
    qRegisterMetaType<QList<Headroom::AlertEvent>>();
    qRegisterMetaType<Headroom::SeriesKey>();
    m_thread.setObjectName(u"headroom-alerts"_s);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
    QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->start(); });
}

AlertEngine::~AlertEngine()
{
    m_thread.quit();
    m_thread.wait();
}

void AlertEngine::setCache(SampleCache *cache)
{
    waitIdle(); // events of the old cache are stored in it
    QMutexLocker locker(&m_lock);
    m_cache = cache;
}

void AlertEngine::setRules(const QList<AlertRule> &rules)
{
    QList<AlertEvent> restored;
    {
        QMutexLocker locker(&m_lock);
        m_rules = rules;
        m_watched.clear();
        if (m_cache)
            restored = m_cache->readLatestAlertStates();
    }
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, rules, restored] { worker->setRules(rules, restored); });
}

QList<AlertRule> AlertEngine::rules() const
{
    QMutexLocker locker(&m_lock);
    return m_rules;
}

void AlertEngine::consume(const ResolvedBatch &batch)
{
    QList<std::pair<SeriesInfo, Sample>> values;
    QList<std::pair<SeriesInfo, TimedHistogram>> histograms;
    {
        QMutexLocker locker(&m_lock);
        if (m_rules.isEmpty())
            return;
        const auto watched = [&](int id, const SeriesInfo &info) {
            if (const auto it = m_watched.constFind(id); it != m_watched.cend())
                return *it;
            const bool any = std::any_of(m_rules.cbegin(), m_rules.cend(),
                                         [&](const AlertRule &r) { return r.reads(info.key); });
            m_watched.insert(id, any);
            return any;
        };
        const SampleBatch &b = batch.batch;
        for (qsizetype i = 0; i < std::min(b.values.size(), batch.valueIds.size()); ++i)
            if (watched(batch.valueIds.at(i), b.values.at(i).info))
                values.append({ b.values.at(i).info, Sample { b.tsMs, b.values.at(i).value } });
        for (qsizetype i = 0; i < std::min(b.histograms.size(), batch.histogramIds.size()); ++i)
            if (watched(batch.histogramIds.at(i), b.histograms.at(i).info))
                histograms.append({ b.histograms.at(i).info,
                                    TimedHistogram { b.tsMs, b.histograms.at(i).histogram } });
    }
    if (values.isEmpty() && histograms.isEmpty())
        return;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, values, histograms] {
        worker->evaluate(values, histograms);
    });
}

void AlertEngine::acknowledge(const QString &ruleId, const SeriesKey &series, qint64 upToMs)
{
    {
        QMutexLocker locker(&m_lock);
        if (m_cache)
            m_cache->acknowledgeAlert({ ruleId, series, upToMs });
    }
    m_log.markAcknowledged(ruleId, series, upToMs);
    Q_EMIT eventsAcknowledged(ruleId, series, upToMs);
}

QList<AlertInstanceStatus> AlertEngine::instances() const
{
    QMutexLocker locker(&m_lock);
    return m_instances;
}

void AlertEngine::waitIdle()
{
    Q_ASSERT(QThread::currentThread() != &m_thread);
    QMetaObject::invokeMethod(m_worker, [] { }, Qt::BlockingQueuedConnection);
}

void AlertEngine::checkNoData(qint64 nowMs)
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, nowMs] { worker->checkNoData(nowMs); });
}

void AlertEngine::publish(const QList<AlertEvent> &events,
                          const QList<AlertInstanceStatus> &instances)
{
    {
        QMutexLocker locker(&m_lock);
        m_instances = instances;
        if (m_cache && !events.isEmpty())
            m_cache->recordAlertEvents(events);
    }
    if (!events.isEmpty()) {
        m_log.append(events);
        Q_EMIT eventsRaised(events);
    }
}

} // namespace Headroom
