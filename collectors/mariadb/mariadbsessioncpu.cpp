// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadbsessioncpu.h"

#include "collector/serverplace.h"
#include "mariadbconnection.h"
#include "mariadblocks.h"
#include "mariadbstatus.h"

#include <QFile>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// The process a thread belongs to: "Tgid:" of /proc/TID/status; 0 when unreadable.
qint64 processOfThread(const QString &procRoot, const QString &tid)
{
    QFile file(procRoot + u'/' + tid + u"/status"_s);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    for (const auto lines = file.read(64 * 1024).split('\n'); const QByteArray &line : lines) {
        if (line.startsWith("Tgid:"))
            return line.mid(5).trimmed().toLongLong();
    }
    return 0;
}

bool isServerProcess(const QString &comm)
{
    return comm == "mariadbd"_L1 || comm == "mysqld"_L1;
}

} // namespace

MariadbSessionCpu::MariadbSessionCpu(const MariadbTarget &target, QString procRoot)
    : m_targetLocal(!target.socket.isEmpty() || isLocalHostName(target.host))
    , m_targetHost(target.host)
    , m_procRoot(std::move(procRoot))
{
}

void MariadbSessionCpu::clear()
{
    m_checked = false;
    m_notLocal.reset();
    m_serverPid.clear();
    m_tracker.clear();
}

QByteArray MariadbSessionCpu::ownThreadQuery()
{
    return "SELECT THREAD_OS_ID FROM performance_schema.threads"
           " WHERE PROCESSLIST_ID = CONNECTION_ID()";
}

QByteArray MariadbSessionCpu::query()
{
    return "SELECT t.THREAD_OS_ID, coalesce(t.PROCESSLIST_ID, 0), coalesce(a.ATTR_VALUE, ''),"
           " coalesce(t.PROCESSLIST_USER, ''), t.NAME, LEFT(coalesce(t.PROCESSLIST_INFO, ''), 4000)"
           " FROM performance_schema.threads t"
           " LEFT JOIN performance_schema.session_connect_attrs a"
           " ON a.PROCESSLIST_ID = t.PROCESSLIST_ID AND a.ATTR_NAME = 'program_name'"
           " WHERE t.THREAD_OS_ID IS NOT NULL"
           " AND (t.PROCESSLIST_ID IS NULL OR t.PROCESSLIST_ID <> CONNECTION_ID())"
           " ORDER BY t.THREAD_OS_ID LIMIT "
        + QByteArray::number(MaxThreadsRead);
}

void MariadbSessionCpu::check(const std::optional<QString> &ownThread)
{
    m_checked = true;
    m_notLocal.reset();
    m_serverPid.clear();
    if (!m_targetLocal) {
        m_notLocal = u"the server is not on this machine (reached at %1, neither a Unix socket "
                     "nor loopback)"_s.arg(m_targetHost);
        return;
    }
    const QString thread = QString::number(ownThread ? ownThread->toLongLong() : 0);
    if (thread.toLongLong() <= 0) {
        m_notLocal = u"performance_schema.threads names no OS thread for this connection"_s;
        return;
    }
    const qint64 process = processOfThread(m_procRoot, thread);
    const auto comm = process > 0
        ? SessionCpuTracker::commOf(m_procRoot + u'/' + QString::number(process))
        : std::nullopt;
    if (!comm) {
        m_notLocal = u"%1/%2 cannot be read: the server runs in another process namespace (a "
                     "container), or /proc hides other users' processes"_s.arg(m_procRoot, thread);
    } else if (!isServerProcess(*comm)) {
        m_notLocal = u"thread %1 here is not the server's (%2): the server runs in another "
                     "process namespace (a container)"_s.arg(thread, *comm);
    } else {
        m_serverPid = QString::number(process);
    }
}

void MariadbSessionCpu::publish(const MariadbResult &threads, const QString &source,
                                PollResult &result)
{
    QList<SessionTask> tasks;
    tasks.reserve(threads.rows());
    for (int r = 0; r < threads.rows(); ++r) {
        // The server's answer names a path here: as a number only.
        const qint64 number = threads.text(r, 0).toLongLong();
        if (number <= 0)
            continue;
        const QString tid = QString::number(number);
        const QString connection = threads.text(r, 1);
        const QString user = threads.text(r, 3);
        QString name = threads.text(r, 4);
        if (name.startsWith("thread/"_L1))
            name = name.mid(7);
        SessionTask task;
        // The thread's own files: /proc/TID alone would sum its whole process.
        task.taskDir = m_procRoot + u'/' + tid + u"/task/"_s + tid;
        task.application = !threads.text(r, 2).isEmpty() ? threads.text(r, 2)
            : !user.isEmpty()                            ? user
                                                         : name;
        task.labels
            = { { u"thread"_s, connection == "0"_L1 ? QString() : connection },
                { u"os_thread"_s, tid },
                { u"server_pid"_s, m_serverPid },
                { u"application"_s, task.application },
                { u"user"_s, user },
                { u"query"_s, maskStatementLiterals(threads.text(r, 5), QueryLabelChars) } };
        tasks.append(std::move(task));
    }
    const SessionCpuTracker::Outcome outcome = m_tracker.update(
        tasks, { CpuMetric, ReadMetric, ApplicationMetric, MariadbServerStatus::Resource }, source,
        result.batch);
    if (outcome.read == 0 && outcome.unreadable > 0)
        result.notes << u"session CPU: not read: the threads of %1 connections cannot be read in "
                        "%2"_s.arg(outcome.unreadable)
                            .arg(m_procRoot);
    else if (outcome.ioDenied > 0)
        result.notes << u"session CPU: storage reads of %1 threads are unreadable (the server's "
                        "user or root reads /proc/PID/task/TID/io)"_s.arg(outcome.ioDenied);
}

} // namespace Headroom
