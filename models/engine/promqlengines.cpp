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

std::optional<PromqlResult> PromqlEngines::cached(const QString &key) const
{
    QMutexLocker locker(&m_lock);
    if (const PromqlResult *held = m_answers.object(key)) {
        ++m_hits;
        return *held;
    }
    return std::nullopt;
}

void PromqlEngines::cache(const QString &key, const PromqlResult &result) const
{
    qint64 points = 1;
    for (const PromqlSeries &series : result.series)
        points += qint64(series.points.size());
    QMutexLocker locker(&m_lock);
    m_answers.insert(key, new PromqlResult(result), qsizetype(std::min(points, CachedPoints)));
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
