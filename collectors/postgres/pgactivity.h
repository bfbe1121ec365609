// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// pg_stat_activity sampled each poll: sessions by state, active sessions by wait event,
// oldest transaction and longest running query. Wait classes and states seen before
// but absent now are reported as 0, so stacked charts fall to zero instead of keeping
// a stale last value. pg.activity.wait_class_share{class} is the % of active sessions
// waiting in each wait class (what the USE pack's wait-class rule watches).
#pragma once

#include "core/sample.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Headroom {

class PgActivitySampler
{
public:
    // Resource of every pg.activity.* series: server-wide, not one database.
    static inline const QString Resource = QStringLiteral("pg");
    // Unit of pg.activity.sessions and pg.activity.waiting.
    static inline const QString SessionsUnit = QStringLiteral("sessions");
    // pg.activity.wait_class_share is 0 with fewer active sessions than this.
    static constexpr int MinSessionsForShare = 2;

    // Excludes our own backend. Columns: state, wait_event_type, wait_event,
    // backend_type, hidden (other roles' rows we may not see), xact age s, query age s.
    // $1: a pid left out besides our own (the wait sampler's session; 0: none).
    static QByteArray query();

    struct Row
    {
        QString state; // empty when NULL (background processes, hidden rows)
        QString waitEventType;
        QString waitEvent;
        QString backendType;
        bool hidden = false;
        double xactAgeS = -1; // < 0 when no transaction is open
        double queryAgeS = -1;
    };

    // The wait classes whose share is published from the first poll on, 0 until a
    // session waits in them: a class first seen in an incident (a lock storm on a
    // server that never queued on a lock) then rises from 0 instead of starting a
    // series at 83 %, which no onset could be found in. Others appear when first seen.
    static const QStringList &contentionClasses();

    PgActivitySampler();

    // Adds the pg.activity.* series; returns how many rows were hidden from us.
    int update(const QList<Row> &rows, const QString &source, SampleBatch &batch);

private:
    QSet<QString> m_seenStates;
    QSet<QString> m_seenWaits;
    QSet<QString> m_seenWaitClasses;
};

} // namespace Headroom
