// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A stat panel's options ("type": "stat": one big figure per series, what the series did
// over the range), checked when a dashboard file is read:
//   reduce  "last" (the default: the newest sample in the range), "mean", "min" or "max"
// Unknown keys are refused. The figure is coloured by the panel's thresholds.
#pragma once

#include "document/dashboard.h"

namespace Headroom {

enum class StatReduce
{
    Last,
    Mean,
    Min,
    Max,
};

// The option of a panel the reader accepted (Last when absent).
StatReduce statReduce(const DashboardPanel &panel);
// "last", "mean", "min", "max": how the file spells it, and the CSV's label.
QString statReduceName(StatReduce reduce);

} // namespace Headroom
