#include "core/valueformat.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

struct Prefixed
{
    double scale = 1;
    QString prefix;
};

Prefixed prefixFor(double value, const ValueFormat &format)
{
    static const std::pair<double, const char16_t *> steps[]
        = { { 1e12, u"T" }, { 1e9, u"G" }, { 1e6, u"M" }, { 1e3, u"k" } };
    const double a = std::abs(value);
    if (format.prefixFrom == ValueFormat::NoPrefix) // not even infinity
        return {};
    for (const auto &[factor, name] : steps) {
        if (factor <= format.largestPrefix && a >= format.prefixFrom && a >= factor)
            return { factor, QString::fromUtf16(name) };
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
    const QString sign = format.plusSign && value > 0 ? u"+"_s : QString();
    const QString space = format.spaceBeforeUnit ? u" "_s : QString();
    if (format.durations && unit == "ms"_L1) {
        if (value >= 1000)
            return sign + number(value / 1000, {}, format, format.precision) + space + u"s"_s;
        // Below a tenth of a millisecond in µs, below a tenth of a µs in ns: the
        // heatmap's finest rows read "0.977 µs", not "0.0009766 ms".
        if (value != 0 && std::abs(value) < 1e-4)
            return sign + number(value * 1e6, {}, format, format.precision) + space + u"ns"_s;
        if (value != 0 && std::abs(value) < 0.1)
            return sign + number(value * 1e3, {}, format, format.precision) + space + u"µs"_s;
        return sign + number(value, {}, format, format.precision + 1) + space + unit;
    }
    if (unit == "%"_L1)
        return sign + number(value, {}, format, format.precision) + space + unit;
    const Prefixed prefixed = prefixFor(value, format);
    const QString figure = sign + number(value, prefixed, format, format.precision);
    if (unit.isEmpty())
        return figure + prefixed.prefix;
    if (unit == "1/s"_L1)
        return figure + prefixed.prefix + space + u"/s"_s;
    // Bytes take the prefix on the unit (kB/s, MB); other units keep it on the number.
    if (unit.startsWith(u'B'))
        return figure + space + prefixed.prefix + unit;
    return figure + prefixed.prefix + space + unit;
}

} // namespace Headroom
