// Where axes put their ticks and what the labels say, shared by every panel that
// paints its own axes: time ticks on whole steps of local time (10:05, not 10:04:37),
// value ticks on 1-2-5 steps, labels short enough for a narrow margin (12k, 1.5M).
#pragma once

#include <QList>
#include <QString>

namespace Headroom {

// The smallest of 1, 2, 5 times a power of ten that is at least rough (> 0).
double niceStep(double rough);

struct TimeTicks
{
    qint64 stepMs = 0;
    QList<qint64> ticks; // ms since the epoch, from <= tick <= to
    QString format; // QDateTime format of their labels
};

// Ticks for the range [fromMs, toMs] when about `room` labels fit side by side.
TimeTicks timeTicks(qint64 fromMs, qint64 toMs, int room);

struct ValueTicks
{
    double step = 0;
    QList<double> ticks; // multiples of step within [lo, hi]
};

// Ticks for [lo, hi] on a linear axis, at most about maxTicks of them.
ValueTicks valueTicks(double lo, double hi, int maxTicks);

// A tick label: as many decimals as the step needs, thousands and up with a suffix
// (k, M, G, T).
QString axisNumber(double value, double step);

} // namespace Headroom
