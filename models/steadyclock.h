// Wall-clock milliseconds that never step: the wall time when first asked, advanced by
// the monotonic clock since. Sample timestamps and rate intervals both come from it, so
// an NTP step or a manual clock change cannot make a rate spike or go negative.
// (A step is picked up when the process restarts.)
#pragma once

#include <QtGlobal>

namespace Headroom {

qint64 steadyWallClockMs();

} // namespace Headroom
