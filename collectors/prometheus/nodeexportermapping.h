// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// node_exporter's metrics under the series names of the local host and nic collectors,
// so the shipped host dashboard works for a server that runs node_exporter
// ("host": "http://server:9100/metrics"). Names, units, resources and USE kinds are the
// catalogues' (hostmetrics.h, nicmetrics.h), which the local collectors use too; what
// is here is node_exporter's side: which family and labels feed which entry, and how:
//   cpu      node_cpu_seconds_total{cpu,mode} -> host.cpu.utilization{cpu=all|cpuN},
//            host.cpu.mode{mode}, host.cpu.count; node_procs_running -> runnable,
//            runqueue_per_cpu; node_load1/5/15 -> host.load.*, per_cpu
//   memory   node_memory_{MemTotal,MemAvailable,SwapTotal,SwapFree}_bytes,
//            node_vmstat_{pswpin,pswpout,oom_kill}; node_pressure_* -> host.*.psi{kind}
//   disks    node_disk_{io_time,io_time_weighted}_seconds_total, reads/writes completed,
//            read/written bytes {device}
//   fs       node_filesystem_{size,free,avail}_bytes, files, files_free {device, fstype,
//            mountpoint} -> host.fs.* (the filesystems the local collector watches, read-
//            only ones left out by node_filesystem_readonly); growth and time to full as
//            the local collector computes them (filesystemseries.h)
//   files    node_filefd_{allocated,maximum} -> host.fd.*
//   (node_exporter has no per-process figures: no host.process.*; processWarning())
//   nic      node_network_{receive,transmit}_{bytes,packets,drop,errs}_total{device}
//            -> nic.{rx,tx}.*{interface}; node_network_speed_bytes (<= 0: unknown) ->
//            nic.speed, nic.utilization; node_netstat_Tcp_{RetransSegs,OutSegs} -> tcp.*;
//            node_netstat_TcpExt_{ListenOverflows,ListenDrops} -> tcp.listen_*;
//            node_netstat_Tcp_CurrEstab, node_sockstat_TCP_{tw,orphan,inuse} ->
//            tcp.connections{state}
// Counters become rates on the second scrape; a counter that went down is a gap.
#pragma once

#include "collector/counterrate.h"
#include "core/sample.h"
#include "expositionparser.h"
#include "filesystemseries.h"

#include <functional>
#include <optional>

namespace Headroom {

class NodeExporterMapping
{
public:
    enum class Part
    {
        Host, // CPU, load, memory, PSI, disks (the host plugin)
        Nic // interfaces and TCP (the nic plugin)
    };

    // defaultSpeedMbps: the link speed assumed where node_exporter reports none (0: none).
    explicit NodeExporterMapping(Part part, double defaultSpeedMbps = 0);

    void map(const Exposition &exposition, SampleBatch *batch);
    Part part() const { return m_part; }

    // What a host source's status says each poll: node_exporter has no top processes.
    static QString processWarning();

private:
    void mapCpu(const Exposition &e, SampleBatch *batch);
    void mapMemory(const Exposition &e, SampleBatch *batch);
    void mapDisks(const Exposition &e, SampleBatch *batch);
    void mapFilesystems(const Exposition &e, SampleBatch *batch);
    void mapTcpQueues(const Exposition &e, SampleBatch *batch);
    void mapNics(const Exposition &e, SampleBatch *batch);
    // For each sample of counter family `name` with a "device" label: use(device, its
    // rate since the last scrape, or nullopt at the first scrape and after a reset).
    void forEachDeviceRate(const Exposition &e, QLatin1StringView name, qint64 ts,
                           const std::function<void(const QString &, std::optional<double>)> &use);

    Part m_part;
    double m_defaultSpeedMbps;
    CounterRate m_rates;
    FilesystemSeries m_filesystems;
};

} // namespace Headroom
