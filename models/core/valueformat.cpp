#include "core/valueformat.h"

#include <cmath>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Short number: 3 significant digits at most, SI prefix from 10 000 on.
QString formatNumber(double value, QString *prefix)
{
    const double a = std::abs(value);
    if (a == 0)
        return u"0"_s;
    double scaled = value;
    if (prefix) {
        static const std::pair<double, const char16_t *> steps[]
            = { { 1e12, u"T" }, { 1e9, u"G" }, { 1e6, u"M" }, { 1e3, u"k" } };
        for (const auto &[factor, name] : steps) {
            if (a >= 10'000 && a >= factor) {
                scaled = value / factor;
                *prefix = QString::fromUtf16(name);
                break;
            }
        }
    }
    const double s = std::abs(scaled);
    if (s >= 10)
        return QString::number(scaled, 'f', 0);
    return QString::number(scaled, 'g', 2);
}

} // namespace

QString formatUseValue(double value, const QString &unit)
{
    if (qIsNaN(value))
        return u"—"_s;
    if (unit == "%"_L1)
        return formatNumber(value, nullptr) + u" %"_s;
    QString prefix;
    const QString number = formatNumber(value, &prefix);
    if (unit.isEmpty())
        return number + prefix;
    if (unit == "1/s"_L1)
        return number + prefix + u" /s"_s;
    // Bytes take the prefix on the unit (kB/s, MB); other units keep it on the number.
    if (unit.startsWith(u'B'))
        return number + u' ' + prefix + unit;
    return number + prefix + u' ' + unit;
}

} // namespace Headroom
