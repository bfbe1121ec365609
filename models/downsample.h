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
