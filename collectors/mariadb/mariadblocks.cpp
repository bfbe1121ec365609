// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadblocks.h"

#include "mariadbconnection.h"

namespace Headroom {

using namespace Qt::StringLiterals;

QString maskStatementLiterals(const QString &text, qsizetype maxChars)
{
    QString out;
    bool cut = false;
    const qsizetype n = text.size();
    const auto identifierChar
        = [](QChar c) { return c.isLetterOrNumber() || c == u'_' || c == u'$'; };
    for (qsizetype i = 0; i < n && !cut; ++i) {
        const QChar c = text.at(i);
        if (c == u'\'' || c == u'"') {
            // A literal: backslash escapes and doubled quotes stay inside it.
            qsizetype j = i + 1;
            bool closed = false;
            while (j < n) {
                if (text.at(j) == u'\\') {
                    j += 2;
                } else if (text.at(j) == c) {
                    if (j + 1 < n && text.at(j + 1) == c) {
                        j += 2;
                    } else {
                        closed = true;
                        break;
                    }
                } else {
                    ++j;
                }
            }
            out += u'?';
            cut = !closed;
            i = j;
        } else if (c == u'`') {
            const qsizetype end = text.indexOf(u'`', i + 1);
            if (end < 0) {
                cut = true;
                break;
            }
            out += text.mid(i, end - i + 1);
            i = end;
        } else if (c == u'/' && i + 1 < n && text.at(i + 1) == u'*') {
            const qsizetype end = text.indexOf(u"*/"_s, i + 2);
            if (end < 0)
                break;
            i = end + 1;
            if (!out.endsWith(u' '))
                out += u' ';
        } else if (c == u'#' || (c == u'-' && text.mid(i, 3) == "-- "_L1)) {
            const qsizetype end = text.indexOf(u'\n', i);
            if (end < 0)
                break;
            i = end;
            if (!out.endsWith(u' '))
                out += u' ';
        } else if (c.isDigit() && (i == 0 || !identifierChar(text.at(i - 1)))) {
            // A number (0x1F, 1.5e3 too): its digits, letters and dots.
            qsizetype j = i;
            while (j + 1 < n && (text.at(j + 1).isLetterOrNumber() || text.at(j + 1) == u'.'))
                ++j;
            out += u'?';
            i = j;
        } else if (c.isSpace()) {
            if (!out.isEmpty() && !out.endsWith(u' '))
                out += u' ';
        } else {
            out += c;
        }
        if (out.size() > maxChars)
            cut = true;
    }
    out = out.trimmed();
    if (cut)
        out = out.left(maxChars) + u'…';
    return out;
}

QByteArray MariadbLocks::query(bool mariadb)
{
    const QByteArray blockers = mariadb
        ? "(SELECT GROUP_CONCAT(DISTINCT b.trx_mysql_thread_id)"
          " FROM information_schema.INNODB_LOCK_WAITS w"
          " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id"
          " WHERE w.requesting_trx_id = t.trx_id)"
        : "(SELECT GROUP_CONCAT(DISTINCT b.trx_mysql_thread_id)"
          " FROM performance_schema.data_lock_waits w"
          " JOIN information_schema.INNODB_TRX b"
          " ON b.trx_id = w.BLOCKING_ENGINE_TRANSACTION_ID"
          " WHERE w.REQUESTING_ENGINE_TRANSACTION_ID = t.trx_id)";
    return "SELECT t.trx_mysql_thread_id, " + blockers
        + ", coalesce(p.USER, ''), coalesce(p.HOST, ''), coalesce(p.COMMAND, ''),"
          " t.trx_state, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()),"
          " LEFT(coalesce(p.INFO, t.trx_query, ''), 4000)"
          " FROM information_schema.INNODB_TRX t"
          " LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id";
}

QList<LockSession> MariadbLocks::sessions(const MariadbResult &result)
{
    QList<LockSession> sessions;
    for (int r = 0; r < result.rows(); ++r) {
        LockSession s;
        s.pid = result.text(r, 0).toInt();
        if (s.pid <= 0)
            continue;
        for (const auto ids = result.text(r, 1).split(u',', Qt::SkipEmptyParts);
             const QString &id : ids) {
            const int blocker = id.trimmed().toInt();
            if (blocker > 0 && blocker != s.pid && !s.blockedBy.contains(blocker))
                s.blockedBy.append(blocker);
        }
        s.user = result.text(r, 2);
        QString host = result.text(r, 3);
        // "10.0.0.5:51234": the port changes with every connection.
        if (const qsizetype colon = host.lastIndexOf(u':'); colon > 0 && !host.contains(u"]"_s))
            host.truncate(colon);
        s.client = host == "localhost"_L1 ? QString() : host;
        s.state = result.text(r, 4).isEmpty() ? result.text(r, 5) : result.text(r, 4);
        if (!s.blockedBy.isEmpty())
            s.waitEvent = u"Lock:row"_s;
        bool ok = false;
        const double age = result.number(r, 6, &ok);
        s.xactAgeS = ok ? age : -1;
        s.query = maskStatementLiterals(result.text(r, 7));
        sessions.append(std::move(s));
    }
    return sessions;
}

} // namespace Headroom
