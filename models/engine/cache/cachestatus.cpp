#include "engine/cache/cachestatus.h"

#include <QDateTime>
#include <QStringList>

namespace Headroom {

QString CacheStatus::summary() const
{
    QStringList parts;
    if (writeFailing) {
        parts << QStringLiteral("%1 since %2 (%3), retrying")
                     .arg(diskFull ? QStringLiteral("disk full") : QStringLiteral("writes failing"),
                          QDateTime::fromMSecsSinceEpoch(failingSinceMs).toString(u"HH:mm:ss"),
                          reason);
    } else if (failedCommits > 0) {
        parts << QStringLiteral("%1 failed write(s) since open, the last: %2; writes succeed again")
                     .arg(failedCommits)
                     .arg(reason);
    }
    if (droppedBlocks > 0)
        parts << QStringLiteral("%1 pending block(s) (%2 samples) dropped to bound memory")
                     .arg(droppedBlocks)
                     .arg(droppedSamples);
    if (droppedHistograms > 0)
        parts << QStringLiteral("%1 pending histogram(s) dropped").arg(droppedHistograms);
    if (daysExpiredForSpace > 0)
        parts << QStringLiteral("%1 oldest day(s) dropped to make room").arg(daysExpiredForSpace);
    return parts.join(QStringLiteral("; "));
}

} // namespace Headroom
