// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/duration.h"

#include <QStringView>
#include <array>
#include <limits>

namespace Headroom {

namespace {

struct DurationUnit
{
    QStringView suffix;
    qint64 ms;
};

// Largest first: formatDuration picks the first unit that divides exactly.
constexpr std::array<DurationUnit, 6> durationUnits = { {
    { u"w", 7LL * 24 * 3600 * 1000 },
    { u"d", 24LL * 3600 * 1000 },
    { u"h", 3600LL * 1000 },
    { u"m", 60LL * 1000 },
    { u"s", 1000 },
    { u"ms", 1 },
} };

} // namespace

std::optional<qint64> parseDuration(const QString &text)
{
    qsizetype digits = 0;
    while (digits < text.size() && text[digits] >= u'0' && text[digits] <= u'9')
        ++digits;
    if (digits == 0 || digits > 18)
        return std::nullopt;
    const QStringView suffix = QStringView(text).mid(digits);
    bool ok = false;
    const qint64 number = QStringView(text).left(digits).toLongLong(&ok);
    if (!ok || number <= 0)
        return std::nullopt;
    for (const DurationUnit &unit : durationUnits) {
        if (suffix != unit.suffix)
            continue;
        if (number > std::numeric_limits<qint64>::max() / unit.ms)
            return std::nullopt;
        return number * unit.ms;
    }
    return std::nullopt;
}

QString formatDuration(qint64 ms)
{
    if (ms <= 0)
        return QString::number(ms) + u"ms";
    for (const DurationUnit &unit : durationUnits) {
        if (ms % unit.ms == 0)
            return QString::number(ms / unit.ms) + unit.suffix;
    }
    return QString::number(ms) + u"ms"; // not reached: the last unit divides everything
}

} // namespace Headroom
