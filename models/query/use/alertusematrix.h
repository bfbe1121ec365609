// Alerts in the USE matrix: a cell whose resource and column have a firing alert
// instance takes the alert's severity as its level when that is worse than what the
// thresholds say (warning -> Warning, critical -> Critical; info leaves it).
#pragma once

#include "engine/runtime/alertevent.h"
#include "query/use/usematrix.h"

namespace Headroom {

class SeriesRegistry;

// Rows missing from the matrix (the alert's resource has no fresh series) are added.
void applyFiringAlerts(UseMatrix *matrix, const QList<AlertEvent> &events,
                       const SeriesRegistry &registry);

} // namespace Headroom
