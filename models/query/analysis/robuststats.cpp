// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/analysis/robuststats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Headroom::Analysis {

double median(std::span<const double> values)
{
    if (values.empty())
        return std::numeric_limits<double>::quiet_NaN();
    // One scratch buffer per thread: the detectors take thousands of small medians per
    // series, and an allocation each cost more than the selection.
    thread_local std::vector<double> copy;
    copy.assign(values.begin(), values.end());
    const size_t mid = copy.size() / 2;
    std::nth_element(copy.begin(), copy.begin() + std::ptrdiff_t(mid), copy.end());
    const double upper = copy[mid];
    if (copy.size() % 2 == 1)
        return upper;
    const double lower = *std::max_element(copy.begin(), copy.begin() + std::ptrdiff_t(mid));
    return (lower + upper) / 2;
}

double robustSigma(std::span<const double> values, double center)
{
    thread_local std::vector<double> deviations;
    deviations.clear();
    for (double v : values)
        deviations.push_back(std::abs(v - center));
    return 1.4826 * median(deviations);
}

std::vector<double> runningMedian(std::span<const double> values, int width)
{
    const int half = std::max(0, width / 2);
    const int n = int(values.size());
    std::vector<double> out(values.size());
    double window[64];
    for (int i = 0; i < n; ++i) {
        const int from = std::max(0, i - half), to = std::min(n - 1, i + half);
        int count = 0;
        for (int j = from; j <= to && count < 64; ++j)
            window[count++] = values[size_t(j)];
        std::nth_element(window, window + count / 2, window + count);
        double m = window[count / 2];
        if (count % 2 == 0)
            m = (m + *std::max_element(window, window + count / 2)) / 2;
        out[size_t(i)] = m;
    }
    return out;
}

} // namespace Headroom::Analysis
