// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A host's tracks for the findings tests: a quiet host (CPU, run queue, memory, a disk),
// the same with its CPU saturated from bin 60, a process's CPU; and a finding by source
// and resource.
#pragma once

#include "analysistestutil.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace Headroom::AnalysisTest {

using namespace Qt::StringLiterals;

inline constexpr int HostBins = 120;

inline std::vector<Analysis::SeriesTrack> quietHost(QRandomGenerator &random, const QString &source,
                                                    int firstId)
{
    std::vector<Analysis::SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"host.cpu.utilization"_s, UseKind::Utilization, u"%"_s, u"cpu"_s, source), HostBins,
        [&](int) { return 12 + noise(random, 3); }, firstId));
    tracks.push_back(track(
        info(u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation, {}, u"cpu"_s, source), HostBins,
        [&](int) { return std::max(0.0, std::round(0.6 + noise(random, 0.8))); }, firstId + 1));
    tracks.push_back(track(
        info(u"host.mem.utilization"_s, UseKind::Utilization, u"%"_s, u"memory"_s, source),
        HostBins, [&](int) { return 41 + noise(random, 0.2); }, firstId + 2));
    tracks.push_back(track(
        info(u"host.disk.io_errors"_s, UseKind::Errors, u"1/s"_s, u"disk:vda"_s, source,
             { { u"device"_s, u"vda"_s } }),
        HostBins, [](int) { return 0.0; }, firstId + 3));
    tracks.push_back(track(
        info(u"host.disk.read_bytes"_s, UseKind::Throughput, u"B/s"_s, u"disk:vda"_s, source,
             { { u"device"_s, u"vda"_s } }),
        HostBins, [&](int i) { return i % 29 == 3 ? 4e6 : 2e4 * (1 + noise(random, 0.5)); },
        firstId + 4));
    return tracks;
}

// The quiet host whose CPU saturates at bin 60: utilization to 99 %, the run queue to 9;
// it has 2 CPUs (series 6).
inline std::vector<Analysis::SeriesTrack> cpuSaturatedHost(QRandomGenerator &random)
{
    std::vector<Analysis::SeriesTrack> tracks = quietHost(random, u"host"_s, 1);
    tracks.push_back(track(
        info(u"host.cpu.count"_s, UseKind::Info, {}, u"cpu"_s, u"host"_s), HostBins,
        [](int) { return 2.0; }, 6));
    tracks[0] = track(
        tracks[0].info, HostBins,
        [&](int i) { return i < 60 ? 12 + noise(random, 3) : 99 - std::abs(noise(random, 1)); }, 1);
    tracks[1] = track(
        tracks[1].info, HostBins,
        [&](int i) { return i < 61 ? std::max(0.0, std::round(0.6 + noise(random, 0.8))) : 9.0; },
        2);
    return tracks;
}

inline const Analysis::Finding *findingFor(const std::vector<Analysis::Finding> &findings,
                                           const QString &source, const QString &resource)
{
    for (const Analysis::Finding &f : findings)
        if (f.source == source && f.resource == resource)
            return &f;
    return nullptr;
}

inline Analysis::SeriesTrack processCpu(const QString &pid, const QString &comm,
                                        const std::function<double(int)> &value, int id,
                                        const QString &source = u"host"_s)
{
    return track(info(u"host.process.cpu"_s, UseKind::Info, u"%"_s, u"cpu"_s, source,
                      { { u"pid"_s, pid }, { u"comm"_s, comm }, { u"user"_s, u"ops"_s } }),
                 HostBins, value, id);
}

} // namespace Headroom::AnalysisTest
