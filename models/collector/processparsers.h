// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The files of one process (proc(5)) the host collector and the postgres collector's
// session CPU read, and /etc/passwd:
//   /proc/PID/stat    "4242 (hr burn) R 1 ... utime stime ... num_threads 0 starttime vsize
//                     rss ...": the command name is what lies between the first "(" and
//                     the last ")", as it may hold spaces and parentheses itself
//   /proc/PID/status  "Uid:\t1000\t1000\t1000\t1000", "VmRSS:\t  1234 kB"
//   /proc/PID/io      "read_bytes: 4096", "write_bytes: 0" (storage I/O, not page cache)
//   /proc/PID/cgroup  "0::/system.slice/postgresql@17-main.service" (v2), or one line per
//                     controller (v1)
// Each returns nullopt, and says why, for content it cannot trust.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct PidStat
{
    QString comm;
    char state = '?';
    quint64 utimeTicks = 0; // USER_HZ ticks, the process's threads together
    quint64 stimeTicks = 0;
    quint64 startTicks = 0; // since boot: with the pid, who this process is
    quint64 rssPages = 0;
    qint64 threads = 0;
    bool kernelThread = false; // PF_KTHREAD: no memory, I/O accounting or files of its own

    quint64 cpuTicks() const { return utimeTicks + stimeTicks; }
};

std::optional<PidStat> parsePidStat(QByteArrayView content, QString *problem = nullptr);

struct PidStatus
{
    quint32 uid = 0; // the real user id
    std::optional<quint64> rssBytes; // VmRSS (none for kernel threads)
};

std::optional<PidStatus> parsePidStatus(QByteArrayView content, QString *problem = nullptr);

struct PidIo
{
    quint64 readBytes = 0;
    quint64 writeBytes = 0;
};

std::optional<PidIo> parsePidIo(QByteArrayView content, QString *problem = nullptr);

// The systemd unit (or, failing one, the innermost cgroup) the process runs in:
// "postgresql@17-main.service", "session-3.scope", "docker-1f2e….scope"; empty for the
// root cgroup or content that names none.
QString unitFromCgroup(QByteArrayView content);

// uid -> user name of /etc/passwd; lines it cannot read are skipped.
QHash<quint32, QString> parsePasswd(QByteArrayView content);

} // namespace Headroom
