// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// /proc/stat: per-CPU time counters (in USER_HZ ticks) and the run-queue size.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class QByteArrayView;

namespace Headroom {

struct CpuTimes
{
    // guest and guest_nice are already included in user and nice, so they are not kept.
    quint64 user = 0;
    quint64 nice = 0;
    quint64 system = 0;
    quint64 idle = 0;
    quint64 iowait = 0;
    quint64 irq = 0;
    quint64 softirq = 0;
    quint64 steal = 0;

    quint64 total() const { return user + nice + system + idle + iowait + irq + softirq + steal; }
    // iowait is idle time too (the CPU could run something else), hence counted as not busy.
    quint64 notBusy() const { return idle + iowait; }
};

struct PerCpuTimes
{
    QString name; // "cpu0"
    CpuTimes times;
};

struct ProcStat
{
    CpuTimes all; // the aggregate "cpu" line
    QList<PerCpuTimes> cpus; // "cpuN" lines, in file order
    std::optional<quint64> procsRunning;
};

// nullopt when there is no usable aggregate "cpu" line; bad lines are skipped and
// described in *problems ("line N: ...").
std::optional<ProcStat> parseProcStat(QByteArrayView content, QStringList *problems = nullptr);

} // namespace Headroom
