// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The server's USE figures from SHOW GLOBAL STATUS and SHOW GLOBAL VARIABLES:
//   mariadb.threads.connected, mariadb.threads.running, mariadb.connections.max and
//   mariadb.connections.utilization (% of max_connections)          utilization
//   mariadb.row_lock.waits.rate, mariadb.row_lock.time.rate (ms/s),
//   mariadb.row_lock.current_waits, mariadb.tmp_disk_tables.rate,
//   mariadb.buffer_pool.disk_reads.rate                              saturation
//   mariadb.aborted_connects.rate, mariadb.aborted_clients.rate      errors
//   mariadb.buffer_pool.hit_ratio (%: read requests served from memory),
//   mariadb.handler.read_rnd_next.rate (rows read by full scans), mariadb.select_scan.rate,
//   mariadb.rows.sent.rate and mariadb.full_scan.rows_per_row_sent (the plan-flip
//   signal: rows a scan reads for each row a client gets), mariadb.queries.rate,
//   mariadb.slow_queries.rate                                        info
// Every rate is reset-safe (FLUSH STATUS, a restart): the interval gives a gap, never a
// negative value or a spike. Resource "mariadb" (the server).
#pragma once

#include "collector/counterrate.h"
#include "core/sample.h"

#include <QHash>
#include <QString>

namespace Headroom {

class MariadbServerStatus
{
public:
    static inline const QString Resource = QStringLiteral("mariadb");

    // `status` and `variables` by name as the server spells them (Threads_connected,
    // max_connections); a missing or non-numeric one leaves its series out.
    void update(const QHash<QString, QString> &status, const QHash<QString, QString> &variables,
                const QString &source, qint64 tsMs, SampleBatch &batch);
    void clear() { m_rates.clear(); }

private:
    CounterRate m_rates;
};

} // namespace Headroom
