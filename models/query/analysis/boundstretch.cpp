// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/boundstretch.h"

#include "document/panels/usematrixoptions.h"
#include "query/analysis/timeleft.h"

#include <cmath>

namespace Headroom::Analysis {

std::optional<BoundStretch> boundStretch(const SeriesTrack &track)
{
    const SeriesInfo &info = track.info;
    if (track.isEmpty() || info.histogram || isTimeLeft(info) || isBacklog(info))
        return std::nullopt;
    const std::optional<UseColumn> column = useColumnOf(info.kind);
    if (!column)
        return std::nullopt;
    const PanelThresholds bounds = defaultUseThresholds(*column, info.unit, info.resource);
    if (qIsNaN(bounds.warning) || !bounds.higherIsWorse)
        return std::nullopt;
    const auto level = [&](double v) {
        return std::isnan(v)                                  ? -1
            : !qIsNaN(bounds.critical) && v > bounds.critical ? 2
            : v > bounds.warning                              ? 1
                                                              : 0;
    };
    const size_t n = track.values.size();
    // The stretch from the first bin, else the one around the worst.
    size_t anchor = 0;
    if (level(track.values[0]) < 1) {
        for (size_t i = 0; i < n; ++i)
            if (!std::isnan(track.values[i])
                && (std::isnan(track.values[anchor]) || track.values[i] >= track.values[anchor]))
                anchor = i;
        if (level(track.values[anchor]) < 1)
            return std::nullopt;
    }
    const qint64 maxGap = qint64(MaxGapBins + 1) * track.binMs;
    size_t first = anchor;
    while (first > 0 && level(track.values[first - 1]) >= 1
           && track.times[first] - track.times[first - 1] <= maxGap)
        --first;
    size_t last = anchor;
    while (last + 1 < n && level(track.values[last + 1]) >= 1
           && track.times[last + 1] - track.times[last] <= maxGap)
        ++last;
    BoundStretch s;
    s.fromMs = track.times[first];
    s.untilMs = track.binEnd(last);
    s.worst = track.values[first];
    for (size_t i = first; i <= last; ++i)
        s.worst = std::max(s.worst, track.values[i]);
    s.level = level(s.worst);
    s.warning = bounds.warning;
    s.critical = bounds.critical;
    s.fromFirstBin = first == 0;
    return s;
}

} // namespace Headroom::Analysis
