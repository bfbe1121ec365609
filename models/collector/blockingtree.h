// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Who blocks whom, for any database that can say which sessions a session waits on:
// PostgreSQL's pg_blocking_pids(), InnoDB's lock waits. A root blocker blocks others and
// waits on none: the maintenance transaction that holds the rows five writers queue
// for, the session an engineer has to find in a lock storm. Published as:
//   <prefix>.blocked                 sessions waiting on a lock another session holds
//   <prefix>.root_blockers           sessions at the root of such a wait
//   <prefix>.root_blocked{root}      sessions waiting behind that root, directly or not
//   <prefix>.root_blocked_direct{root}  of them, those waiting on the root itself
//   <prefix>.root_xact_age_s{root}   how long the root's transaction has been open
// where {root} is pid, application, user, client and query, and for every session in a
// chain of waits, roots included, the tree's nodes:
//   <prefix>.session_xact_age_s{pid, blocked_by, application, user, client, state,
//                               wait, query}
// (blocked_by: the first pid it waits on, none for a root), which the blocking tree
// panel (query/locks/blockingtree.h) builds its tree from. A root's series end when it
// stops blocking (a gap, not a 0).
#pragma once

#include "core/sample.h"

#include <QList>
#include <QString>

namespace Headroom {

struct LockSession
{
    int pid = 0; // PostgreSQL's backend pid, MariaDB's connection id
    QList<int> blockedBy; // empty for a session that does not wait
    QString application;
    QString user;
    QString client; // empty for a Unix socket
    QString state;
    QString waitEvent; // what it waits on ("Type:Event"), empty when not waiting
    double xactAgeS = -1; // < 0: no transaction open
    QString query; // already fit to be a label: normalized, no literals
};

struct RootBlocker
{
    LockSession session;
    int blockedDirectly = 0;
    int blockedInAll = 0; // every session whose chain of waits leads to this root
};

struct BlockingTree
{
    int blocked = 0; // sessions that wait on another session's lock
    QList<RootBlocker> roots; // most sessions blocked first, then by pid
    QList<LockSession> sessions; // every session in a chain of waits, by pid
};

// The roots and their counts. Sessions that only wait on each other (a deadlock the
// server has not broken yet) have no root; they still count as blocked.
BlockingTree buildBlockingTree(const QList<LockSession> &sessions);

struct BlockingTreeSeries
{
    QString metricPrefix; // "pg.locks"
    QString resource; // the server's resource name
    QString sessionsUnit;
    // At most this many roots get series of their own (the ones blocking most), and
    // this many sessions a node series (the lowest pids: a storm of thousands of
    // waiters is named by its roots).
    int maxRoots = 20;
    int maxSessions = 200;
};

void publishBlockingTree(const BlockingTree &tree, const BlockingTreeSeries &series,
                         const QString &source, SampleBatch &batch);

} // namespace Headroom
