// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadbstatus.h"

#include <optional>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

std::optional<double> numberIn(const QHash<QString, QString> &values, const QString &name)
{
    const auto it = values.constFind(name);
    if (it == values.cend())
        return std::nullopt;
    bool ok = false;
    const double value = it->trimmed().toDouble(&ok);
    return ok && value >= 0 ? std::optional<double>(value) : std::nullopt;
}

struct Counter
{
    const char16_t *status;
    const char16_t *metric;
    const char16_t *unit;
    UseKind kind;
    double scale = 1; // Innodb_row_lock_time is in ms already: ms/s
};

// Status counters published as per-second rates.
constexpr Counter Counters[] = {
    { u"Innodb_row_lock_waits", u"mariadb.row_lock.waits.rate", u"1/s", UseKind::Saturation },
    { u"Innodb_row_lock_time", u"mariadb.row_lock.time.rate", u"ms/s", UseKind::Saturation },
    { u"Created_tmp_disk_tables", u"mariadb.tmp_disk_tables.rate", u"1/s", UseKind::Saturation },
    { u"Innodb_buffer_pool_reads", u"mariadb.buffer_pool.disk_reads.rate", u"1/s",
      UseKind::Saturation },
    { u"Aborted_connects", u"mariadb.aborted_connects.rate", u"1/s", UseKind::Errors },
    { u"Aborted_clients", u"mariadb.aborted_clients.rate", u"1/s", UseKind::Errors },
    { u"Handler_read_rnd_next", u"mariadb.handler.read_rnd_next.rate", u"1/s", UseKind::Info },
    { u"Select_scan", u"mariadb.select_scan.rate", u"1/s", UseKind::Info },
    { u"Rows_sent", u"mariadb.rows.sent.rate", u"1/s", UseKind::Info },
    { u"Questions", u"mariadb.queries.rate", u"1/s", UseKind::Info },
    { u"Slow_queries", u"mariadb.slow_queries.rate", u"1/s", UseKind::Info },
};

} // namespace

void MariadbServerStatus::update(const QHash<QString, QString> &status,
                                 const QHash<QString, QString> &variables, const QString &source,
                                 qint64 tsMs, SampleBatch &batch)
{
    const auto add = [&](const QString &metric, const QString &unit, UseKind kind, double value) {
        batch.add({ source, metric, {} }, unit, Resource, kind, value);
    };
    const auto connected = numberIn(status, u"Threads_connected"_s);
    const auto maxConnections = numberIn(variables, u"max_connections"_s);
    if (connected)
        add(u"mariadb.threads.connected"_s, u"threads"_s, UseKind::Utilization, *connected);
    if (const auto running = numberIn(status, u"Threads_running"_s))
        add(u"mariadb.threads.running"_s, u"threads"_s, UseKind::Saturation, *running);
    if (maxConnections)
        add(u"mariadb.connections.max"_s, u"connections"_s, UseKind::Info, *maxConnections);
    if (connected && maxConnections && *maxConnections > 0)
        add(u"mariadb.connections.utilization"_s, u"%"_s, UseKind::Utilization,
            100 * *connected / *maxConnections);
    if (const auto waits = numberIn(status, u"Innodb_row_lock_current_waits"_s))
        add(u"mariadb.row_lock.current_waits"_s, u"sessions"_s, UseKind::Saturation, *waits);

    for (const Counter &c : Counters) {
        const QString name = QString::fromUtf16(c.status);
        const auto value = numberIn(status, name);
        if (!value)
            continue;
        if (const auto rate = m_rates.update(name, *value, tsMs))
            add(QString::fromUtf16(c.metric), QString::fromUtf16(c.unit), c.kind, *rate * c.scale);
    }

    // Ratios of two counters over the interval; nothing when either was reset.
    const auto ratioOf
        = [&](const QString &numerator,
              const QString &denominator) -> std::optional<std::pair<double, double>> {
        const auto n = numberIn(status, numerator);
        const auto d = numberIn(status, denominator);
        if (!n || !d)
            return std::nullopt;
        const auto dn = m_rates.delta(u"ratio:"_s + numerator, *n, tsMs);
        const auto dd = m_rates.delta(u"ratio:"_s + denominator, *d, tsMs);
        if (!dn || !dd || *dd <= 0)
            return std::nullopt;
        return std::pair { *dn, *dd };
    };
    if (const auto r
        = ratioOf(u"Innodb_buffer_pool_reads"_s, u"Innodb_buffer_pool_read_requests"_s))
        add(u"mariadb.buffer_pool.hit_ratio"_s, u"%"_s, UseKind::Info,
            std::clamp(100 * (1 - r->first / r->second), 0.0, 100.0));
    if (const auto r = ratioOf(u"Handler_read_rnd_next"_s, u"Rows_sent"_s))
        add(u"mariadb.full_scan.rows_per_row_sent"_s, u"rows"_s, UseKind::Info,
            r->first / r->second);
}

} // namespace Headroom
