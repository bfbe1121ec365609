// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the blocking tree panel shows: who blocks whom at the newest poll of a range,
// one node per session in a chain of lock waits (a collector's
// <family>.session_xact_age_s series: pg.locks, mariadb.locks; see
// collector/blockingtree.h), each root with the sessions waiting on it below it.
#pragma once

#include <QList>
#include <QString>

namespace Headroom {

struct BlockingNode
{
    QString source;
    QString family; // the series' metric family: "pg.locks", "mariadb.locks"
    int pid = 0;
    int blockedBy = 0; // the pid it waits on; 0 for a root
    QString application;
    QString user;
    QString client; // empty over a Unix socket
    QString state;
    QString wait; // "Type:Event", empty when not waiting
    QString query; // normalized (constants as $n or ?)
    double xactAgeS = 0;
    int blockedInAll = 0; // sessions below it in the tree
    int depth = 0; // 0 for a root
    int parent = -1; // index in BlockingTreeData::nodes; -1 for a root
    QList<int> children; // indices, by pid
};

struct BlockingTreeData
{
    qint64 atMs = 0; // the poll the tree is of; 0 when the range has none
    // Depth first: each root followed by its subtree; roots blocking most first, then by
    // source and pid; children by pid.
    QList<BlockingNode> nodes;
    QList<int> roots; // indices of the roots, in order

    bool isEmpty() const { return nodes.isEmpty(); }
};

} // namespace Headroom
