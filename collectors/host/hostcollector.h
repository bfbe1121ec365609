// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host collector: the USE checklist for CPU, memory, disks, filesystems and file
// handles of one Linux host, and its top processes, read from /proc and /sys through a
// FileSource (this machine, or over SSH) with one read() per poll.
#pragma once

#include "collector/collector.h"
#include "collector/counterrate.h"
#include "collector/filesource.h"
#include "hostfilesystems.h"
#include "hostprocesses.h"

#include <functional>
#include <memory>

namespace Headroom {

struct DiskStat;
class PollBuilder;
struct ProcStat;

class HostCollector : public Collector
{
public:
    // Milliseconds since the epoch; tests substitute a fake clock so rates are exact.
    using Clock = std::function<qint64()>;

    // Reads config.options ("host", "root"); nullptr and *error when they are invalid.
    static std::unique_ptr<HostCollector> create(const CollectorConfig &config, QString *error);

    // Any FileSource (tests swap fixture trees between polls); a null clock means
    // steadyWallClockMs.
    HostCollector(CollectorConfig config, std::unique_ptr<FileSource> source, Clock clock = {});

    PollResult poll(const QDeadlineTimer &deadline) override;

    // The files one poll reads for the given block devices (from /sys/block).
    static QStringList filesToRead(const QStringList &blockDevices);

private:
    void collectCpu(PollBuilder &poll, const ProcStat &stat);
    void collectLoad(PollBuilder &poll, int cpuCount);
    void collectPressure(PollBuilder &poll);
    void collectMemory(PollBuilder &poll);
    void collectVmStat(PollBuilder &poll);
    void collectDisks(PollBuilder &poll, const QStringList &devices);
    void collectFileHandles(PollBuilder &poll);

    CollectorConfig m_config;
    std::unique_ptr<FileSource> m_source;
    Clock m_clock;
    CounterRate m_rates;
    HostFilesystems m_filesystems;
    HostProcesses m_processes;
};

} // namespace Headroom
