// The postgres collector: per-database rates from pg_stat_database, session states and
// wait events from pg_stat_activity, and pg.up, over one read-only libpq session that
// reconnects with backoff. See postgres.json for the options.
#pragma once

#include "collector.h"
#include "pgactivity.h"
#include "pgconnection.h"
#include "pgstatdatabase.h"

#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

namespace Headroom {

struct PostgresOptions
{
    PgSettings settings;
    QStringList databases; // empty: every database but the templates
};

class PostgresCollector : public Collector
{
public:
    using Clock = std::function<qint64()>; // sample timestamps, ms since the epoch

    // Validates config.options; nullptr and *error when invalid. Never connects.
    static std::unique_ptr<PostgresCollector> create(const CollectorConfig &config, QString *error);
    static std::optional<PostgresOptions> parseOptions(const QJsonObject &options, QString *error);

    // A null clock means steadyWallClockMs.
    PostgresCollector(CollectorConfig config, PostgresOptions options, Clock clock = {});

    PollResult poll(const QDeadlineTimer &deadline) override;

    // The session, for custom queries over the same protected connection (and tests).
    PgConnection &connection() { return m_connection; }

private:
    struct Poll;

    bool collectDatabases(Poll &poll);
    bool collectActivity(Poll &poll);
    // Runs one part's query. False when the part is skipped (a warning names the view)
    // or when the whole poll failed (poll.result.error is set).
    std::optional<PgResult> run(Poll &poll, const QString &view, const QByteArray &sql);

    CollectorConfig m_config;
    PostgresOptions m_options;
    Clock m_clock;
    PgConnection m_connection;
    int m_generation = 0; // the connection generation our baselines belong to
    PgStatDatabaseRates m_databaseRates;
    PgActivitySampler m_activity;
};

} // namespace Headroom
