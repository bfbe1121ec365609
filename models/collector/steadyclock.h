// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Wall-clock milliseconds that never step: the wall time when first asked, advanced by
// the boot clock since. Sample timestamps and rate intervals both come from it, so an
// NTP step or a manual clock change cannot make a rate spike or go negative. (A step is
// picked up when the process restarts.)
//
// The boot clock (CLOCK_BOOTTIME on Linux) keeps counting while the machine sleeps.
// CLOCK_MONOTONIC, behind QElapsedTimer and std::chrono::steady_clock, does not: after a
// laptop slept for an hour, samples would be stamped an hour in the past and every live
// panel, which shows the wall clock's last minutes, would be empty.
#pragma once

#include <QtGlobal>

namespace Headroom {

qint64 steadyWallClockMs();

// Milliseconds of the boot clock: never steps, counts suspend; for elapsed times only.
qint64 bootClockMs();

} // namespace Headroom
