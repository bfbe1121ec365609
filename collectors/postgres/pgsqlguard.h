// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What SQL from a dashboard file may run, and how it is run. A dashboard is untrusted
// input (it may come from a colleague's mail or a ticket), so its queries and latency
// probe are held three ways:
//  - screened when the file is opened: one statement that starts as a query (SELECT,
//    WITH, VALUES, TABLE), naming none of the functions below, which change the server
//    even inside a read-only transaction;
//  - run as a sub-select ("SELECT q.* FROM (\n<sql>\n) q ..."), which no utility
//    statement (COMMIT, SET, COPY ... TO PROGRAM) and no data-modifying WITH survives,
//    through the extended protocol (one statement per message), with a row limit and a
//    size limit per row enforced by the server, so a huge result never reaches us;
//  - inside a READ ONLY transaction that is always rolled back, the session's state
//    checked after each statement (PgReadOnlyCheck in pgcustomqueries.h).
#pragma once

#include <QByteArray>
#include <QLatin1StringView>
#include <QList>
#include <QString>
#include <optional>

namespace Headroom {

// A function a dashboard query may not call. The one list: the screen, docs/security.md
// and the tests all read it.
struct RefusedFunction
{
    QLatin1StringView name;
    bool prefix; // refuses every function whose name starts with `name`
    QLatin1StringView effect; // "terminates other sessions"
};

const QList<RefusedFunction> &refusedFunctions();

// nullopt when `sql` may run as a dashboard query or probe, else why not, e.g.
// "COMMIT statements are not run: ..." or "calls pg_terminate_backend(), which
// terminates other sessions; ...".
std::optional<QString> refuseDashboardSql(const QString &sql);

// A dashboard query as it is sent: at most maxRows rows of at most maxRowBytes bytes
// each (as text); a larger row fails the query with a message that says so.
QByteArray limitedQuerySql(const QString &sql, int maxRows, int maxRowBytes);
// The probe as it is sent: the whole query runs, one row (the row count) comes back.
QByteArray probeSql(const QString &sql);

} // namespace Headroom
