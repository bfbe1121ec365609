// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/runtime/livebuffers.h"

#include <algorithm>

namespace Headroom {

LiveBuffers::LiveBuffers(int capacityPerSeries)
    : m_capacity(std::max(2, capacityPerSeries))
{
}

void LiveBuffers::consume(const ResolvedBatch &batch)
{
    const auto capacity = size_t(m_capacity);
    QWriteLocker locker(&m_lock);
    for (qsizetype i = 0; i < batch.valueIds.size(); ++i) {
        m_values[batch.valueIds.at(i)].push({ batch.batch.tsMs, batch.batch.values.at(i).value },
                                            capacity);
    }
    for (qsizetype i = 0; i < batch.histogramIds.size(); ++i) {
        m_histograms[batch.histogramIds.at(i)].push(
            { batch.batch.tsMs, batch.batch.histograms.at(i).histogram }, capacity);
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

void LiveBuffers::appendHistogram(int seriesId, qint64 tsMs, const LogHistogram &histogram)
{
    ResolvedBatch one;
    one.batch.tsMs = tsMs;
    one.batch.histograms.append({ SeriesInfo {}, histogram });
    one.histogramIds.append(seriesId);
    consume(one);
}

std::vector<Sample> LiveBuffers::read(int seriesId, qint64 fromMs, qint64 toMs) const
{
    QReadLocker locker(&m_lock);
    const auto it = m_values.constFind(seriesId);
    return it == m_values.constEnd() ? std::vector<Sample> {} : it->read(fromMs, toMs);
}

std::vector<TimedHistogram> LiveBuffers::readHistograms(int seriesId, qint64 fromMs,
                                                        qint64 toMs) const
{
    QReadLocker locker(&m_lock);
    const auto it = m_histograms.constFind(seriesId);
    return it == m_histograms.constEnd() ? std::vector<TimedHistogram> {} : it->read(fromMs, toMs);
}

std::pair<std::vector<Sample>, qint64> LiveBuffers::readWithOldest(int seriesId, qint64 fromMs,
                                                                   qint64 toMs) const
{
    QReadLocker locker(&m_lock);
    const auto it = m_values.constFind(seriesId);
    if (it == m_values.constEnd())
        return { {}, -1 };
    return { it->read(fromMs, toMs), it->oldest() };
}

std::pair<std::vector<TimedHistogram>, qint64>
LiveBuffers::readHistogramsWithOldest(int seriesId, qint64 fromMs, qint64 toMs) const
{
    QReadLocker locker(&m_lock);
    const auto it = m_histograms.constFind(seriesId);
    if (it == m_histograms.constEnd())
        return { {}, -1 };
    return { it->read(fromMs, toMs), it->oldest() };
}

std::optional<Sample> LiveBuffers::newest(int seriesId) const
{
    QReadLocker locker(&m_lock);
    const auto it = m_values.constFind(seriesId);
    if (it == m_values.constEnd() || !it->newest())
        return std::nullopt;
    return *it->newest();
}

qint64 LiveBuffers::oldest(int seriesId) const
{
    QReadLocker locker(&m_lock);
    if (const auto it = m_values.constFind(seriesId); it != m_values.constEnd())
        return it->oldest();
    if (const auto it = m_histograms.constFind(seriesId); it != m_histograms.constEnd())
        return it->oldest();
    return -1;
}

QList<int> LiveBuffers::seriesIds() const
{
    QReadLocker locker(&m_lock);
    QList<int> ids;
    ids.reserve(m_values.size() + m_histograms.size());
    for (auto it = m_values.keyBegin(); it != m_values.keyEnd(); ++it)
        ids.append(*it);
    for (auto it = m_histograms.keyBegin(); it != m_histograms.keyEnd(); ++it)
        ids.append(*it);
    return ids;
}

} // namespace Headroom
