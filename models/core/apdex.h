// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// APDEX, the share of satisfied users the 1C case judged its ERP by: of the requests
// in a latency histogram, those within T satisfy, those within 4T are tolerated and
// count half, the rest frustrate.
#pragma once

#include "core/histogram.h"

#include <optional>

namespace Headroom {

// (satisfied + tolerating / 2) / total, in [0, 1]; nullopt for an empty histogram or a
// T that is not positive. At the histogram's resolution (buckets 2 % wide): the bucket
// holding T counts as satisfied, the one holding 4T as tolerating.
std::optional<double> apdexScore(const LogHistogram &histogram, double t);

} // namespace Headroom
