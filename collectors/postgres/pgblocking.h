// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Who blocks whom: the sessions that wait on a heavyweight lock (wait_event_type Lock),
// each with pg_blocking_pids(), and the sessions they wait for, read in one query per
// poll, published by collector/blockingtree.h as:
//   pg.locks.blocked                 sessions waiting on a lock another session holds
//   pg.locks.root_blockers           sessions at the root of such a wait
//   pg.locks.root_blocked{root}      sessions waiting behind that root, directly or not
//   pg.locks.root_blocked_direct{root}  of them, those waiting on the root itself
//   pg.locks.root_xact_age_s{root}   how long the root's transaction has been open
// where {root} is pid, application, user, client and query (its text normalized: the
// constants are parameters, as pg_stat_statements shows it; 200 characters at most),
// and for every session in a chain of waits, roots included, the tree's nodes:
//   pg.locks.session_xact_age_s{pid, blocked_by, application, user, client, state,
//                               wait, query}
// (blocked_by: the first pid it waits on, none for a root; wait: "Type:Event"), which
// the blocking tree panel (query/locks/blockingtree.h) builds its tree from.
// A root's series end when it stops blocking (a gap, not a 0: pids are not reused as
// names for long). Sessions of other roles need pg_monitor to show their query text.
#pragma once

#include "collector/blockingtree.h"
#include "pgpoll.h"

#include <QList>
#include <QString>

namespace Headroom {

// The tree itself is database-neutral (collector/blockingtree.h).
using PgLockSession = LockSession;
using PgRootBlocker = RootBlocker;
using PgBlockingTree = BlockingTree;

// "{12,345}" (an int[] as text) to pids; anything that is not a pid is left out.
QList<int> parsePidArray(const QString &text);

class PgBlockingPart : public PgPart
{
public:
    // At most this many roots get series of their own (the ones blocking most), and
    // this many sessions a node series (the lowest pids: a storm of thousands of
    // waiters is named by its roots).
    static constexpr int MaxRoots = 20;
    static constexpr int MaxSessions = 200;

    // Columns: pid, blockers (int[] as text), application_name, usename, client_addr,
    // state, "wait_event_type:wait_event", transaction age s, query.
    static QByteArray query();
    static void publish(const PgBlockingTree &tree, const QString &source, SampleBatch &batch);

    void collect(PgPoll &poll) override;
    void resetBaselines() override { }
};

} // namespace Headroom
