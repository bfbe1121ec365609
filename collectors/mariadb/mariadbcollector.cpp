// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadbcollector.h"

#include "collector/steadyclock.h"
#include "core/jsonreader.h"
#include "mariadblocks.h"
#include "mariadblogging.h"
#include "mariadbmycnf.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

QHash<QString, QString> nameValues(const MariadbResult &result)
{
    QHash<QString, QString> values;
    for (int r = 0; r < result.rows(); ++r)
        values.insert(result.text(r, 0), result.text(r, 1));
    return values;
}

} // namespace

std::unique_ptr<MariadbCollector> MariadbCollector::create(const CollectorConfig &config,
                                                           QString *error)
{
    auto options = parseMariadbOptions(config.options, error);
    if (!options)
        return nullptr;
    const bool fromDashboard
        = !options->url.trimmed().isEmpty() && !config.userOptions.contains(u"url"_s);
    const MyCnfClient cnf = readUserMyCnf();
    MariadbSettings settings;
    settings.target = options->target;
    if (options->url.trimmed().isEmpty()) {
        // No URL: the user's own ~/.my.cnf says where, as for the mariadb client.
        if (!cnf.host.isEmpty() && cnf.host != "localhost"_L1) {
            settings.target.socket.clear();
            settings.target.host = cnf.host;
            settings.target.port = cnf.port > 0 ? cnf.port : 3306;
        } else if (!cnf.socket.isEmpty()) {
            settings.target.socket = cnf.socket;
        }
    }
    if (settings.target.user.isEmpty())
        settings.target.user = cnf.user;
    settings.sendPassword = mayUsePassword(cnf, settings.target, fromDashboard);
    settings.password = settings.sendPassword ? cnf.password : QString();
    settings.connectTimeoutMs = options->connectTimeoutMs;
    settings.statementTimeoutMs = options->statementTimeoutMs;
    settings.fromDashboard = fromDashboard;
    return std::make_unique<MariadbCollector>(config, std::move(*options), std::move(settings));
}

MariadbCollector::MariadbCollector(CollectorConfig config, MariadbOptions options,
                                   MariadbSettings settings, Clock clock)
    : m_config(std::move(config))
    , m_options(std::move(options))
    , m_clock(clock ? std::move(clock) : Clock(&steadyWallClockMs))
    , m_sessionCpu(settings.target)
    , m_connection(std::move(settings))
    , m_statements(m_options.topStatements)
{
}

std::optional<MariadbResult> MariadbCollector::run(const QString &what, const QByteArray &sql,
                                                   const QDeadlineTimer &deadline,
                                                   PollResult &result)
{
    MariadbResult answer = m_connection.exec(sql, deadline);
    if (answer.ok())
        return answer;
    if (!m_connection.isConnected()) {
        result.error = u"%1: %2"_s.arg(what, answer.error());
    } else {
        QString warning = u"%1: %2"_s.arg(what, answer.error());
        if (answer.errorNumber() == 1142 || answer.errorNumber() == 1227
            || answer.errorNumber() == 1044)
            warning += u" (grant PROCESS, REPLICATION CLIENT and SELECT on performance_schema to "
                       "the monitoring user)"_s;
        result.warnings.append(warning);
        qCDebug(lcMariadb).noquote() << m_config.sourceId << warning;
    }
    return std::nullopt;
}

PollResult MariadbCollector::poll(const QDeadlineTimer &deadline)
{
    PollResult result;
    const qint64 ts = m_clock();
    result.batch.source = m_config.sourceId;
    result.batch.tsMs = ts;
    // Keep a little of the budget for closing a session that overran.
    const qint64 remaining = deadline.remainingTime();
    const QDeadlineTimer queries = remaining < 0
        ? QDeadlineTimer(QDeadlineTimer::Forever)
        : QDeadlineTimer(std::max<qint64>(0, remaining - 50));

    QString error;
    if (!m_connection.ensureConnected(queries, &error)) {
        result.error = error;
        return result;
    }
    if (m_connection.generation() != m_generation) {
        // A new session may be a restarted server: rates across the outage would
        // average over the gap, so start clean.
        m_generation = m_connection.generation();
        m_status.clear();
        m_statements.clear();
        m_tables.clear();
        m_sessionCpu.clear();
    }

    // Without these the poll has nothing to stand on: a failure fails the poll.
    const auto failWith = [&]() {
        if (result.error.isEmpty() && !result.warnings.isEmpty())
            result.error = result.warnings.takeLast();
        return std::move(result);
    };
    const auto status = run(u"SHOW GLOBAL STATUS"_s, "SHOW GLOBAL STATUS", queries, result);
    if (!status)
        return failWith();
    const auto variables = run(u"SHOW GLOBAL VARIABLES"_s,
                               "SHOW GLOBAL VARIABLES WHERE Variable_name IN"
                               " ('max_connections', 'performance_schema', 'userstat', 'datadir')",
                               queries, result);
    if (!variables)
        return failWith();
    const QHash<QString, QString> vars = nameValues(*variables);
    m_status.update(nameValues(*status), vars, m_config.sourceId, ts, result.batch);
    const auto isOn = [&](const QString &name) {
        const QString value = vars.value(name);
        return value.compare(u"ON"_s, Qt::CaseInsensitive) == 0 || value == "1"_L1;
    };
    // Where the data lives, for the host's filesystem findings (findings.h).
    if (const QString datadir = vars.value(u"datadir"_s); !datadir.isEmpty())
        result.batch.add({ m_config.sourceId,
                           u"mariadb.server.directory"_s,
                           { { u"kind"_s, u"data"_s }, { u"path"_s, datadir } } },
                         QString(), MariadbServerStatus::Resource, UseKind::Info, 1);
    m_performanceSchema = isOn(u"performance_schema"_s);
    m_userStatistics = isOn(u"userstat"_s);

    collectReplication(queries, result);
    if ((m_options.statements || m_options.tables) && !m_performanceSchema)
        result.notes.append(m_userStatistics
                                ? u"performance_schema is OFF: no top statements; table and shard "
                                  "load from user statistics (userstat), without deletes and "
                                  "I/O time (set performance_schema=ON in the server's "
                                  "configuration and restart it for those)"_s
                                : u"performance_schema is OFF: no top statements and no table or "
                                  "shard load (set performance_schema=ON in the server's "
                                  "configuration and restart it, or SET GLOBAL userstat=1 for "
                                  "table load alone)"_s);
    if (m_options.statements && m_performanceSchema && result.error.isEmpty())
        collectStatements(queries, ts, result);
    if (m_options.tables && (m_performanceSchema || m_userStatistics) && result.error.isEmpty())
        collectTables(queries, ts, result);
    if (m_options.locks && result.error.isEmpty())
        collectLocks(queries, result);
    if (m_performanceSchema && result.error.isEmpty())
        collectSessionCpu(queries, result);
    if (!result.error.isEmpty())
        return result;

    result.batch.add({ m_config.sourceId, u"mariadb.up"_s, {} }, QString(),
                     MariadbServerStatus::Resource, UseKind::Info, 1);
    return result;
}

void MariadbCollector::collectReplication(const QDeadlineTimer &deadline, PollResult &result)
{
    // MySQL says REPLICA from 8.0.22 on, SLAVE before.
    QByteArray sql = "SHOW ALL SLAVES STATUS";
    if (!m_connection.isMariadb())
        sql = m_connection.serverVersion() >= 80022 ? "SHOW REPLICA STATUS" : "SHOW SLAVE STATUS";
    const auto answer = run(u"replication status"_s, sql, deadline, result);
    if (!answer)
        return;
    const int name = answer->column(u"Connection_name");
    int lag = answer->column(u"Seconds_Behind_Master");
    if (lag < 0)
        lag = answer->column(u"Seconds_Behind_Source");
    for (int r = 0; r < answer->rows(); ++r) {
        const QString connection = name < 0 ? QString() : answer->text(r, name);
        const Labels labels { { u"connection"_s, connection } };
        // The replication family's resource, as PostgreSQL's standby side has it: this
        // server as a replica, by its connection's name (MariaDB's multi-source).
        const QString resource = connection.isEmpty() ? u"replica"_s : u"replica:"_s + connection;
        bool ok = false;
        const double seconds = answer->number(r, lag, &ok);
        // NULL while replication is stopped or broken: no lag to show, and an error.
        result.batch.add({ m_config.sourceId, u"mariadb.replication.running"_s, labels }, QString(),
                         resource, UseKind::Info, ok ? 1 : 0);
        result.batch.add({ m_config.sourceId, u"mariadb.replication.stopped"_s, labels }, QString(),
                         resource, UseKind::Errors, ok ? 0 : 1);
        if (ok)
            result.batch.add({ m_config.sourceId, u"mariadb.replication.lag_s"_s, labels }, u"s"_s,
                             resource, UseKind::Saturation, seconds);
    }
}

void MariadbCollector::collectStatements(const QDeadlineTimer &deadline, qint64 ts,
                                         PollResult &result)
{
    const auto counters = run(u"performance_schema.events_statements_summary_by_digest"_s,
                              MariadbStatements::countersQuery(), deadline, result);
    if (!counters)
        return;
    QList<MariadbStatements::Row> rows;
    rows.reserve(counters->rows());
    for (int r = 0; r < counters->rows(); ++r) {
        MariadbStatements::Row row;
        row.schema = counters->text(r, 0);
        row.digest = counters->text(r, 1);
        if (counters->numbers(r, 2,
                              { &row.calls, &row.timerWaitPs, &row.rowsExamined, &row.rowsSent,
                                &row.noIndexUsed })
            && !row.digest.isEmpty())
            rows.append(row);
    }
    const QStringList unknown = m_statements.update(rows, ts);
    const QByteArray textsSql = MariadbStatements::textsQuery(unknown);
    if (!textsSql.isEmpty()) {
        if (const auto texts = run(u"statement texts"_s, textsSql, deadline, result)) {
            for (int r = 0; r < texts->rows(); ++r)
                m_statements.setText(texts->text(r, 0), texts->text(r, 1));
        }
    }
    if (result.error.isEmpty())
        m_statements.publish(m_config.sourceId, result.batch);
}

void MariadbCollector::collectTables(const QDeadlineTimer &deadline, qint64 ts, PollResult &result)
{
    const auto answer = m_performanceSchema
        ? run(u"performance_schema.table_io_waits_summary_by_table"_s, MariadbTables::query(),
              deadline, result)
        : run(u"information_schema.TABLE_STATISTICS"_s, MariadbTables::userStatisticsQuery(),
              deadline, result);
    if (!answer)
        return;
    QList<MariadbTables::Row> rows;
    rows.reserve(answer->rows());
    for (int r = 0; r < answer->rows(); ++r) {
        MariadbTables::Row row;
        row.schema = answer->text(r, 0);
        row.table = answer->text(r, 1);
        if (answer->numbers(r, 2, { &row.reads, &row.writes, &row.deletes, &row.timerWaitPs })
            && !row.table.isEmpty())
            rows.append(row);
    }
    result.warnings
        += m_tables.update(rows, ts, m_config.sourceId, result.batch, m_performanceSchema);
}

void MariadbCollector::collectLocks(const QDeadlineTimer &deadline, PollResult &result)
{
    const auto answer = run(u"InnoDB lock waits"_s, MariadbLocks::query(m_connection.isMariadb()),
                            deadline, result);
    if (!answer)
        return;
    QList<LockSession> sessions = MariadbLocks::sessions(*answer);
    // Our own session never blocks anyone (it is read-only): leave it out.
    sessions.removeIf(
        [&](const LockSession &s) { return s.pid == int(m_connection.connectionId()); });
    publishBlockingTree(buildBlockingTree(sessions), MariadbLocks::Series, m_config.sourceId,
                        result.batch);
}

void MariadbCollector::collectSessionCpu(const QDeadlineTimer &deadline, PollResult &result)
{
    if (!m_sessionCpu.checked()) {
        const MariadbResult own = m_connection.exec(MariadbSessionCpu::ownThreadQuery(), deadline);
        if (!m_connection.isConnected()) {
            result.error = u"performance_schema.threads: "_s + own.error();
            return;
        }
        m_sessionCpu.check(own.ok() && own.rows() == 1 ? std::optional<QString>(own.text(0, 0))
                                                       : std::nullopt);
    }
    if (const auto why = m_sessionCpu.whyNotLocal()) {
        result.notes << u"session CPU: not read: "_s + *why;
        return;
    }
    const auto threads = run(u"performance_schema.threads (session CPU)"_s,
                             MariadbSessionCpu::query(), deadline, result);
    if (threads)
        m_sessionCpu.publish(*threads, m_config.sourceId, result);
}

} // namespace Headroom
