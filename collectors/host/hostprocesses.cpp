// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "hostprocesses.h"

#include "collector/pollbuilder.h"
#include "collector/processparsers.h"
#include "hostmetrics.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace Headroom {

using namespace Qt::StringLiterals;

const QString HostProcesses::PasswdPath = u"/etc/passwd"_s;

namespace {

// USER_HZ where /proc/stat gave no total to compare with: 100 on every Linux
// architecture that matters.
constexpr double UserHz = 100;
// /etc/passwd again at most this often when an unknown user shows up.
constexpr qint64 PasswdRereadMs = 60'000;

std::optional<qint64> pidOf(const QString &entry)
{
    if (entry.isEmpty() || entry.size() > 10)
        return std::nullopt;
    for (const QChar c : entry)
        if (c < u'0' || c > u'9')
            return std::nullopt;
    return entry.toLongLong();
}

bool isPermissionError(const QString &reason)
{
    return reason.contains("ermission denied"_L1) || reason.contains("not permitted"_L1);
}

} // namespace

QString HostProcesses::userName(quint32 uid) const
{
    const auto it = m_users.constFind(uid);
    return it != m_users.cend() ? *it : QString::number(uid);
}

QStringList HostProcesses::published() const
{
    QStringList names;
    for (auto it = m_processes.cbegin(); it != m_processes.cend(); ++it)
        if (it->published)
            names << it->comm + u'/' + QString::number(it.key());
    names.sort();
    return names;
}

HostProcesses::Paths HostProcesses::pathsOf(qint64 pid)
{
    const QString dir = u"/proc/"_s + QString::number(pid) + u'/';
    return { dir + u"stat"_s, dir + u"io"_s, dir + u"fd"_s, dir + u"status"_s, dir + u"cgroup"_s };
}

void HostProcesses::plan(const QStringList &procEntries, FileReadRequest *request)
{
    ++m_polls;
    m_planned.clear();
    m_planned.reserve(procEntries.size());
    for (const QString &entry : procEntries)
        if (const auto pid = pidOf(entry))
            m_planned.append(Planned { *pid, false });

    int newcomers = 0;
    for (const Planned &planned : std::as_const(m_planned))
        newcomers += m_processes.contains(planned.pid) ? 0 : 1;
    // The first poll reads every process's io and fd, so that the rankings by I/O and
    // open files are whole from the second poll on.
    const bool firstPoll = m_processes.isEmpty();
    const bool detailsForNew = !firstPoll && newcomers <= MaxNewDetails;
    // Each process's files every so many polls, so that a poll reads about a budget of
    // them besides the hot ones'.
    const auto every = [&](int budget) {
        return std::max<quint64>(1, (quint64(m_planned.size()) + budget - 1) / quint64(budget));
    };
    const quint64 statEvery = every(StatBudget);
    const quint64 ioEvery = every(IoBudget);
    const quint64 fdEvery = every(FdBudget);
    const auto due
        = [&](qint64 pid, quint64 period) { return quint64(pid) % period == m_polls % period; };

    request->files.reserve(request->files.size() + StatBudget + IoBudget + 16 * TopN);
    for (Planned &planned : m_planned) {
        const qint64 pid = planned.pid;
        const auto it = m_processes.find(pid);
        if (it == m_processes.end()) {
            const Paths paths = pathsOf(pid);
            planned.stat = true;
            request->files << paths.stat;
            if (firstPoll) {
                request->files << paths.io;
                request->entryCounts << paths.fd;
            }
            if (detailsForNew)
                request->files << paths.status << paths.cgroup;
            continue;
        }
        const Process &p = *it;
        const bool hot = isHot(p);
        planned.stat = hot || due(pid, statEvery);
        if (planned.stat)
            request->files << p.paths.stat;
        if (p.kernelThread)
            continue;
        if (!p.ioDenied && (hot || due(pid, ioEvery)))
            request->files << p.paths.io;
        if (!p.fdDenied && (hot || due(pid, fdEvery)))
            request->entryCounts << p.paths.fd;
        if (hot && !p.detailsKnown)
            request->files << p.paths.status << p.paths.cgroup;
    }
    m_passwdPlanned = m_passwdWanted;
    if (m_passwdPlanned)
        request->files << PasswdPath;
}

void HostProcesses::collect(PollBuilder &poll, std::optional<quint64> allCpuTicks, int cpuCount)
{
    const qint64 ts = poll.ts;
    const FileReadResult &files = poll.files;
    if (m_passwdPlanned) {
        m_passwdPlanned = false;
        m_passwdWanted = false;
        m_passwdReadAtMs = ts;
        if (const auto passwd = files.contents.constFind(PasswdPath);
            passwd != files.contents.cend())
            m_users = parsePasswd(*passwd);
    }

    QHash<qint64, Process> seen;
    seen.reserve(m_planned.size());
    int unparsable = 0;
    int denied = 0;
    for (const Planned &planned : std::as_const(m_planned)) {
        const qint64 pid = planned.pid;
        Process p = m_processes.take(pid);
        if (p.paths.stat.isEmpty())
            p.paths = pathsOf(pid);
        p.ioReadThisPoll = false;
        if (!planned.stat) {
            // Not read this poll: still there (it is listed), its figures as they were.
            if (p.ticks)
                seen.emplace(pid, std::move(p));
            continue;
        }
        const auto statContent = files.contents.constFind(p.paths.stat);
        if (statContent == files.contents.cend())
            continue; // exited since the listing
        const auto stat = parsePidStat(*statContent);
        if (!stat) {
            ++unparsable;
            continue;
        }
        if (p.startTicks != stat->startTicks || p.comm != stat->comm) {
            // A new process (or one that exec'd: another command).
            Paths paths = std::move(p.paths);
            p = Process {};
            p.paths = std::move(paths);
            p.startTicks = stat->startTicks;
            p.comm = stat->comm;
        }
        p.kernelThread = stat->kernelThread;

        // CPU over the interval since this process's last reading.
        const quint64 ticks = stat->cpuTicks();
        p.cpuPercent.reset();
        if (p.ticks && ticks >= *p.ticks) {
            const double used = double(ticks - *p.ticks);
            if (allCpuTicks && cpuCount > 0 && *allCpuTicks > p.totalAt)
                p.cpuPercent = used / double(*allCpuTicks - p.totalAt) * cpuCount * 100.0;
            else if (!allCpuTicks && ts > p.ticksAtMs)
                p.cpuPercent = used / UserHz / (double(ts - p.ticksAtMs) / 1000.0) * 100.0;
            // No more than its threads can run at once (the two readings are not quite
            // simultaneous).
            const qint64 runnable
                = std::min<qint64>(std::max<qint64>(1, stat->threads), std::max(1, cpuCount));
            if (p.cpuPercent)
                p.cpuPercent = std::clamp(*p.cpuPercent, 0.0, double(runnable) * 100.0);
        }
        p.ticks = ticks;
        p.totalAt = allCpuTicks.value_or(0);
        p.ticksAtMs = ts;
        p.rssPages = stat->rssPages;

        // Details: once.
        if (!p.detailsKnown) {
            const auto status = files.contents.constFind(p.paths.status);
            if (status != files.contents.cend()) {
                if (const auto parsed = parsePidStatus(*status)) {
                    p.detailsKnown = true;
                    p.uid = parsed->uid;
                    if (!m_users.contains(p.uid) && ts - m_passwdReadAtMs >= PasswdRereadMs)
                        m_passwdWanted = true;
                    // The page size, from a process big enough to tell it exactly.
                    if (!m_pageSizeLearnt && parsed->rssBytes && stat->rssPages >= 256) {
                        const double ratio = double(*parsed->rssBytes) / double(stat->rssPages);
                        const double power = std::exp2(std::round(std::log2(ratio)));
                        if (std::abs(ratio - power) <= 0.05 * power && power >= 4096
                            && power <= 65536) {
                            m_pageSize = power;
                            m_pageSizeLearnt = true;
                        }
                    }
                    const auto cgroup = files.contents.constFind(p.paths.cgroup);
                    if (cgroup != files.contents.cend())
                        p.unit = unitFromCgroup(*cgroup);
                }
            }
        }

        // Storage I/O.
        if (const auto io = files.contents.constFind(p.paths.io); io != files.contents.cend()) {
            if (const auto parsed = parsePidIo(*io)) {
                if (p.ioBytes && ts > p.ioAtMs && parsed->readBytes >= p.ioBytes->first
                    && parsed->writeBytes >= p.ioBytes->second) {
                    const double seconds = double(ts - p.ioAtMs) / 1000.0;
                    p.readRate = double(parsed->readBytes - p.ioBytes->first) / seconds;
                    p.writeRate = double(parsed->writeBytes - p.ioBytes->second) / seconds;
                    p.ioReadThisPoll = true;
                }
                p.ioBytes = std::make_pair(parsed->readBytes, parsed->writeBytes);
                p.ioAtMs = ts;
            }
        } else if (const auto error = files.errors.constFind(p.paths.io);
                   error != files.errors.cend() && isPermissionError(*error)) {
            p.ioDenied = true;
        }
        if (const auto count = files.entryCounts.constFind(p.paths.fd);
            count != files.entryCounts.cend()) {
            p.openFiles = *count;
        } else if (const auto error = files.entryCountErrors.constFind(p.paths.fd);
                   error != files.entryCountErrors.cend() && isPermissionError(*error)) {
            p.fdDenied = true;
        }
        if (!p.kernelThread && (p.ioDenied || p.fdDenied))
            ++denied;
        seen.emplace(pid, std::move(p));
    }
    // Whatever was not seen has exited: forgotten, its series end.
    m_processes = std::move(seen);
    for (Process &p : m_processes)
        p.rssBytes = double(p.rssPages) * m_pageSize;

    // Rankings: the top 2 x TopN of each are this poll's candidates, the top TopN shown.
    std::vector<qint64> byCpu, byRss, byIo, byFiles;
    for (auto it = m_processes.cbegin(); it != m_processes.cend(); ++it) {
        const Process &p = *it;
        if (p.cpuPercent && *p.cpuPercent > 0)
            byCpu.push_back(it.key());
        if (p.rssBytes > 0)
            byRss.push_back(it.key());
        if (p.ioReadThisPoll && (*p.readRate + *p.writeRate) > 0)
            byIo.push_back(it.key());
        if (p.openFiles && *p.openFiles > 0)
            byFiles.push_back(it.key());
    }
    const auto rank = [&](std::vector<qint64> &pids, auto figure) {
        const size_t keep = std::min(pids.size(), size_t(2 * TopN));
        std::partial_sort(pids.begin(), pids.begin() + qsizetype(keep), pids.end(),
                          [&](qint64 a, qint64 b) {
                              const double fa = figure(*m_processes.constFind(a));
                              const double fb = figure(*m_processes.constFind(b));
                              return fa != fb ? fa > fb : a < b;
                          });
        pids.resize(keep);
    };
    rank(byCpu, [](const Process &p) { return *p.cpuPercent; });
    rank(byRss, [](const Process &p) { return p.rssBytes; });
    rank(byIo, [](const Process &p) { return *p.readRate + *p.writeRate; });
    rank(byFiles, [](const Process &p) { return double(*p.openFiles); });

    QSet<qint64> top;
    QSet<qint64> candidates;
    for (const std::vector<qint64> *ranking : { &byCpu, &byRss, &byIo, &byFiles }) {
        for (size_t i = 0; i < ranking->size(); ++i) {
            candidates.insert((*ranking)[i]);
            if (i < size_t(TopN))
                top.insert((*ranking)[i]);
        }
    }
    for (auto it = m_processes.begin(); it != m_processes.end(); ++it) {
        Process &p = *it;
        p.published = top.contains(it.key()) || (p.published && candidates.contains(it.key()));
        p.candidate = candidates.contains(it.key());
    }

    SampleBatch &batch = poll.result.batch;
    int leftOut = 0;
    for (auto it = m_processes.cbegin(); it != m_processes.cend(); ++it) {
        const Process &p = *it;
        if (!p.published || !p.detailsKnown)
            continue; // details come with the next poll
        Labels labels { { u"pid"_s, QString::number(it.key()) },
                        { u"comm"_s, p.comm },
                        { u"user"_s, userName(p.uid) } };
        if (!p.unit.isEmpty())
            labels.insert(u"unit"_s, p.unit);
        const QString identity = labelsToString(labels);
        if (!m_identities.contains(identity)) {
            if (m_identities.size() >= MaxIdentities) {
                ++leftOut;
                continue;
            }
            m_identities.insert(identity);
        }
        if (p.cpuPercent)
            addValue(batch, HostMetrics::ProcessCpu, labels, *p.cpuPercent);
        if (!p.kernelThread)
            addValue(batch, HostMetrics::ProcessRss, labels, p.rssBytes);
        if (p.ioReadThisPoll) {
            addValue(batch, HostMetrics::ProcessReadBytes, labels, *p.readRate);
            addValue(batch, HostMetrics::ProcessWriteBytes, labels, *p.writeRate);
        }
        if (p.openFiles)
            addValue(batch, HostMetrics::ProcessOpenFiles, labels, double(*p.openFiles));
    }
    if (!m_processes.isEmpty())
        addValue(batch, HostMetrics::ProcessCount, {}, double(m_processes.size()));

    if (unparsable > 0)
        poll.warn(u"%1 of /proc/PID/stat could not be read as such"_s.arg(unparsable));
    if (denied > 0)
        poll.warn(u"I/O and open files of %1 processes are not readable (other users' "
                  "processes: root or CAP_SYS_PTRACE reads them)"_s.arg(denied));
    if (leftOut > 0) {
        poll.warn(u"%1 top processes left out: %2 distinct processes published already (the "
                  "cap per source)"_s.arg(leftOut)
                      .arg(MaxIdentities));
    }
}

} // namespace Headroom
