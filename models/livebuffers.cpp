#include "livebuffers.h"

#include <algorithm>

namespace Headroom {

LiveBuffers::LiveBuffers(int capacityPerSeries)
    : m_capacity(std::max(2, capacityPerSeries))
{
}

void LiveBuffers::consume(const ResolvedBatch &batch)
{
    QWriteLocker locker(&m_lock);
    for (qsizetype i = 0; i < batch.valueIds.size(); ++i) {
        Ring &ring = m_rings[batch.valueIds.at(i)];
        const Sample s { batch.batch.tsMs, batch.batch.values.at(i).value };
        if (!ring.full) {
            ring.data.push_back(s);
            ring.full = int(ring.data.size()) == m_capacity;
        } else {
            ring.data[ring.start] = s;
            ring.start = (ring.start + 1) % ring.data.size();
        }
    }
}

void LiveBuffers::append(int seriesId, Sample sample)
{
    ResolvedBatch one;
    one.batch.tsMs = sample.tsMs;
    one.batch.values.append({ SeriesInfo {}, sample.value });
    one.valueIds.append(seriesId);
    consume(one);
}

std::vector<Sample> LiveBuffers::read(int seriesId, qint64 fromMs, qint64 toMs) const
{
    std::vector<Sample> out;
    QReadLocker locker(&m_lock);
    auto it = m_rings.constFind(seriesId);
    if (it == m_rings.constEnd())
        return out;
    const Ring &ring = *it;
    const size_t n = ring.data.size();
    for (size_t i = 0; i < n; ++i) {
        const Sample &s = ring.data[(ring.start + i) % n];
        if (s.tsMs >= fromMs && s.tsMs <= toMs)
            out.push_back(s);
    }
    // Collectors publish in time order per series, but be safe against a clock step.
    if (!std::is_sorted(out.begin(), out.end(), [](auto a, auto b) { return a.tsMs < b.tsMs; }))
        std::stable_sort(out.begin(), out.end(), [](auto a, auto b) { return a.tsMs < b.tsMs; });
    return out;
}

qint64 LiveBuffers::oldest(int seriesId) const
{
    QReadLocker locker(&m_lock);
    auto it = m_rings.constFind(seriesId);
    if (it == m_rings.constEnd() || it->data.empty())
        return -1;
    return it->data[it->start].tsMs;
}

QList<int> LiveBuffers::seriesIds() const
{
    QReadLocker locker(&m_lock);
    return m_rings.keys();
}

} // namespace Headroom
