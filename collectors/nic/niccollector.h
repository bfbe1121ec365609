// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The nic collector: per network interface throughput, utilization against the link
// speed, drops and errors from /sys/class/net, TCP retransmits and established
// connections from /proc/net/snmp, listen queue overflows and drops from
// /proc/net/netstat, sockets in TIME_WAIT, orphaned and in use from /proc/net/sockstat, and
// on this machine the root qdisc's drops, overlimits, requeues and backlog (rtnetlink,
// qdiscstats.h).
#pragma once

#include "collector/collector.h"
#include "collector/counterrate.h"
#include "collector/filesource.h"
#include "qdiscstats.h"

#include <QHash>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

namespace Headroom {

class PollBuilder;

struct NicOptions
{
    QStringList interfaces; // empty: every interface (but loopback unless included)
    QHash<QString, double> speedMbps; // used when the driver reports no speed
    std::optional<double> defaultSpeedMbps; // for any other interface without a speed
    bool includeLoopback = false;
};

class NicCollector : public Collector
{
public:
    using Clock = std::function<qint64()>; // ms since the epoch; fake in tests

    // Validates config.options ("host", "root", "interfaces", "speedMbps",
    // "defaultSpeedMbps", "includeLoopback"); nullptr and *error when invalid.
    static std::unique_ptr<NicCollector> create(const CollectorConfig &config, QString *error);
    static std::optional<NicOptions> parseOptions(const QJsonObject &options, QString *error);

    // A null clock means steadyWallClockMs. Without a QdiscSource (a remote host, a
    // captured tree) there are no nic.qdisc.* series; create() gives the local host's.
    NicCollector(CollectorConfig config, NicOptions options, std::unique_ptr<FileSource> source,
                 Clock clock = {}, std::unique_ptr<QdiscSource> qdiscs = nullptr);

    PollResult poll(const QDeadlineTimer &deadline) override;

private:
    void collectInterface(PollBuilder &poll, const QString &name, bool explicitlyChosen);
    void collectTcp(PollBuilder &poll);
    void collectTcpQueues(PollBuilder &poll);
    void readQdiscs(PollBuilder &poll, const QDeadlineTimer &deadline);
    void collectQdisc(PollBuilder &poll, const QString &name);

    CollectorConfig m_config;
    NicOptions m_options;
    std::unique_ptr<FileSource> m_source;
    Clock m_clock;
    CounterRate m_rates;
    std::unique_ptr<QdiscSource> m_qdiscs;
    QHash<QString, QdiscStats> m_rootQdiscs; // this poll's, by interface name
    bool m_qdiscsUnavailable = false; // refused for good: not asked again
    bool m_qdiscsFailing = false; // the last reading failed (said once, not per poll)
};

} // namespace Headroom
