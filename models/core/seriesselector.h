// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Which series a panel or an alert rule reads.
#pragma once

#include "core/series.h"

namespace Headroom {

// Picks series: source and metric with '*' wildcards, and label constraints
// (a missing label matches anything; values may use '*').
struct SeriesSelector
{
    QString source;
    QString metric;
    Labels labels;

    bool matches(const SeriesKey &key) const;
    friend bool operator==(const SeriesSelector &, const SeriesSelector &) = default;
};

} // namespace Headroom
