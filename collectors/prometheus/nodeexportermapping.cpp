#include "nodeexportermapping.h"

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

// A node_exporter counter published as the rate of a local collector's series.
struct CounterSpec
{
    QLatin1StringView name;
    QString metric;
    QString unit;
    UseKind kind;
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

void NodeExporterMapping::map(const Exposition &exposition, SampleBatch *batch)
{
    if (m_part == Part::Host) {
        mapCpu(exposition, batch);
        mapMemory(exposition, batch);
        mapDisks(exposition, batch);
    } else {
        mapNics(exposition, batch);
    }
}

void NodeExporterMapping::mapCpu(const Exposition &e, SampleBatch *batch)
{
    const QString cpu = u"cpu"_s;
    const qint64 ts = batch->tsMs;
    const auto add = [&](const QString &metric, const Labels &labels, const QString &unit,
                         UseKind kind, double value) {
        batch->add({ batch->source, metric, labels }, unit, cpu, kind, value);
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
            add(u"host.cpu.utilization"_s, { { u"cpu"_s, name } }, u"%"_s, UseKind::Utilization,
                100.0 - percentOf(*di, *dt));
        return dt;
    };
    if (!totalByCpu.isEmpty()) {
        const auto dTotal = utilization(u"all"_s, total, idle);
        for (auto it = byMode.cbegin(); it != byMode.cend(); ++it) {
            const auto d = m_rates.delta(u"cpu/mode/"_s + it.key(), it.value(), ts);
            if (d && dTotal && *dTotal > 0)
                add(u"host.cpu.mode"_s, { { u"mode"_s, it.key() } }, u"%"_s, UseKind::Utilization,
                    percentOf(*d, *dTotal));
        }
        for (auto it = totalByCpu.cbegin(); it != totalByCpu.cend(); ++it)
            utilization(u"cpu"_s + it.key(), it.value(), idleByCpu.value(it.key()));
    }
    const double count = double(totalByCpu.size());
    if (count > 0)
        add(u"host.cpu.count"_s, {}, QString(), UseKind::Info, count);
    if (const auto running = single(e, "node_procs_running"_L1)) {
        add(u"host.cpu.runnable"_s, {}, QString(), UseKind::Saturation, *running);
        if (count > 0)
            add(u"host.cpu.runqueue_per_cpu"_s, {}, QString(), UseKind::Saturation,
                *running / count);
    }
    const std::pair<QLatin1StringView, QString> loads[]
        = { { "node_load1"_L1, u"host.load.1"_s },
            { "node_load5"_L1, u"host.load.5"_s },
            { "node_load15"_L1, u"host.load.15"_s } };
    for (const auto &[name, metric] : loads)
        if (const auto v = single(e, name))
            add(metric, {}, QString(), UseKind::Saturation, *v);
    if (const auto load1 = single(e, "node_load1"_L1); load1 && count > 0)
        add(u"host.load.per_cpu"_s, {}, QString(), UseKind::Saturation, *load1 / count);
}

void NodeExporterMapping::mapMemory(const Exposition &e, SampleBatch *batch)
{
    const QString memory = u"memory"_s;
    const qint64 ts = batch->tsMs;
    const auto add = [&](const QString &metric, const Labels &labels, const QString &unit,
                         const QString &resource, UseKind kind, double value) {
        batch->add({ batch->source, metric, labels }, unit, resource, kind, value);
    };
    const auto total = single(e, "node_memory_MemTotal_bytes"_L1);
    const auto available = single(e, "node_memory_MemAvailable_bytes"_L1);
    if (total && available) {
        add(u"host.mem.utilization"_s, {}, u"%"_s, memory, UseKind::Utilization,
            percentOf(*total - std::min(*available, *total), *total));
        add(u"host.mem.total"_s, {}, u"B"_s, memory, UseKind::Info, *total);
        add(u"host.mem.available"_s, {}, u"B"_s, memory, UseKind::Info, *available);
    }
    const auto swapTotal = single(e, "node_memory_SwapTotal_bytes"_L1);
    const auto swapFree = single(e, "node_memory_SwapFree_bytes"_L1);
    if (swapTotal && swapFree && *swapTotal > 0)
        add(u"host.mem.swap_used"_s, {}, u"%"_s, memory, UseKind::Saturation,
            percentOf(*swapTotal - std::min(*swapFree, *swapTotal), *swapTotal));
    const CounterSpec counters[] = {
        { "node_vmstat_pswpin"_L1, u"host.mem.swap_in"_s, u"pages/s"_s, UseKind::Saturation },
        { "node_vmstat_pswpout"_L1, u"host.mem.swap_out"_s, u"pages/s"_s, UseKind::Saturation },
        { "node_vmstat_oom_kill"_L1, u"host.mem.oom_kills"_s, u"1/s"_s, UseKind::Errors },
    };
    for (const auto &c : counters)
        if (const auto v = single(e, c.name))
            if (const auto rate = m_rates.update(c.metric, *v, ts))
                add(c.metric, {}, c.unit, memory, c.kind, *rate);
    // Stall seconds per second: * 100 is the share of time, as /proc/pressure gives it.
    const struct
    {
        QLatin1StringView name;
        QString metric;
        QString kind;
        QString resource;
    } pressures[] = {
        { "node_pressure_cpu_waiting_seconds_total"_L1, u"host.cpu.psi"_s, u"some"_s, u"cpu"_s },
        { "node_pressure_memory_waiting_seconds_total"_L1, u"host.mem.psi"_s, u"some"_s,
          u"memory"_s },
        { "node_pressure_memory_stalled_seconds_total"_L1, u"host.mem.psi"_s, u"full"_s,
          u"memory"_s },
        { "node_pressure_io_waiting_seconds_total"_L1, u"host.io.psi"_s, u"some"_s, u"disk"_s },
        { "node_pressure_io_stalled_seconds_total"_L1, u"host.io.psi"_s, u"full"_s, u"disk"_s },
    };
    for (const auto &p : pressures)
        if (const auto v = single(e, p.name))
            if (const auto rate = m_rates.update(QString(p.name), *v, ts))
                add(p.metric, { { u"kind"_s, p.kind } }, u"%"_s, p.resource, UseKind::Saturation,
                    std::clamp(*rate * 100.0, 0.0, 100.0));
}

void NodeExporterMapping::mapDisks(const Exposition &e, SampleBatch *batch)
{
    const qint64 ts = batch->tsMs;
    const CounterSpec counters[] = {
        { "node_disk_io_time_seconds_total"_L1, u"host.disk.utilization"_s, u"%"_s,
          UseKind::Utilization, 100 },
        { "node_disk_io_time_weighted_seconds_total"_L1, u"host.disk.queue"_s, QString(),
          UseKind::Saturation, 1 },
        { "node_disk_read_bytes_total"_L1, u"host.disk.read_bytes"_s, u"B/s"_s, UseKind::Throughput,
          1 },
        { "node_disk_written_bytes_total"_L1, u"host.disk.write_bytes"_s, u"B/s"_s,
          UseKind::Throughput, 1 },
        { "node_disk_reads_completed_total"_L1, u"host.disk.reads"_s, u"1/s"_s, UseKind::Throughput,
          1 },
        { "node_disk_writes_completed_total"_L1, u"host.disk.writes"_s, u"1/s"_s,
          UseKind::Throughput, 1 },
    };
    for (const auto &c : counters) {
        forEachDeviceRate(e, c.name, ts, [&](const QString &device, std::optional<double> rate) {
            if (!rate)
                return;
            double value = *rate * c.scale;
            if (c.kind == UseKind::Utilization)
                value = std::min(value, 100.0);
            batch->add({ batch->source, c.metric, { { u"device"_s, device } } }, c.unit,
                       u"disk:"_s + device, c.kind, value);
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
        { "node_network_receive_bytes_total"_L1, u"nic.rx.bytes"_s, u"B/s"_s, UseKind::Throughput },
        { "node_network_transmit_bytes_total"_L1, u"nic.tx.bytes"_s, u"B/s"_s,
          UseKind::Throughput },
        { "node_network_receive_packets_total"_L1, u"nic.rx.packets"_s, u"1/s"_s,
          UseKind::Throughput },
        { "node_network_transmit_packets_total"_L1, u"nic.tx.packets"_s, u"1/s"_s,
          UseKind::Throughput },
        { "node_network_receive_drop_total"_L1, u"nic.rx.drops"_s, u"1/s"_s, UseKind::Saturation },
        { "node_network_transmit_drop_total"_L1, u"nic.tx.drops"_s, u"1/s"_s, UseKind::Saturation },
        { "node_network_receive_errs_total"_L1, u"nic.rx.errors"_s, u"1/s"_s, UseKind::Errors },
        { "node_network_transmit_errs_total"_L1, u"nic.tx.errors"_s, u"1/s"_s, UseKind::Errors },
    };
    QSet<QString> seen;
    for (const auto &c : counters) {
        forEachDeviceRate(e, c.name, ts, [&](const QString &device, std::optional<double> rate) {
            if (device == "lo"_L1) // the local collector skips loopback too
                return;
            seen.insert(device);
            if (!rate)
                return;
            const QString resource = u"nic:"_s + device;
            batch->add({ batch->source, c.metric, { { u"interface"_s, device } } }, c.unit,
                       resource, c.kind, *rate);
            const double speed = speedMbps.value(device, m_defaultSpeedMbps);
            if (c.unit == "B/s"_L1 && speed > 0)
                batch->add({ batch->source,
                             u"nic.utilization"_s,
                             { { u"interface"_s, device },
                               { u"direction"_s,
                                 c.metric.startsWith("nic.rx"_L1) ? u"rx"_s : u"tx"_s } } },
                           u"%"_s, resource, UseKind::Utilization, *rate * 8 / (speed * 1e6) * 100);
        });
    }
    for (const QString &device : std::as_const(seen)) {
        const double speed = speedMbps.value(device, m_defaultSpeedMbps);
        if (speed > 0)
            batch->add({ batch->source, u"nic.speed"_s, { { u"interface"_s, device } } },
                       u"Mbit/s"_s, u"nic:"_s + device, UseKind::Info, speed);
    }
    const QString tcp = u"tcp"_s;
    const auto retrans = single(e, "node_netstat_Tcp_RetransSegs"_L1);
    const auto out = single(e, "node_netstat_Tcp_OutSegs"_L1);
    if (!retrans)
        return;
    if (const auto rate = m_rates.update(u"tcp/RetransSegs"_s, *retrans, ts))
        batch->add({ batch->source, u"tcp.retransmits"_s, {} }, u"1/s"_s, tcp, UseKind::Errors,
                   *rate);
    if (!out)
        return;
    const auto dRetrans = m_rates.delta(u"tcp/ratio/RetransSegs"_s, *retrans, ts);
    const auto dOut = m_rates.delta(u"tcp/ratio/OutSegs"_s, *out, ts);
    if (dRetrans && dOut && *dOut > 0)
        batch->add({ batch->source, u"tcp.retransmit_ratio"_s, {} }, u"%"_s, tcp, UseKind::Errors,
                   100.0 * *dRetrans / *dOut);
    else if (dRetrans && dOut && *dRetrans == 0)
        batch->add({ batch->source, u"tcp.retransmit_ratio"_s, {} }, u"%"_s, tcp, UseKind::Errors,
                   0.0);
}

} // namespace Headroom
