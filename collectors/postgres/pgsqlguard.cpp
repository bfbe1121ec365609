// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgsqlguard.h"

#include "pgsqllexer.h"

#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

const QList<RefusedFunction> &refusedFunctions()
{
    // Functions that read-only transactions allow but that act on the server, other
    // sessions, files or other hosts, or that run SQL text the screen cannot see.
    static const QList<RefusedFunction> list {
        { "pg_terminate_backend"_L1, false, "terminates other sessions"_L1 },
        { "pg_cancel_backend"_L1, false, "cancels other sessions' queries"_L1 },
        { "pg_signal_backend"_L1, false, "signals other sessions"_L1 },
        { "pg_reload_conf"_L1, false, "reloads the server's configuration"_L1 },
        { "pg_rotate_logfile"_L1, false, "rotates the server's log file"_L1 },
        { "pg_switch_wal"_L1, false, "forces a WAL segment switch"_L1 },
        { "pg_promote"_L1, false, "promotes a standby"_L1 },
        { "pg_wal_replay_pause"_L1, false, "pauses WAL replay"_L1 },
        { "pg_wal_replay_resume"_L1, false, "resumes WAL replay"_L1 },
        { "pg_backup_start"_L1, false, "starts a backup"_L1 },
        { "pg_backup_stop"_L1, false, "stops a backup"_L1 },
        { "pg_start_backup"_L1, false, "starts a backup"_L1 },
        { "pg_stop_backup"_L1, false, "stops a backup"_L1 },
        { "pg_create_"_L1, true, "creates restore points or replication slots"_L1 },
        { "pg_drop_replication_slot"_L1, false, "drops a replication slot"_L1 },
        { "pg_copy_"_L1, true, "copies a replication slot"_L1 },
        { "pg_replication_slot_advance"_L1, false, "advances a replication slot"_L1 },
        { "pg_logical_slot_get_"_L1, true, "consumes a replication slot's changes"_L1 },
        { "pg_logical_emit_message"_L1, false, "writes to the WAL"_L1 },
        { "pg_replication_origin_"_L1, true, "changes replication origins"_L1 },
        { "pg_sync_replication_slots"_L1, false, "synchronises replication slots"_L1 },
        { "pg_log_backend_memory_contexts"_L1, false, "writes to the server's log"_L1 },
        { "pg_import_system_collations"_L1, false, "adds collations"_L1 },
        { "pg_advisory_"_L1, true, "takes advisory locks that outlive the query"_L1 },
        { "pg_try_advisory_"_L1, true, "takes advisory locks that outlive the query"_L1 },
        { "pg_stat_reset"_L1, true, "resets statistics other tools rely on"_L1 },
        { "pg_stat_statements_reset"_L1, false, "resets statistics other tools rely on"_L1 },
        { "set_config"_L1, false, "changes the session's settings"_L1 },
        { "pg_notify"_L1, false, "sends notifications to other sessions"_L1 },
        { "nextval"_L1, false, "advances a sequence"_L1 },
        { "setval"_L1, false, "sets a sequence"_L1 },
        { "lo_"_L1, true, "reads, writes or deletes large objects and server files"_L1 },
        { "lowrite"_L1, false, "writes a large object"_L1 },
        { "loread"_L1, false, "reads a large object"_L1 },
        { "pg_read_file"_L1, false, "reads files on the database server"_L1 },
        { "pg_read_binary_file"_L1, false, "reads files on the database server"_L1 },
        { "pg_file_"_L1, true, "writes, renames or deletes files on the database server"_L1 },
        { "dblink"_L1, true, "connects to other servers"_L1 },
        { "query_to_xml"_L1, true, "runs SQL text"_L1 },
        { "cursor_to_xml"_L1, true, "reads a cursor"_L1 },
        { "ts_stat"_L1, false, "runs SQL text"_L1 },
        { "ts_rewrite"_L1, false, "runs SQL text"_L1 },
        { "crosstab"_L1, true, "runs SQL text"_L1 },
        { "connectby"_L1, false, "builds and runs SQL from its arguments"_L1 },
    };
    return list;
}

namespace {

// Extensions' resets (pg_qualstats_reset, pg_wait_sampling_reset_profile,
// pg_stat_kcache_reset ...) follow one naming habit; the list cannot name them all.
bool isExtensionReset(const QString &name)
{
    return name.startsWith("pg_"_L1) && name.contains("_reset"_L1);
}

std::optional<QString> refusedCall(const QString &name)
{
    const auto &list = refusedFunctions();
    const auto hit = std::find_if(list.cbegin(), list.cend(), [&](const RefusedFunction &f) {
        return f.prefix ? name.startsWith(f.name) : name == f.name;
    });
    if (hit != list.cend())
        return u"calls %1(), which %2"_s.arg(name, hit->effect);
    if (isExtensionReset(name))
        return u"calls %1(), which resets statistics other tools rely on"_s.arg(name);
    return std::nullopt;
}

const QString ReadOnlyReason
    = u"dashboard queries run in Headroom's read-only monitoring session"_s;

} // namespace

std::optional<QString> refuseDashboardSql(const QString &sql)
{
    const SqlLexResult lexed = lexSql(sql);
    if (!lexed.error.isEmpty())
        return u"cannot be read: %1"_s.arg(lexed.error);
    if (lexed.tokens.isEmpty())
        return u"expected a query"_s;
    const SqlToken &first = lexed.tokens.constFirst();
    static const QSet<QString> queryStarts { u"select"_s, u"with"_s, u"values"_s, u"table"_s };
    const bool query = (first.kind == SqlToken::Kind::Name && queryStarts.contains(first.text))
        || (first.kind == SqlToken::Kind::Symbol && first.text == "("_L1);
    if (!query) {
        const QString what = first.kind == SqlToken::Kind::Name ? first.text.toUpper() : u"such"_s;
        return u"%1 statements are not run: %2"_s.arg(what, ReadOnlyReason);
    }
    // The query is sent inside "SELECT q.* FROM (\n<sql>\n) q ...": a ")" that closes
    // more than it opened would end that sub-select early and put the rest outside
    // its limits (a UNION after it), and ";" has no business in one query.
    int depth = 0;
    for (const SqlToken &token : lexed.tokens) {
        if (token.kind != SqlToken::Kind::Symbol)
            continue;
        if (token.text == ";"_L1)
            return u"holds a \";\" at character %1: a dashboard query is one statement"_s.arg(
                token.begin + 1);
        depth += token.text == "("_L1 ? 1 : token.text == ")"_L1 ? -1 : 0;
        if (depth < 0)
            return u"closes a parenthesis it did not open, at character %1"_s.arg(token.begin + 1);
    }
    if (depth != 0)
        return u"leaves %1 parenthesis(es) open"_s.arg(depth);
    // Every name, called or not: a quoted, schema-qualified or U&-escaped spelling is
    // one name token here, and a column that shares such a name is rare enough.
    for (const SqlToken &token : lexed.tokens) {
        if (!token.isName())
            continue;
        // UESCAPE changes how a U&"..." name decodes, in forms (a comment or an E''
        // literal before the character) the lexer does not follow: not needed to read.
        if (token.kind == SqlToken::Kind::Name && token.text == "uescape"_L1)
            return u"uses UESCAPE, which dashboard queries may not"_s;
        if (const auto refused = refusedCall(token.text))
            return *refused + u"; "_s + ReadOnlyReason + u" and may only read"_s;
    }
    return std::nullopt;
}

// The newlines keep a trailing -- comment in `sql` from swallowing the rest. Built by
// concatenation: QString::arg would also replace a "%3" written in the dashboard's SQL.
QByteArray limitedQuerySql(const QString &sql, int maxRows, int maxRowBytes)
{
    // The CASE evaluates its failing branch only for a row over the limit (a constant
    // there would be folded, and fail, at plan time): the cast error carries our text.
    const QByteArray size = "octet_length(headroom_q.*::text)";
    const QByteArray limit = QByteArray::number(maxRowBytes);
    return "SELECT headroom_q.* FROM (\n" + sql.toUtf8() + "\n) AS headroom_q WHERE CASE WHEN "
        + size + " <= " + limit + " THEN true ELSE ('headroom: a result row of ' || " + size
        + " || ' bytes is over the " + limit + "-byte limit')::int IS NULL END LIMIT "
        + QByteArray::number(maxRows);
}

QByteArray probeSql(const QString &sql)
{
    return "SELECT count(*) FROM (\n" + sql.toUtf8() + "\n) AS headroom_probe";
}

} // namespace Headroom
