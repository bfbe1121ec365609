// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The blocking tree panel's query and CSV rows, called by its descriptor
// (query/panels/blockingtreepanel.cpp).
//
// The panel's selectors name the session series (<family>.session_xact_age_s, family
// pg.locks or mariadb.locks). For each source, the tree is that of its newest poll in
// the last BlockingTreeLookbackMs of the range: the newest sample of the source's
// <family>.blocked (published every poll, so a
// chain that has ended shows as no tree, not as the last one seen), else the newest of
// its session series. A session whose blocker is not among the nodes (left out by the
// collector's cap) is drawn as a root.
#pragma once

#include "query/locks/blockingtreedata.h"
#include "query/panelquery.h"

#include <QHash>

namespace Headroom {

inline constexpr qint64 BlockingTreeLookbackMs = 5 * 60'000;

// The tree of the newest sample per series: (series, newest sample) of every session
// series read, and the poll time per source the tree is of.
struct BlockingSessionSample
{
    SeriesInfo info;
    Sample sample;
};
BlockingTreeData buildBlockingTreeData(const QList<BlockingSessionSample> &samples,
                                       const QHash<QString, qint64> &pollOfSource);

PanelData queryBlockingTreePanel(const DashboardPanel &panel, const SeriesRegistry &registry,
                                 const SeriesStore &store, qint64 fromMs, qint64 toMs);

// One row per node, depth first: at the tree's poll time, metric "<family>.session",
// labels {pid, blocked_by (none for a root), depth, application, user, client, state,
// wait, query}, value the sessions below it, unit "sessions".
QString blockingTreeCsvRows(const PanelData &data);

} // namespace Headroom
