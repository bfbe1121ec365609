// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Waits finer than the poll where pg_wait_sampling is not installed: a thread with a
// session of its own reads the waits of pg_stat_activity's active sessions several
// times a second (10 by default), so that a 200 ms lock wait a once-a-second snapshot
// can miss is counted. The poll takes what was counted since its last take(). Reading
// pg_stat_activity is all it does; its session is read-only like the poll's.
#pragma once

#include "pgconnection.h"

#include <QHash>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace Headroom {

// One wait as sampled: class ("Lock", "LWLock", ..., "CPU" for a session running) and
// event, and the statement (queryid, 0 when unknown).
struct PgWaitKey
{
    QString waitClass;
    QString event;
    qint64 queryid = 0;
    friend bool operator==(const PgWaitKey &, const PgWaitKey &) = default;
    friend size_t qHash(const PgWaitKey &key, size_t seed = 0) noexcept
    {
        return qHashMulti(seed, key.waitClass, key.event, key.queryid);
    }
};

struct PgWaitCounts
{
    int snapshots = 0; // pg_stat_activity reads taken
    QHash<PgWaitKey, double> sessions; // sessions seen there, summed over the snapshots
    QString error; // the last failure since the last take, if any
};

class PgWaitSampler
{
public:
    PgWaitSampler(PgSettings settings, int perSecond);
    ~PgWaitSampler(); // stops the thread; at most one snapshot's time
    PgWaitSampler(const PgWaitSampler &) = delete;
    PgWaitSampler &operator=(const PgWaitSampler &) = delete;

    // What was counted since the last take.
    PgWaitCounts take();
    // The sampler's own backend pid (0 before it connected): other parts leave it out.
    int pid() const { return m_pid.load(std::memory_order_relaxed); }
    int perSecond() const { return m_perSecond; }
    // Sessions of this pid are not counted (the poll's own session).
    void exclude(int pid) { m_excluded.store(pid, std::memory_order_relaxed); }

    // Columns: wait class, event, queryid. $1: a pid to leave out besides our own.
    static QByteArray query(int serverVersion);

private:
    void run();

    PgSettings m_settings;
    const int m_perSecond;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    PgWaitCounts m_counts;
    std::atomic<int> m_pid { 0 };
    std::atomic<int> m_excluded { 0 };
    std::thread m_thread; // last: starts once everything above is built
};

} // namespace Headroom
