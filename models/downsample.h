// Reduces a sorted series to at most four points per pixel column (first, min, max,
// last, in time order): the line drawn from the result is pixel-identical to the line
// drawn from all samples, at a cost bounded by the width instead of the range.
#pragma once

#include "sample.h"

#include <span>
#include <vector>

namespace Headroom {

std::vector<Sample> downsampleMinMax(std::span<const Sample> sorted, qint64 fromMs, qint64 toMs,
                                     int columns);

} // namespace Headroom

namespace Headroom {

// Splits sorted samples where consecutive points are further apart than maxGapMs, so a
// dead source draws as a gap instead of a straight line across the outage. With
// maxGapMs <= 0 the threshold is 3x the median spacing (at least 1.5 s).
// Returns [begin, end) index pairs.
std::vector<std::pair<size_t, size_t>> splitAtGaps(std::span<const Sample> sorted,
                                                   qint64 maxGapMs = 0);

} // namespace Headroom
