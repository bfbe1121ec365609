// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Copies the cache's WAL back into the file on a thread and a connection of its own, so
// that the writer's commits never wait for a checkpoint.
//
// SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages,
// on the committing thread: it copies those pages into the database file and syncs
// it, which made one batch in a hundred wait 50-70 ms after a flood (bench_cache,
// writer_p99_*). Here the writer connection's WAL hook only wakes this thread, which
// runs a PASSIVE checkpoint: it copies what no reader still needs and never blocks
// the writer, which goes on appending to the WAL meanwhile. The writer's hourly
// TRUNCATE checkpoint still resets the WAL's size.
#pragma once

#include "engine/cache/sqlitedb.h"

#include <QString>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

struct sqlite3;

namespace Headroom {

class WalCheckpointer
{
public:
    static constexpr int WalPagesPerCheckpoint = 1000; // SQLite's automatic threshold

    // Opens its own connection to path and installs the hook on writer (which then has
    // no automatic checkpoint). False with *error when the connection cannot be made;
    // the writer then keeps SQLite's automatic checkpoints.
    bool start(sqlite3 *writer, const QString &path, QString *error);
    // Joins the thread and removes the hook (before the writer connection closes).
    void stop();
    ~WalCheckpointer() { stop(); }

    int checkpoints() const; // run since start (for tests)
    // A checkpoint is copying pages now: the writer holds back optional disk work (the
    // reclaimer's slices), which would otherwise share the disk and both cores with it
    // and stretch the batches waiting meanwhile.
    bool busy() const { return m_busy.load(std::memory_order_relaxed); }

private:
    static int walHook(void *self, sqlite3 *db, const char *schema, int pages);
    void run();

    sqlite3 *m_writer = nullptr;
    Sqlite::Db m_db; // this thread's connection (Sqlite::open: NOMUTEX, extended codes)
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_requested = false;
    bool m_stopping = false;
    int m_checkpoints = 0;
    std::atomic<bool> m_busy { false };
};

} // namespace Headroom
