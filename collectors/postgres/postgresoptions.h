// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The postgres collector's options (see postgres.json), parsed and checked before any
// connection is made, so a dashboard with a typo fails to open with the option named.
#pragma once

#include "pgconnection.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace Headroom {

// A set of tables the user declares to be shards of one thing. Every partitioned table
// is a shard set too, without being declared.
// A shard whose pg.shard.load is above this counts in pg.shardset.overloaded.
inline constexpr double DefaultShardOverloadedPercent = 60;

struct PgShardSetOption
{
    QString name;
    QStringList tables; // "schema.table" or "table" (schema public)
    double capacity = 0; // tuples read + written per second that mean 100%; 0: relative
};

// A dashboard's own query: text columns become labels, numeric columns become series
// pg.query.<name>.<column>. It runs in the read-only session, so a write is refused by
// the server and reported.
struct PgCustomQuery
{
    QString name;
    QString sql;
};

struct PgProbeOptions
{
    QString sql = QStringLiteral("SELECT 1");
    int count = 10; // runs per poll; 0 turns the probe off
};

struct PostgresOptions
{
    PgSettings settings;
    QStringList databases; // empty: every database but the templates
    bool statements = true; // pg_stat_statements when installed
    int topStatements = 10; // statements reported per poll, by total time in the interval
    // Snapshots of pg_stat_activity's waits per second, on a session of their own, where
    // pg_wait_sampling is not installed; 0: none (pgwaits.h).
    int waitSamplesPerSecond = 10;
    bool tables = true; // per table and partition activity, shard sets
    QList<PgShardSetOption> shardSets;
    double shardOverloadedPercent = DefaultShardOverloadedPercent;
    PgProbeOptions probe;
    QList<PgCustomQuery> queries;
};

// nullopt and *error (naming the option) when `options` is invalid.
std::optional<PostgresOptions> parsePostgresOptions(const QJsonObject &options, QString *error);

} // namespace Headroom
