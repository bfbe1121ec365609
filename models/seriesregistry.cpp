#include "seriesregistry.h"

#include <algorithm>

namespace Headroom {

int SeriesRegistry::idFor(const SeriesInfo &info, bool *isNew)
{
    {
        QReadLocker locker(&m_lock);
        auto it = m_ids.constFind(info.key);
        if (it != m_ids.constEnd()) {
            if (isNew)
                *isNew = false;
            return *it;
        }
    }
    QWriteLocker locker(&m_lock);
    auto it = m_ids.constFind(info.key); // another thread may have won the race
    if (it != m_ids.constEnd()) {
        if (isNew)
            *isNew = false;
        return *it;
    }
    const int id = m_nextId++;
    m_ids.insert(info.key, id);
    m_infos.insert(id, info);
    if (isNew)
        *isNew = true;
    return id;
}

void SeriesRegistry::insert(int id, const SeriesInfo &info)
{
    QWriteLocker locker(&m_lock);
    m_ids.insert(info.key, id);
    m_infos.insert(id, info);
    m_nextId = std::max(m_nextId, id + 1);
}

std::optional<int> SeriesRegistry::find(const SeriesKey &key) const
{
    QReadLocker locker(&m_lock);
    auto it = m_ids.constFind(key);
    if (it == m_ids.constEnd())
        return std::nullopt;
    return *it;
}

std::optional<SeriesInfo> SeriesRegistry::info(int id) const
{
    QReadLocker locker(&m_lock);
    auto it = m_infos.constFind(id);
    if (it == m_infos.constEnd())
        return std::nullopt;
    return *it;
}

QList<int> SeriesRegistry::ids() const
{
    QReadLocker locker(&m_lock);
    QList<int> result = m_infos.keys();
    std::sort(result.begin(), result.end());
    return result;
}

int SeriesRegistry::size() const
{
    QReadLocker locker(&m_lock);
    return int(m_infos.size());
}

} // namespace Headroom
