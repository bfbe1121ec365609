// Turns monotonically increasing counters into per-second rates.
//
// A counter that goes down was reset (server restart, stats reset, driver reload) or
// wrapped. A wrap of a 32- or 64-bit counter is recovered when the implied delta is
// plausible; anything else yields no rate for that interval: a gap, never a negative
// value and never a spike.
#pragma once

#include <QHash>
#include <QString>

#include <optional>

namespace Headroom {

class CounterRate
{
public:
    enum class Width { Bits32, Bits64, Unbounded };

    // maxPlausiblePerSecond bounds what a recovered wrap may claim.
    explicit CounterRate(double maxPlausiblePerSecond = 1e12)
        : m_maxRate(maxPlausiblePerSecond)
    {
    }

    // Rate of counter `name` since its previous value, per second; nullopt on the first
    // observation, after a reset, or when time did not advance.
    std::optional<double> update(const QString &name, double value, qint64 tsMs,
                                 Width width = Width::Unbounded);
    void forget(const QString &name) { m_last.remove(name); }
    void clear() { m_last.clear(); }

    // Delta since the previous value under the same rules, for ratios of counters.
    std::optional<double> delta(const QString &name, double value, qint64 tsMs,
                                Width width = Width::Unbounded);

private:
    struct Last
    {
        double value;
        qint64 tsMs;
    };
    double m_maxRate;
    QHash<QString, Last> m_last;
};

} // namespace Headroom
