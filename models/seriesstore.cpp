#include "seriesstore.h"

#include "cache/samplecache.h"
#include "livebuffers.h"

namespace Headroom {

std::vector<Sample> SeriesStore::read(int seriesId, qint64 fromMs, qint64 toMs) const
{
    std::vector<Sample> live
        = m_live ? m_live->read(seriesId, fromMs, toMs) : std::vector<Sample> {};
    const qint64 liveOldest = m_live ? m_live->oldest(seriesId) : -1;
    // Everything the live ring still holds is newer than liveOldest; the cache only
    // has to supply what is older than that.
    if (!m_cache || (liveOldest >= 0 && liveOldest <= fromMs))
        return live;
    const qint64 cacheTo = liveOldest >= 0 ? liveOldest - 1 : toMs;
    std::vector<Sample> out = m_cache->read(seriesId, fromMs, cacheTo);
    out.insert(out.end(), live.begin(), live.end());
    return out;
}

} // namespace Headroom
