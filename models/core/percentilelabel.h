// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How a percentile is named: "p50", "p99.9". One function for the two places that name
// them, each with its rule (the style).
#pragma once

#include <QString>

namespace Headroom {

enum class PercentileLabelStyle
{
    // The "percentile" label of a histogram's line (percentilelines.h): the shortest
    // digits that read back exactly, and 100 or more is "max".
    Line,
    // An alert rule's reducer ("p99", parsed back by parseAlertReducer): six
    // significant digits, 100 is "p100".
    Reducer,
};

QString percentileLabel(double percentile, PercentileLabelStyle style);

} // namespace Headroom
