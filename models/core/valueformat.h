// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Short figures with their units, for tables, axes, colour bars, alert messages and
// tooltips: one formatter (after libksysguard's Formatter) whose options say how each
// place words its figures, so that a table, an axis and a message agree on the rules
// (SI prefixes, binary bytes, bit rates, durations, percent, "—" for no value).
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
    QString noValue = QStringLiteral("—"); // for NaN

    static constexpr double NoPrefix = std::numeric_limits<double>::infinity();
};

// value with its unit as `format` says. Units:
// - "" (a plain number, the SI prefix on it: "12k"), "%" (never prefixed), "1/s" (shown
//   as "/s": "0.4 /s"), any other not below (after the figure and its prefix:
//   "12 pages/s", "1.5k ms/s");
// - bytes, "B" and "B/…": binary prefixes on the unit ("9.8 KiB", "1.5 MiB/s");
// - bit rates, "bit/s", "kbit/s", "Mbit/s", "Gbit/s": SI prefixes on the unit
//   ("10 Gbit/s" for 10,000 Mbit/s);
// - durations, "ns", "µs" (or "us"), "ms", "s": shown in the unit that reads best,
//   whatever `prefixFrom` says: ns below 0.1 µs, µs below 0.1 ms, ms below a second
//   (with one more significant digit than `precision` asks), s below 2 min, min below
//   2 h, h below 2 days, then days ("50 ns", "0.977 µs", "512 ms", "2.05 s", "35 min").
// ±infinity reads "∞" and "-∞".
QString formatValue(double value, const QString &unit, const ValueFormat &format = {});

// The unit a range of values reads best in, for an axis or a column whose figures share
// one unit: magnitude is the largest |value| shown. Bytes, bit rates and durations come
// back scaled ({1048576, "MiB/s"} for 3e6 "B/s", {1000, "s"} for 90,000 "ms"), with
// `factor` the original units per shown unit; any other unit as it is, factor 1 (its
// figures carry their own SI prefix).
struct UnitScale
{
    double factor = 1;
    QString unit;
};
UnitScale unitScale(const QString &unit, double magnitude);

// Short figure with its unit, the default format: "93 %", "2.1", "0.4 /s", "12 pages/s",
// "1.5 MB/s", "—" for NaN (the USE matrix, alert messages and events).
inline QString formatUseValue(double value, const QString &unit)
{
    return formatValue(value, unit);
}

} // namespace Headroom
