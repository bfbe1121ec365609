// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgsessioncpu.h"

#include "pgactivity.h"
#include "pgstatementtext.h"

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

bool isPostgresProcess(const QString &comm)
{
    // The server's processes keep the executable's name as comm (the titles ps shows are
    // their argv, rewritten); "postmaster" is how older installations start it.
    return comm == "postgres"_L1 || comm == "postmaster"_L1;
}

} // namespace

PgSessionCpuPart::PgSessionCpuPart(std::function<int()> excludedPid, QString procRoot)
    : m_excludedPid(std::move(excludedPid))
    , m_procRoot(std::move(procRoot))
{
}

void PgSessionCpuPart::resetBaselines()
{
    m_checked = false;
    m_notLocal.reset();
    m_tracker.clear();
}

QByteArray PgSessionCpuPart::query(int serverVersion)
{
    // query_id came with PostgreSQL 14.
    const QByteArray queryId = serverVersion >= 140000 ? "coalesce(query_id, 0)" : "0";
    return "SELECT pid, coalesce(nullif(application_name, ''),"
           " CASE WHEN backend_type <> 'client backend' THEN backend_type END, ''),"
           " coalesce(usename::text, ''), "
        + queryId
        + ", left(coalesce(query, ''), 4000)"
          " FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND pid <> $1::int"
          " ORDER BY pid LIMIT "
        + QByteArray::number(MaxSessionsRead);
}

void PgSessionCpuPart::checkLocal(PgPoll &poll)
{
    m_checked = true;
    m_notLocal.reset();
    // inet_server_addr() is NULL over a Unix socket.
    const PgResult answer = poll.tryRun(
        "SELECT pg_backend_pid(), inet_server_addr() IS NULL"
        " OR inet_server_addr() << inet '127.0.0.0/8' OR inet_server_addr() = inet '::1',"
        " coalesce(host(inet_server_addr()), '')");
    if (!answer.ok() || answer.rows() != 1) {
        m_notLocal = u"could not ask the server where it listens (%1)"_s.arg(answer.error());
        return;
    }
    if (answer.text(0, 1) != "t"_L1) {
        m_notLocal = u"the server is not on this machine (reached at %1, neither a Unix socket "
                     "nor loopback)"_s.arg(answer.text(0, 2));
        return;
    }
    // The server's answer names a path here: as a number only.
    const QString pid = QString::number(answer.text(0, 0).toInt());
    const QString dir = m_procRoot + u'/' + pid;
    const auto comm = SessionCpuTracker::commOf(dir);
    if (!comm) {
        m_notLocal = u"%1 cannot be read: the server runs in another process namespace (a "
                     "container), or /proc hides other users' processes"_s.arg(dir);
    } else if (!isPostgresProcess(*comm)) {
        m_notLocal = u"process %1 here is not the server's (%2): the server runs in another "
                     "process namespace (a container)"_s.arg(pid, *comm);
    }
}

void PgSessionCpuPart::collect(PgPoll &poll)
{
    if (!m_checked)
        checkLocal(poll);
    if (poll.failed())
        return;
    if (m_notLocal) {
        poll.result.notes << u"session CPU: not read: "_s + *m_notLocal;
        return;
    }
    const int excluded = m_excludedPid ? m_excludedPid() : 0;
    const auto result
        = poll.run(u"pg_stat_activity (session CPU)"_s, query(poll.connection.serverVersion()),
                   { QByteArray::number(excluded) });
    if (!result)
        return;
    QList<SessionTask> tasks;
    tasks.reserve(result->rows());
    for (int r = 0; r < result->rows(); ++r) {
        // The server's answer names a path here: as a number only.
        const int number = result->text(r, 0).toInt();
        if (number <= 0)
            continue;
        const QString pid = QString::number(number);
        const QString queryId = result->text(r, 3);
        SessionTask task;
        task.taskDir = m_procRoot + u'/' + pid;
        task.application = result->text(r, 1);
        // Constants become parameters before a statement is a label: they may be secrets.
        task.labels
            = { { u"pid"_s, pid },
                { u"application"_s, task.application },
                { u"user"_s, result->text(r, 2) },
                { u"queryid"_s, queryId == "0"_L1 ? QString() : queryId },
                { u"query"_s, normalizeStatementText(result->text(r, 4), QueryLabelChars) } };
        tasks.append(std::move(task));
    }
    const SessionCpuTracker::Outcome outcome = m_tracker.update(
        tasks, { CpuMetric, ReadMetric, ApplicationMetric, PgActivitySampler::Resource },
        poll.source(), poll.result.batch);
    if (outcome.read == 0 && outcome.unreadable > 0)
        poll.result.notes << u"session CPU: not read: the processes of %1 sessions cannot be "
                             "read in %2"_s.arg(outcome.unreadable)
                                 .arg(m_procRoot);
    else if (outcome.ioDenied > 0)
        poll.result.notes << u"session CPU: storage reads of %1 sessions are unreadable (the "
                             "server's user or root reads /proc/PID/io)"_s.arg(outcome.ioDenied);
}

} // namespace Headroom
