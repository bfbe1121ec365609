#include "postgrescollector.h"

#include "pgconninfo.h"
#include "postgreslogging.h"
#include "steadyclock.h"

#include <QJsonArray>
#include <QJsonValue>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <libpq-fe.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QByteArray InsufficientPrivilege = "42501";

// Options that arrive from dashboard variables may be numeric strings.
std::optional<int> intOption(const QJsonObject &options, const QString &name, int fallback, int min,
                             int max, QString *error)
{
    const QJsonValue value = options.value(name);
    if (value.isUndefined() || value.isNull()
        || (value.isString() && value.toString().trimmed().isEmpty()))
        return fallback;
    bool ok = value.isDouble();
    double number = ok ? value.toDouble() : value.toString().trimmed().toDouble(&ok);
    if (!ok || number != std::floor(number) || number < min || number > max) {
        *error = u"\"%1\": expected whole milliseconds from %2 to %3"_s.arg(name).arg(min).arg(max);
        return std::nullopt;
    }
    return int(number);
}

} // namespace

struct PostgresCollector::Poll
{
    Poll(const CollectorConfig &c, qint64 now, QDeadlineTimer queries)
        : config(c)
        , ts(now)
        , deadline(queries)
    {
        result.batch.source = config.sourceId;
        result.batch.tsMs = ts;
    }

    const CollectorConfig &config;
    qint64 ts = 0;
    QDeadlineTimer deadline; // for queries: the caller's deadline less the cancel grace
    PollResult result;

    void warn(const QString &warning)
    {
        qCDebug(lcPostgres).noquote() << config.sourceId << warning;
        result.warnings << warning;
    }
};

std::optional<PostgresOptions> PostgresCollector::parseOptions(const QJsonObject &options,
                                                               QString *error)
{
    QString message;
    const auto fail = [&](const QString &text) {
        if (error)
            *error = text;
        return std::nullopt;
    };
    static const QSet<QString> known { u"conninfo"_s, u"connectTimeoutMs"_s,
                                       u"statementTimeoutMs"_s, u"lockTimeoutMs"_s,
                                       u"databases"_s };
    for (auto it = options.constBegin(); it != options.constEnd(); ++it) {
        if (it.key() == "password"_L1)
            return fail(u"\"password\" is not an option: passwords come from ~/.pgpass, a "
                        "service file or PGPASSWORD, so that none is written to a dashboard"_s);
        if (!known.contains(it.key()))
            return fail(u"unknown option \"%1\""_s.arg(it.key()));
    }

    PostgresOptions parsed;
    const QJsonValue conninfo = options.value("conninfo"_L1);
    if (!conninfo.isUndefined() && !conninfo.isNull()) {
        if (!conninfo.isString())
            return fail(u"\"conninfo\" must be a libpq connection string or URI"_s);
        parsed.settings.conninfo = conninfo.toString().trimmed();
    }
    if (!parsed.settings.conninfo.isEmpty()) {
        // Catch typos now rather than at every connect; libpq's message names the
        // offending keyword, never the value.
        char *parseError = nullptr;
        PQconninfoOption *parsedInfo
            = PQconninfoParse(parsed.settings.conninfo.toUtf8().constData(), &parseError);
        if (!parsedInfo) {
            const QString reason
                = parseError ? QString::fromUtf8(parseError).simplified() : u"out of memory"_s;
            PQfreemem(parseError);
            return fail(u"\"conninfo\": %1"_s.arg(reason));
        }
        PQconninfoFree(parsedInfo);
    }

    const auto connect = intOption(options, u"connectTimeoutMs"_s, 3000, 100, 600'000, &message);
    if (!connect)
        return fail(message);
    const auto statement
        = intOption(options, u"statementTimeoutMs"_s, 1000, 1, 3'600'000, &message);
    if (!statement)
        return fail(message);
    const auto lock = intOption(options, u"lockTimeoutMs"_s, 100, 1, 3'600'000, &message);
    if (!lock)
        return fail(message);
    parsed.settings.connectTimeoutMs = *connect;
    parsed.settings.statementTimeoutMs = *statement;
    parsed.settings.lockTimeoutMs = *lock;

    const QJsonValue databases = options.value("databases"_L1);
    if (!databases.isUndefined() && !databases.isNull()) {
        if (!databases.isArray())
            return fail(u"\"databases\" must be an array of database names"_s);
        for (const QJsonValue name : databases.toArray()) {
            if (!name.isString() || name.toString().isEmpty())
                return fail(u"\"databases\" must be an array of database names"_s);
            parsed.databases << name.toString();
        }
    }
    return parsed;
}

std::unique_ptr<PostgresCollector> PostgresCollector::create(const CollectorConfig &config,
                                                             QString *error)
{
    auto options = parseOptions(config.options, error);
    if (!options)
        return nullptr;
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
}

PollResult PostgresCollector::poll(const QDeadlineTimer &deadline)
{
    const qint64 remaining = deadline.remainingTime();
    const qint64 reserve = std::clamp(m_config.timeoutMs / 10, 50, 500) + 20;
    const QDeadlineTimer queries = remaining < 0
        ? QDeadlineTimer(QDeadlineTimer::Forever)
        : QDeadlineTimer(std::max<qint64>(0, remaining - reserve));
    Poll poll(m_config, m_clock(), queries);

    QString error;
    if (!m_connection.ensureConnected(queries, &error)) {
        poll.result.error = error;
        return std::move(poll.result);
    }
    if (m_connection.generation() != m_generation) {
        // A new session may be a restarted or a different server (multi-host conninfo):
        // rates across the outage would average over the gap, so start clean.
        m_generation = m_connection.generation();
        m_databaseRates.clear();
    }

    collectDatabases(poll);
    if (poll.result.error.isEmpty())
        collectActivity(poll);
    if (!poll.result.error.isEmpty())
        return std::move(poll.result);

    SeriesInfo up;
    up.key = { m_config.sourceId, u"pg.up"_s, {} };
    up.resource = PgActivitySampler::Resource;
    up.kind = UseKind::Info;
    poll.result.batch.add(up, 1);
    return std::move(poll.result);
}

std::optional<PgResult> PostgresCollector::run(Poll &poll, const QString &view,
                                               const QByteArray &sql)
{
    PgResult result = m_connection.exec(sql, {}, poll.deadline);
    if (result.ok())
        return result;
    if (result.timedOut() || !m_connection.isConnected()) {
        // Out of time or the session is gone: nothing else can run in this poll.
        poll.result.error = view + u": "_s + result.error();
        return std::nullopt;
    }
    if (result.sqlState() == InsufficientPrivilege)
        poll.warn(u"%1: permission denied; grant pg_monitor (%2)"_s.arg(view, result.error()));
    else
        poll.warn(u"%1: skipped: %2"_s.arg(view, result.error()));
    return std::nullopt;
}

bool PostgresCollector::collectDatabases(Poll &poll)
{
    const auto result = run(poll, u"pg_stat_database"_s, PgStatDatabaseRates::query());
    if (!result)
        return false;
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
    m_databaseRates.update(rows, poll.ts, m_config.sourceId, poll.result.batch);
    return true;
}

bool PostgresCollector::collectActivity(Poll &poll)
{
    const auto result = run(poll, u"pg_stat_activity"_s, PgActivitySampler::query());
    if (!result)
        return false;
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
    return true;
}

} // namespace Headroom
