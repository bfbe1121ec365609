// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/valueformat.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

struct Prefixed
{
    double scale = 1;
    QString prefix;
};

struct Step
{
    double factor; // in the ladder's base unit (bytes, bit/s, ms)
    const char16_t *name;
};

constexpr Step SiSteps[] = { { 1e12, u"T" }, { 1e9, u"G" }, { 1e6, u"M" }, { 1e3, u"k" } };
// Binary prefixes, each with the decimal one it stands in for in `largestPrefix`.
constexpr std::pair<Step, double> BinarySteps[] = { { { 1099511627776.0, u"Ti" }, 1e12 },
                                                    { { 1073741824.0, u"Gi" }, 1e9 },
                                                    { { 1048576.0, u"Mi" }, 1e6 },
                                                    { { 1024.0, u"Ki" }, 1e3 } };
// Where each unit of time starts (in ms) and its length (in ms), longest first.
struct DurationStep
{
    double fromMs;
    Step step;
};
constexpr DurationStep DurationSteps[] = {
    { 172'800'000, { 86'400'000, u"d" } },
    { 7'200'000, { 3'600'000, u"h" } },
    { 120'000, { 60'000, u"min" } },
    { 1000, { 1000, u"s" } },
    { 0.1, { 1, u"ms" } },
    { 1e-4, { 1e-3, u"µs" } },
};
constexpr Step Nanoseconds { 1e-6, u"ns" };

// The ms in one of unit, for the units read as durations.
std::optional<double> msPerUnit(const QString &unit)
{
    if (unit == "ms"_L1)
        return 1;
    if (unit == "s"_L1)
        return 1000;
    if (unit == u"µs" || unit == "us"_L1)
        return 1e-3;
    if (unit == "ns"_L1)
        return 1e-6;
    return std::nullopt;
}

// The bit/s in one of unit, for the bit rates.
std::optional<double> bitsPerUnit(const QString &unit)
{
    if (unit == "bit/s"_L1)
        return 1;
    if (unit == "kbit/s"_L1)
        return 1e3;
    if (unit == "Mbit/s"_L1)
        return 1e6;
    if (unit == "Gbit/s"_L1)
        return 1e9;
    return std::nullopt;
}

bool isBytes(const QString &unit)
{
    return unit == "B"_L1 || unit.startsWith("B/"_L1);
}

// The unit of time |ms| reads best in (zero has none: it stays in its own unit).
Step durationStep(double ms)
{
    const double a = std::abs(ms);
    for (const DurationStep &d : DurationSteps) {
        if (a >= d.fromMs)
            return d.step;
    }
    return Nanoseconds;
}

// The SI prefix for a magnitude, within `format`'s bounds (none below prefixFrom).
Prefixed siPrefix(double magnitude, const ValueFormat &format)
{
    if (format.prefixFrom == ValueFormat::NoPrefix || magnitude < format.prefixFrom)
        return {};
    for (const Step &step : SiSteps) {
        if (step.factor <= format.largestPrefix && magnitude >= step.factor)
            return { step.factor, QString::fromUtf16(step.name) };
    }
    return {};
}

Prefixed binaryPrefix(double magnitude, const ValueFormat &format)
{
    if (format.prefixFrom == ValueFormat::NoPrefix || magnitude < format.prefixFrom)
        return {};
    for (const auto &[step, decimal] : BinarySteps) {
        if (decimal <= format.largestPrefix && magnitude >= step.factor)
            return { step.factor, QString::fromUtf16(step.name) };
    }
    return {};
}

QString number(double value, const Prefixed &prefixed, const ValueFormat &format, int precision)
{
    const double scaled = value / prefixed.scale;
    switch (format.digits) {
    case ValueFormat::Digits::Short:
        if (value == 0)
            return u"0"_s;
        if (std::abs(scaled) >= 10)
            return QString::number(scaled, 'f', 0);
        return QString::number(scaled, 'g', 2);
    case ValueFormat::Digits::Significant:
        return QString::number(scaled, 'g', precision);
    case ValueFormat::Digits::Fixed:
        return QString::number(scaled, 'f', precision);
    case ValueFormat::Digits::Step: {
        const double scaledStep = format.step > 0 ? format.step / prefixed.scale : 1;
        const int decimals = std::clamp(int(std::ceil(-std::log10(scaledStep) - 1e-9)), 0, 9);
        return QString::number(scaled, 'f', decimals);
    }
    case ValueFormat::Digits::DecimalsByPrefix:
        if (prefixed.scale >= 1e6)
            return QString::number(scaled, 'f', 2);
        if (prefixed.scale >= 1e3)
            return QString::number(scaled, 'f', 1);
        return QString::number(scaled, 'f', std::abs(value) < 10 ? 1 : 0);
    }
    return {};
}

} // namespace

QString formatValue(double value, const QString &unit, const ValueFormat &format)
{
    if (qIsNaN(value))
        return format.noValue;
    if (qIsInf(value))
        return value > 0 ? u"∞"_s : u"-∞"_s;
    const QString sign = format.plusSign && value > 0 ? u"+"_s : QString();
    const QString space = format.spaceBeforeUnit ? u" "_s : QString();
    if (const auto perUnit = msPerUnit(unit)) {
        if (value == 0)
            return sign + number(0, {}, format, format.precision) + space + unit;
        const double ms = value * *perUnit;
        const Step step = durationStep(ms);
        // Milliseconds keep one more digit: "999.5 ms" rather than "1e+03 ms".
        const int precision = step.factor == 1 ? format.precision + 1 : format.precision;
        return sign + number(ms, { step.factor, {} }, format, precision) + space
            + QString::fromUtf16(step.name);
    }
    if (unit == "%"_L1)
        return sign + number(value, {}, format, format.precision) + space + unit;
    if (isBytes(unit)) {
        const Prefixed prefixed = binaryPrefix(std::abs(value), format);
        return sign + number(value, prefixed, format, format.precision) + space + prefixed.prefix
            + unit;
    }
    if (const auto perUnit = bitsPerUnit(unit)) {
        const double bits = value * *perUnit;
        const Prefixed prefixed = siPrefix(std::abs(bits), format);
        return sign + number(bits, prefixed, format, format.precision) + space + prefixed.prefix
            + u"bit/s"_s;
    }
    const Prefixed prefixed = siPrefix(std::abs(value), format);
    const QString figure = sign + number(value, prefixed, format, format.precision);
    if (unit.isEmpty())
        return figure + prefixed.prefix;
    if (unit == "1/s"_L1)
        return figure + prefixed.prefix + space + u"/s"_s;
    return figure + prefixed.prefix + space + unit;
}

UnitScale unitScale(const QString &unit, double magnitude)
{
    magnitude = std::abs(magnitude);
    if (!std::isfinite(magnitude) || magnitude == 0)
        return { 1, unit };
    if (const auto perUnit = msPerUnit(unit)) {
        const Step step = durationStep(magnitude * *perUnit);
        return { step.factor / *perUnit, QString::fromUtf16(step.name) };
    }
    ValueFormat any;
    any.prefixFrom = 0;
    if (isBytes(unit)) {
        const Prefixed prefixed = binaryPrefix(magnitude, any);
        return { prefixed.scale, prefixed.prefix + unit };
    }
    if (const auto perUnit = bitsPerUnit(unit)) {
        const Prefixed prefixed = siPrefix(magnitude * *perUnit, any);
        return { prefixed.scale / *perUnit, prefixed.prefix + u"bit/s"_s };
    }
    return { 1, unit };
}

} // namespace Headroom
