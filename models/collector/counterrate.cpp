// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/counterrate.h"

#include <cmath>

namespace Headroom {

std::optional<std::pair<double, qint64>> CounterRate::step(const QString &name, double value,
                                                           qint64 tsMs)
{
    if (!std::isfinite(value))
        return std::nullopt;
    bool first = false;
    Last *last = m_last.touch(name, tsMs, &first);
    if (!last || first) {
        if (last)
            *last = { value, tsMs };
        return std::nullopt; // a baseline now (or none: too many counters), a rate next time
    }
    const Last previous = *last;
    *last = { value, tsMs };
    const qint64 elapsedMs = tsMs - previous.tsMs;
    if (elapsedMs <= 0 || value < previous.value)
        return std::nullopt; // clock did not advance, or a reset: a clean baseline next time
    return std::pair { value - previous.value, elapsedMs };
}

void CounterRate::startFromZero(const QString &name, qint64 sinceMs)
{
    bool first = false;
    Last *last = m_last.touch(name, sinceMs, &first);
    if (last && first)
        *last = { 0, sinceMs };
}

std::optional<double> CounterRate::delta(const QString &name, double value, qint64 tsMs)
{
    const auto s = step(name, value, tsMs);
    return s ? std::optional<double>(s->first) : std::nullopt;
}

std::optional<double> CounterRate::update(const QString &name, double value, qint64 tsMs)
{
    const auto s = step(name, value, tsMs);
    return s ? std::optional<double>(s->first / (double(s->second) / 1000.0)) : std::nullopt;
}

} // namespace Headroom
