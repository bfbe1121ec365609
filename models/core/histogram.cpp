// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/histogram.h"

#include "core/bytecoding.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Headroom {

using namespace ByteCoding;

namespace {
const double LogGamma = std::log(LogHistogram::Gamma);
} // namespace

int LogHistogram::bucketIndex(double value)
{
    if (!(value > MinValue))
        return ZeroBucket;
    // +inf (a timeout reported as infinite) lands in the top bucket instead of
    // overflowing the int conversion.
    static const int TopBucket
        = int(std::ceil(std::log(std::numeric_limits<double>::max()) / LogGamma));
    if (!std::isfinite(value))
        return TopBucket;
    return int(std::ceil(std::log(value) / LogGamma - 1e-9));
}

double LogHistogram::bucketUpperBound(int index)
{
    return index == ZeroBucket ? MinValue : std::pow(Gamma, index);
}

double LogHistogram::bucketLowerBound(int index)
{
    return index == ZeroBucket ? 0.0 : std::pow(Gamma, index - 1);
}

double LogHistogram::bucketRepresentative(int index)
{
    return index == ZeroBucket ? 0.0 : 2.0 * std::pow(Gamma, index) / (Gamma + 1.0);
}

void LogHistogram::add(double value, quint64 count)
{
    if (count == 0 || std::isnan(value))
        return;
    if (m_count == 0) {
        m_min = m_max = value;
    } else {
        m_min = std::min(m_min, value);
        m_max = std::max(m_max, value);
    }
    m_buckets[bucketIndex(value)] += count;
    m_count += count;
    m_sum += value * double(count);
}

void LogHistogram::merge(const LogHistogram &other)
{
    if (other.m_count == 0)
        return;
    if (m_count == 0) {
        *this = other;
        return;
    }
    for (auto it = other.m_buckets.cbegin(); it != other.m_buckets.cend(); ++it)
        m_buckets[it.key()] += it.value();
    m_count += other.m_count;
    m_sum += other.m_sum;
    m_min = std::min(m_min, other.m_min);
    m_max = std::max(m_max, other.m_max);
}

void LogHistogram::clear()
{
    *this = LogHistogram();
}

double LogHistogram::quantile(double q) const
{
    if (m_count == 0)
        return 0;
    if (q >= 1.0)
        return m_max;
    if (q <= 0.0)
        return m_min;
    // Rank of the wanted sample (1-based), the same "nearest rank" rule as the tests'
    // exact reference, so the only difference is the bucket width.
    const auto rank = quint64(std::ceil(q * double(m_count)));
    quint64 seen = 0;
    for (auto it = m_buckets.cbegin(); it != m_buckets.cend(); ++it) {
        seen += it.value();
        if (seen >= rank)
            return std::clamp(bucketRepresentative(it.key()), m_min, m_max);
    }
    return m_max;
}

QByteArray LogHistogram::serialize() const
{
    QByteArray out;
    putVarint(out, quint64(m_buckets.size()));
    qint64 previous = 0;
    for (auto it = m_buckets.cbegin(); it != m_buckets.cend(); ++it) {
        putVarint(out, zigzag(qint64(it.key()) - previous));
        putVarint(out, it.value());
        previous = it.key();
    }
    putDouble(out, m_min);
    putDouble(out, m_max);
    putDouble(out, m_sum);
    return out;
}

LogHistogram LogHistogram::deserialize(const QByteArray &data, bool *ok)
{
    LogHistogram h;
    if (ok)
        *ok = false;
    qsizetype pos = 0;
    quint64 n = 0;
    if (!getVarint(data, pos, n) || n > quint64(data.size()))
        return {};
    qint64 index = 0;
    for (quint64 i = 0; i < n; ++i) {
        quint64 delta = 0, count = 0;
        if (!getVarint(data, pos, delta) || !getVarint(data, pos, count))
            return {};
        index += unzigzag(delta);
        h.m_buckets.insert(int(index), count);
        h.m_count += count;
    }
    if (!getDouble(data, pos, h.m_min) || !getDouble(data, pos, h.m_max)
        || !getDouble(data, pos, h.m_sum) || pos != data.size())
        return {};
    if (ok)
        *ok = true;
    return h;
}

} // namespace Headroom
