// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Turns monotonically increasing counters into per-second rates.
//
// A counter that goes down was reset (server restart, stats reset, driver reload) or
// wrapped: that interval yields no rate (a gap) and the new value becomes the baseline.
// Never a negative value, never a spike. Kernel counters read through /proc and /sys
// are 64-bit on the platforms we run on, so a real wrap is not worth guessing at.
//
// Baselines live in a SeriesStateMap: a counter not seen for 10 minutes is forgotten
// (its next value is a fresh baseline), and at most 50,000 are kept, so an exporter or
// host inventing new label sets cannot grow a collector's memory without bound.
#pragma once

#include "collector/seriesstatemap.h"

#include <QString>
#include <optional>

namespace Headroom {

class CounterRate
{
public:
    explicit CounterRate(qsizetype capacity = SeriesStateMap<int>::DefaultCapacity,
                         qint64 forgetAfterMs = SeriesStateMap<int>::DefaultForgetAfterMs)
        : m_last(capacity, forgetAfterMs)
    {
    }

    // Rate of counter `name` since its previous value, per second; nullopt on the first
    // observation, after a reset, or when time did not advance.
    std::optional<double> update(const QString &name, double value, qint64 tsMs);
    // Delta since the previous value under the same rules, for ratios of counters.
    std::optional<double> delta(const QString &name, double value, qint64 tsMs);

    // A counter that did not exist at sinceMs (a statement or table first seen this
    // poll, where the previous poll read every one there was) counted from zero since
    // then, so its first value already gives a rate. No effect on a counter that has a
    // baseline.
    void startFromZero(const QString &name, qint64 sinceMs);

    void forget(const QString &name) { m_last.remove(name); }
    void clear() { m_last.clear(); }
    qsizetype size() const { return m_last.size(); }

private:
    struct Last
    {
        double value = 0;
        qint64 tsMs = 0;
    };
    // The delta and the elapsed milliseconds, or nullopt.
    std::optional<std::pair<double, qint64>> step(const QString &name, double value, qint64 tsMs);

    SeriesStateMap<Last> m_last;
};

} // namespace Headroom
