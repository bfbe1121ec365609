// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/timeleft.h"

#include "document/panels/usematrixoptions.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Headroom::Analysis {

bool isTimeLeft(const SeriesInfo &info)
{
    return info.kind == UseKind::Saturation && !info.histogram
        && !defaultUseThresholds(UseColumn::Saturation, info.unit).higherIsWorse;
}

qint64 descentStart(const SeriesTrack &level, qint64 fromMs)
{
    const auto after = std::upper_bound(level.times.cbegin(), level.times.cend(), fromMs);
    if (after == level.times.cbegin())
        return fromMs;
    const size_t start = size_t(after - level.times.cbegin()) - 1;
    size_t i = start;
    while (i > 0 && level.values[i - 1] > level.values[i])
        --i;
    return i < start ? level.times[i + 1] : fromMs;
}

bool isBacklog(const SeriesInfo &info)
{
    if (info.kind != UseKind::Saturation || info.histogram
        || (info.unit != "s"_L1 && info.unit != "B"_L1))
        return false;
    const PanelThresholds own
        = defaultUseThresholds(UseColumn::Saturation, info.unit, info.resource);
    return own.higherIsWorse && !own.isEmpty()
        && defaultUseThresholds(UseColumn::Saturation, info.unit).isEmpty();
}

qint64 ascentStart(const SeriesTrack &track, qint64 fromMs, double floor)
{
    const auto after = std::upper_bound(track.times.cbegin(), track.times.cend(), fromMs);
    if (after == track.times.cbegin())
        return fromMs;
    const size_t start = size_t(after - track.times.cbegin()) - 1;
    size_t i = start;
    while (i > 0 && track.values[i - 1] < track.values[i] && track.values[i - 1] > floor
           && track.times[i] - track.times[i - 1] <= MaxGapBins * track.binMs)
        --i;
    return std::min(fromMs, track.times[i]);
}

namespace {

// The longest run of bins past a bound of `bounds`, with no gap over MaxGapBins, and
// its worst value as `worse` (max or min) picks it.
template<typename Worse>
std::optional<TimeLeftStretch> longestStretch(const SeriesTrack &track,
                                              const PanelThresholds &bounds, Worse worse)
{
    std::optional<TimeLeftStretch> best;
    size_t i = 0;
    while (i < track.values.size()) {
        if (bounds.level(track.values[i]) == 0) {
            ++i;
            continue;
        }
        TimeLeftStretch stretch;
        stretch.fromMs = track.times[i];
        stretch.worst = track.values[i];
        size_t j = i;
        while (j + 1 < track.values.size() && bounds.level(track.values[j + 1]) > 0
               && track.times[j + 1] - track.times[j] <= MaxGapBins * track.binMs) {
            ++j;
            stretch.worst = worse(stretch.worst, track.values[j]);
        }
        stretch.untilMs = track.binEnd(j);
        stretch.level = bounds.level(stretch.worst);
        if (!best || stretch.untilMs - stretch.fromMs > best->untilMs - best->fromMs)
            best = stretch;
        i = j + 1;
    }
    return best;
}

} // namespace

std::optional<TimeLeftStretch> backlogStretch(const SeriesTrack &track)
{
    const PanelThresholds bounds
        = defaultUseThresholds(UseColumn::Saturation, track.info.unit, track.info.resource);
    std::optional<TimeLeftStretch> best
        = longestStretch(track, bounds, [](double a, double b) { return std::max(a, b); });
    if (best)
        best->sinceMs = ascentStart(track, best->fromMs, bounds.warning / 40);
    return best;
}

std::optional<TimeLeftStretch> timeLeftStretch(const SeriesTrack &track,
                                               std::span<const SeriesTrack> tracks)
{
    const PanelThresholds bounds = defaultUseThresholds(UseColumn::Saturation, track.info.unit);
    std::optional<TimeLeftStretch> best
        = longestStretch(track, bounds, [](double a, double b) { return std::min(a, b); });
    if (!best)
        return std::nullopt;
    // The byte figure of the same series that fell most over the stretch (free bytes).
    best->sinceMs = best->fromMs;
    double deepest = 0;
    for (const SeriesTrack &other : tracks) {
        if (other.info.key.source != track.info.key.source
            || other.info.key.labels != track.info.key.labels || other.info.unit != "B"_L1
            || other.isEmpty())
            continue;
        const auto at = [&](qint64 ms) {
            const auto it = std::upper_bound(other.times.cbegin(), other.times.cend(), ms);
            return it == other.times.cbegin() ? other.values.front()
                                              : other.values[size_t(it - other.times.cbegin()) - 1];
        };
        const double fell = at(best->fromMs) - at(best->untilMs);
        if (fell > deepest) {
            deepest = fell;
            best->sinceMs = std::min(best->fromMs, descentStart(other, best->fromMs));
        }
    }
    return best;
}

} // namespace Headroom::Analysis
