// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The nic collector's metric catalogue: every series name it publishes, with its unit,
// USE kind and resource, defined once. The local and SSH collector (niccollector.cpp)
// and the node_exporter mapping (collectors/prometheus) both fill SeriesInfo from here.
// A small library of its own: the prometheus library links it without linking the nic
// collector (or libssh).
#pragma once

#include "collector/metricspec.h"

#include <QList>

namespace Headroom::NicMetrics {

// Per interface, {interface} (resource "nic:<interface>")
extern const MetricSpec RxBytes;
extern const MetricSpec TxBytes;
extern const MetricSpec RxPackets;
extern const MetricSpec TxPackets;
extern const MetricSpec RxDrops;
extern const MetricSpec TxDrops;
extern const MetricSpec RxErrors;
extern const MetricSpec TxErrors;
extern const MetricSpec Speed;
extern const MetricSpec Utilization; // {interface, direction=rx|tx}
// The interface's root qdisc (rtnetlink; local collector only), {interface}
extern const MetricSpec QdiscDrops;
extern const MetricSpec QdiscOverlimits;
extern const MetricSpec QdiscRequeues;
extern const MetricSpec QdiscBacklog;
// TCP (resource "tcp")
extern const MetricSpec TcpRetransmits;
extern const MetricSpec TcpRetransmitRatio;
extern const MetricSpec TcpListenOverflows;
extern const MetricSpec TcpListenDrops;
extern const MetricSpec TcpConnections; // {state=established|time_wait|orphan|in_use}

// Every entry above, in this order.
const QList<const MetricSpec *> &all();

} // namespace Headroom::NicMetrics
