// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/stacking.h"

#include <algorithm>
#include <cmath>

namespace Headroom {

namespace {
// The value of s at ts: its own point, interpolated inside a segment, else 0.
double valueAt(const PanelSeriesData &s, qint64 ts)
{
    const auto &points = s.points;
    const auto it = std::lower_bound(points.begin(), points.end(), ts,
                                     [](const Sample &p, qint64 t) { return p.tsMs < t; });
    const auto finite = [](double v) { return std::isfinite(v) ? v : 0.0; };
    if (it != points.end() && it->tsMs == ts)
        return finite(it->value);
    if (it == points.begin() || it == points.end())
        return 0;
    const size_t after = size_t(it - points.begin());
    // A segment starting at `after` means the gap lies between the two neighbours.
    if (std::binary_search(s.segmentStarts.begin(), s.segmentStarts.end(), after))
        return 0;
    const Sample &a = *(it - 1);
    const Sample &b = *it;
    const double t = double(ts - a.tsMs) / double(b.tsMs - a.tsMs);
    return finite(a.value) + t * (finite(b.value) - finite(a.value));
}
} // namespace

std::vector<StackedBand> stackSeries(const QList<PanelSeriesData> &series)
{
    std::vector<qint64> times;
    for (const PanelSeriesData &s : series) {
        for (const Sample &p : s.points)
            times.push_back(p.tsMs);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());

    std::vector<StackedBand> bands;
    bands.reserve(size_t(series.size()));
    std::vector<double> base(times.size(), 0.0);
    for (const PanelSeriesData &s : series) {
        StackedBand band;
        band.lower.reserve(times.size());
        band.upper.reserve(times.size());
        for (size_t i = 0; i < times.size(); ++i) {
            band.lower.push_back({ times[i], base[i] });
            base[i] += valueAt(s, times[i]);
            band.upper.push_back({ times[i], base[i] });
        }
        bands.push_back(std::move(band));
    }
    return bands;
}

} // namespace Headroom
