// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/import/importvalues.h"

#include <QByteArray>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace Headroom::Import {

namespace {

// The times a cache holds (cachecheck.h): 1900 to 2200.
constexpr qint64 EarliestMs = -2208988800000;
constexpr qint64 LatestMs = 7258118400000;

// Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant's days_from_civil).
qint64 daysFromCivil(qint64 y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const qint64 era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + qint64(doe) - 719468;
}

bool digits(QByteArrayView text, qsizetype at, int count, int *out)
{
    if (at + count > text.size())
        return false;
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const char c = text[at + i];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    *out = value;
    return true;
}

bool parseIsoTime(QByteArrayView t, qint64 *out)
{
    int year, month, day, hour = 0, minute = 0, second = 0;
    if (!digits(t, 0, 4, &year) || t.size() < 10 || t[4] != '-' || !digits(t, 5, 2, &month)
        || t[7] != '-' || !digits(t, 8, 2, &day))
        return false;
    if (month < 1 || month > 12 || day < 1 || day > 31)
        return false;
    static constexpr int monthDays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (day > monthDays[month - 1])
        return false;
    qsizetype at = 10;
    qint64 millis = 0;
    if (at < t.size()) {
        if (t[at] != 'T' && t[at] != ' ')
            return false;
        ++at;
        if (!digits(t, at, 2, &hour) || at + 2 >= t.size() || t[at + 2] != ':'
            || !digits(t, at + 3, 2, &minute))
            return false;
        at += 5;
        if (at < t.size() && t[at] == ':') {
            if (!digits(t, at + 1, 2, &second))
                return false;
            at += 3;
            if (at < t.size() && (t[at] == '.' || t[at] == ',')) {
                ++at;
                int scale = 100, count = 0;
                for (; at < t.size() && t[at] >= '0' && t[at] <= '9'; ++at, ++count) {
                    millis += (t[at] - '0') * scale;
                    scale /= 10;
                }
                if (count == 0 || count > 9)
                    return false;
            }
        }
        if (hour > 23 || minute > 59 || second > 60)
            return false;
        if (at < t.size()) {
            qint64 offsetMinutes = 0;
            if (t[at] == 'Z' || t[at] == 'z') {
                ++at;
            } else if (t[at] == '+' || t[at] == '-') {
                const int sign = t[at] == '-' ? -1 : 1;
                int oh, om = 0;
                if (!digits(t, at + 1, 2, &oh))
                    return false;
                at += 3;
                if (at < t.size() && t[at] == ':')
                    ++at;
                if (at < t.size()) {
                    if (!digits(t, at, 2, &om))
                        return false;
                    at += 2;
                }
                if (oh > 23 || om > 59)
                    return false;
                offsetMinutes = sign * (oh * 60 + om);
            } else {
                return false;
            }
            if (at != t.size())
                return false;
            millis -= offsetMinutes * 60 * 1000;
        }
    }
    *out = daysFromCivil(year, unsigned(month), unsigned(day)) * 86'400'000
        + (hour * 3600 + minute * 60 + second) * qint64(1000) + millis;
    return *out >= EarliestMs && *out <= LatestMs;
}

} // namespace

bool parseNumber(QByteArrayView text, double *out)
{
    if (text.isEmpty())
        return false;
    const char *begin = text.data();
    const char *end = begin + text.size();
    if (*begin == '+') {
        ++begin;
        if (begin == end || *begin == '-' || *begin == '+')
            return false;
    }
    const auto [ptr, ec] = std::from_chars(begin, end, *out);
    if (ec == std::errc::result_out_of_range && ptr == end) {
        // Beyond double's range: an infinity or zero, as strtod gives.
        *out = std::strtod(QByteArray(begin, end - begin).constData(), nullptr);
        return true;
    }
    return ec == std::errc() && ptr == end;
}

bool parseTime(QByteArrayView text, qint64 *out)
{
    if (text.size() >= 10 && text[4] == '-')
        return parseIsoTime(text, out);
    double value;
    if (!parseNumber(text, &value) || !std::isfinite(value))
        return false;
    const double ms = std::abs(value) >= 1e11 ? value : value * 1000.0;
    if (!(ms >= double(EarliestMs) && ms <= double(LatestMs)))
        return false;
    *out = qint64(std::llround(ms));
    return true;
}

} // namespace Headroom::Import
