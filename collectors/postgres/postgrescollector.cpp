// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "postgrescollector.h"

#include "collector/steadyclock.h"
#include "core/jsonreader.h"
#include "pgblocking.h"
#include "pgcheckpoints.h"
#include "pgconnections.h"
#include "pgcustomqueries.h"
#include "pgdashboardconninfo.h"
#include "pgdirectories.h"
#include "pgmaintenance.h"
#include "pgprobe.h"
#include "pgreplication.h"
#include "pgsessioncpu.h"
#include "pgsizes.h"
#include "pgstatements.h"
#include "pgtables.h"
#include "pgtimescale.h"
#include "pgwaits.h"
#include "postgreslogging.h"

#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

std::unique_ptr<PostgresCollector> PostgresCollector::create(const CollectorConfig &config,
                                                             QString *error)
{
    auto options = parsePostgresOptions(config.options, error);
    if (!options)
        return nullptr;
    // An empty conninfo is libpq's defaults: the user's own environment and files.
    options->settings.fromDashboard
        = !options->settings.conninfo.isEmpty() && !config.userOptions.contains(u"conninfo"_s);
    if (options->settings.fromDashboard) {
        if (const auto refused = refuseDashboardConninfo(options->settings.conninfo)) {
            *error = JsonReadError { u"conninfo"_s, *refused }.toString();
            return nullptr;
        }
    }
    return std::make_unique<PostgresCollector>(config, std::move(*options));
}

PostgresCollector::PostgresCollector(CollectorConfig config, PostgresOptions options, Clock clock)
    : m_config(std::move(config))
    , m_options(std::move(options))
    , m_clock(clock ? std::move(clock) : Clock(&steadyWallClockMs))
    , m_connection([this] {
        // A tenth of the poll's budget is kept for cancelling a late query.
        PgSettings settings = m_options.settings;
        settings.cancelGraceMs = std::clamp(m_config.timeoutMs / 10, 50, 500);
        return settings;
    }())
{
    qCDebug(lcPostgres).noquote() << m_config.sourceId << "using"
                                  << m_connection.redactedConninfo();
    // Who blocks whom first: one cheap query, and what a lock storm needs named.
    m_parts.push_back(std::make_unique<PgBlockingPart>());
    // The connection slots: what "too many clients" runs out of.
    m_parts.push_back(std::make_unique<PgConnectionsPart>());
    // The CPU each session uses, from its process, where the server is on this machine.
    m_parts.push_back(
        std::make_unique<PgSessionCpuPart>([this] { return m_waits ? m_waits->samplerPid() : 0; }));
    // Standbys, slots, and this server as a standby.
    m_parts.push_back(std::make_unique<PgReplicationPart>());
    // Checkpoints, the background writer, WAL and I/O by backend type.
    m_parts.push_back(std::make_unique<PgCheckpointsPart>());
    // Then maintenance: vacuums, analyses and index builds running, the xmin horizon.
    m_parts.push_back(std::make_unique<PgMaintenancePart>());
    // Where the data lives, for the host's filesystem findings (once per session).
    m_parts.push_back(std::make_unique<PgDirectoriesPart>());
    // Waits finer than the poll (pg_wait_sampling, or a sampler session of its own).
    auto waits = std::make_unique<PgWaitsPart>(m_options.settings, m_options.waitSamplesPerSecond);
    m_waits = waits.get();
    m_parts.push_back(std::move(waits));
    if (m_options.statements)
        m_parts.push_back(std::make_unique<PgStatementsPart>(m_options.topStatements));
    if (m_options.tables) {
        m_parts.push_back(
            std::make_unique<PgTablesPart>(m_options.shardSets, m_options.shardOverloadedPercent));
        // TimescaleDB's hypertables and background jobs, where the extension is.
        m_parts.push_back(std::make_unique<PgTimescalePart>());
    }
    // Database, table and index sizes, once a minute.
    m_parts.push_back(std::make_unique<PgSizesPart>());
    // The dashboard's queries, then the probe, which uses whatever time is left.
    if (!m_options.queries.isEmpty())
        m_parts.push_back(std::make_unique<PgCustomQueriesPart>(m_options.queries));
    if (m_options.probe.count > 0)
        m_parts.push_back(std::make_unique<PgProbePart>(m_options.probe));
}

PostgresCollector::~PostgresCollector() = default;

PollResult PostgresCollector::poll(const QDeadlineTimer &deadline)
{
    const qint64 remaining = deadline.remainingTime();
    const qint64 reserve = std::clamp(m_config.timeoutMs / 10, 50, 500) + 20;
    const QDeadlineTimer queries = remaining < 0
        ? QDeadlineTimer(QDeadlineTimer::Forever)
        : QDeadlineTimer(std::max<qint64>(0, remaining - reserve));
    PgPoll poll(m_config, m_connection, m_clock(), queries);

    QString error;
    if (!m_connection.ensureConnected(queries, &error)) {
        poll.result.error = error;
        // Refused for want of a slot: the server is up and its connections ran out, an
        // error of that resource (kept while backing off until the next attempt).
        if (m_connection.refusedForSlots()) {
            poll.result.failed.source = m_config.sourceId;
            poll.result.failed.tsMs = poll.ts;
            PgConnectionsPart::publishRefused(true, m_config.sourceId, poll.result.failed);
        }
        return std::move(poll.result);
    }
    if (m_connection.inTransaction()) {
        // The last poll ran out of time inside the dashboard queries' transaction (the
        // cancel aborted it): end it, or every statement would fail from now on.
        const PgResult rollback = m_connection.exec("ROLLBACK", {}, queries);
        if (!rollback.ok() && m_connection.isConnected())
            m_connection.markBroken(u"could not end an aborted transaction: "_s + rollback.error());
        if (!m_connection.isConnected()) {
            poll.result.error = rollback.error();
            return std::move(poll.result);
        }
    }
    if (m_connection.generation() != m_generation) {
        // A new session may be a restarted or a different server (multi-host conninfo):
        // rates across the outage would average over the gap, so start clean.
        m_generation = m_connection.generation();
        m_databaseRates.clear();
        for (const auto &part : m_parts)
            part->resetBaselines();
    }

    collectDatabases(poll);
    if (!poll.failed())
        collectActivity(poll);
    for (const auto &part : m_parts) {
        if (poll.failed())
            break;
        part->collect(poll);
    }
    if (poll.failed())
        return std::move(poll.result);
    if (!m_connection.isConnected()) {
        // A part lost the session without failing the poll (a probe run that could not
        // be cancelled): what was read stands, but the server is not "up" now.
        poll.warn(u"the session was closed; reconnecting"_s);
        return std::move(poll.result);
    }

    SeriesInfo up;
    up.key = { m_config.sourceId, u"pg.up"_s, {} };
    up.resource = PgActivitySampler::Resource;
    up.kind = UseKind::Info;
    poll.result.batch.add(up, 1);
    return std::move(poll.result);
}

void PostgresCollector::collectDatabases(PgPoll &poll)
{
    const auto result = poll.run(u"pg_stat_database"_s, PgStatDatabaseRates::query());
    if (!result)
        return;
    QList<PgStatDatabaseRates::Row> rows;
    QSet<QString> present;
    for (int r = 0; r < result->rows(); ++r) {
        PgStatDatabaseRates::Row row;
        row.datname = result->text(r, 0);
        present.insert(row.datname);
        if (!m_options.databases.isEmpty() && !m_options.databases.contains(row.datname))
            continue;
        row.statsReset = result->text(r, 1);
        bool complete = true;
        for (int i = 0; i < PgStatDatabaseRates::CounterCount && complete; ++i)
            row.values[size_t(i)] = result->number(r, 2 + i, &complete);
        if (complete)
            rows.append(row);
    }
    for (const QString &name : std::as_const(m_options.databases)) {
        if (!present.contains(name))
            poll.warn(u"pg_stat_database: no database \"%1\""_s.arg(name));
    }
    m_databaseRates.update(rows, poll.ts, m_config.sourceId, poll.result.batch,
                           { m_connection.database(), m_connection.ownRollbacks() });
}

void PostgresCollector::collectActivity(PgPoll &poll)
{
    const auto result = poll.run(u"pg_stat_activity"_s, PgActivitySampler::query(),
                                 { QByteArray::number(m_waits->samplerPid()) });
    if (!result)
        return;
    QList<PgActivitySampler::Row> rows;
    rows.reserve(result->rows());
    for (int r = 0; r < result->rows(); ++r) {
        PgActivitySampler::Row row;
        row.state = result->text(r, 0);
        row.waitEventType = result->text(r, 1);
        row.waitEvent = result->text(r, 2);
        row.backendType = result->text(r, 3);
        row.hidden = result->text(r, 4) == "t"_L1;
        bool ok = false;
        const double xactAge = result->number(r, 5, &ok);
        row.xactAgeS = ok ? xactAge : -1;
        const double queryAge = result->number(r, 6, &ok);
        row.queryAgeS = ok ? queryAge : -1;
        rows.append(row);
    }
    const int hidden = m_activity.update(rows, m_config.sourceId, poll.result.batch);
    if (hidden > 0)
        poll.warn(u"pg_stat_activity: %1 sessions of other roles are hidden (insufficient "
                  "privilege); grant pg_monitor"_s.arg(hidden));
}

} // namespace Headroom
