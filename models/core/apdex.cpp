// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/apdex.h"

#include <cmath>

namespace Headroom {

std::optional<double> apdexScore(const LogHistogram &histogram, double t)
{
    if (histogram.isEmpty() || !(t > 0) || !std::isfinite(t))
        return std::nullopt;
    double satisfied = 0;
    double tolerating = 0;
    const auto &buckets = histogram.buckets();
    for (auto it = buckets.cbegin(); it != buckets.cend(); ++it) {
        // A bucket is judged by its lower bound: the one that holds T (or 4T) has values
        // at or below it, and is at most 2 % wide.
        const double lower = LogHistogram::bucketLowerBound(it.key());
        if (lower < t)
            satisfied += double(it.value());
        else if (lower < 4 * t)
            tolerating += double(it.value());
    }
    return (satisfied + tolerating / 2) / double(histogram.count());
}

} // namespace Headroom
