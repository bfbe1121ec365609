// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Findings of what causes other findings, built from series that raise nothing of their
// own (contributors.h): the cause chain (causechain.h) puts them before the findings they
// explain.
// - A root blocker: a session that blocks others and waits on none, from a database's
//   blocking tree (<prefix>.root_blocked{pid, application, user, client, query},
//   collector/blockingtree.h). One finding per source and pid: "5 sessions wait behind
//   pid 4242 (nightly-maintenance, user maint) since 23:12:11 UTC, which runs: DELETE
//   FROM ...", since its first bin (since before the start of the data when it blocked
//   from the first polls), the most sessions it held up at once, how long its
//   transaction had been open. Resource "PostgreSQL session pid 4242" ("MariaDB session
//   ..." for mariadb.locks). On its own a change: what it blocked (the lock waits) makes
//   it a bottleneck once the chain links them.
// - A process behind a host's raised CPU finding: the process of the same source that
//   took the most CPU over the finding's span, when it rose by at least half of one CPU
//   and to at least twice its level before (a process that was busy all along did not
//   cause a change). "hrhog (pid 4242, user ops) rose from 0 % to 190 % of one CPU at
//   23:12:11 UTC", since the first bin past halfway, at most ChainPolls bins from the
//   CPU finding's onset (a process that rose later is carried, not the cause).
//   Resource "process hrhog (pid 4242)"; a change on its own as well. The processes of a
//   database server whose sessions the dashboard has (contributors.h) lead nothing: the
//   CPU's finding names the sessions.
#pragma once

#include "query/analysis/findings.h"

#include <QHash>
#include <optional>
#include <span>
#include <vector>

namespace Headroom::Analysis {

// A series of a blocking tree's roots (<prefix>.root_blocked, .root_blocked_direct,
// .root_xact_age_s): the root blocker's, no signal of its own.
bool isRootBlockerSeries(const SeriesInfo &info);

// The root blockers of every source in tracks, the most sessions blocked first.
// dataStartMs: per source, the first bin of its data (a root there blocked before it).
std::vector<Finding> rootBlockerFindings(std::span<const SeriesTrack> tracks,
                                         const QHash<QString, qint64> &dataStartMs);

// The process that caused `cpu` (a raised finding of a host's CPU), if one did.
std::optional<Finding> processLead(const Finding &cpu, std::span<const SeriesTrack> tracks);

} // namespace Headroom::Analysis
