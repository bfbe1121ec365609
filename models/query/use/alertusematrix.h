// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Alerts in the USE matrix: a cell whose source, resource and column have a firing
// alert instance takes the alert's severity as its level when that is worse than what
// the thresholds say (warning -> Warning, critical -> Critical; info leaves it), and
// then the alert's start as its since time (ongoing: the alert fires at the range end).
#pragma once

#include "engine/runtime/alertevent.h"
#include "query/use/usematrix.h"

namespace Headroom {

class SeriesRegistry;

// Rows missing from the matrix (the alert's source and resource have no series with a
// sample in the range) are added in row order, and the rows relabelled (labelUseRows).
void applyFiringAlerts(UseMatrix *matrix, const QList<AlertEvent> &events,
                       const SeriesRegistry &registry);

} // namespace Headroom
