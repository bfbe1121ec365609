// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/cachestatus.h"

#include <QDateTime>
#include <QStringList>

namespace Headroom {

using namespace Qt::StringLiterals;

QString CacheStatus::summary() const
{
    QStringList parts;
    if (writeFailing) {
        parts << u"%1 since %2 (%3), retrying"_s.arg(
            diskFull ? u"disk full"_s : u"writes failing"_s,
            QDateTime::fromMSecsSinceEpoch(failingSinceMs).toString(u"HH:mm:ss"), reason);
    } else if (failedCommits > 0) {
        parts << u"%1 failed write(s) since open, the last: %2; writes succeed again"_s
                     .arg(failedCommits)
                     .arg(reason);
    }
    if (droppedBlocks > 0)
        parts << u"%1 pending block(s) (%2 samples) dropped to bound memory"_s.arg(droppedBlocks)
                     .arg(droppedSamples);
    if (droppedHistograms > 0)
        parts << u"%1 pending histogram(s) dropped"_s.arg(droppedHistograms);
    if (daysExpiredForSpace > 0)
        parts << u"%1 oldest day(s) dropped to make room"_s.arg(daysExpiredForSpace);
    return parts.join(u"; "_s);
}

} // namespace Headroom
