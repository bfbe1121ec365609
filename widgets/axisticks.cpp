#include "axisticks.h"

#include <QDateTime>
#include <cmath>
#include <iterator>

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
    const qint64 span = toMs - fromMs;
    room = std::max(1, room);
    result.stepMs = TimeSteps[std::size(TimeSteps) - 1];
    for (qint64 candidate : TimeSteps) {
        if (span / candidate <= room) {
            result.stepMs = candidate;
            break;
        }
    }
    result.format = span > 2 * Day ? u"MM-dd HH:mm"_s
        : result.stepMs < Minute   ? u"HH:mm:ss"_s
                                   : u"HH:mm"_s;
    // Whole steps of local time: the zone's offset moves the grid, not the step.
    const qint64 offset = qint64(QDateTime::fromMSecsSinceEpoch(fromMs).offsetFromUtc()) * 1000;
    const qint64 step = result.stepMs;
    const qint64 shifted = fromMs + offset;
    qint64 tick = (shifted >= 0 ? (shifted + step - 1) / step : shifted / step) * step - offset;
    for (; tick <= toMs; tick += step)
        result.ticks.append(tick);
    return result;
}

ValueTicks valueTicks(double lo, double hi, int maxTicks)
{
    ValueTicks result;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi))
        return result;
    result.step = niceStep((hi - lo) / std::max(1, maxTicks));
    // A little slack, so a bound that is a multiple of the step up to rounding counts.
    const double slack = result.step * 1e-9;
    for (double k = std::ceil((lo - slack) / result.step); k * result.step <= hi + slack; ++k)
        result.ticks.append(k * result.step == 0 ? 0.0 : k * result.step); // no "-0"
    return result;
}

QString axisNumber(double value, double step)
{
    static constexpr std::pair<double, char16_t> Suffixes[]
        = { { 1e12, u'T' }, { 1e9, u'G' }, { 1e6, u'M' }, { 1e3, u'k' } };
    double scale = 1;
    QString suffix;
    for (const auto &[factor, letter] : Suffixes) {
        if (std::abs(value) >= factor) {
            scale = factor;
            suffix = QString(QChar(letter));
            break;
        }
    }
    const double scaledStep = step > 0 ? step / scale : 1;
    const int decimals = std::clamp(int(std::ceil(-std::log10(scaledStep) - 1e-9)), 0, 9);
    return QString::number(value / scale, 'f', decimals) + suffix;
}

} // namespace Headroom
