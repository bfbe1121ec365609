// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Forecasts of a time left: a Saturation series whose USE bounds are lower-is-worse (unit
// "h": a filesystem's hours to full, defaultUseThresholds). Such a series exists only
// while the resource runs out (no forecast while a filesystem does not grow), so it has
// no level before to step from and an onset cannot find it; instead its raised stretch
// is judged as the USE matrix judges a cell:
// - the stretch: the longest run of bins at or beyond the warning bound (6 h), bins at
//   most MaxGapBins apart (a poll without a forecast does not end it); its level is the
//   worst bin's (critical at or below 1 h);
// - since when: the stretch's start, moved back to where the resource's level began to
//   fall (descentStart on the byte figure of the same series labels that fell most over
//   the stretch: a filesystem's free bytes), since a robust forecast needs a few polls
//   of growth before it speaks.
#pragma once

#include "query/analysis/seriestrack.h"

#include <optional>
#include <span>

namespace Headroom::Analysis {

struct TimeLeftStretch
{
    qint64 fromMs = 0; // the first bin at or beyond warning
    qint64 untilMs = 0; // the end of the last bin
    double worst = 0; // the smallest time left in it
    int level = 0; // 1 warning, 2 critical
    qint64 sinceMs = 0; // fromMs, or earlier where the level began to fall
};

inline constexpr int MaxGapBins = 3;

// Whether the track is a time left (its bounds are lower-is-worse).
bool isTimeLeft(const SeriesInfo &info);

// The raised stretch of a time-left track; tracks: all of the analysis (for the level
// that fell). nullopt when no bin reaches the warning bound.
std::optional<TimeLeftStretch> timeLeftStretch(const SeriesTrack &track,
                                               std::span<const SeriesTrack> tracks);

// The start of the fall that leads into fromMs on `level`: from the last bin at or
// before fromMs back while each bin is above the one after it; the first bin after the
// highest. fromMs when the level did not fall into it.
qint64 descentStart(const SeriesTrack &level, qint64 fromMs);

// Backlogs: a Saturation series in "s" or "B" whose resource has bounds of its own for it
// (defaultUseThresholds: a replication lag of a standby or of this server as a replica,
// the WAL a replication slot retains).
// A lag grows as a ramp, a second per second while replay stands still, rather than
// stepping: a two-level onset would fall into the ramp's middle, past the moment replay
// stopped. Judged like a time left: the longest stretch at or past the warning bound
// (bins at most MaxGapBins apart; its worst the highest bin), since where the lag began
// to rise into it (ascentStart, from a fortieth of the warning bound: a quarter of a second
// behind for a lag).
bool isBacklog(const SeriesInfo &info);
std::optional<TimeLeftStretch> backlogStretch(const SeriesTrack &track);

// The start of the rise that leads into fromMs: from the last bin at or before fromMs
// back while each bin is below the one after it and above `floor` (a lag of a few ms is
// a healthy stream, not the start of a backlog); the first bin of that run. fromMs when
// the track did not rise into it.
qint64 ascentStart(const SeriesTrack &track, qint64 fromMs, double floor);

} // namespace Headroom::Analysis
