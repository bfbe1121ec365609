// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/promqlengines.h"

namespace Headroom {

void PromqlEngines::set(Snapshot snapshot)
{
    QMutexLocker locker(&m_lock);
    m_snapshot = std::make_shared<const Snapshot>(std::move(snapshot));
}

std::shared_ptr<const PromqlEngines::Snapshot> PromqlEngines::snapshot() const
{
    QMutexLocker locker(&m_lock);
    return m_snapshot;
}

void PromqlEngines::setAnswerStore(std::shared_ptr<PromqlAnswerStore> store)
{
    QMutexLocker locker(&m_lock);
    m_store = std::move(store);
}

std::optional<PromqlResult> PromqlEngines::cached(const QString &key) const
{
    std::shared_ptr<PromqlAnswerStore> store;
    {
        QMutexLocker locker(&m_lock);
        if (const PromqlResult *held = m_answers.object(key)) {
            ++m_hits;
            return *held;
        }
        store = m_store;
    }
    // The disk outside the lock: other panels' memory hits need not wait for it.
    std::optional<PromqlResult> stored = store ? store->load(key) : std::nullopt;
    if (stored) {
        QMutexLocker locker(&m_lock);
        ++m_hits;
        m_answers.insert(key, new PromqlResult(*stored), cost(*stored));
    }
    return stored;
}

void PromqlEngines::cache(const QString &key, const PromqlResult &result) const
{
    std::shared_ptr<PromqlAnswerStore> store;
    {
        QMutexLocker locker(&m_lock);
        m_answers.insert(key, new PromqlResult(result), cost(result));
        store = m_store;
    }
    if (store)
        store->save(key, result);
}

qsizetype PromqlEngines::cost(const PromqlResult &result)
{
    qint64 points = 1;
    for (const PromqlSeries &series : result.series) {
        points += qint64(series.points.size());
        for (const PromqlHistogramPoint &histogram : series.histograms)
            points += 1 + qint64(histogram.buckets.size());
    }
    return qsizetype(std::min(points, CachedPoints));
}

qint64 PromqlEngines::hits() const
{
    QMutexLocker locker(&m_lock);
    return m_hits;
}

qint64 PromqlEngines::misses() const
{
    QMutexLocker locker(&m_lock);
    return m_misses;
}

void PromqlEngines::countMiss() const
{
    QMutexLocker locker(&m_lock);
    ++m_misses;
}

} // namespace Headroom
