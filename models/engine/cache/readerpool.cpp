// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/readerpool.h"

#include <algorithm>
#include <sqlite3.h>
#include <utility>

namespace Headroom {

ReaderPool::ReaderPool(const QString &path, int maxConnections, int openFlags)
    : m_path(path)
    , m_max(std::max(1, maxConnections))
    // Read-write but query_only: a read-only connection cannot recover a WAL left by a
    // crashed writer, and query_only still guarantees this connection never writes.
    , m_flags(openFlags != 0 ? openFlags : SQLITE_OPEN_READWRITE)
{
}

ReaderPool::~ReaderPool() = default; // every lease must be returned by now

ReaderPool::Lease::Lease(ReaderPool *pool, Sqlite::Db db)
    : m_pool(pool)
    , m_db(std::move(db))
{
}

ReaderPool::Lease::~Lease()
{
    if (m_pool && m_db)
        m_pool->release(std::move(m_db));
}

ReaderPool::Lease::Lease(Lease &&other) noexcept
    : m_pool(std::exchange(other.m_pool, nullptr))
    , m_db(std::move(other.m_db))
{
}

ReaderPool::Lease ReaderPool::acquire(QString *error)
{
    {
        std::unique_lock lock(m_mutex);
        m_returned.wait(lock, [this] { return !m_idle.empty() || m_open < m_max; });
        if (!m_idle.empty()) {
            Sqlite::Db db = std::move(m_idle.back());
            m_idle.pop_back();
            return Lease(this, std::move(db));
        }
        ++m_open; // reserve the slot, open outside the lock
    }
    Sqlite::Db db = Sqlite::open(m_path, m_flags, error);
    if (db && !Sqlite::configure(db.get(), false, error))
        db.reset();
    if (!db) {
        std::lock_guard lock(m_mutex);
        --m_open;
        m_returned.notify_one();
        return {};
    }
    return Lease(this, std::move(db));
}

void ReaderPool::release(Sqlite::Db db)
{
    {
        std::lock_guard lock(m_mutex);
        m_idle.push_back(std::move(db));
    }
    m_returned.notify_one();
}

} // namespace Headroom
