// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Waits finer than the poll, from one of two methods:
//  - pg_wait_sampling, where the extension is installed in the connected database (it
//    needs shared_preload_libraries): its profile, sampled by the server every
//    pg_wait_sampling.profile_period ms, read each poll as deltas of its counts (never
//    reset: the session is read-only);
//  - otherwise pg_stat_activity read waitSamplesPerSecond times a second by a session
//    of its own (PgWaitSampler).
// Either gives, per poll (resource "pg"):
//   pg.waits.sessions{class, event}     sessions waiting there on average over the
//                                       interval (samples / samples per session); class
//                                       CPU, event CPU: running, not waiting
//   pg.waits.class_sessions{class}      the same per class; the contention classes
//                                       (Lock, LWLock, BufferPin, IO, IPC) and CPU from
//                                       the first poll on, 0 until seen
//   pg.waits.statement_sessions{queryid, class, event}
//                                       for the 10 statements waiting most (queryid as
//                                       in pg_stat_statements; PostgreSQL 14+)
//   pg.waits.samples_per_second{method} samples per session and second: 100 for
//                                       pg_wait_sampling's 10 ms, 10 for the sampler
// and the source status names the method. Idle sessions (their client's ClientRead)
// and background processes' main loops (Activity) are not load and are left out.
#pragma once

#include "pgpoll.h"
#include "pgwaitsampler.h"

#include <memory>
#include <optional>

namespace Headroom {

// pg_wait_sampling's profile between two polls: per key the count's growth; a key
// whose count went down (a reset by someone else, an entry evicted) gives nothing.
class PgWaitProfile
{
public:
    // The first call only sets baselines (nullopt).
    std::optional<QHash<PgWaitKey, double>> update(const QHash<PgWaitKey, double> &counts);
    void clear() { m_last.reset(); }

private:
    std::optional<QHash<PgWaitKey, double>> m_last;
};

class PgWaitsPart : public PgPart
{
public:
    static constexpr int TopStatements = 10;
    static constexpr qint64 RecheckMs = 60'000;

    PgWaitsPart(PgSettings settings, int samplesPerSecond);
    ~PgWaitsPart() override;

    void collect(PgPoll &poll) override;
    void resetBaselines() override;
    // The sampler's session, which the other parts leave out (0: none).
    int samplerPid() const;

    // Columns: class, event, queryid, count summed over pids. $1: our own pid.
    static QByteArray profileQuery(const QString &schema);
    // `sessions`: per key, sessions waiting there on average over the interval.
    static void publish(const QHash<PgWaitKey, double> &sessions, const QString &method,
                        double samplesPerSecond, const QString &source, SampleBatch &batch);

private:
    struct Extension
    {
        QString schema;
        double periodMs = 10;
    };
    void lookUpExtension(PgPoll &poll);
    void collectProfile(PgPoll &poll);
    void collectSampler(PgPoll &poll);

    PgSettings m_settings;
    int m_samplesPerSecond;
    std::optional<Extension> m_extension;
    std::optional<qint64> m_checkedAtMs;
    PgWaitProfile m_profile;
    qint64 m_lastProfileTs = 0;
    std::unique_ptr<PgWaitSampler> m_sampler;
};

} // namespace Headroom
