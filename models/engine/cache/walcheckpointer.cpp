// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/walcheckpointer.h"

#include "cachelogging.h"
#include "engine/cache/sqlitedb.h"

#include <sqlite3.h>

namespace Headroom {

bool WalCheckpointer::start(sqlite3 *writer, const QString &path, QString *error)
{
    m_db = Sqlite::open(path, SQLITE_OPEN_READWRITE, error);
    if (!m_db)
        return false;
    sqlite3_busy_timeout(m_db.get(), Sqlite::BusyTimeoutMs);
    // A connection finds the WAL with its first read: until then a checkpoint on it is
    // a no-op that reports success.
    if (!Sqlite::exec(m_db.get(), "SELECT count(*) FROM sqlite_schema", error)) {
        m_db.reset();
        return false;
    }
    m_writer = writer;
    m_thread = std::thread([this] { run(); });
    // Replaces the automatic checkpoint's hook: from now on only this thread checkpoints.
    sqlite3_wal_hook(m_writer, &WalCheckpointer::walHook, this);
    return true;
}

void WalCheckpointer::stop()
{
    if (!m_thread.joinable())
        return;
    sqlite3_wal_hook(m_writer, nullptr, nullptr);
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_thread.join();
    m_db.reset();
}

int WalCheckpointer::checkpoints() const
{
    std::lock_guard lock(m_mutex);
    return m_checkpoints;
}

int WalCheckpointer::walHook(void *self, sqlite3 *, const char *, int pages)
{
    // On the writer thread, right after a commit: only a flag and a wake-up.
    if (pages >= WalPagesPerCheckpoint) {
        auto *checkpointer = static_cast<WalCheckpointer *>(self);
        {
            std::lock_guard lock(checkpointer->m_mutex);
            checkpointer->m_requested = true;
        }
        checkpointer->m_wake.notify_one();
    }
    return SQLITE_OK;
}

void WalCheckpointer::run()
{
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_requested || m_stopping; });
            if (m_stopping)
                return;
            m_requested = false;
        }
        m_busy.store(true, std::memory_order_relaxed);
        int logPages = 0, copied = 0;
        const int rc = sqlite3_wal_checkpoint_v2(m_db.get(), nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                                 &logPages, &copied);
        if (rc != SQLITE_OK) // busy with the hourly TRUNCATE, or a full disk: next time
            qCDebug(lcCache) << "cache: checkpoint postponed:" << Sqlite::errorText(m_db.get());
        m_busy.store(false, std::memory_order_relaxed);
        std::lock_guard lock(m_mutex);
        ++m_checkpoints;
    }
}

} // namespace Headroom
