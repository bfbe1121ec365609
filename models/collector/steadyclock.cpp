// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/steadyclock.h"

#include <QDateTime>
#include <chrono>
#include <ctime>

namespace Headroom {

qint64 bootClockMs()
{
#ifdef CLOCK_BOOTTIME
    timespec now {};
    if (clock_gettime(CLOCK_BOOTTIME, &now) == 0)
        return qint64(now.tv_sec) * 1000 + now.tv_nsec / 1'000'000;
#endif
    // Elsewhere the steady clock is the best there is (it may stop during sleep).
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

qint64 steadyWallClockMs()
{
    struct Anchor
    {
        qint64 wallMs = QDateTime::currentMSecsSinceEpoch();
        qint64 bootMs = bootClockMs();
    };
    static const Anchor anchor; // thread-safe initialisation
    return anchor.wallMs + (bootClockMs() - anchor.bootMs);
}

} // namespace Headroom
