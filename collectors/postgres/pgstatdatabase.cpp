// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgstatdatabase.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

const std::array<PgDatabaseCounter, PgStatDatabaseRates::CounterCount> &
PgStatDatabaseRates::counters()
{
    static const std::array<PgDatabaseCounter, CounterCount> list { {
        { "xact_commit", u"pg.db.commits.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "xact_rollback", u"pg.db.rollbacks.rate"_s, u"1/s"_s, UseKind::Errors },
        { "blks_read", u"pg.db.blks_read.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "blks_hit", u"pg.db.blks_hit.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "tup_returned", u"pg.db.tup_returned.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "tup_fetched", u"pg.db.tup_fetched.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "tup_inserted", u"pg.db.tup_inserted.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "tup_updated", u"pg.db.tup_updated.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "tup_deleted", u"pg.db.tup_deleted.rate"_s, u"1/s"_s, UseKind::Throughput },
        { "temp_files", u"pg.db.temp_files.rate"_s, u"1/s"_s, UseKind::Saturation },
        { "temp_bytes", u"pg.db.temp_bytes.rate"_s, u"B/s"_s, UseKind::Saturation },
        { "deadlocks", u"pg.db.deadlocks.rate"_s, u"1/s"_s, UseKind::Errors },
        { "conflicts", u"pg.db.conflicts.rate"_s, u"1/s"_s, UseKind::Errors },
    } };
    return list;
}

QByteArray PgStatDatabaseRates::query()
{
    QByteArray sql = "SELECT datname, coalesce(stats_reset::text, '')";
    for (const PgDatabaseCounter &counter : counters())
        sql += ", " + QByteArray(counter.column);
    // The row with a NULL datname holds shared-catalog activity; template databases
    // see no user work and would only add idle lines.
    sql += " FROM pg_stat_database"
           " WHERE datname IS NOT NULL AND datname NOT IN ('template0', 'template1')"
           " ORDER BY datname";
    return sql;
}

QString PgStatDatabaseRates::counterKey(const QString &datname, int index)
{
    // A database name cannot contain NUL, so this cannot collide.
    return datname + QChar(u'\0') + QString::number(index);
}

void PgStatDatabaseRates::forget(const QString &datname)
{
    for (int i = 0; i < CounterCount; ++i)
        m_rates.forget(counterKey(datname, i));
}

void PgStatDatabaseRates::clear()
{
    m_rates.clear();
    m_known.clear();
    m_ownAccounted = 0;
    m_ownTaken = 0;
}

double PgStatDatabaseRates::takeOwnRollbacks(double rise, const PgOwnRollbacks &own)
{
    // A new session counts from 0 again; anything older is forgotten.
    m_ownAccounted = std::clamp(m_ownAccounted, own.count - MaxPendingOwnRollbacks, own.count);
    const double take = std::clamp(rise, 0.0, double(own.count - m_ownAccounted));
    m_ownAccounted += qint64(take);
    return take;
}

void PgStatDatabaseRates::update(const QList<Row> &rows, qint64 tsMs, const QString &source,
                                 SampleBatch &batch, const PgOwnRollbacks &own)
{
    QHash<QString, Known> seen;
    for (const Row &row : rows) {
        const auto known = m_known.constFind(row.datname);
        bool reset = false;
        if (known != m_known.cend()) {
            reset = known->statsReset != row.statsReset;
            for (int i = 0; i < CounterCount && !reset; ++i)
                reset = row.values[size_t(i)] < known->values[size_t(i)];
        }
        // A counter that did not go down may still have been reset and climbed past its
        // old value within the interval: stats_reset says so, so drop every baseline of
        // the database, not just the counters that fell.
        if (reset)
            forget(row.datname);
        seen.insert(row.datname, { row.statsReset, row.values });
        // Our own rollbacks come out of the counter before it becomes a rate.
        std::array<double, CounterCount> values = row.values;
        if (row.datname == own.datname) {
            if (reset || known == m_known.cend())
                m_ownTaken = 0;
            else
                m_ownTaken += takeOwnRollbacks(
                    row.values[RollbackIndex] - known->values[RollbackIndex], own);
            values[RollbackIndex] -= m_ownTaken;
        }

        const Labels labels { { u"datname"_s, row.datname } };
        const QString resource = u"db:"_s + row.datname;
        for (int i = 0; i < CounterCount; ++i) {
            const auto rate = m_rates.update(counterKey(row.datname, i), values[size_t(i)], tsMs);
            if (!rate || reset)
                continue;
            const PgDatabaseCounter &counter = counters()[size_t(i)];
            batch.add({ source, counter.metric, labels }, counter.unit, resource, counter.kind,
                      *rate);
        }
    }
    // Dropped databases leave no baselines behind; a re-created one starts clean.
    for (auto it = m_known.cbegin(); it != m_known.cend(); ++it) {
        if (!seen.contains(it.key()))
            forget(it.key());
    }
    m_known = std::move(seen);
}

} // namespace Headroom
