// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The postgres collector: per-database rates from pg_stat_database, session states and
// wait events from pg_stat_activity, the connection slots (pgconnections.h), standbys,
// slots and replay (pgreplication.h), checkpoints and WAL (pgcheckpoints.h), the CPU
// of each session where the server is on this machine (pgsessioncpu.h), sizes
// (pgsizes.h), pg_stat_statements, table and partition activity with shard sets, a
// latency probe, the dashboard's own queries, and pg.up, over one read-only libpq
// session that reconnects with backoff; a connection refused for want of a slot is
// published as pg.connections.refused with the failed poll. See postgres.json for the
// options.
#pragma once

#include "collector/collector.h"
#include "pgactivity.h"
#include "pgconnection.h"
#include "pgpoll.h"
#include "pgstatdatabase.h"
#include "postgresoptions.h"

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Headroom {

class PgWaitsPart;

class PostgresCollector : public Collector
{
public:
    using Clock = std::function<qint64()>; // sample timestamps, ms since the epoch

    // Validates config.options; nullptr and *error when invalid. Never connects.
    static std::unique_ptr<PostgresCollector> create(const CollectorConfig &config, QString *error);
    static std::optional<PostgresOptions> parseOptions(const QJsonObject &options, QString *error)
    {
        return parsePostgresOptions(options, error);
    }

    // A null clock means steadyWallClockMs.
    PostgresCollector(CollectorConfig config, PostgresOptions options, Clock clock = {});
    ~PostgresCollector() override;

    PollResult poll(const QDeadlineTimer &deadline) override;

    // The session, for custom queries over the same protected connection (and tests).
    PgConnection &connection() { return m_connection; }

private:
    void collectDatabases(PgPoll &poll);
    void collectActivity(PgPoll &poll);

    CollectorConfig m_config;
    PostgresOptions m_options;
    Clock m_clock;
    PgConnection m_connection;
    int m_generation = 0; // the connection generation our baselines belong to
    PgStatDatabaseRates m_databaseRates;
    PgActivitySampler m_activity;
    // Statements, tables and shards, custom queries, the probe: in that order.
    std::vector<std::unique_ptr<PgPart>> m_parts;
    PgWaitsPart *m_waits = nullptr; // one of m_parts: its sampler's pid is left out
};

} // namespace Headroom
