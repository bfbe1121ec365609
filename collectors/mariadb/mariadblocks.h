// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Who blocks whom in InnoDB: every open transaction (information_schema.INNODB_TRX)
// with its connection (PROCESSLIST) and the transactions it waits for
// (information_schema.INNODB_LOCK_WAITS on MariaDB, performance_schema.data_lock_waits
// on MySQL 8), read in one query per poll and published as the tree of
// collector/blockingtree.h under mariadb.locks.*: pid is the connection id (what KILL
// takes), user and client (host, without the port) who it is, query the statement it
// runs with every literal masked, state its command (Query, Sleep) and wait "Lock:row"
// while it waits. Needs PROCESS (INNODB_TRX refuses the query without it).
#pragma once

#include "collector/blockingtree.h"

#include <QByteArray>
#include <QString>

namespace Headroom {

class MariadbResult;

struct MariadbLocks
{
    static inline const BlockingTreeSeries Series { QStringLiteral("mariadb.locks"),
                                                    QStringLiteral("mariadb"),
                                                    QStringLiteral("sessions") };

    // Columns: connection id, blocker connection ids (comma-separated, or NULL), user,
    // host, command, trx_state, transaction age s, statement.
    static QByteArray query(bool mariadb);
    static QList<LockSession> sessions(const MariadbResult &result);
};

// A statement as a label: every string and number literal becomes ?, comments go, runs
// of white space become one space; cut at maxChars (and at a literal that does not end)
// with "…". What a session sent may hold secrets; this keeps only its shape.
QString maskStatementLiterals(const QString &text, qsizetype maxChars = 200);

} // namespace Headroom
