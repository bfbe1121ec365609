// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgactivity.h"

#include <QMap>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

const QStringList &PgActivitySampler::contentionClasses()
{
    static const QStringList classes { u"BufferPin"_s, u"IO"_s, u"IPC"_s, u"LWLock"_s, u"Lock"_s };
    return classes;
}

PgActivitySampler::PgActivitySampler()
{
    for (const QString &waitClass : contentionClasses())
        m_seenWaitClasses.insert(waitClass);
}

QByteArray PgActivitySampler::query()
{
    // Without pg_monitor, other roles' rows come back with NULL state and this marker
    // in query instead of an error; counting them would misreport, so they are flagged.
    return "SELECT coalesce(state, ''), coalesce(wait_event_type, ''),"
           " coalesce(wait_event, ''), coalesce(backend_type, ''),"
           " query = '<insufficient privilege>',"
           " extract(epoch FROM now() - xact_start)::float8,"
           " extract(epoch FROM now() - query_start)::float8"
           " FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND pid <> $1::int";
}

int PgActivitySampler::update(const QList<Row> &rows, const QString &source, SampleBatch &batch)
{
    const auto add
        = [&](const QString &metric, const Labels &labels, const QString &unit, double value) {
              batch.add({ source, metric, labels }, unit, Resource, UseKind::Saturation, value);
          };

    QMap<QString, int> states;
    QMap<QString, int> waits;
    QMap<QString, int> waitClasses;
    int working = 0; // active sessions that can wait: the share's denominator
    double oldestXact = 0;
    double longestQuery = 0;
    int hidden = 0;
    for (const Row &row : rows) {
        if (row.hidden) {
            ++hidden;
            continue;
        }
        const bool client = row.backendType == "client backend"_L1;
        if (client && !row.state.isEmpty())
            states[row.state] += 1;
        // Waits of sessions doing work: client backends, their parallel workers and
        // (auto)vacuum. Walsenders sit "active" in their idle main loop and would only
        // add noise.
        const bool canWait = row.state == "active"_L1 && row.backendType != "walsender"_L1;
        // A session in pg_sleep() asked to wait: it queues on nothing, so it is no part
        // of the share (sessions holding a slot while they sleep would otherwise read
        // as a Timeout queue of 100 %). Its wait is still counted.
        const bool sleeping = row.waitEventType == "Timeout"_L1 && row.waitEvent == "PgSleep"_L1;
        working += canWait && !sleeping ? 1 : 0;
        if (canWait && !row.waitEventType.isEmpty()) {
            waits[row.waitEventType + u':' + row.waitEvent] += 1;
            if (!sleeping)
                waitClasses[row.waitEventType] += 1;
        }
        if (client) {
            // now() is our statement's start; a transaction that began after it would
            // have a slightly negative age.
            oldestXact = std::max(oldestXact, row.xactAgeS);
            if (row.state == "active"_L1)
                longestQuery = std::max(longestQuery, row.queryAgeS);
        }
    }
    for (auto it = states.cbegin(); it != states.cend(); ++it)
        m_seenStates.insert(it.key());
    for (auto it = waits.cbegin(); it != waits.cend(); ++it)
        m_seenWaits.insert(it.key());
    // Counts of sessions, in a unit of their own: a plain number would be judged by the
    // per-CPU bounds of a run queue, where one active session is already a warning.
    for (const QString &state : std::as_const(m_seenStates))
        add(u"pg.activity.sessions"_s, { { u"state"_s, state } }, SessionsUnit,
            states.value(state, 0));
    for (const QString &wait : std::as_const(m_seenWaits))
        add(u"pg.activity.waiting"_s, { { u"wait"_s, wait } }, SessionsUnit, waits.value(wait, 0));
    // Share of the active sessions waiting in each class (Lock, LWLock, IO, ...): one
    // class holding most of them is a queue on one resource. Below MinSessionsForShare
    // active sessions one waiting session would read as 100 %, so the share is 0.
    for (const QString &wait : std::as_const(m_seenWaits))
        m_seenWaitClasses.insert(wait.section(u':', 0, 0));
    for (const QString &waitClass : std::as_const(m_seenWaitClasses)) {
        const double share = working >= MinSessionsForShare
            ? 100.0 * waitClasses.value(waitClass, 0) / working
            : 0.0;
        add(u"pg.activity.wait_class_share"_s, { { u"class"_s, waitClass } }, u"%"_s, share);
    }
    add(u"pg.activity.oldest_xact_age_s"_s, {}, u"s"_s, oldestXact);
    add(u"pg.activity.longest_query_age_s"_s, {}, u"s"_s, longestQuery);
    return hidden;
}

} // namespace Headroom
