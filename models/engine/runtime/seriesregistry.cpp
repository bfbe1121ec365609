// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/seriesregistry.h"

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
    return *registerNew(info, false, isNew);
}

std::optional<int> SeriesRegistry::admit(const SeriesInfo &info, bool *isNew)
{
    if (isNew)
        *isNew = false;
    {
        QReadLocker locker(&m_lock);
        auto it = m_ids.constFind(info.key);
        if (it != m_ids.constEnd())
            return *it;
        // A source at its cap sends the same refused series every poll: refuse them
        // under the read lock, without contending for the write lock.
        const auto tally = m_sources.constFind(info.key.source);
        if (tally != m_sources.cend() && tally->registered >= tally->cap)
            return std::nullopt;
    }
    return registerNew(info, true, isNew);
}

std::optional<int> SeriesRegistry::registerNew(const SeriesInfo &info, bool capped, bool *isNew)
{
    QWriteLocker locker(&m_lock);
    auto it = m_ids.constFind(info.key); // another thread may have won the race
    if (it != m_ids.constEnd()) {
        if (isNew)
            *isNew = false;
        return *it;
    }
    SourceTally &tally = m_sources[info.key.source];
    if (capped && tally.registered >= tally.cap)
        return std::nullopt;
    ++tally.registered;
    const int id = m_nextId++;
    m_ids.insert(info.key, id);
    m_infos.insert(id, info);
    if (isNew)
        *isNew = true;
    return id;
}

void SeriesRegistry::setSeriesCap(const QString &source, int cap)
{
    QWriteLocker locker(&m_lock);
    m_sources[source].cap = std::max(0, cap);
}

int SeriesRegistry::seriesCap(const QString &source) const
{
    QReadLocker locker(&m_lock);
    return m_sources.value(source).cap;
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
