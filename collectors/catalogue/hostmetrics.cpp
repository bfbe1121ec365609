// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "hostmetrics.h"

namespace Headroom::HostMetrics {

using namespace Qt::StringLiterals;

// Name, unit, kind, resource (or its prefix), the label completing it, description.
const MetricSpec CpuUtilization { u"host.cpu.utilization"_s,
                                  u"%"_s,
                                  UseKind::Utilization,
                                  u"cpu"_s,
                                  {},
                                  u"time not idle nor in iowait, all CPUs and each"_s };
// A breakdown of host.cpu.utilization, not a utilization of its own: read as one, the
// idle share rising as a load ended was a critical finding ("idle rose from 47 % to
// 95 %"), and a busy mode repeated the utilization's finding.
const MetricSpec CpuMode {
    u"host.cpu.mode"_s, u"%"_s, UseKind::Info,
    u"cpu"_s,           {},     u"share of all CPU time spent in each mode"_s
};
const MetricSpec CpuCount { u"host.cpu.count"_s, {}, UseKind::Info, u"cpu"_s, {},
                            u"number of CPUs"_s };
// Raw counts of tasks carry a unit of their own: the USE bounds for a unitless
// saturation (1 warning, 4 critical) are per CPU, and a run queue of 3 on a 2-CPU
// host judged by them read as a warning (scenario_healthy in CI).
const MetricSpec CpuRunnable { u"host.cpu.runnable"_s,
                               u"tasks"_s,
                               UseKind::Saturation,
                               u"cpu"_s,
                               {},
                               u"tasks running or waiting for a CPU"_s };
const MetricSpec CpuRunqueuePerCpu {
    u"host.cpu.runqueue_per_cpu"_s, {}, UseKind::Saturation, u"cpu"_s, {},
    u"runnable tasks per CPU"_s
};
const MetricSpec Load1 { u"host.load.1"_s, u"tasks"_s, UseKind::Saturation,
                         u"cpu"_s,         {},         u"load average over 1 minute"_s };
const MetricSpec Load5 { u"host.load.5"_s, u"tasks"_s, UseKind::Saturation,
                         u"cpu"_s,         {},         u"load average over 5 minutes"_s };
const MetricSpec Load15 { u"host.load.15"_s, u"tasks"_s, UseKind::Saturation,
                          u"cpu"_s,          {},         u"load average over 15 minutes"_s };
const MetricSpec LoadPerCpu { u"host.load.per_cpu"_s,
                              {},
                              UseKind::Saturation,
                              u"cpu"_s,
                              {},
                              u"1-minute load average per CPU"_s };

const MetricSpec CpuPsi {
    u"host.cpu.psi"_s, u"%"_s, UseKind::Saturation,
    u"cpu"_s,          {},     u"share of time tasks stalled waiting for a CPU"_s
};
const MetricSpec MemPsi {
    u"host.mem.psi"_s, u"%"_s, UseKind::Saturation,
    u"memory"_s,       {},     u"share of time tasks stalled waiting for memory"_s
};
const MetricSpec IoPsi {
    u"host.io.psi"_s, u"%"_s, UseKind::Saturation,
    u"disk"_s,        {},     u"share of time tasks stalled waiting for I/O"_s
};

const MetricSpec MemUtilization { u"host.mem.utilization"_s,
                                  u"%"_s,
                                  UseKind::Utilization,
                                  u"memory"_s,
                                  {},
                                  u"memory not available, of the total"_s };
const MetricSpec MemTotal { u"host.mem.total"_s, u"B"_s, UseKind::Info,
                            u"memory"_s,         {},     u"physical memory"_s };
const MetricSpec MemAvailable { u"host.mem.available"_s,
                                u"B"_s,
                                UseKind::Info,
                                u"memory"_s,
                                {},
                                u"memory available without swapping (MemAvailable)"_s };
const MetricSpec MemSwapUsed {
    u"host.mem.swap_used"_s,       u"%"_s, UseKind::Saturation, u"memory"_s, {},
    u"swap in use, of the total"_s
};
const MetricSpec MemSwapIn { u"host.mem.swap_in"_s, u"pages/s"_s, UseKind::Saturation,
                             u"memory"_s,           {},           u"pages swapped in"_s };
const MetricSpec MemSwapOut {
    u"host.mem.swap_out"_s, u"pages/s"_s, UseKind::Saturation, u"memory"_s, {},
    u"pages swapped out"_s
};
const MetricSpec MemPageScan {
    u"host.mem.page_scan"_s,      u"pages/s"_s, UseKind::Saturation, u"memory"_s, {},
    u"pages scanned by reclaim"_s
};
const MetricSpec MemOomKills { u"host.mem.oom_kills"_s,
                               u"1/s"_s,
                               UseKind::Errors,
                               u"memory"_s,
                               {},
                               u"processes killed by the OOM killer"_s };

const MetricSpec DiskUtilization { u"host.disk.utilization"_s,
                                   u"%"_s,
                                   UseKind::Utilization,
                                   u"disk:"_s,
                                   u"device"_s,
                                   u"share of time the device was busy"_s };
const MetricSpec DiskQueue { u"host.disk.queue"_s, {},
                             UseKind::Saturation,  u"disk:"_s,
                             u"device"_s,          u"average number of requests in flight"_s };
const MetricSpec DiskReadBytes { u"host.disk.read_bytes"_s,
                                 u"B/s"_s,
                                 UseKind::Throughput,
                                 u"disk:"_s,
                                 u"device"_s,
                                 u"bytes read"_s };
const MetricSpec DiskWriteBytes {
    u"host.disk.write_bytes"_s, u"B/s"_s, UseKind::Throughput, u"disk:"_s, u"device"_s,
    u"bytes written"_s
};
const MetricSpec DiskReads { u"host.disk.reads"_s, u"1/s"_s,    UseKind::Throughput,
                             u"disk:"_s,           u"device"_s, u"reads completed"_s };
const MetricSpec DiskWrites { u"host.disk.writes"_s, u"1/s"_s,
                              UseKind::Throughput,   u"disk:"_s,
                              u"device"_s,           u"writes completed"_s };
const MetricSpec DiskErrors { u"host.disk.errors"_s, u"1/s"_s,
                              UseKind::Errors,       u"disk:"_s,
                              u"device"_s,           u"I/O errors (SCSI ioerr_cnt)"_s };

// The figures of df: used of what an unprivileged writer can have (used + available),
// as the blocks kept for root are not there for PostgreSQL or MariaDB.
const MetricSpec FsUsed {
    u"host.fs.used"_s,    u"%"_s,
    UseKind::Utilization, u"fs:"_s,
    u"mountpoint"_s,      u"space used, of what unprivileged writers can have (as df)"_s
};
const MetricSpec FsFree {
    u"host.fs.free"_s, u"B"_s,
    UseKind::Info,     u"fs:"_s,
    u"mountpoint"_s,   u"bytes unprivileged writers may still use (statvfs f_bavail)"_s
};
const MetricSpec FsSize { u"host.fs.size"_s, u"B"_s,          UseKind::Info,
                          u"fs:"_s,          u"mountpoint"_s, u"size of the filesystem"_s };
const MetricSpec FsInodesUsed {
    u"host.fs.inodes_used"_s, u"%"_s,
    UseKind::Utilization,     u"fs:"_s,
    u"mountpoint"_s,          u"inodes used, of the total (where the filesystem has a limit)"_s
};
const MetricSpec FsGrowth { u"host.fs.growth"_s,
                            u"B/s"_s,
                            UseKind::Throughput,
                            u"fs:"_s,
                            u"mountpoint"_s,
                            u"growth of the space used: the median rate of the last "
                            "polls (negative when it shrinks)"_s };
// A time left, so lower is worse: the USE bounds for "h" are 6 h (warning) and 1 h
// (critical). No sample while the filesystem does not grow; 0 once it is full.
const MetricSpec FsTimeToFull {
    u"host.fs.time_to_full"_s, u"h"_s,
    UseKind::Saturation,       u"fs:"_s,
    u"mountpoint"_s,           u"hours until full at the current growth (host.fs.growth)"_s
};

const MetricSpec FdUtilization { u"host.fd.utilization"_s,
                                 u"%"_s,
                                 UseKind::Utilization,
                                 u"fd"_s,
                                 {},
                                 u"file handles allocated, of fs.file-max"_s };
const MetricSpec FdAllocated { u"host.fd.allocated"_s,     u"files"_s, UseKind::Info, u"fd"_s, {},
                               u"file handles allocated"_s };
const MetricSpec FdMax { u"host.fd.max"_s, u"files"_s, UseKind::Info,
                         u"fd"_s,          {},         u"file handles allowed (fs.file-max)"_s };

const MetricSpec ProcessCpu { u"host.process.cpu"_s,
                              u"%"_s,
                              UseKind::Info,
                              u"cpu"_s,
                              {},
                              u"CPU time of a top process, in % of one CPU (as top)"_s };
const MetricSpec ProcessRss {
    u"host.process.rss"_s, u"B"_s, UseKind::Info,
    u"memory"_s,           {},     u"resident memory of a top process"_s
};
const MetricSpec ProcessReadBytes { u"host.process.read_bytes"_s,
                                    u"B/s"_s,
                                    UseKind::Info,
                                    u"disk"_s,
                                    {},
                                    u"bytes a top process read from storage"_s };
const MetricSpec ProcessWriteBytes { u"host.process.write_bytes"_s,
                                     u"B/s"_s,
                                     UseKind::Info,
                                     u"disk"_s,
                                     {},
                                     u"bytes a top process wrote to storage"_s };
const MetricSpec ProcessOpenFiles {
    u"host.process.open_files"_s,    u"files"_s, UseKind::Info, u"fd"_s, {},
    u"open files of a top process"_s
};
const MetricSpec ProcessCount {
    u"host.process.count"_s, u"processes"_s, UseKind::Info, u"cpu"_s, {}, u"processes on the host"_s
};

const QList<const MetricSpec *> &all()
{
    static const QList<const MetricSpec *> entries {
        &CpuUtilization,
        &CpuMode,
        &CpuCount,
        &CpuRunnable,
        &CpuRunqueuePerCpu,
        &Load1,
        &Load5,
        &Load15,
        &LoadPerCpu,
        &CpuPsi,
        &MemPsi,
        &IoPsi,
        &MemUtilization,
        &MemTotal,
        &MemAvailable,
        &MemSwapUsed,
        &MemSwapIn,
        &MemSwapOut,
        &MemPageScan,
        &MemOomKills,
        &DiskUtilization,
        &DiskQueue,
        &DiskReadBytes,
        &DiskWriteBytes,
        &DiskReads,
        &DiskWrites,
        &DiskErrors,
        &FsUsed,
        &FsFree,
        &FsSize,
        &FsInodesUsed,
        &FsGrowth,
        &FsTimeToFull,
        &FdUtilization,
        &FdAllocated,
        &FdMax,
        &ProcessCpu,
        &ProcessRss,
        &ProcessReadBytes,
        &ProcessWriteBytes,
        &ProcessOpenFiles,
        &ProcessCount,
    };
    return entries;
}

} // namespace Headroom::HostMetrics
