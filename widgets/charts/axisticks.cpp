// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "charts/axisticks.h"

#include "core/valueformat.h"

#include <QDateTime>
#include <QtNumeric>
#include <cmath>
#include <iterator>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 Second = 1000, Minute = 60 * Second, Hour = 60 * Minute, Day = 24 * Hour;
// Smallest first; the first that leaves room for every label wins.
constexpr qint64 TimeSteps[]
    = { Second,     2 * Second, 5 * Second,  10 * Second, 15 * Second, 30 * Second, Minute,
        2 * Minute, 5 * Minute, 10 * Minute, 15 * Minute, 30 * Minute, Hour,        2 * Hour,
        3 * Hour,   6 * Hour,   12 * Hour,   Day,         2 * Day,     7 * Day };
} // namespace

double niceStep(double rough)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    for (double m : { 1.0, 2.0, 5.0 }) {
        if (m * magnitude >= rough)
            return m * magnitude;
    }
    return 10 * magnitude;
}

TimeTicks timeTicks(qint64 fromMs, qint64 toMs, int room)
{
    TimeTicks result;
    if (toMs <= fromMs)
        return result;
    // The true span fits in 64 unsigned bits even when toMs - fromMs would overflow.
    const quint64 span = quint64(toMs) - quint64(fromMs);
    room = std::clamp(room, 1, MaximumAxisTicks);
    constexpr qint64 Largest = TimeSteps[std::size(TimeSteps) - 1];
    // Past the table: whole multiples of its largest step, as many as leave room.
    const quint64 multiple = (span / quint64(Largest) + quint64(room) - 1) / quint64(room);
    result.stepMs = multiple > quint64(std::numeric_limits<qint64>::max() / Largest)
        ? std::numeric_limits<qint64>::max()
        : Largest * qint64(std::max<quint64>(1, multiple));
    for (qint64 candidate : TimeSteps) {
        if (span / quint64(candidate) <= quint64(room)) {
            result.stepMs = candidate;
            break;
        }
    }
    result.format = span > quint64(2 * Day) ? u"MM-dd HH:mm"_s
        : result.stepMs < Minute            ? u"HH:mm:ss"_s
                                            : u"HH:mm"_s;
    // Whole steps of local time: the zone's offset moves the grid, not the step.
    const qint64 offset = qint64(QDateTime::fromMSecsSinceEpoch(fromMs).offsetFromUtc()) * 1000;
    const qint64 step = result.stepMs;
    qint64 shifted = 0;
    if (qAddOverflow(fromMs, offset, &shifted))
        shifted = fromMs; // at the ends of the qint64 range there is no local time to follow
    const qint64 rounded = shifted >= 0 ? shifted / step + (shifted % step != 0) : shifted / step;
    qint64 tick = 0;
    if (qMulOverflow(rounded, step, &tick) || qSubOverflow(tick, offset, &tick) || tick < fromMs)
        tick = fromMs;
    while (tick <= toMs && result.ticks.size() <= MaximumAxisTicks) {
        result.ticks.append(tick);
        if (qAddOverflow(tick, step, &tick))
            break;
    }
    return result;
}

ValueTicks valueTicks(double lo, double hi, int maxTicks)
{
    ValueTicks result;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(hi - lo))
        return result;
    result.step = niceStep((hi - lo) / std::clamp(maxTicks, 1, MaximumAxisTicks));
    // A little slack, so a bound that is a multiple of the step up to rounding counts.
    const double slack = result.step * 1e-9;
    const double first = std::ceil((lo - slack) / result.step);
    for (int i = 0; i <= MaximumAxisTicks; ++i) {
        const double value = (first + i) * result.step;
        // Where the step is below the resolution of doubles at these values (1e18 to
        // 1e18 + 100), consecutive ticks come out equal: stop rather than repeat them.
        if (value > hi + slack || (!result.ticks.isEmpty() && value <= result.ticks.constLast()))
            break;
        result.ticks.append(value == 0 ? 0.0 : value); // no "-0"
    }
    return result;
}

QString axisNumber(double value, double step)
{
    ValueFormat format;
    format.digits = ValueFormat::Digits::Step;
    format.step = step;
    format.prefixFrom = 1e3; // "1.5k": ticks are short
    return formatValue(value, QString(), format);
}

} // namespace Headroom
