// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgblocking.h"

#include "pgactivity.h"
#include "pgstatementtext.h"

namespace Headroom {

using namespace Qt::StringLiterals;

QList<int> parsePidArray(const QString &text)
{
    QList<int> pids;
    const QStringView inner = QStringView(text).trimmed();
    if (!inner.startsWith(u'{') || !inner.endsWith(u'}'))
        return pids;
    for (const auto parts = inner.mid(1, inner.size() - 2).split(u',');
         const QStringView part : parts) {
        bool ok = false;
        const int pid = part.trimmed().toInt(&ok);
        if (ok && pid > 0 && !pids.contains(pid))
            pids.append(pid);
    }
    return pids;
}

QByteArray PgBlockingPart::query()
{
    // pg_blocking_pids() only for the sessions that wait on a lock (it takes the lock
    // manager's partition locks); one statement, so both reads of pg_stat_activity see
    // the same snapshot.
    return "WITH waiting AS ("
           " SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity"
           " WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid())"
           " SELECT a.pid, coalesce(w.blockers, '{}'::int[])::text,"
           " coalesce(a.application_name, ''), coalesce(a.usename::text, ''),"
           " coalesce(a.client_addr::text, ''), coalesce(a.state, ''),"
           " coalesce(a.wait_event_type || ':' || a.wait_event, ''),"
           " coalesce(extract(epoch FROM now() - a.xact_start)::float8, -1),"
           " left(coalesce(a.query, ''), 4000)"
           " FROM pg_stat_activity a LEFT JOIN waiting w ON w.pid = a.pid"
           " WHERE a.pid IN (SELECT pid FROM waiting UNION SELECT unnest(blockers) FROM waiting)";
}

void PgBlockingPart::publish(const PgBlockingTree &tree, const QString &source, SampleBatch &batch)
{
    // Queries as the sessions sent them: their constants (secrets among them) become
    // parameters before they are labels.
    PgBlockingTree normalized = tree;
    for (RootBlocker &root : normalized.roots)
        root.session.query = normalizeStatementText(root.session.query);
    for (LockSession &s : normalized.sessions)
        s.query = normalizeStatementText(s.query);
    publishBlockingTree(normalized,
                        { u"pg.locks"_s, PgActivitySampler::Resource,
                          PgActivitySampler::SessionsUnit, MaxRoots, MaxSessions },
                        source, batch);
}

void PgBlockingPart::collect(PgPoll &poll)
{
    const auto result = poll.run(u"pg_blocking_pids"_s, query());
    if (!result)
        return;
    QList<PgLockSession> sessions;
    sessions.reserve(result->rows());
    for (int r = 0; r < result->rows(); ++r) {
        PgLockSession s;
        s.pid = result->text(r, 0).toInt();
        s.blockedBy = parsePidArray(result->text(r, 1));
        s.application = result->text(r, 2);
        s.user = result->text(r, 3);
        s.client = result->text(r, 4);
        s.state = result->text(r, 5);
        s.waitEvent = result->text(r, 6);
        bool ok = false;
        const double age = result->number(r, 7, &ok);
        s.xactAgeS = ok ? age : -1;
        s.query = result->text(r, 8);
        if (s.pid > 0)
            sessions.append(std::move(s));
    }
    publish(buildBlockingTree(sessions), poll.source(), poll.result.batch);
}

} // namespace Headroom
