// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The CPU each session of the server uses, from the process behind it: every backend is
// a process, and pg_stat_activity's pid is its pid, so where the server runs on this
// machine /proc/PID/stat counts the CPU time the session used (utime + stime) and
// /proc/PID/io the bytes it read from storage. Per poll (resource "pg", kind Info; the
// rules of collector/sessioncpu.h):
//   pg.session.cpu{pid, application, user, queryid, query}
//                         % of one CPU (as top) over the interval, for the 10 sessions
//                         using most
//   pg.session.read_bytes{same labels}
//                         B/s the session read from storage (not the page cache), where
//                         /proc/PID/io is readable (the server's own user or root)
//   pg.application.cpu{application}
//                         % of one CPU of every session of an application together, for
//                         the 10 applications using most
// application is application_name, or for a background process without one its type
// ("autovacuum worker", "checkpointer"); queryid is pg_stat_activity's query_id (14+,
// with compute_query_id; empty otherwise), query the session's statement normalized as
// pg_stat_statements shows it (constants as parameters), cut to 80 characters.
//
// The server is on this machine when the collector reached it through a Unix socket or
// a loopback address (127.0.0.0/8, ::1) and the pid of its own session is a postgres
// process in /proc (not so for a server in a container of its own, whose pids are not
// ours). Asked once per session; otherwise, or when /proc cannot be read, nothing is
// published and the status says why in a note. The collector's own sessions are left
// out.
#pragma once

#include "collector/sessioncpu.h"
#include "pgpoll.h"

#include <QString>
#include <functional>
#include <optional>

namespace Headroom {

class PgSessionCpuPart : public PgPart
{
public:
    // Sessions read per poll at most (a server of thousands of connections): the
    // lowest pids.
    static constexpr int MaxSessionsRead = 5000;
    static constexpr qsizetype QueryLabelChars = 80;
    static inline const QString CpuMetric = QStringLiteral("pg.session.cpu");
    static inline const QString ReadMetric = QStringLiteral("pg.session.read_bytes");
    static inline const QString ApplicationMetric = QStringLiteral("pg.application.cpu");

    // excludedPid: a session of the collector's own besides the polling one (the wait
    // sampler's; 0 for none), asked each poll. procRoot: where /proc is (tests).
    explicit PgSessionCpuPart(std::function<int()> excludedPid,
                              QString procRoot = QStringLiteral("/proc"));

    void collect(PgPoll &poll) override;
    void resetBaselines() override;

    // Columns: pid, application, user, queryid (0 when unknown), query. $1: a pid left
    // out besides our own.
    static QByteArray query(int serverVersion);
    // Why the server is not taken for one on this machine; nullopt when it is (or
    // before the first poll).
    std::optional<QString> whyNotLocal() const { return m_notLocal; }

private:
    void checkLocal(PgPoll &poll);

    std::function<int()> m_excludedPid;
    QString m_procRoot;
    bool m_checked = false;
    std::optional<QString> m_notLocal;
    SessionCpuTracker m_tracker;
};

} // namespace Headroom
