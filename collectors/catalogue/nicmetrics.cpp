// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "nicmetrics.h"

namespace Headroom::NicMetrics {

using namespace Qt::StringLiterals;

// Name, unit, kind, resource prefix, the label completing it, description.
const MetricSpec RxBytes { u"nic.rx.bytes"_s, u"B/s"_s,       UseKind::Throughput,
                           u"nic:"_s,         u"interface"_s, u"bytes received"_s };
const MetricSpec TxBytes { u"nic.tx.bytes"_s, u"B/s"_s,       UseKind::Throughput,
                           u"nic:"_s,         u"interface"_s, u"bytes sent"_s };
const MetricSpec RxPackets { u"nic.rx.packets"_s, u"1/s"_s,       UseKind::Throughput,
                             u"nic:"_s,           u"interface"_s, u"packets received"_s };
const MetricSpec TxPackets { u"nic.tx.packets"_s, u"1/s"_s,       UseKind::Throughput,
                             u"nic:"_s,           u"interface"_s, u"packets sent"_s };
const MetricSpec RxDrops { u"nic.rx.drops"_s, u"1/s"_s,       UseKind::Saturation,
                           u"nic:"_s,         u"interface"_s, u"received packets dropped"_s };
const MetricSpec TxDrops { u"nic.tx.drops"_s, u"1/s"_s,       UseKind::Saturation,
                           u"nic:"_s,         u"interface"_s, u"packets dropped before sending"_s };
const MetricSpec RxErrors { u"nic.rx.errors"_s, u"1/s"_s,       UseKind::Errors,
                            u"nic:"_s,          u"interface"_s, u"receive errors"_s };
const MetricSpec TxErrors { u"nic.tx.errors"_s, u"1/s"_s,       UseKind::Errors,
                            u"nic:"_s,          u"interface"_s, u"transmit errors"_s };
const MetricSpec Speed { u"nic.speed"_s, u"Mbit/s"_s,
                         UseKind::Info,  u"nic:"_s,
                         u"interface"_s, u"link speed, from the driver or the options"_s };
const MetricSpec Utilization {
    u"nic.utilization"_s, u"%"_s,
    UseKind::Utilization, u"nic:"_s,
    u"interface"_s,       u"throughput in each direction, of the link speed"_s
};
const MetricSpec QdiscDrops {
    u"nic.qdisc.drops"_s, u"1/s"_s,
    UseKind::Errors,      u"nic:"_s,
    u"interface"_s,       u"packets the root qdisc dropped (full queue, rate limiter)"_s
};
const MetricSpec QdiscOverlimits {
    u"nic.qdisc.overlimits"_s,
    u"1/s"_s,
    UseKind::Saturation,
    u"nic:"_s,
    u"interface"_s,
    u"times the root qdisc held packets back (e.g. tbf out of tokens)"_s
};
const MetricSpec QdiscRequeues {
    u"nic.qdisc.requeues"_s, u"1/s"_s,
    UseKind::Saturation,     u"nic:"_s,
    u"interface"_s,          u"packets the driver handed back to the root qdisc (queue full)"_s
};
const MetricSpec QdiscBacklog {
    u"nic.qdisc.backlog"_s, u"B"_s,
    UseKind::Saturation,    u"nic:"_s,
    u"interface"_s,         u"bytes queued in the root qdisc, waiting to be sent"_s
};
const MetricSpec TcpRetransmits {
    u"tcp.retransmits"_s, u"1/s"_s, UseKind::Errors, u"tcp"_s, {}, u"TCP segments retransmitted"_s
};
const MetricSpec TcpRetransmitRatio { u"tcp.retransmit_ratio"_s,
                                      u"%"_s,
                                      UseKind::Errors,
                                      u"tcp"_s,
                                      {},
                                      u"TCP segments retransmitted, of those sent"_s };

// The accept queue of a listening socket was full (the program accepts too slowly or
// its backlog is too short): a saturation. Drops count every SYN or ACK a listening
// socket dropped, overflows among them.
const MetricSpec TcpListenOverflows { u"tcp.listen_overflows"_s,
                                      u"1/s"_s,
                                      UseKind::Saturation,
                                      u"tcp"_s,
                                      {},
                                      u"connections refused: a listen queue was full"_s };
const MetricSpec TcpListenDrops { u"tcp.listen_drops"_s,
                                  u"1/s"_s,
                                  UseKind::Errors,
                                  u"tcp"_s,
                                  {},
                                  u"connection attempts dropped at listening sockets"_s };
const MetricSpec TcpConnections { u"tcp.connections"_s,
                                  u"sockets"_s,
                                  UseKind::Info,
                                  u"tcp"_s,
                                  {},
                                  u"TCP sockets by state: established (and close-wait), "
                                  "time_wait, orphan (closing), in_use (all, listening too)"_s };

const QList<const MetricSpec *> &all()
{
    static const QList<const MetricSpec *> entries {
        &RxBytes,
        &TxBytes,
        &RxPackets,
        &TxPackets,
        &RxDrops,
        &TxDrops,
        &RxErrors,
        &TxErrors,
        &Speed,
        &Utilization,
        &QdiscDrops,
        &QdiscOverlimits,
        &QdiscRequeues,
        &QdiscBacklog,
        &TcpRetransmits,
        &TcpRetransmitRatio,
        &TcpListenOverflows,
        &TcpListenDrops,
        &TcpConnections,
    };
    return entries;
}

} // namespace Headroom::NicMetrics
