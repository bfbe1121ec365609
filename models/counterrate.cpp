#include "counterrate.h"

#include <cmath>

namespace Headroom {

std::optional<double> CounterRate::delta(const QString &name, double value, qint64 tsMs,
                                         Width width)
{
    auto it = m_last.find(name);
    if (it == m_last.end()) {
        m_last.insert(name, {value, tsMs});
        return std::nullopt;
    }
    const Last previous = *it;
    *it = {value, tsMs};
    const qint64 elapsedMs = tsMs - previous.tsMs;
    if (elapsedMs <= 0 || !std::isfinite(value))
        return std::nullopt;
    if (value >= previous.value)
        return value - previous.value;
    // Went down: a wrap is only believable for fixed-width counters near their top.
    double modulus = 0;
    if (width == Width::Bits32)
        modulus = 4294967296.0;
    else if (width == Width::Bits64)
        modulus = 18446744073709551616.0;
    if (modulus > 0 && previous.value < modulus) {
        const double wrapped = modulus - previous.value + value;
        if (wrapped / (double(elapsedMs) / 1000.0) <= m_maxRate)
            return wrapped;
    }
    return std::nullopt; // reset: the next interval has a clean baseline again
}

std::optional<double> CounterRate::update(const QString &name, double value, qint64 tsMs,
                                          Width width)
{
    const auto previous = m_last.value(name, {0, tsMs});
    const auto d = delta(name, value, tsMs, width);
    if (!d)
        return std::nullopt;
    return *d / (double(tsMs - previous.tsMs) / 1000.0);
}

} // namespace Headroom
