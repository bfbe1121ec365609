// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host collector's processes: the top ones by CPU, resident memory, storage I/O and
// open files, from /proc/PID/{stat,io,status,cgroup} and the entries of /proc/PID/fd,
// read with the rest of the poll (one round trip over SSH).
//
// Cost, bounded for a host of thousands of processes: a poll reads the stat (CPU time,
// resident pages) of about StatBudget processes, the io of IoBudget and counts the open
// files of FdBudget, each process's in turn (every ceil(processes / budget) polls: on a
// host of up to StatBudget processes every stat every poll), besides those of the hot
// ones (those shown, and the runners-up), read every poll, and of new processes, whose
// stat is read at once; status and cgroup (user, unit) once per process, when it comes
// near the top or is new. Kernel threads have no I/O or files of their own. A figure is
// from the process's latest reading, over the interval since the one before, so a
// process that starts to burn CPU ranks within ceil(processes / StatBudget) polls and
// is then read every poll.
//
// What is published, per poll: the top TopN of each ranking (a figure above 0), plus
// those shown in the poll before that are still in the top 2 x TopN (so a process at the
// edge does not flicker), each with all its figures, labelled {pid, comm, user, unit}:
// a process is its pid and start time, so a reused pid is a new process. A process that
// exits is forgotten and its series end. At most MaxIdentities distinct processes are
// published per collector (5 series each, within the source's series cap); later
// newcomers are left out and the status says so.
//
// CPU is in % of one CPU (as top): the process's ticks over the host's ticks of all CPUs
// (/proc/stat) in the same interval, times the CPU count, so no tick rate is assumed.
// Resident memory is stat's pages times the page size, which starts at 4 KiB and is
// learnt from the first process whose status (VmRSS) is read.
// Processes of other users have io and fd readable only by root (or CAP_SYS_PTRACE):
// they count as unknown, and one line of the status says how many.
#pragma once

#include "collector/filesource.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <optional>

namespace Headroom {

class PollBuilder;

class HostProcesses
{
public:
    static constexpr int TopN = 10;
    static constexpr int StatBudget = 500;
    static constexpr int IoBudget = 250;
    static constexpr int FdBudget = 100;
    static constexpr int MaxIdentities = 1000;
    // New processes have their status and cgroup read at once when at most this many
    // appeared since the last poll (not on the first poll, when all are new).
    static constexpr int MaxNewDetails = 32;
    static const QString PasswdPath;

    // Adds to request what this poll reads for the processes of a /proc listing.
    void plan(const QStringList &procEntries, FileReadRequest *request);
    // The series from poll.files. allCpuTicks: the "cpu" line's total of /proc/stat read
    // in the same poll (nullopt when it was not); cpuCount: the host's CPUs.
    void collect(PollBuilder &poll, std::optional<quint64> allCpuTicks, int cpuCount);

    // The ones published in the last poll, for tests: "comm/pid".
    QStringList published() const;

private:
    // A process's files, made once.
    struct Paths
    {
        QString stat, io, fd, status, cgroup;
    };
    static Paths pathsOf(qint64 pid);

    struct Process
    {
        Paths paths;
        quint64 startTicks = 0;
        QString comm;
        bool kernelThread = false;
        // CPU: ticks and the host's total at the last stat reading.
        std::optional<quint64> ticks;
        quint64 totalAt = 0;
        qint64 ticksAtMs = 0;
        std::optional<double> cpuPercent;
        double rssBytes = 0;
        quint64 rssPages = 0;
        // Storage I/O: counters at the last reading and the rates since the one before.
        std::optional<std::pair<quint64, quint64>> ioBytes;
        qint64 ioAtMs = 0;
        std::optional<double> readRate;
        std::optional<double> writeRate;
        bool ioReadThisPoll = false;
        bool ioDenied = false;
        std::optional<qint64> openFiles;
        bool fdDenied = false;
        // From status and cgroup.
        bool detailsKnown = false;
        quint32 uid = 0;
        QString unit;
        bool published = false;
        bool candidate = false;
    };

    bool isHot(const Process &p) const { return p.published || p.candidate; }
    QString userName(quint32 uid) const;

    struct Planned
    {
        qint64 pid = 0;
        bool stat = false; // its stat is read this poll
    };

    QHash<qint64, Process> m_processes; // by pid
    QList<Planned> m_planned; // this poll's pids, in listing order
    QSet<QString> m_identities; // label sets published so far
    QHash<quint32, QString> m_users;
    bool m_passwdWanted = true;
    qint64 m_passwdReadAtMs = 0;
    bool m_passwdPlanned = false;
    double m_pageSize = 4096;
    bool m_pageSizeLearnt = false;
    quint64 m_polls = 0;
};

} // namespace Headroom
