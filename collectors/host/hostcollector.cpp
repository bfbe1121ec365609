// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "hostcollector.h"

#include "collector/pollbuilder.h"
#include "collector/steadyclock.h"
#include "diskstatsparser.h"
#include "filenrparser.h"
#include "hostfilesource.h"
#include "hostlogging.h"
#include "hostmetrics.h"
#include "loadavgparser.h"
#include "meminfoparser.h"
#include "pressureparser.h"
#include "procstatparser.h"
#include "vmstatparser.h"

#include <QDateTime>
#include <QJsonValue>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QString ProcStatPath = u"/proc/stat"_s;
const QString LoadAvgPath = u"/proc/loadavg"_s;
const QString MemInfoPath = u"/proc/meminfo"_s;
const QString VmStatPath = u"/proc/vmstat"_s;
const QString DiskStatsPath = u"/proc/diskstats"_s;
const QString FileNrPath = u"/proc/sys/fs/file-nr"_s;
const QString BlockDir = u"/sys/block"_s;
const QString ProcDir = u"/proc"_s;

struct PressureFile
{
    QString path;
    const MetricSpec *metric;
};

const PressureFile PressureFiles[] = {
    { u"/proc/pressure/cpu"_s, &HostMetrics::CpuPsi },
    { u"/proc/pressure/memory"_s, &HostMetrics::MemPsi },
    { u"/proc/pressure/io"_s, &HostMetrics::IoPsi },
};

constexpr double SectorBytes = 512; // /proc/diskstats sectors, whatever the device's own size

QString ioErrPath(const QString &device)
{
    return BlockDir + u'/' + device + u"/device/ioerr_cnt"_s;
}

// Virtual devices that only add noise to a USE view: loop mounts, RAM disks, zram swap.
bool isIgnoredBlockDevice(const QString &name)
{
    return name.startsWith("loop"_L1) || name.startsWith("ram"_L1) || name.startsWith("zram"_L1);
}

double percentOf(double part, double whole)
{
    return std::clamp(part / whole * 100.0, 0.0, 100.0);
}

} // namespace

std::unique_ptr<HostCollector> HostCollector::create(const CollectorConfig &config, QString *error)
{
    auto source = hostFileSource(config.options, error);
    if (!source)
        return nullptr;
    return std::make_unique<HostCollector>(config, std::move(source));
}

HostCollector::HostCollector(CollectorConfig config, std::unique_ptr<FileSource> source,
                             Clock clock)
    : m_config(std::move(config))
    , m_source(std::move(source))
    , m_clock(clock ? std::move(clock) : Clock(&steadyWallClockMs))
{
}

QStringList HostCollector::filesToRead(const QStringList &blockDevices)
{
    QStringList paths { ProcStatPath,
                        LoadAvgPath,
                        MemInfoPath,
                        VmStatPath,
                        DiskStatsPath,
                        FileNrPath,
                        HostFilesystems::MountInfoPath };
    for (const auto &pressure : PressureFiles)
        paths << pressure.path;
    for (const QString &device : blockDevices)
        paths << ioErrPath(device);
    return paths;
}

PollResult HostCollector::poll(const QDeadlineTimer &deadline)
{
    // A remote FileSource answers the listings from its last round trip when it can, so
    // a poll normally costs one round trip (processes that started since show a poll
    // later).
    const DirectoryListing listing = m_source->listDirectory(BlockDir, deadline);
    QStringList devices = listing.entries;
    devices.removeIf(isIgnoredBlockDevice);
    const DirectoryListing processes = m_source->listDirectory(ProcDir, deadline);

    PollBuilder poll(m_config, m_clock(), lcHost);
    if (!listing.error.isEmpty())
        poll.warn(u"cannot list %1: %2; disks left out"_s.arg(BlockDir, listing.error));
    if (listing.capped())
        poll.warn(listing.capWarning(BlockDir));
    if (!processes.error.isEmpty())
        poll.warn(u"cannot list %1: %2; processes left out"_s.arg(ProcDir, processes.error));
    if (processes.capped())
        poll.warn(processes.capWarning(ProcDir));
    FileReadRequest request;
    request.files = filesToRead(devices);
    request.filesystems = m_filesystems.mountPoints();
    m_processes.plan(processes.entries, &request);
    poll.files = m_source->read(request, deadline);

    const QStringList core { ProcStatPath, LoadAvgPath, MemInfoPath, VmStatPath, DiskStatsPath };
    if (std::none_of(core.cbegin(), core.cend(),
                     [&](const QString &path) { return poll.files.contents.contains(path); })) {
        poll.result.error = u"cannot read /proc on %1: %2"_s.arg(
            m_source->description(), poll.files.errors.value(ProcStatPath, u"no data"_s));
        return std::move(poll.result);
    }

    int cpuCount = 0;
    std::optional<quint64> allCpuTicks;
    if (const auto content = poll.file(ProcStatPath)) {
        QStringList problems;
        const auto stat = parseProcStat(*content, &problems);
        poll.reportProblems(ProcStatPath, problems);
        if (stat) {
            cpuCount = int(stat->cpus.size());
            allCpuTicks = stat->all.total();
            collectCpu(poll, *stat);
        }
    }
    collectLoad(poll, cpuCount);
    collectPressure(poll);
    collectMemory(poll);
    collectVmStat(poll);
    collectDisks(poll, devices);
    collectFileHandles(poll);
    m_filesystems.collect(poll);
    m_processes.collect(poll, allCpuTicks, cpuCount);
    return std::move(poll.result);
}

void HostCollector::collectCpu(PollBuilder &poll, const ProcStat &stat)
{
    SampleBatch &batch = poll.result.batch;
    const qint64 ts = poll.ts;
    // Deltas of all counters of one CPU line; the total is shared by the utilization
    // and the mode split, so it is taken once.
    const auto utilization
        = [&](const QString &name, const CpuTimes &times) -> std::optional<double> {
        const QString prefix = u"cpu/"_s + name + u'/';
        const auto total = m_rates.delta(prefix + u"total"_s, double(times.total()), ts);
        // idle + iowait together: iowait alone may go backwards on NO_HZ kernels.
        const auto notBusy = m_rates.delta(prefix + u"notbusy"_s, double(times.notBusy()), ts);
        if (total && *total > 0 && notBusy)
            addValue(batch, HostMetrics::CpuUtilization, { { u"cpu"_s, name } },
                     100.0 - percentOf(*notBusy, *total));
        return total;
    };

    const auto total = utilization(u"all"_s, stat.all);
    const std::pair<QString, quint64> modes[] = {
        { u"user"_s, stat.all.user },       { u"nice"_s, stat.all.nice },
        { u"system"_s, stat.all.system },   { u"idle"_s, stat.all.idle },
        { u"iowait"_s, stat.all.iowait },   { u"irq"_s, stat.all.irq },
        { u"softirq"_s, stat.all.softirq }, { u"steal"_s, stat.all.steal },
    };
    for (const auto &[mode, ticks] : modes) {
        // Always taken, so that the first poll records the baselines.
        const auto d = m_rates.delta(u"cpu/mode/"_s + mode, double(ticks), ts);
        if (d && total && *total > 0)
            addValue(batch, HostMetrics::CpuMode, { { u"mode"_s, mode } }, percentOf(*d, *total));
    }
    for (const PerCpuTimes &one : stat.cpus)
        utilization(one.name, one.times);

    const auto count = double(stat.cpus.size());
    if (count > 0)
        addValue(batch, HostMetrics::CpuCount, {}, count);
    if (stat.procsRunning) {
        // procs_running counts the task reading /proc/stat (this thread, or cat over SSH):
        // it is not the host's load.
        const double runnable = std::max(0.0, double(*stat.procsRunning) - 1);
        addValue(batch, HostMetrics::CpuRunnable, {}, runnable);
        if (count > 0)
            addValue(batch, HostMetrics::CpuRunqueuePerCpu, {}, runnable / count);
    }
}

void HostCollector::collectLoad(PollBuilder &poll, int cpuCount)
{
    const auto content = poll.file(LoadAvgPath);
    if (!content)
        return;
    QStringList problems;
    const auto load = parseLoadAvg(*content, &problems);
    poll.reportProblems(LoadAvgPath, problems);
    if (!load)
        return;
    SampleBatch &batch = poll.result.batch;
    addValue(batch, HostMetrics::Load1, {}, load->load1);
    addValue(batch, HostMetrics::Load5, {}, load->load5);
    addValue(batch, HostMetrics::Load15, {}, load->load15);
    if (cpuCount > 0)
        addValue(batch, HostMetrics::LoadPerCpu, {}, load->load1 / cpuCount);
}

void HostCollector::collectPressure(PollBuilder &poll)
{
    const bool anyReadable
        = std::any_of(std::cbegin(PressureFiles), std::cend(PressureFiles),
                      [&](const PressureFile &f) { return poll.files.contents.contains(f.path); });
    if (!anyReadable) {
        // Kernels before 4.20, or built without CONFIG_PSI: expected, one short note.
        poll.result.warnings << u"PSI not available (/proc/pressure missing)"_s;
        return;
    }
    for (const PressureFile &f : PressureFiles) {
        const auto content = poll.file(f.path);
        if (!content)
            continue;
        QStringList problems;
        const auto pressure = parsePressure(*content, &problems);
        poll.reportProblems(f.path, problems);
        if (!pressure)
            continue;
        const std::pair<QString, std::optional<quint64>> kinds[]
            = { { u"some"_s, pressure->someTotalUs }, { u"full"_s, pressure->fullTotalUs } };
        for (const auto &[kind, total] : kinds) {
            if (!total)
                continue;
            // Stalled µs per second of wall time; /1e6 * 100 gives the percentage.
            // Clamped: poll jitter can make a fully stalled interval read slightly over 100.
            if (const auto rate = m_rates.update(f.path + u'/' + kind, double(*total), poll.ts))
                addValue(poll.result.batch, *f.metric, { { u"kind"_s, kind } },
                         std::clamp(*rate / 1e4, 0.0, 100.0));
        }
    }
}

void HostCollector::collectMemory(PollBuilder &poll)
{
    const auto content = poll.file(MemInfoPath);
    if (!content)
        return;
    QStringList problems;
    const auto mem = parseMemInfo(*content, &problems);
    poll.reportProblems(MemInfoPath, problems);
    if (!mem)
        return;
    SampleBatch &batch = poll.result.batch;
    const double used
        = double(mem->totalBytes) - double(std::min(mem->availableBytes, mem->totalBytes));
    addValue(batch, HostMetrics::MemUtilization, {}, percentOf(used, double(mem->totalBytes)));
    addValue(batch, HostMetrics::MemTotal, {}, double(mem->totalBytes));
    addValue(batch, HostMetrics::MemAvailable, {}, double(mem->availableBytes));
    if (mem->swapTotalBytes > 0) {
        const double swapUsed = double(mem->swapTotalBytes)
            - double(std::min(mem->swapFreeBytes, mem->swapTotalBytes));
        addValue(batch, HostMetrics::MemSwapUsed, {},
                 percentOf(swapUsed, double(mem->swapTotalBytes)));
    }
}

void HostCollector::collectVmStat(PollBuilder &poll)
{
    const auto content = poll.file(VmStatPath);
    if (!content)
        return;
    QStringList problems;
    const VmStat vm = parseVmStat(*content, &problems);
    poll.reportProblems(VmStatPath, problems);
    const std::pair<const MetricSpec &, std::optional<quint64>> counters[] = {
        { HostMetrics::MemSwapIn, vm.pswpin },
        { HostMetrics::MemSwapOut, vm.pswpout },
        { HostMetrics::MemPageScan, vm.pageScan() },
        { HostMetrics::MemOomKills, vm.oomKill },
    };
    for (const auto &[metric, value] : counters) {
        if (!value)
            continue;
        if (const auto rate = m_rates.update(metric.name, double(*value), poll.ts))
            addValue(poll.result.batch, metric, {}, *rate);
    }
}

void HostCollector::collectDisks(PollBuilder &poll, const QStringList &devices)
{
    const auto content = poll.file(DiskStatsPath);
    if (!content)
        return;
    QStringList problems;
    const QList<DiskStat> stats = parseDiskStats(*content, &problems);
    poll.reportProblems(DiskStatsPath, problems);
    for (const DiskStat &disk : stats) {
        // Only whole devices (partitions are not in /sys/block) that have done I/O.
        if (!devices.contains(disk.name) || !disk.everUsed())
            continue;
        const Labels labels { { u"device"_s, disk.name } };
        const auto add = [&](const MetricSpec &metric, double value) {
            addValue(poll.result.batch, metric, labels, value);
        };
        const QString prefix = u"disk/"_s + disk.name + u'/';
        const auto rate = [&](const QString &counter, quint64 value) {
            return m_rates.update(prefix + counter, double(value), poll.ts);
        };
        // io_ticks is ms busy per second of wall time: /1000 * 100.
        if (const auto busy = rate(u"io_ticks"_s, disk.ioTicksMs))
            add(HostMetrics::DiskUtilization, std::min(*busy / 10.0, 100.0));
        // Weighted ms per ms of wall time is the average number of requests in flight.
        if (const auto weighted = rate(u"weighted_io"_s, disk.weightedIoMs))
            add(HostMetrics::DiskQueue, *weighted / 1000.0);
        if (const auto r = rate(u"read_sectors"_s, disk.readSectors))
            add(HostMetrics::DiskReadBytes, *r * SectorBytes);
        if (const auto r = rate(u"write_sectors"_s, disk.writeSectors))
            add(HostMetrics::DiskWriteBytes, *r * SectorBytes);
        if (const auto r = rate(u"reads"_s, disk.reads))
            add(HostMetrics::DiskReads, *r);
        if (const auto r = rate(u"writes"_s, disk.writes))
            add(HostMetrics::DiskWrites, *r);

        // ioerr_cnt exists for SCSI-backed disks only: its absence is not a problem.
        const QString errPath = ioErrPath(disk.name);
        const auto errContent = poll.files.contents.constFind(errPath);
        if (errContent == poll.files.contents.cend())
            continue;
        if (const auto errors = parseIoErrCount(*errContent)) {
            if (const auto r = rate(u"ioerr"_s, *errors))
                add(HostMetrics::DiskErrors, *r);
        } else {
            poll.reportProblems(errPath, { u"line 1: not a hexadecimal count"_s });
        }
    }
}

void HostCollector::collectFileHandles(PollBuilder &poll)
{
    const auto content = poll.file(FileNrPath);
    if (!content)
        return;
    QStringList problems;
    const auto handles = parseFileNr(*content, &problems);
    poll.reportProblems(FileNrPath, problems);
    if (!handles)
        return;
    SampleBatch &batch = poll.result.batch;
    addValue(batch, HostMetrics::FdUtilization, {},
             percentOf(double(handles->allocated), double(handles->maximum)));
    addValue(batch, HostMetrics::FdAllocated, {}, double(handles->allocated));
    addValue(batch, HostMetrics::FdMax, {}, double(handles->maximum));
}

} // namespace Headroom
