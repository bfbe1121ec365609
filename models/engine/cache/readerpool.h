// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A few read connections for the cache, each used by one thread at a time.
//
// Reads (panels, reports, the query pool) run concurrently with each other and with
// the writer: in WAL mode a reader sees the last committed snapshot and is never
// blocked by the writer. Connections are opened lazily, up to a small maximum; a
// caller beyond it waits for one to be returned.
#pragma once

#include "engine/cache/sqlitedb.h"

#include <QString>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace Headroom {

class ReaderPool
{
public:
    // path is handed to sqlite3_open_v2 with openFlags: by default a file name opened
    // read-write (see acquire()); a recording passes a file: URI and read-only flags.
    explicit ReaderPool(const QString &path, int maxConnections = 4, int openFlags = 0);
    ~ReaderPool();

    class Lease
    {
    public:
        Lease() = default;
        Lease(ReaderPool *pool, Sqlite::Db db);
        ~Lease();
        Lease(Lease &&other) noexcept;
        Lease &operator=(Lease &&) = delete;
        Lease(const Lease &) = delete;
        Lease &operator=(const Lease &) = delete;

        sqlite3 *db() const { return m_db.get(); }
        explicit operator bool() const { return bool(m_db); }

    private:
        ReaderPool *m_pool = nullptr;
        Sqlite::Db m_db;
    };

    // A connection for the calling thread; an empty lease with *error when none opens.
    Lease acquire(QString *error);

private:
    void release(Sqlite::Db db);

    const QString m_path;
    const int m_max;
    const int m_flags;
    std::mutex m_mutex;
    std::condition_variable m_returned;
    std::vector<Sqlite::Db> m_idle;
    int m_open = 0;
};

} // namespace Headroom
