// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/heatmapcolors.h"

#include "charts/axisticks.h"

#include <QString>
#include <algorithm>
#include <array>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
// matplotlib's inferno at 0.9, 0.8, ... 0.1: its near-white and near-black ends are left
// out, the first so a few events stay visible on a light window, the last so the
// busiest cells do not merge with the black axis text.
constexpr std::array<QRgb, 9> Stops { 0xf6d746, 0xfca50a, 0xf37819, 0xdd513a, 0xbc3754,
                                      0x932667, 0x6a176e, 0x420a68, 0x160b39 };

// Where a tick is too close to an end label to get its own.
constexpr double EndGap = 0.15;

} // namespace

HeatmapColorScale heatmapColorScaleFromName(const QString &name)
{
    return name == u"log"_s ? HeatmapColorScale::Log : HeatmapColorScale::Linear;
}

QColor heatmapEmptyColor()
{
    return QColor(0xff, 0xff, 0xff);
}

QColor heatmapPalette(double t)
{
    if (!(t > 0))
        t = 0; // NaN too
    t = std::min(t, 1.0);
    const double at = t * double(Stops.size() - 1);
    const size_t i = std::min(size_t(at), Stops.size() - 2);
    const double f = at - double(i);
    const QColor a(Stops[i]);
    const QColor b(Stops[i + 1]);
    const auto mix = [f](int x, int y) { return int(std::lround(x + (y - x) * f)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

HeatmapColorRange HeatmapColorRange::of(HeatmapColorScale scale, double minPositive,
                                        double maxValue)
{
    HeatmapColorRange range;
    range.scale = scale;
    if (!(maxValue > 0) || !std::isfinite(maxValue))
        return range;
    range.high = maxValue;
    if (scale == HeatmapColorScale::Log) {
        const double floor = maxValue * std::pow(10.0, -LogDecades);
        range.low
            = minPositive > 0 && minPositive <= maxValue ? std::max(minPositive, floor) : floor;
    }
    return range;
}

double HeatmapColorRange::position(double value) const
{
    if (!(value > 0) || !(high > 0))
        return 0;
    if (scale == HeatmapColorScale::Linear)
        return std::clamp(value / high, 0.0, 1.0);
    if (!(high > low) || !(low > 0))
        return 1;
    return std::clamp(std::log(value / low) / std::log(high / low), 0.0, 1.0);
}

QColor HeatmapColorRange::color(double value) const
{
    return value > 0 ? heatmapPalette(position(value)) : heatmapEmptyColor();
}

QList<double> HeatmapColorRange::ticks() const
{
    QList<double> out { low };
    if (!(high > low))
        return out;
    if (scale == HeatmapColorScale::Linear) {
        const double step = niceStep(high / 4);
        for (double v = step; v < high; v += step) {
            if (position(v) >= EndGap && position(v) <= 1 - EndGap)
                out.append(v);
        }
    } else if (low > 0) {
        for (double v = std::pow(10.0, std::ceil(std::log10(low))); v < high; v *= 10) {
            if (position(v) >= EndGap && position(v) <= 1 - EndGap)
                out.append(v);
        }
    }
    out.append(high);
    return out;
}

} // namespace Headroom
