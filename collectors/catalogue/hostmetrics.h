// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The host collector's metric catalogue: every series name it publishes, with its unit,
// USE kind and resource, defined once. The local and SSH collector (hostcollector.cpp)
// and the node_exporter mapping (collectors/prometheus) both fill SeriesInfo from here,
// so the three transports cannot drift apart. A small library of its own: the
// prometheus library links it without linking the host collector (or libssh).
#pragma once

#include "collector/metricspec.h"

#include <QList>

namespace Headroom::HostMetrics {

// CPU (resource "cpu")
extern const MetricSpec CpuUtilization; // {cpu=all|cpuN}
extern const MetricSpec CpuMode; // {mode}
extern const MetricSpec CpuCount;
extern const MetricSpec CpuRunnable;
extern const MetricSpec CpuRunqueuePerCpu;
extern const MetricSpec Load1;
extern const MetricSpec Load5;
extern const MetricSpec Load15;
extern const MetricSpec LoadPerCpu;
// Pressure stall information, {kind=some|full}
extern const MetricSpec CpuPsi;
extern const MetricSpec MemPsi;
extern const MetricSpec IoPsi;
// Memory (resource "memory")
extern const MetricSpec MemUtilization;
extern const MetricSpec MemTotal;
extern const MetricSpec MemAvailable;
extern const MetricSpec MemSwapUsed;
extern const MetricSpec MemSwapIn;
extern const MetricSpec MemSwapOut;
extern const MetricSpec MemPageScan;
extern const MetricSpec MemOomKills;
// Disks, {device} (resource "disk:<device>")
extern const MetricSpec DiskUtilization;
extern const MetricSpec DiskQueue;
extern const MetricSpec DiskReadBytes;
extern const MetricSpec DiskWriteBytes;
extern const MetricSpec DiskReads;
extern const MetricSpec DiskWrites;
extern const MetricSpec DiskErrors;
// Filesystems, {mountpoint, device, fstype} (resource "fs:<mountpoint>"): block and
// memory filesystems, pseudo ones left out (collector/filesystems.h)
extern const MetricSpec FsUsed;
extern const MetricSpec FsFree;
extern const MetricSpec FsSize;
extern const MetricSpec FsInodesUsed;
extern const MetricSpec FsGrowth;
extern const MetricSpec FsTimeToFull;
// File handles of the whole system (resource "fd")
extern const MetricSpec FdUtilization;
extern const MetricSpec FdAllocated;
extern const MetricSpec FdMax;
// The top processes, {pid, comm, user[, unit]}: what carries the CPU, memory, disks and
// open files (no USE role of their own; findings name them, findings/contributors.h)
extern const MetricSpec ProcessCpu;
extern const MetricSpec ProcessRss;
extern const MetricSpec ProcessReadBytes;
extern const MetricSpec ProcessWriteBytes;
extern const MetricSpec ProcessOpenFiles;
extern const MetricSpec ProcessCount;

// Every entry above, in this order.
const QList<const MetricSpec *> &all();

} // namespace Headroom::HostMetrics
