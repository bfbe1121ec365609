// Gives every series a stable integer id; shared by the bus, the live buffers,
// the cache (which persists the ids) and the views. Thread-safe.
#pragma once

#include "series.h"

#include <QHash>
#include <QList>
#include <QReadWriteLock>
#include <optional>

namespace Headroom {

class SeriesRegistry
{
public:
    // Returns the id of key, registering info under a new id when unknown.
    // isNew tells the caller (the cache writer) that the series must be persisted.
    int idFor(const SeriesInfo &info, bool *isNew = nullptr);
    // Registers a series with a known id (loaded from the cache).
    void insert(int id, const SeriesInfo &info);

    std::optional<int> find(const SeriesKey &key) const;
    std::optional<SeriesInfo> info(int id) const;
    QList<int> ids() const;
    int size() const;

private:
    mutable QReadWriteLock m_lock;
    QHash<SeriesKey, int> m_ids;
    QHash<int, SeriesInfo> m_infos;
    int m_nextId = 1;
};

} // namespace Headroom
