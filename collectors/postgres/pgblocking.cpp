#include "pgblocking.h"

#include "pgactivity.h"
#include "pgstatementtext.h"

#include <QHash>
#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// pid, application, user, query (normalized) and, over TCP, client: who a session is.
Labels identityLabels(const PgLockSession &s)
{
    Labels labels { { u"pid"_s, QString::number(s.pid) },
                    { u"application"_s, s.application },
                    { u"user"_s, s.user },
                    { u"query"_s, normalizeStatementText(s.query) } };
    if (!s.client.isEmpty()) // none over a Unix socket
        labels.insert(u"client"_s, s.client);
    return labels;
}

} // namespace

QList<int> parsePidArray(const QString &text)
{
    QList<int> pids;
    const QStringView inner = QStringView(text).trimmed();
    if (!inner.startsWith(u'{') || !inner.endsWith(u'}'))
        return pids;
    for (const QStringView part : inner.mid(1, inner.size() - 2).split(u',')) {
        bool ok = false;
        const int pid = part.trimmed().toInt(&ok);
        if (ok && pid > 0 && !pids.contains(pid))
            pids.append(pid);
    }
    return pids;
}

PgBlockingTree buildBlockingTree(const QList<PgLockSession> &sessions)
{
    PgBlockingTree tree;
    QHash<int, const PgLockSession *> byPid;
    QHash<int, QList<int>> waitersOf; // blocker -> the sessions waiting on it
    for (const PgLockSession &s : sessions) {
        byPid.insert(s.pid, &s);
        if (s.blockedBy.isEmpty())
            continue;
        ++tree.blocked;
        for (int blocker : s.blockedBy)
            waitersOf[blocker].append(s.pid);
    }
    for (auto it = waitersOf.cbegin(); it != waitersOf.cend(); ++it) {
        const PgLockSession *root = byPid.value(it.key());
        // A blocker that waits itself is not a root; one that ended between the two
        // reads of the query is not in the rows at all, and has nothing to show.
        if (!root || !root->blockedBy.isEmpty())
            continue;
        PgRootBlocker r;
        r.session = *root;
        r.blockedDirectly = int(it.value().size());
        // Every session whose chain of waits reaches the root, each once (a session
        // may wait on two sessions of one chain).
        QSet<int> reached;
        QList<int> queue = it.value();
        while (!queue.isEmpty()) {
            const int pid = queue.takeFirst();
            if (pid == root->pid || reached.contains(pid))
                continue;
            reached.insert(pid);
            queue.append(waitersOf.value(pid));
        }
        r.blockedInAll = int(reached.size());
        tree.roots.append(std::move(r));
    }
    // The nodes: whoever waits on a session, and whoever is waited on and was read.
    for (const PgLockSession &s : sessions) {
        if (!s.blockedBy.isEmpty() || waitersOf.contains(s.pid))
            tree.sessions.append(s);
    }
    std::sort(tree.sessions.begin(), tree.sessions.end(),
              [](const PgLockSession &a, const PgLockSession &b) { return a.pid < b.pid; });
    std::sort(tree.roots.begin(), tree.roots.end(),
              [](const PgRootBlocker &a, const PgRootBlocker &b) {
                  if (a.blockedInAll != b.blockedInAll)
                      return a.blockedInAll > b.blockedInAll;
                  return a.session.pid < b.session.pid;
              });
    return tree;
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
    const QString resource = PgActivitySampler::Resource;
    const QString sessions = PgActivitySampler::SessionsUnit;
    batch.add({ source, u"pg.locks.blocked"_s, {} }, sessions, resource, UseKind::Saturation,
              tree.blocked);
    batch.add({ source, u"pg.locks.root_blockers"_s, {} }, sessions, resource, UseKind::Saturation,
              double(tree.roots.size()));
    for (qsizetype i = 0; i < std::min<qsizetype>(tree.roots.size(), MaxRoots); ++i) {
        const PgRootBlocker &root = tree.roots.at(i);
        const PgLockSession &s = root.session;
        const Labels labels = identityLabels(s);
        batch.add({ source, u"pg.locks.root_blocked"_s, labels }, sessions, resource,
                  UseKind::Saturation, root.blockedInAll);
        batch.add({ source, u"pg.locks.root_blocked_direct"_s, labels }, sessions, resource,
                  UseKind::Saturation, root.blockedDirectly);
        batch.add({ source, u"pg.locks.root_xact_age_s"_s, labels }, u"s"_s, resource,
                  UseKind::Saturation, std::max(0.0, s.xactAgeS));
    }
    for (qsizetype i = 0; i < std::min<qsizetype>(tree.sessions.size(), MaxSessions); ++i) {
        const PgLockSession &s = tree.sessions.at(i);
        Labels labels = identityLabels(s);
        labels.insert(u"state"_s, s.state);
        if (!s.blockedBy.isEmpty())
            labels.insert(u"blocked_by"_s, QString::number(s.blockedBy.constFirst()));
        if (!s.waitEvent.isEmpty())
            labels.insert(u"wait"_s, s.waitEvent);
        batch.add({ source, u"pg.locks.session_xact_age_s"_s, labels }, u"s"_s, resource,
                  UseKind::Info, std::max(0.0, s.xactAgeS));
    }
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
