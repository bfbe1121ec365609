// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The mariadb collector: the server's USE figures (mariadbstatus.h), replication lag,
// the busiest statements (mariadbstatements.h), table load and shard sets
// (mariadbtables.h), the InnoDB blocking tree (mariadblocks.h), the CPU of each
// connection's thread where the server is on this machine (mariadbsessioncpu.h) and
// mariadb.up, over one
// read-only Connector/C session that reconnects with backoff. See mariadb.json.
#pragma once

#include "collector/collector.h"
#include "mariadbconnection.h"
#include "mariadboptions.h"
#include "mariadbsessioncpu.h"
#include "mariadbstatements.h"
#include "mariadbstatus.h"
#include "mariadbtables.h"

#include <functional>
#include <memory>

namespace Headroom {

class MariadbCollector : public Collector
{
public:
    using Clock = std::function<qint64()>;

    // Validates config.options and works out the credentials; nullptr and *error when
    // invalid. Never connects.
    static std::unique_ptr<MariadbCollector> create(const CollectorConfig &config, QString *error);

    MariadbCollector(CollectorConfig config, MariadbOptions options, MariadbSettings settings,
                     Clock clock = {});

    PollResult poll(const QDeadlineTimer &deadline) override;

    MariadbConnection &connection() { return m_connection; }

private:
    // nullopt after a warning (or a failed poll, when the session is gone).
    std::optional<MariadbResult> run(const QString &what, const QByteArray &sql,
                                     const QDeadlineTimer &deadline, PollResult &result);
    void collectReplication(const QDeadlineTimer &deadline, PollResult &result);
    void collectStatements(const QDeadlineTimer &deadline, qint64 ts, PollResult &result);
    void collectTables(const QDeadlineTimer &deadline, qint64 ts, PollResult &result);
    void collectLocks(const QDeadlineTimer &deadline, PollResult &result);
    void collectSessionCpu(const QDeadlineTimer &deadline, PollResult &result);

    CollectorConfig m_config;
    MariadbOptions m_options;
    Clock m_clock;
    MariadbSessionCpu m_sessionCpu; // before the connection: made from its target
    MariadbConnection m_connection;
    int m_generation = 0;
    MariadbServerStatus m_status;
    MariadbStatements m_statements;
    MariadbTables m_tables;
    bool m_performanceSchema = false;
    bool m_userStatistics = false; // MariaDB's userstat: table load without performance_schema
};

} // namespace Headroom
