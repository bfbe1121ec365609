// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "niccollector.h"

#include "collector/hosttransport.h"
#include "collector/pollbuilder.h"
#include "collector/steadyclock.h"
#include "hostfilesource.h"
#include "netsnmpparser.h"
#include "niclogging.h"
#include "nicmetrics.h"
#include "sockstatparser.h"
#include "sysfsvalueparser.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonValue>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QString NetDir = u"/sys/class/net"_s;
const QString SnmpPath = u"/proc/net/snmp"_s;
const QString NetstatPath = u"/proc/net/netstat"_s;
const QString SockstatPath = u"/proc/net/sockstat"_s;
constexpr qint64 ArphrdLoopback = 772; // include/uapi/linux/if_arp.h

struct StatCounter
{
    QString file; // under statistics/
    const MetricSpec *metric;
};

const StatCounter StatCounters[] = {
    { u"rx_bytes"_s, &NicMetrics::RxBytes },     { u"tx_bytes"_s, &NicMetrics::TxBytes },
    { u"rx_packets"_s, &NicMetrics::RxPackets }, { u"tx_packets"_s, &NicMetrics::TxPackets },
    { u"rx_dropped"_s, &NicMetrics::RxDrops },   { u"tx_dropped"_s, &NicMetrics::TxDrops },
    { u"rx_errors"_s, &NicMetrics::RxErrors },   { u"tx_errors"_s, &NicMetrics::TxErrors },
};

QString interfacePath(const QString &name, const QString &file)
{
    return NetDir + u'/' + name + u'/' + file;
}

QString statPath(const QString &name, const QString &counter)
{
    return interfacePath(name, u"statistics/"_s + counter);
}

} // namespace

std::optional<NicOptions> NicCollector::parseOptions(const QJsonObject &options, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    NicOptions parsed;
    const QJsonValue interfaces = options.value("interfaces"_L1);
    if (!interfaces.isUndefined() && !interfaces.isNull()) {
        if (!interfaces.isArray())
            return fail(u"\"interfaces\" must be an array of interface names"_s);
        for (const auto allNames = interfaces.toArray(); const auto &name : allNames) {
            if (!name.isString() || name.toString().isEmpty() || name.toString().contains(u'/'))
                return fail(u"\"interfaces\" must be an array of interface names"_s);
            parsed.interfaces << name.toString();
        }
    }
    const QJsonValue speeds = options.value("speedMbps"_L1);
    if (!speeds.isUndefined() && !speeds.isNull()) {
        if (!speeds.isObject())
            return fail(u"\"speedMbps\" must map interface names to Mbit/s"_s);
        const QJsonObject map = speeds.toObject();
        for (auto it = map.constBegin(); it != map.constEnd(); ++it) {
            if (!it.value().isDouble() || it.value().toDouble() <= 0)
                return fail(
                    u"\"speedMbps\": %1: expected a positive number of Mbit/s"_s.arg(it.key()));
            parsed.speedMbps.insert(it.key(), it.value().toDouble());
        }
    }
    // Usually set from a dashboard variable, so a numeric string counts; "" means none.
    const QJsonValue fallback = options.value("defaultSpeedMbps"_L1);
    if (!fallback.isUndefined() && !fallback.isNull()
        && !(fallback.isString() && fallback.toString().trimmed().isEmpty())) {
        bool ok = fallback.isDouble();
        const double mbps = ok ? fallback.toDouble() : fallback.toString().trimmed().toDouble(&ok);
        if (!ok || mbps <= 0)
            return fail(u"\"defaultSpeedMbps\": expected a positive number of Mbit/s"_s);
        parsed.defaultSpeedMbps = mbps;
    }
    const QJsonValue loopback = options.value("includeLoopback"_L1);
    if (!loopback.isUndefined() && !loopback.isNull() && !loopback.isBool())
        return fail(u"\"includeLoopback\" must be true or false"_s);
    parsed.includeLoopback = loopback.toBool(false);
    return parsed;
}

std::unique_ptr<NicCollector> NicCollector::create(const CollectorConfig &config, QString *error)
{
    auto source = hostFileSource(config.options, error);
    if (!source)
        return nullptr;
    auto options = parseOptions(config.options, error);
    if (!options)
        return nullptr;
    // Netlink answers for the namespace Headroom runs in: only when /sys/class/net is
    // this machine's too (no remote host, no captured or container tree under "root").
    const auto transport = parseHostTransport(config.options, error);
    if (!transport)
        return nullptr;
    std::unique_ptr<QdiscSource> qdiscs;
    if (transport->kind == HostTransport::Kind::Local && transport->root.isEmpty())
        qdiscs = std::make_unique<NetlinkQdiscSource>();
    return std::make_unique<NicCollector>(config, std::move(*options), std::move(source), Clock(),
                                          std::move(qdiscs));
}

NicCollector::NicCollector(CollectorConfig config, NicOptions options,
                           std::unique_ptr<FileSource> source, Clock clock,
                           std::unique_ptr<QdiscSource> qdiscs)
    : m_config(std::move(config))
    , m_options(std::move(options))
    , m_source(std::move(source))
    , m_clock(clock ? std::move(clock) : Clock(&steadyWallClockMs))
    , m_qdiscs(std::move(qdiscs))
{
}

PollResult NicCollector::poll(const QDeadlineTimer &deadline)
{
    // A remote FileSource answers the listing from its last round trip when it can, so
    // a poll normally costs one round trip.
    const DirectoryListing listing = m_source->listDirectory(NetDir, deadline);
    const QStringList &present = listing.entries;
    PollBuilder poll(m_config, m_clock(), lcNic);
    if (present.isEmpty()) {
        poll.result.error = u"cannot list %1 on %2: %3"_s.arg(
            NetDir, m_source->description(),
            listing.error.isEmpty() ? u"it is empty"_s : listing.error);
        return std::move(poll.result);
    }

    if (listing.capped())
        poll.warn(u"nic: "_s + listing.capWarning(NetDir));

    const bool explicitList = !m_options.interfaces.isEmpty();
    QStringList chosen;
    if (explicitList) {
        for (const QString &name : std::as_const(m_options.interfaces)) {
            if (present.contains(name))
                chosen << name;
            else
                poll.warn(u"nic: %1: no such interface"_s.arg(name));
        }
    } else {
        chosen = present;
    }

    QStringList paths { SnmpPath, NetstatPath, SockstatPath };
    for (const QString &name : std::as_const(chosen)) {
        paths << interfacePath(name, u"type"_s) << interfacePath(name, u"speed"_s);
        for (const StatCounter &counter : StatCounters)
            paths << statPath(name, counter.file);
    }
    poll.files = m_source->readFiles(paths, deadline);
    // Nothing at all read (a remote host gone since the listing): the poll failed.
    if (poll.files.contents.isEmpty()) {
        poll.result.error = u"cannot read %1 on %2: %3"_s.arg(
            SnmpPath, m_source->description(), poll.files.errors.value(SnmpPath, u"no data"_s));
        return std::move(poll.result);
    }

    readQdiscs(poll, deadline);
    for (const QString &name : std::as_const(chosen))
        collectInterface(poll, name, explicitList);
    collectTcp(poll);
    return std::move(poll.result);
}

void NicCollector::readQdiscs(PollBuilder &poll, const QDeadlineTimer &deadline)
{
    m_rootQdiscs.clear();
    if (!m_qdiscs || m_qdiscsUnavailable)
        return;
    const QdiscReading reading = m_qdiscs->read(deadline);
    poll.reportProblems(u"netlink RTM_GETQDISC"_s, reading.problems);
    if (!reading.error.isEmpty()) {
        m_qdiscsUnavailable = reading.unavailable;
        // Said once, when it starts failing: a sandbox without netlink would otherwise
        // fill the status and the log with the same line every second.
        if (!std::exchange(m_qdiscsFailing, true)) {
            const QString message
                = u"nic: qdisc statistics unavailable (%1); no nic.qdisc.* series%2"_s.arg(
                    reading.error, reading.unavailable ? u""_s : u" until it recovers"_s);
            poll.result.warnings << message;
            qCInfo(lcNic).noquote() << m_config.sourceId << message;
        }
        return;
    }
    if (std::exchange(m_qdiscsFailing, false))
        qCInfo(lcNic).noquote() << m_config.sourceId << "nic: qdisc statistics readable again";
    for (const QdiscStats &qdisc : reading.roots)
        m_rootQdiscs.insert(qdisc.interfaceName, qdisc);
}

void NicCollector::collectQdisc(PollBuilder &poll, const QString &name)
{
    const auto qdisc = m_rootQdiscs.constFind(name);
    if (qdisc == m_rootQdiscs.cend())
        return; // a remote host, or no qdisc (an interface down has only the builtin noop)
    const Labels labels { { u"interface"_s, name } };
    SampleBatch &batch = poll.result.batch;
    // The baselines are per qdisc, not per interface: `tc qdisc replace` starts a new
    // one at zero, which must be a fresh baseline rather than a rate against the old.
    const QString key = u"%1/qdisc/%2/%3/"_s.arg(name, qdisc->kind).arg(qdisc->handle, 0, 16);
    const std::pair<const MetricSpec *, std::optional<quint64>> counters[] = {
        { &NicMetrics::QdiscDrops, qdisc->drops },
        { &NicMetrics::QdiscOverlimits, qdisc->overlimits },
        { &NicMetrics::QdiscRequeues, qdisc->requeues },
    };
    for (const auto &[metric, value] : counters) {
        if (!value)
            continue;
        // 32-bit in the kernel's structs: a wrap goes down, which gives a gap.
        if (const auto rate = m_rates.update(key + metric->name, double(*value), poll.ts))
            addValue(batch, *metric, labels, *rate);
    }
    addValue(batch, NicMetrics::QdiscBacklog, labels, double(qdisc->backlogBytes));
}

void NicCollector::collectInterface(PollBuilder &poll, const QString &name, bool explicitlyChosen)
{
    // /sys/class/net also holds plain files (bonding_masters): an entry without a
    // "type" is not an interface, unless the user named it.
    const QString typePath = interfacePath(name, u"type"_s);
    if (!explicitlyChosen && !poll.files.contents.contains(typePath))
        return;
    const auto type = parseSysfsInteger(poll.files.contents.value(typePath));
    const bool loopback = name == "lo"_L1 || type == ArphrdLoopback;
    // An interface named in "interfaces" is wanted even if it is the loopback.
    if (loopback && !explicitlyChosen && !m_options.includeLoopback)
        return;

    const Labels labels { { u"interface"_s, name } };
    SampleBatch &batch = poll.result.batch;
    std::optional<double> rxBytesPerSecond;
    std::optional<double> txBytesPerSecond;
    for (const StatCounter &counter : StatCounters) {
        const QString path = statPath(name, counter.file);
        const auto content = poll.file(path);
        if (!content)
            continue;
        const auto value = parseSysfsInteger(*content);
        if (!value || *value < 0) {
            poll.warn(u"%1: line 1: not a counter: \"%2\""_s.arg(
                path, QString::fromLatin1(content->trimmed().left(32))));
            continue;
        }
        // Plain reset handling: a counter that goes down (driver reload, 32-bit wrap)
        // gives a gap for one interval rather than a guessed value.
        const auto rate = m_rates.update(name + u'/' + counter.file, double(*value), poll.ts);
        if (!rate)
            continue;
        addValue(batch, *counter.metric, labels, *rate);
        if (counter.file == "rx_bytes"_L1)
            rxBytesPerSecond = rate;
        else if (counter.file == "tx_bytes"_L1)
            txBytesPerSecond = rate;
    }
    collectQdisc(poll, name);

    const QString speedPath = interfacePath(name, u"speed"_s);
    const auto speedContent = poll.files.contents.constFind(speedPath);
    std::optional<double> speed;
    if (speedContent != poll.files.contents.cend()) {
        speed = parseLinkSpeedMbps(*speedContent);
        if (!speed && !parseSysfsInteger(*speedContent))
            poll.warn(u"%1: line 1: not a number: \"%2\""_s.arg(
                speedPath, QString::fromLatin1(speedContent->trimmed().left(32))));
    }
    // Virtual NICs (virtio, veth, bridges) report -1 or fail with EINVAL: the user's
    // figure is all there is.
    if (!speed && m_options.speedMbps.contains(name))
        speed = m_options.speedMbps.value(name);
    if (!speed && !loopback && m_options.defaultSpeedMbps) {
        speed = m_options.defaultSpeedMbps;
        poll.warn(
            u"nic: %1: driver reports no link speed; assuming %2 Mbit/s"_s.arg(name).arg(*speed));
    }
    if (!speed) {
        if (!loopback)
            poll.warn(u"nic: %1: link speed unknown; set speedMbps to get utilization"_s.arg(name));
        return;
    }
    addValue(batch, NicMetrics::Speed, labels, *speed);
    const double bitsPerSecond = *speed * 1e6;
    const std::pair<QString, std::optional<double>> directions[]
        = { { u"rx"_s, rxBytesPerSecond }, { u"tx"_s, txBytesPerSecond } };
    for (const auto &[direction, bytes] : directions) {
        if (bytes)
            addValue(batch, NicMetrics::Utilization,
                     { { u"interface"_s, name }, { u"direction"_s, direction } },
                     *bytes * 8 / bitsPerSecond * 100);
    }
}

void NicCollector::collectTcp(PollBuilder &poll)
{
    collectTcpQueues(poll);
    const auto content = poll.file(SnmpPath);
    if (!content)
        return;
    QStringList problems;
    const auto tcp = parseNetSnmp(*content, "Tcp", &problems);
    poll.reportProblems(SnmpPath, problems);
    if (!tcp)
        return;
    SampleBatch &batch = poll.result.batch;
    // CurrEstab counts ESTABLISHED and CLOSE_WAIT (RFC 1213's tcpCurrEstab).
    if (const auto established = tcp->constFind(u"CurrEstab"_s); established != tcp->cend())
        addValue(batch, NicMetrics::TcpConnections, { { u"state"_s, u"established"_s } },
                 double(*established));
    const auto retrans = tcp->constFind(u"RetransSegs"_s);
    if (retrans == tcp->cend())
        return;
    if (const auto rate = m_rates.update(u"tcp/RetransSegs"_s, double(*retrans), poll.ts))
        addValue(batch, NicMetrics::TcpRetransmits, {}, *rate);
    const auto out = tcp->constFind(u"OutSegs"_s);
    if (out == tcp->cend())
        return;
    // Separate keys: CounterRate keeps one baseline per name, and the rate above
    // already advanced "tcp/RetransSegs".
    const auto dRetrans = m_rates.delta(u"tcp/ratio/RetransSegs"_s, double(*retrans), poll.ts);
    const auto dOut = m_rates.delta(u"tcp/ratio/OutSegs"_s, double(*out), poll.ts);
    if (!dRetrans || !dOut)
        return;
    // Nothing sent and nothing retransmitted is a true 0 %, not a gap: an idle host
    // should draw a flat line. Retransmits without segments sent has no ratio.
    if (*dOut > 0)
        addValue(batch, NicMetrics::TcpRetransmitRatio, {}, *dRetrans / *dOut * 100);
    else if (*dRetrans == 0)
        addValue(batch, NicMetrics::TcpRetransmitRatio, {}, 0.0);
}

void NicCollector::collectTcpQueues(PollBuilder &poll)
{
    SampleBatch &batch = poll.result.batch;
    // /proc/net/netstat has the layout of /proc/net/snmp: TcpExt's listen queue counters.
    if (const auto content = poll.file(NetstatPath)) {
        QStringList problems;
        const auto ext = parseNetSnmp(*content, "TcpExt", &problems);
        poll.reportProblems(NetstatPath, problems);
        const std::pair<QString, const MetricSpec &> counters[] = {
            { u"ListenOverflows"_s, NicMetrics::TcpListenOverflows },
            { u"ListenDrops"_s, NicMetrics::TcpListenDrops },
        };
        for (const auto &[column, metric] : counters) {
            if (!ext)
                break;
            const auto value = ext->constFind(column);
            if (value == ext->cend())
                continue;
            if (const auto rate = m_rates.update(u"tcp/"_s + column, double(*value), poll.ts))
                addValue(batch, metric, {}, *rate);
        }
    }
    if (const auto content = poll.file(SockstatPath)) {
        QStringList problems;
        const auto sockets = parseTcpSockStat(*content, &problems);
        poll.reportProblems(SockstatPath, problems);
        if (!sockets)
            return;
        const std::pair<QString, quint64> states[] = {
            { u"time_wait"_s, sockets->timeWait },
            { u"orphan"_s, sockets->orphan },
            { u"in_use"_s, sockets->inUse },
        };
        for (const auto &[state, count] : states)
            addValue(batch, NicMetrics::TcpConnections, { { u"state"_s, state } }, double(count));
    }
}

} // namespace Headroom
