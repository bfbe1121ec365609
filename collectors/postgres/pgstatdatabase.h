// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// pg_stat_database rows to per-second rates, safe across stats resets: when a
// database's stats_reset changes or any of its counters goes down, its baselines are
// dropped and that interval yields no rate (a gap), never a negative value or a spike.
#pragma once

#include "collector/counterrate.h"
#include "core/sample.h"

#include <QHash>
#include <QList>
#include <QString>
#include <array>

namespace Headroom {

struct PgDatabaseCounter
{
    const char *column; // in pg_stat_database
    QString metric;
    QString unit;
    UseKind kind;
};

// The watching session's own rollbacks (PgConnection::ownRollbacks, cumulative) in the
// database it is connected to.
struct PgOwnRollbacks
{
    QString datname;
    qint64 count = 0;
};

class PgStatDatabaseRates
{
public:
    static constexpr int CounterCount = 13;
    static constexpr size_t RollbackIndex = 1; // xact_rollback in counters()
    static const std::array<PgDatabaseCounter, CounterCount> &counters();
    // SELECT datname, stats_reset::text, <counters() columns in order> FROM ...
    static QByteArray query();

    struct Row
    {
        QString datname;
        QString statsReset; // text; empty when NULL
        std::array<double, CounterCount> values {};
    };

    // At most this many of our own rollbacks wait to be seen in xact_rollback: more
    // than a statistics flush can hold back, few enough that they can never hide more
    // than a minute of one rollback per second.
    static constexpr qint64 MaxPendingOwnRollbacks = 60;

    // Adds the rates of `rows` at tsMs to batch under `source`. The rollback rate of
    // own.datname leaves out our own rollbacks: each rise of xact_rollback there first
    // pays off the ones we ended and the server has not yet counted (a backend flushes
    // its statistics at most once a second, and when idle up to 10 s later), so an
    // idle database watched by Headroom shows no rollbacks, and others' rollbacks all
    // show, some up to a flush later when ours and theirs arrive mixed.
    void update(const QList<Row> &rows, qint64 tsMs, const QString &source, SampleBatch &batch,
                const PgOwnRollbacks &own = {});
    // Forget every baseline (new session, maybe a different server).
    void clear();

private:
    struct Known
    {
        QString statsReset;
        std::array<double, CounterCount> values {};
    };
    static QString counterKey(const QString &datname, int index);
    void forget(const QString &datname);

    // How much of a rise of xact_rollback in own.datname is ours (see update).
    double takeOwnRollbacks(double rise, const PgOwnRollbacks &own);

    CounterRate m_rates;
    QHash<QString, Known> m_known;
    qint64 m_ownAccounted = 0; // of own.count: already taken out, or given up on
    double m_ownTaken = 0; // taken out of own.datname's xact_rollback since its baseline
};

} // namespace Headroom
