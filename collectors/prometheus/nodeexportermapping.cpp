// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "nodeexportermapping.h"

#include "collector/filesystems.h"
#include "hostmetrics.h"
#include "nicmetrics.h"

#include <QHash>
#include <QSet>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const ExpositionFamily *family(const Exposition &e, QLatin1StringView name)
{
    for (const ExpositionFamily &f : e.families)
        if (f.name == name)
            return &f;
    return nullptr;
}

std::optional<double> single(const Exposition &e, QLatin1StringView name)
{
    const ExpositionFamily *f = family(e, name);
    if (!f || f->samples.isEmpty())
        return std::nullopt;
    return f->samples.first().value;
}

// A node_exporter counter family published as the rate of a catalogue entry.
struct CounterSpec
{
    QLatin1StringView family;
    const MetricSpec &metric;
    double scale = 1; // the rate times this (io seconds per second -> %)
};

double percentOf(double part, double whole)
{
    return whole > 0 ? std::clamp(100.0 * part / whole, 0.0, 100.0) : 0.0;
}

} // namespace

NodeExporterMapping::NodeExporterMapping(Part part, double defaultSpeedMbps)
    : m_part(part)
    , m_defaultSpeedMbps(defaultSpeedMbps)
{
}

QString NodeExporterMapping::processWarning()
{
    return u"no top processes: node_exporter has no per-process figures (read the host "
           "over ssh:// for them)"_s;
}

void NodeExporterMapping::map(const Exposition &exposition, SampleBatch *batch)
{
    if (m_part == Part::Host) {
        mapCpu(exposition, batch);
        mapMemory(exposition, batch);
        mapDisks(exposition, batch);
        mapFilesystems(exposition, batch);
    } else {
        mapNics(exposition, batch);
        mapTcpQueues(exposition, batch);
    }
}

void NodeExporterMapping::mapFilesystems(const Exposition &e, SampleBatch *batch)
{
    if (const auto allocated = single(e, "node_filefd_allocated"_L1)) {
        if (const auto maximum = single(e, "node_filefd_maximum"_L1); maximum && *maximum > 0) {
            addValue(*batch, HostMetrics::FdUtilization, {}, percentOf(*allocated, *maximum));
            addValue(*batch, HostMetrics::FdAllocated, {}, *allocated);
            addValue(*batch, HostMetrics::FdMax, {}, *maximum);
        }
    }
    const ExpositionFamily *sizes = family(e, "node_filesystem_size_bytes"_L1);
    if (!sizes)
        return;
    // Each figure by mount point (and device: a mount point may be mounted over).
    const auto byMount = [&](QLatin1StringView name) {
        QHash<QString, double> values;
        if (const ExpositionFamily *f = family(e, name))
            for (const ExpositionSample &s : f->samples)
                values.insert(s.labels.value(u"mountpoint"_s) + u'\x1f'
                                  + s.labels.value(u"device"_s),
                              s.value);
        return values;
    };
    const QHash<QString, double> free = byMount("node_filesystem_free_bytes"_L1);
    const QHash<QString, double> available = byMount("node_filesystem_avail_bytes"_L1);
    const QHash<QString, double> files = byMount("node_filesystem_files"_L1);
    const QHash<QString, double> filesFree = byMount("node_filesystem_files_free"_L1);
    const QHash<QString, double> readOnly = byMount("node_filesystem_readonly"_L1);
    const auto bytes = [](double v) { return v > 0 ? quint64(v) : quint64(0); };
    int watched = 0;
    for (const ExpositionSample &s : sizes->samples) {
        const QString mountPoint = s.labels.value(u"mountpoint"_s);
        const QString device = s.labels.value(u"device"_s);
        const QString type = s.labels.value(u"fstype"_s);
        const QString key = mountPoint + u'\x1f' + device;
        if (!isWatchedFilesystem(type, mountPoint, readOnly.value(key) > 0) || !free.contains(key)
            || !available.contains(key)
            || ++watched > 64) // as the local collector, HostFilesystems::MaxFilesystems
            continue;
        const FilesystemFigures figures { bytes(s.value), bytes(free.value(key)),
                                          bytes(available.value(key)), bytes(files.value(key)),
                                          bytes(filesFree.value(key)) };
        m_filesystems.add(
            batch,
            { { u"mountpoint"_s, mountPoint }, { u"device"_s, device }, { u"fstype"_s, type } },
            figures);
    }
}

void NodeExporterMapping::mapTcpQueues(const Exposition &e, SampleBatch *batch)
{
    const qint64 ts = batch->tsMs;
    const std::pair<QLatin1StringView, const MetricSpec &> counters[] = {
        { "node_netstat_TcpExt_ListenOverflows"_L1, NicMetrics::TcpListenOverflows },
        { "node_netstat_TcpExt_ListenDrops"_L1, NicMetrics::TcpListenDrops },
    };
    for (const auto &[name, metric] : counters)
        if (const auto v = single(e, name))
            if (const auto rate = m_rates.update(QString(name), *v, ts))
                addValue(*batch, metric, {}, *rate);
    const std::pair<QLatin1StringView, QString> states[] = {
        { "node_netstat_Tcp_CurrEstab"_L1, u"established"_s },
        { "node_sockstat_TCP_tw"_L1, u"time_wait"_s },
        { "node_sockstat_TCP_orphan"_L1, u"orphan"_s },
        { "node_sockstat_TCP_inuse"_L1, u"in_use"_s },
    };
    for (const auto &[name, state] : states)
        if (const auto v = single(e, name))
            addValue(*batch, NicMetrics::TcpConnections, { { u"state"_s, state } }, *v);
}

void NodeExporterMapping::mapCpu(const Exposition &e, SampleBatch *batch)
{
    const qint64 ts = batch->tsMs;
    const auto add = [&](const MetricSpec &metric, const Labels &labels, double value) {
        addValue(*batch, metric, labels, value);
    };
    QMap<QString, double> totalByCpu; // seconds, all modes
    QMap<QString, double> idleByCpu; // idle + iowait, as the local collector counts
    QMap<QString, double> byMode; // all CPUs
    if (const ExpositionFamily *f = family(e, "node_cpu_seconds_total"_L1)) {
        for (const ExpositionSample &s : f->samples) {
            const QString id = s.labels.value(u"cpu"_s);
            const QString mode = s.labels.value(u"mode"_s);
            // guest time is already in user and nice (node_exporter reports it apart).
            totalByCpu[id] += s.value;
            byMode[mode] += s.value;
            if (mode == "idle"_L1 || mode == "iowait"_L1)
                idleByCpu[id] += s.value;
        }
    }
    double total = 0;
    double idle = 0;
    for (auto it = totalByCpu.cbegin(); it != totalByCpu.cend(); ++it) {
        total += it.value();
        idle += idleByCpu.value(it.key());
    }
    const auto utilization = [&](const QString &name, double t, double i) -> std::optional<double> {
        const auto dt = m_rates.delta(u"cpu/"_s + name + u"/total"_s, t, ts);
        const auto di = m_rates.delta(u"cpu/"_s + name + u"/idle"_s, i, ts);
        if (dt && *dt > 0 && di)
            add(HostMetrics::CpuUtilization, { { u"cpu"_s, name } }, 100.0 - percentOf(*di, *dt));
        return dt;
    };
    if (!totalByCpu.isEmpty()) {
        const auto dTotal = utilization(u"all"_s, total, idle);
        for (auto it = byMode.cbegin(); it != byMode.cend(); ++it) {
            const auto d = m_rates.delta(u"cpu/mode/"_s + it.key(), it.value(), ts);
            if (d && dTotal && *dTotal > 0)
                add(HostMetrics::CpuMode, { { u"mode"_s, it.key() } }, percentOf(*d, *dTotal));
        }
        for (auto it = totalByCpu.cbegin(); it != totalByCpu.cend(); ++it)
            utilization(u"cpu"_s + it.key(), it.value(), idleByCpu.value(it.key()));
    }
    const double count = double(totalByCpu.size());
    if (count > 0)
        add(HostMetrics::CpuCount, {}, count);
    if (const auto running = single(e, "node_procs_running"_L1)) {
        // As the host collector: the exporter's thread reading /proc/stat is counted.
        const double runnable = std::max(0.0, *running - 1);
        add(HostMetrics::CpuRunnable, {}, runnable);
        if (count > 0)
            add(HostMetrics::CpuRunqueuePerCpu, {}, runnable / count);
    }
    const std::pair<QLatin1StringView, const MetricSpec &> loads[]
        = { { "node_load1"_L1, HostMetrics::Load1 },
            { "node_load5"_L1, HostMetrics::Load5 },
            { "node_load15"_L1, HostMetrics::Load15 } };
    for (const auto &[name, metric] : loads)
        if (const auto v = single(e, name))
            add(metric, {}, *v);
    if (const auto load1 = single(e, "node_load1"_L1); load1 && count > 0)
        add(HostMetrics::LoadPerCpu, {}, *load1 / count);
}

void NodeExporterMapping::mapMemory(const Exposition &e, SampleBatch *batch)
{
    const qint64 ts = batch->tsMs;
    const auto add = [&](const MetricSpec &metric, const Labels &labels, double value) {
        addValue(*batch, metric, labels, value);
    };
    const auto total = single(e, "node_memory_MemTotal_bytes"_L1);
    const auto available = single(e, "node_memory_MemAvailable_bytes"_L1);
    if (total && available) {
        add(HostMetrics::MemUtilization, {},
            percentOf(*total - std::min(*available, *total), *total));
        add(HostMetrics::MemTotal, {}, *total);
        add(HostMetrics::MemAvailable, {}, *available);
    }
    const auto swapTotal = single(e, "node_memory_SwapTotal_bytes"_L1);
    const auto swapFree = single(e, "node_memory_SwapFree_bytes"_L1);
    if (swapTotal && swapFree && *swapTotal > 0)
        add(HostMetrics::MemSwapUsed, {},
            percentOf(*swapTotal - std::min(*swapFree, *swapTotal), *swapTotal));
    const CounterSpec counters[] = {
        { "node_vmstat_pswpin"_L1, HostMetrics::MemSwapIn },
        { "node_vmstat_pswpout"_L1, HostMetrics::MemSwapOut },
        { "node_vmstat_oom_kill"_L1, HostMetrics::MemOomKills },
    };
    for (const auto &c : counters)
        if (const auto v = single(e, c.family))
            if (const auto rate = m_rates.update(c.metric.name, *v, ts))
                add(c.metric, {}, *rate);
    // Stall seconds per second: * 100 is the share of time, as /proc/pressure gives it.
    const struct
    {
        QLatin1StringView family;
        const MetricSpec &metric;
        QString kind;
    } pressures[] = {
        { "node_pressure_cpu_waiting_seconds_total"_L1, HostMetrics::CpuPsi, u"some"_s },
        { "node_pressure_memory_waiting_seconds_total"_L1, HostMetrics::MemPsi, u"some"_s },
        { "node_pressure_memory_stalled_seconds_total"_L1, HostMetrics::MemPsi, u"full"_s },
        { "node_pressure_io_waiting_seconds_total"_L1, HostMetrics::IoPsi, u"some"_s },
        { "node_pressure_io_stalled_seconds_total"_L1, HostMetrics::IoPsi, u"full"_s },
    };
    for (const auto &p : pressures)
        if (const auto v = single(e, p.family))
            if (const auto rate = m_rates.update(QString(p.family), *v, ts))
                add(p.metric, { { u"kind"_s, p.kind } }, std::clamp(*rate * 100.0, 0.0, 100.0));
}

void NodeExporterMapping::mapDisks(const Exposition &e, SampleBatch *batch)
{
    const qint64 ts = batch->tsMs;
    const CounterSpec counters[] = {
        { "node_disk_io_time_seconds_total"_L1, HostMetrics::DiskUtilization, 100 },
        { "node_disk_io_time_weighted_seconds_total"_L1, HostMetrics::DiskQueue },
        { "node_disk_read_bytes_total"_L1, HostMetrics::DiskReadBytes },
        { "node_disk_written_bytes_total"_L1, HostMetrics::DiskWriteBytes },
        { "node_disk_reads_completed_total"_L1, HostMetrics::DiskReads },
        { "node_disk_writes_completed_total"_L1, HostMetrics::DiskWrites },
    };
    for (const auto &c : counters) {
        forEachDeviceRate(e, c.family, ts, [&](const QString &device, std::optional<double> rate) {
            if (!rate)
                return;
            double value = *rate * c.scale;
            if (c.metric.kind == UseKind::Utilization)
                value = std::min(value, 100.0);
            addValue(*batch, c.metric, { { u"device"_s, device } }, value);
        });
    }
}

void NodeExporterMapping::forEachDeviceRate(
    const Exposition &e, QLatin1StringView name, qint64 ts,
    const std::function<void(const QString &, std::optional<double>)> &use)
{
    const ExpositionFamily *f = family(e, name);
    if (!f)
        return;
    for (const ExpositionSample &s : f->samples) {
        const QString device = s.labels.value(u"device"_s);
        if (!device.isEmpty())
            use(device, m_rates.update(QString(name) + u'/' + device, s.value, ts));
    }
}

void NodeExporterMapping::mapNics(const Exposition &e, SampleBatch *batch)
{
    const qint64 ts = batch->tsMs;
    QHash<QString, double> speedMbps;
    if (const ExpositionFamily *f = family(e, "node_network_speed_bytes"_L1))
        for (const ExpositionSample &s : f->samples)
            if (s.value > 0) // -125000 and 0: the driver does not know
                speedMbps.insert(s.labels.value(u"device"_s), s.value * 8 / 1e6);
    const CounterSpec counters[] = {
        { "node_network_receive_bytes_total"_L1, NicMetrics::RxBytes },
        { "node_network_transmit_bytes_total"_L1, NicMetrics::TxBytes },
        { "node_network_receive_packets_total"_L1, NicMetrics::RxPackets },
        { "node_network_transmit_packets_total"_L1, NicMetrics::TxPackets },
        { "node_network_receive_drop_total"_L1, NicMetrics::RxDrops },
        { "node_network_transmit_drop_total"_L1, NicMetrics::TxDrops },
        { "node_network_receive_errs_total"_L1, NicMetrics::RxErrors },
        { "node_network_transmit_errs_total"_L1, NicMetrics::TxErrors },
    };
    QSet<QString> seen;
    for (const auto &c : counters) {
        // The byte counters also give the utilization of their direction.
        const QString direction = &c.metric == &NicMetrics::RxBytes ? u"rx"_s
            : &c.metric == &NicMetrics::TxBytes                     ? u"tx"_s
                                                                    : QString();
        forEachDeviceRate(e, c.family, ts, [&](const QString &device, std::optional<double> rate) {
            if (device == "lo"_L1) // the local collector skips loopback too
                return;
            seen.insert(device);
            if (!rate)
                return;
            addValue(*batch, c.metric, { { u"interface"_s, device } }, *rate);
            const double speed = speedMbps.value(device, m_defaultSpeedMbps);
            if (!direction.isEmpty() && speed > 0)
                addValue(*batch, NicMetrics::Utilization,
                         { { u"interface"_s, device }, { u"direction"_s, direction } },
                         *rate * 8 / (speed * 1e6) * 100);
        });
    }
    for (const QString &device : std::as_const(seen)) {
        const double speed = speedMbps.value(device, m_defaultSpeedMbps);
        if (speed > 0)
            addValue(*batch, NicMetrics::Speed, { { u"interface"_s, device } }, speed);
    }
    const auto retrans = single(e, "node_netstat_Tcp_RetransSegs"_L1);
    const auto out = single(e, "node_netstat_Tcp_OutSegs"_L1);
    if (!retrans)
        return;
    if (const auto rate = m_rates.update(u"tcp/RetransSegs"_s, *retrans, ts))
        addValue(*batch, NicMetrics::TcpRetransmits, {}, *rate);
    if (!out)
        return;
    const auto dRetrans = m_rates.delta(u"tcp/ratio/RetransSegs"_s, *retrans, ts);
    const auto dOut = m_rates.delta(u"tcp/ratio/OutSegs"_s, *out, ts);
    if (dRetrans && dOut && *dOut > 0)
        addValue(*batch, NicMetrics::TcpRetransmitRatio, {}, 100.0 * *dRetrans / *dOut);
    else if (dRetrans && dOut && *dRetrans == 0)
        addValue(*batch, NicMetrics::TcpRetransmitRatio, {}, 0.0);
}

} // namespace Headroom
