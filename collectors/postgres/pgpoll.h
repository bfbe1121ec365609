// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What one poll of the postgres collector shares between its parts: the session, the
// poll's timestamp and query deadline, and the PollResult being built. A part (one
// statistics view, the latency probe, a dashboard's queries) reads through run(), which
// turns a failed query into either a skip with a visible reason or a failed poll.
#pragma once

#include "collector/collector.h"
#include "pgconnection.h"

#include <QString>
#include <optional>

namespace Headroom {

class PgPoll
{
public:
    PgPoll(const CollectorConfig &config, PgConnection &connection, qint64 nowMs,
           QDeadlineTimer queryDeadline);

    const CollectorConfig &config;
    PgConnection &connection;
    const qint64 ts; // ms since the epoch, shared by every sample of the poll
    const QDeadlineTimer deadline; // for queries: the caller's deadline less the cancel grace
    PollResult result;

    const QString &source() const { return config.sourceId; }
    bool failed() const { return !result.error.isEmpty(); }
    void warn(const QString &warning);

    // Runs one query of `view` (named in messages). nullopt when the part must skip:
    // a warning names the view and the server's reason (permission denied asks for
    // pg_monitor), or, when the session is gone or out of time, the whole poll failed
    // and failed() is true.
    std::optional<PgResult> run(const QString &view, const QByteArray &sql,
                                const QList<QByteArray> &params = {});
    // Like run(), but a failure is only returned, never reported (probing for an
    // extension or a column, say).
    PgResult tryRun(const QByteArray &sql, const QList<QByteArray> &params = {});

    // After a dashboard statement (a custom query or a probe run) inside the READ ONLY
    // transaction Headroom opened: true when that transaction is still open and still
    // read-only and the session's default is still read-only. Otherwise a statement got
    // past the screen (pgsqlguard.h): the session is dropped, the poll fails naming
    // `view`, and false.
    bool stillReadOnly(const QString &view);

    // The schema of the TimescaleDB extension in the connected database (its functions
    // live there; its views in timescaledb_information), nullopt without it. Looked up
    // once a poll, by the first part that asks.
    std::optional<QString> timescaleDbSchema();

private:
    std::optional<std::optional<QString>> m_timescaleDbSchema;
};

// One thing read each poll. Parts run in order; once the poll failed, the rest are
// skipped.
class PgPart
{
public:
    virtual ~PgPart() = default;
    virtual void collect(PgPoll &poll) = 0;
    // A new session began (maybe a restarted or different server): drop baselines.
    virtual void resetBaselines() = 0;
};

} // namespace Headroom
