// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Latency histogram with fixed log-scale buckets.
//
// Bucket i holds values in (gamma^(i-1), gamma^i]; reporting the bucket's midpoint
// 2*gamma^i/(gamma+1) keeps the relative error of any percentile under
// (gamma-1)/(gamma+1) < 1% for gamma = 1.02. Buckets are fixed, so two histograms
// (two intervals, two hosts) add by adding counts: that is how rollups work.
#pragma once

#include <QList>
#include <QMap>

namespace Headroom {

class LogHistogram
{
public:
    static constexpr double Gamma = 1.02;
    static constexpr double MinValue = 1e-6; // values at or below land in the zero bucket

    void add(double value, quint64 count = 1);
    void merge(const LogHistogram &other);
    void clear();

    quint64 count() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }
    double min() const { return m_min; }
    double max() const { return m_max; }
    double sum() const { return m_sum; }

    // q in [0, 1]; q = 1 gives the exact maximum, an empty histogram gives 0.
    double quantile(double q) const;

    static int bucketIndex(double value);
    static double bucketUpperBound(int index);
    static double bucketLowerBound(int index);
    static double bucketRepresentative(int index);

    // Sparse bucket index -> count; index ZeroBucket holds values <= MinValue.
    static constexpr int ZeroBucket = -1000000;
    const QMap<int, quint64> &buckets() const { return m_buckets; }

    // Compact binary form for the cache: varint-coded (index delta, count) pairs.
    QByteArray serialize() const;
    static LogHistogram deserialize(const QByteArray &data, bool *ok = nullptr);

    friend bool operator==(const LogHistogram &, const LogHistogram &) = default;

private:
    QMap<int, quint64> m_buckets;
    quint64 m_count = 0;
    double m_min = 0;
    double m_max = 0;
    double m_sum = 0;
};

} // namespace Headroom
