// Turns monotonically increasing counters into per-second rates.
//
// A counter that goes down was reset (server restart, stats reset, driver reload) or
// wrapped: that interval yields no rate (a gap) and the new value becomes the baseline.
// Never a negative value, never a spike. Kernel counters read through /proc and /sys
// are 64-bit on the platforms we run on, so a real wrap is not worth guessing at.
#pragma once

#include <QHash>
#include <QString>
#include <optional>

namespace Headroom {

class CounterRate
{
public:
    // Rate of counter `name` since its previous value, per second; nullopt on the first
    // observation, after a reset, or when time did not advance.
    std::optional<double> update(const QString &name, double value, qint64 tsMs);
    // Delta since the previous value under the same rules, for ratios of counters.
    std::optional<double> delta(const QString &name, double value, qint64 tsMs);

    void forget(const QString &name) { m_last.remove(name); }
    void clear() { m_last.clear(); }

private:
    struct Last
    {
        double value;
        qint64 tsMs;
    };
    // The delta and the elapsed milliseconds, or nullopt.
    std::optional<std::pair<double, qint64>> step(const QString &name, double value, qint64 tsMs);

    QHash<QString, Last> m_last;
};

} // namespace Headroom
