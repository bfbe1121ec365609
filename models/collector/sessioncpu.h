// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The CPU each session of a database server on this machine uses, from the task that
// runs it: a PostgreSQL backend is a process (/proc/PID), a MariaDB or MySQL connection
// a thread of the server (/proc/PID/task/TID). The task's stat counts the CPU time it
// used (utime + stime), its io the bytes it read from storage. Database-neutral: each
// collector says which tasks its sessions are and how they are labelled.
//
// Per update, for metrics named by the collector (resource and unit as given, kind Info):
//   session   % of one CPU (as top; at most 100 per thread of the task) over the interval
//             since the task's last reading:
//             the TopSessions using most (above 0), and those shown the update before,
//             which fall to 0 once when they go idle; labelled as the collector says
//   readBytes B/s the task read from storage (not the page cache), for the same
//             sessions, where its io is readable (the server's own user or root)
//   application  % of one CPU of every session of an application together, {application},
//             the TopApplications using most (above 0), and those shown before
// A task is its path and its start time: a session that ends is forgotten and its
// series end, and a reused pid is a new session (its first reading is a baseline).
#pragma once

#include "core/sample.h"

#include <QHash>
#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace Headroom {

struct SessionTask
{
    QString taskDir; // "/proc/4242" or "/proc/77/task/4242"
    Labels labels; // of its series: the session's id, user, statement ...
    QString application; // for the per-application sums ("" when unnamed)
};

struct SessionCpuMetrics
{
    QString session; // "pg.session.cpu"
    QString readBytes; // "pg.session.read_bytes"
    QString application; // "pg.application.cpu"
    QString resource; // "pg"
};

class SessionCpuTracker
{
public:
    static constexpr int TopSessions = 10;
    static constexpr int TopApplications = 10;

    using Clock = std::function<qint64()>; // ms of a steady clock
    // A null clock is the steady clock (tests step their own).
    explicit SessionCpuTracker(Clock clock = {});

    struct Outcome
    {
        int read = 0; // tasks whose stat was read
        int unreadable = 0; // gone since, or hidden (/proc mounted with hidepid)
        int ioDenied = 0; // stat read, io not (another user's task)
    };
    Outcome update(const QList<SessionTask> &tasks, const SessionCpuMetrics &metrics,
                   const QString &source, SampleBatch &batch);
    void clear();
    // USER_HZ, what stat counts CPU time in (sysconf(_SC_CLK_TCK)).
    double ticksPerSecond() const { return m_ticksPerSecond; }

    // The program name (comm) of the process a task belongs to, from its stat; nullopt
    // when it cannot be read. For the collectors' check that the server is ours.
    static std::optional<QString> commOf(const QString &taskDir);

private:
    struct Task
    {
        quint64 startTicks = 0;
        quint64 ticks = 0;
        qint64 atMs = 0; // steady clock, when ticks were read
        std::optional<quint64> readBytes;
        bool published = false;
    };

    Clock m_clock;
    double m_ticksPerSecond = 100;
    QHash<QString, Task> m_tasks; // by taskDir
    QHash<QString, bool> m_applications; // shown the update before
};

} // namespace Headroom
