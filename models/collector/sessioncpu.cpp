// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/sessioncpu.h"

#include "collector/processparsers.h"

#include <QFile>
#include <QMap>
#include <algorithm>
#include <chrono>
#include <unistd.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A /proc file of a task is a few hundred bytes; more is no such file.
std::optional<QByteArray> readSmallFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return file.read(64 * 1024);
}

struct Reading
{
    const SessionTask *task = nullptr;
    std::optional<double> cpuPercent;
    std::optional<double> readRate;
    bool published = false;
};

} // namespace

SessionCpuTracker::SessionCpuTracker(Clock clock)
    : m_clock(clock ? std::move(clock) : Clock(&steadyMs))
{
    const long ticks = sysconf(_SC_CLK_TCK);
    if (ticks > 0)
        m_ticksPerSecond = double(ticks);
}

void SessionCpuTracker::clear()
{
    m_tasks.clear();
    m_applications.clear();
}

std::optional<QString> SessionCpuTracker::commOf(const QString &taskDir)
{
    const auto stat = readSmallFile(taskDir + u"/stat"_s);
    if (!stat)
        return std::nullopt;
    const auto parsed = parsePidStat(*stat);
    return parsed ? std::optional<QString>(parsed->comm) : std::nullopt;
}

SessionCpuTracker::Outcome SessionCpuTracker::update(const QList<SessionTask> &tasks,
                                                     const SessionCpuMetrics &metrics,
                                                     const QString &source, SampleBatch &batch)
{
    Outcome outcome;
    QHash<QString, Task> now;
    QList<Reading> readings;
    readings.reserve(tasks.size());
    for (const SessionTask &task : tasks) {
        const auto stat = readSmallFile(task.taskDir + u"/stat"_s);
        const auto parsed = stat ? parsePidStat(*stat) : std::nullopt;
        if (!parsed) {
            ++outcome.unreadable; // it ended since, or /proc hides it
            continue;
        }
        ++outcome.read;
        Task current;
        current.startTicks = parsed->startTicks;
        current.ticks = parsed->cpuTicks();
        current.atMs = m_clock();
        if (const auto io = readSmallFile(task.taskDir + u"/io"_s)) {
            if (const auto parsedIo = parsePidIo(*io))
                current.readBytes = parsedIo->readBytes;
        } else {
            ++outcome.ioDenied;
        }
        Reading reading;
        reading.task = &task;
        const auto before = m_tasks.constFind(task.taskDir);
        if (before != m_tasks.cend() && before->startTicks == current.startTicks) {
            current.published = before->published;
            reading.published = before->published;
            const double seconds = double(current.atMs - before->atMs) / 1000.0;
            if (seconds > 0 && current.ticks >= before->ticks) {
                // A task runs on one CPU per thread at most: ticks and the clock are read
                // a moment apart, which reads a busy thread at 101 % now and then.
                const double busy
                    = double(current.ticks - before->ticks) / m_ticksPerSecond / seconds * 100.0;
                reading.cpuPercent
                    = std::min(busy, 100.0 * double(std::max<qint64>(1, parsed->threads)));
                if (current.readBytes && before->readBytes
                    && *current.readBytes >= *before->readBytes)
                    reading.readRate = double(*current.readBytes - *before->readBytes) / seconds;
            }
        }
        now.insert(task.taskDir, current);
        readings.append(reading);
    }
    // Ended sessions are forgotten with the rest of the old readings.
    m_tasks = std::move(now);

    // The sessions using most, then those shown before (falling to 0 once).
    QList<const Reading *> ranked;
    for (const Reading &reading : std::as_const(readings)) {
        if (reading.cpuPercent && *reading.cpuPercent > 0)
            ranked.append(&reading);
    }
    std::sort(ranked.begin(), ranked.end(), [](const Reading *a, const Reading *b) {
        return *a->cpuPercent != *b->cpuPercent ? *a->cpuPercent > *b->cpuPercent
                                                : a->task->taskDir < b->task->taskDir;
    });
    if (ranked.size() > TopSessions)
        ranked.resize(TopSessions);
    QList<const Reading *> shown = ranked;
    for (const Reading &reading : std::as_const(readings)) {
        if (reading.published && reading.cpuPercent && !shown.contains(&reading))
            shown.append(&reading);
    }
    for (const Reading *reading : std::as_const(shown)) {
        batch.add({ source, metrics.session, reading->task->labels }, u"%"_s, metrics.resource,
                  UseKind::Info, *reading->cpuPercent);
        if (reading->readRate)
            batch.add({ source, metrics.readBytes, reading->task->labels }, u"B/s"_s,
                      metrics.resource, UseKind::Info, *reading->readRate);
    }
    for (auto &task : m_tasks)
        task.published = false;
    for (const Reading *reading : std::as_const(ranked))
        m_tasks[reading->task->taskDir].published = true;

    // Applications: every session read, not only the top ones.
    QMap<QString, double> byApplication;
    for (const Reading &reading : std::as_const(readings)) {
        if (reading.cpuPercent)
            byApplication[reading.task->application] += *reading.cpuPercent;
    }
    QList<std::pair<double, QString>> applications;
    for (auto it = byApplication.cbegin(); it != byApplication.cend(); ++it) {
        if (it.value() > 0)
            applications.append({ it.value(), it.key() });
    }
    std::sort(applications.begin(), applications.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    if (applications.size() > TopApplications)
        applications.resize(TopApplications);
    QHash<QString, bool> shownApplications;
    for (const auto &entry : std::as_const(applications))
        shownApplications.insert(entry.second, true);
    for (auto it = m_applications.cbegin(); it != m_applications.cend(); ++it) {
        if (!shownApplications.contains(it.key()) && byApplication.contains(it.key()))
            applications.append({ byApplication.value(it.key()), it.key() });
    }
    for (const auto &[cpu, application] : std::as_const(applications))
        batch.add({ source, metrics.application, { { u"application"_s, application } } }, u"%"_s,
                  metrics.resource, UseKind::Info, cpu);
    m_applications = shownApplications;
    return outcome;
}

} // namespace Headroom
