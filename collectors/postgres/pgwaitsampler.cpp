// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgwaitsampler.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

PgWaitSampler::PgWaitSampler(PgSettings settings, int perSecond)
    : m_settings(std::move(settings))
    , m_perSecond(std::clamp(perSecond, 1, 100))
    , m_thread([this] { run(); })
{
}

PgWaitSampler::~PgWaitSampler()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

PgWaitCounts PgWaitSampler::take()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_counts, PgWaitCounts {});
}

QByteArray PgWaitSampler::query(int serverVersion)
{
    // Active client sessions only: an idle one waits for its client (ClientRead), which
    // is no load. query_id is there from PostgreSQL 14 (compute_query_id).
    return QByteArray("SELECT coalesce(wait_event_type, 'CPU'), coalesce(wait_event, 'CPU'), ")
        + (serverVersion >= 140000 ? "coalesce(query_id, 0)" : "0")
        + " FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend'"
          " AND pid <> pg_backend_pid() AND pid <> $1::int";
}

void PgWaitSampler::run()
{
    using Clock = std::chrono::steady_clock;
    const auto period = std::chrono::microseconds(1'000'000 / m_perSecond);
    PgConnection connection(m_settings);
    auto next = Clock::now();
    while (true) {
        {
            std::unique_lock lock(m_mutex);
            if (m_wake.wait_until(lock, next, [this] { return m_stop; }))
                return;
        }
        next += period;
        if (next < Clock::now())
            next = Clock::now() + period; // fell behind (a slow server): no burst
        // A snapshot's budget is its period, a connect's a second: stopping waits at
        // most that long.
        const QDeadlineTimer deadline(
            std::chrono::duration_cast<std::chrono::milliseconds>(period));
        QString error;
        if (!connection.ensureConnected(QDeadlineTimer(1000), &error)) {
            m_pid.store(0, std::memory_order_relaxed);
            std::lock_guard lock(m_mutex);
            m_counts.error = error;
            continue;
        }
        m_pid.store(connection.backendPid(), std::memory_order_relaxed);
        const PgResult result = connection.exec(
            query(connection.serverVersion()),
            { QByteArray::number(m_excluded.load(std::memory_order_relaxed)) }, deadline);
        std::lock_guard lock(m_mutex);
        if (!result.ok()) {
            m_counts.error = result.error();
            continue;
        }
        ++m_counts.snapshots;
        for (int r = 0; r < result.rows(); ++r)
            m_counts
                .sessions[{ result.text(r, 0), result.text(r, 1), result.text(r, 2).toLongLong() }]
                += 1;
    }
}

} // namespace Headroom
