// Short figures with their units, for tables, axes, colour bars, alert messages and
// tooltips: one formatter (after libksysguard's Formatter) whose options say how each
// place words its figures, so that a table, an axis and a message agree on the rules
// (SI prefixes, bytes, rates, durations, percent, "—" for no value).
#pragma once

#include <QString>
#include <limits>

namespace Headroom {

struct ValueFormat
{
    // How many digits the number (after its SI prefix) keeps.
    enum class Digits
    {
        Short, // "0"; no decimals from 10 on, else two significant digits: "93", "2.1", "0.42"
        Significant, // `precision` significant digits ('g'): "8.5", "12.3", "2.05"
        Fixed, // `precision` decimals ('f'): "12.0", "0.5"
        Step, // the decimals `step` needs at the number's prefix (axis ticks): "0.25", "1.5k"
        // Two decimals with M, one with k, unprefixed one below 10 and none from 10 on
        // (the shard table's operations): "1.25M", "12.3k", "850", "2.5".
        DecimalsByPrefix,
    };
    Digits digits = Digits::Short;
    int precision = 0; // Significant, Fixed
    double step = 0; // Step: the distance between neighbouring ticks
    // The smallest magnitude that takes an SI prefix (k, M, G, T): 10 000 keeps "9999"
    // exact; infinity never prefixes.
    double prefixFrom = 10'000;
    double largestPrefix = 1e12; // 1e6: "1500M" rather than "1.5G"
    // A space between the figure and its unit: "1.5 MB/s", "0.4 /s", "93 %"; without:
    // "12.3k/s".
    bool spaceBeforeUnit = true;
    bool plusSign = false; // "+1.5": a rise reads apart from a fall
    // Unit "ms" from a second on is shown in seconds ("512 ms", "2.05 s"); from 0.1 ms
    // to a second with one more significant digit than `precision`; below in µs and
    // below 0.1 µs in ns ("97.7 µs", "0.977 µs", "50 ns").
    bool durations = false;
    QString noValue = QStringLiteral("—"); // for NaN

    static constexpr double NoPrefix = std::numeric_limits<double>::infinity();
};

// value with its unit as `format` says. Units: "" (a plain number, prefix on it), "%"
// (never prefixed), "1/s" (shown as "/s"), byte units starting with "B" (the prefix on
// the unit: "kB/s", "MB"), "ms" (see ValueFormat::durations), any other (after the
// figure and its prefix: "12 pages/s").
QString formatValue(double value, const QString &unit, const ValueFormat &format = {});

// Short figure with its unit, the default format: "93 %", "2.1", "0.4 /s", "12 pages/s",
// "1.5 MB/s", "—" for NaN (the USE matrix, alert messages and events).
inline QString formatUseValue(double value, const QString &unit)
{
    return formatValue(value, unit);
}

} // namespace Headroom
