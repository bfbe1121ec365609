// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Where axes put their ticks and what the labels say, shared by every panel that
// paints its own axes: time ticks on whole steps of local time (10:05, not 10:04:37),
// value ticks on 1-2-5 steps, labels short enough for a narrow margin (12k, 1.5M).
#pragma once

#include <QList>
#include <QString>

namespace Headroom {

// No axis gets more ticks than this, whatever its range and pixel width: a belt on top
// of the dashboard's range bound (a custom or --range span, a zoom on a huge display,
// values so close that doubles cannot tell the steps apart).
constexpr int MaximumAxisTicks = 200;

// The smallest of 1, 2, 5 times a power of ten that is at least rough (> 0).
double niceStep(double rough);

struct TimeTicks
{
    qint64 stepMs = 0;
    QList<qint64> ticks; // ms since the epoch, from <= tick <= to
    QString format; // QDateTime format of their labels
};

// Ticks for the range [fromMs, toMs] when about `room` labels fit side by side (room is
// taken as 1 to MaximumAxisTicks). Beyond the largest step (7 days) the step is a
// multiple of it, so any span gives at most room + 1 ticks.
TimeTicks timeTicks(qint64 fromMs, qint64 toMs, int room);

struct ValueTicks
{
    double step = 0;
    QList<double> ticks; // multiples of step within [lo, hi]
};

// Ticks for [lo, hi] on a linear axis, at most maxTicks + 1 of them (maxTicks is taken
// as 1 to MaximumAxisTicks), ascending and distinct.
ValueTicks valueTicks(double lo, double hi, int maxTicks);

// A tick label: as many decimals as the step needs, thousands and up with a suffix
// (k, M, G, T).
QString axisNumber(double value, double step);

} // namespace Headroom
