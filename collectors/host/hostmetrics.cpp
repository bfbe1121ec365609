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

const QList<const MetricSpec *> &all()
{
    static const QList<const MetricSpec *> entries {
        &CpuUtilization,  &CpuMode,    &CpuCount,       &CpuRunnable,    &CpuRunqueuePerCpu,
        &Load1,           &Load5,      &Load15,         &LoadPerCpu,     &CpuPsi,
        &MemPsi,          &IoPsi,      &MemUtilization, &MemTotal,       &MemAvailable,
        &MemSwapUsed,     &MemSwapIn,  &MemSwapOut,     &MemPageScan,    &MemOomKills,
        &DiskUtilization, &DiskQueue,  &DiskReadBytes,  &DiskWriteBytes, &DiskReads,
        &DiskWrites,      &DiskErrors,
    };
    return entries;
}

} // namespace Headroom::HostMetrics
