#include "steadyclock.h"

#include <QDateTime>
#include <QElapsedTimer>

namespace Headroom {

qint64 steadyWallClockMs()
{
    struct Anchor
    {
        qint64 wallMs = QDateTime::currentMSecsSinceEpoch();
        QElapsedTimer monotonic;
        Anchor() { monotonic.start(); }
    };
    static const Anchor anchor; // thread-safe initialisation
    return anchor.wallMs + anchor.monotonic.elapsed();
}

} // namespace Headroom
