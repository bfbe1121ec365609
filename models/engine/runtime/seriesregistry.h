// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Gives every series a stable integer id; shared by the bus, the live buffers,
// the cache (which persists the ids) and the views. Thread-safe.
//
// The bus registers through admit(), which holds each source to a cap of new series
// (DefaultSeriesCap unless setSeriesCap() says otherwise): a source that invents label
// sets without end (an exporter, a host with millions of interfaces) gets its first
// series and no more, so the registry, the live rings and the cache stay bounded.
// Series already known (registered earlier, or loaded from the cache by insert()) are
// always admitted; series loaded from the cache do not count against the cap, so
// yesterday's series cannot crowd out today's.
#pragma once

#include "core/series.h"

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
    // idFor() within the cap of info.key.source: nullopt when the series is new and its
    // source already registered its cap of series. A refused key is not remembered.
    std::optional<int> admit(const SeriesInfo &info, bool *isNew = nullptr);

    static constexpr int DefaultSeriesCap = 10'000;
    // The cap of new series for one source (DefaultSeriesCap until set).
    void setSeriesCap(const QString &source, int cap);
    int seriesCap(const QString &source) const;
    // Registers a series with a known id (loaded from the cache).
    void insert(int id, const SeriesInfo &info);

    std::optional<int> find(const SeriesKey &key) const;
    std::optional<SeriesInfo> info(int id) const;
    QList<int> ids() const;
    int size() const;

private:
    struct SourceTally
    {
        int registered = 0; // through idFor()/admit(), not insert()
        int cap = DefaultSeriesCap;
    };
    // The write-locked half of idFor() and admit() (capped: within the source's cap).
    std::optional<int> registerNew(const SeriesInfo &info, bool capped, bool *isNew);

    mutable QReadWriteLock m_lock;
    QHash<QString, SourceTally> m_sources;
    QHash<SeriesKey, int> m_ids;
    QHash<int, SeriesInfo> m_infos;
    int m_nextId = 1;
};

} // namespace Headroom
