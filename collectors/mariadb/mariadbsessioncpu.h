// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The CPU each connection of the server uses, from the thread that runs it: MariaDB and
// MySQL run a connection in a thread of their own (one thread per connection, their
// default), and performance_schema.threads' THREAD_OS_ID is that thread's id, so where
// the server runs on this machine /proc/TID/task/TID/stat counts the CPU time the
// connection used and its io the bytes it read from storage. Per poll (resource
// "mariadb", kind Info; the rules of collector/sessioncpu.h):
//   mariadb.session.cpu{thread, os_thread, server_pid, application, user, query}
//                         % of one CPU (as top) over the interval, for the 10 threads
//                         using most
//   mariadb.session.read_bytes{same labels}
//                         B/s the thread read from storage (not the page cache), where
//                         its io is readable (the server's own user or root)
//   mariadb.application.cpu{application}
//                         % of one CPU of every thread of an application together, for
//                         the 10 applications using most
// thread is the connection id (what KILL takes; empty for the server's background
// threads); server_pid the server's process, which tells the sessions of two servers on
// one host apart; application the client's program_name connection attribute, else the
// user, else a background thread's name ("innodb/page_cleaner_thread"); query the
// statement it runs with every literal masked, cut to 80 characters.
//
// The server is on this machine when the collector reached it through a Unix socket or
// a loopback address and the thread of its own connection is a thread of a mariadbd or
// mysqld process in /proc. Decided once per session; otherwise nothing is published and
// the status says why in a note. Needs performance_schema (the poll says when it is
// off); with the thread pool (thread_handling=pool-of-threads) a connection has no
// thread of its own and what a worker thread uses is the connection's it runs now.
#pragma once

#include "collector/collector.h"
#include "collector/sessioncpu.h"
#include "mariadboptions.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace Headroom {

class MariadbResult;

class MariadbSessionCpu
{
public:
    static constexpr int MaxThreadsRead = 5000;
    static constexpr qsizetype QueryLabelChars = 80;
    static inline const QString CpuMetric = QStringLiteral("mariadb.session.cpu");
    static inline const QString ReadMetric = QStringLiteral("mariadb.session.read_bytes");
    static inline const QString ApplicationMetric = QStringLiteral("mariadb.application.cpu");

    // target: where the collector connects. procRoot: where /proc is (tests).
    explicit MariadbSessionCpu(const MariadbTarget &target,
                               QString procRoot = QStringLiteral("/proc"));

    // One column: the OS thread of the asking connection.
    static QByteArray ownThreadQuery();
    // Columns: os thread id, connection id (0 for background threads), program_name,
    // user, thread name, statement. Leaves out the asking connection.
    static QByteArray query();

    bool checked() const { return m_checked; }
    // From ownThreadQuery()'s answer (nullopt: the query failed), once per session.
    void check(const std::optional<QString> &ownThread);
    std::optional<QString> whyNotLocal() const { return m_notLocal; }
    // The series of query()'s answer into result.batch, notes into result.notes.
    void publish(const MariadbResult &threads, const QString &source, PollResult &result);
    // A new session: decide again, no baselines.
    void clear();

private:
    bool m_targetLocal = false;
    QString m_targetHost;
    QString m_procRoot;
    bool m_checked = false;
    std::optional<QString> m_notLocal;
    QString m_serverPid; // of the server's process, once check() found it here
    SessionCpuTracker m_tracker;
};

} // namespace Headroom
