// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Order statistics the analysis uses where means would follow a single spike: medians,
// the median absolute deviation, a running median. NaN-free input is the caller's job.
#pragma once

#include <span>
#include <vector>

namespace Headroom::Analysis {

// The median of values (the mean of the two middle ones for an even count); NaN when
// empty. Takes a copy: nth_element reorders.
double median(std::span<const double> values);
// 1.4826 x the median absolute deviation from center: the standard deviation of normal
// noise, unmoved by a few outliers.
double robustSigma(std::span<const double> values, double center);
// Each value replaced by the median of the window of `width` (odd) values centred on it,
// shrunk at the ends: a single spike or a 0-dip of up to (width - 1) / 2 consecutive
// values disappears, a step keeps its edge where it was.
std::vector<double> runningMedian(std::span<const double> values, int width);

} // namespace Headroom::Analysis
