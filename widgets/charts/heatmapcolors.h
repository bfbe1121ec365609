// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The colours of a latency heatmap: a perceptual palette (inferno, reversed, so that on
// a light window the count reads as ink: pale = a few events, dark = many) and the
// mapping of a cell's events per second onto it, linear or logarithmic.
#pragma once

#include <QColor>
#include <QList>

namespace Headroom {

enum class HeatmapColorScale
{
    Linear, // value / max: the busiest cells stand out, rare ones fade
    Log // decades of the grid's range: rare slow events stay visible next to busy rows
};

// "linear" and "log" as dashboard options spell them; anything else is linear.
HeatmapColorScale heatmapColorScaleFromName(const QString &name);

// What an empty cell (no event) is painted in: not part of the palette, so "nothing"
// never looks like "a few".
QColor heatmapEmptyColor();
// The palette at t in [0, 1] (clamped): 0 the fewest events, 1 the most.
QColor heatmapPalette(double t);

// The values a colour scale spans: [low, high] with high = the grid's largest value.
// Linear starts at 0; log at the smallest positive value, but at most LogDecades below
// high (a single stray event must not squeeze the busy rows into one colour).
struct HeatmapColorRange
{
    static constexpr double LogDecades = 4;

    HeatmapColorScale scale = HeatmapColorScale::Linear;
    double low = 0;
    double high = 0;

    static HeatmapColorRange of(HeatmapColorScale scale, double minPositive, double maxValue);

    // Position of value on the palette in [0, 1]; meaningful for value > 0.
    double position(double value) const;
    // heatmapEmptyColor() for values that are not > 0, else the palette's colour.
    QColor color(double value) const;
    // Values to label on the colour bar, from low to high: the ends and a few between
    // (powers of ten for log).
    QList<double> ticks() const;
};

} // namespace Headroom
