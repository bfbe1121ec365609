// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "rangecontroller.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

const QList<RangePreset> &RangeController::presets()
{
    static const QList<RangePreset> choices = {
        { u"5m"_s, 5 * 60 * 1000LL },     { u"15m"_s, 15 * 60 * 1000LL },
        { u"1h"_s, 3600 * 1000LL },       { u"6h"_s, 6 * 3600 * 1000LL },
        { u"24h"_s, 24 * 3600 * 1000LL },
    };
    return choices;
}

qint64 growingRangeStart(qint64 fromMs, qint64 toMs, qint64 dataStartMs)
{
    if (dataStartMs <= 0)
        return fromMs;
    return std::max(fromMs, std::min(dataStartMs, toMs - RangeController::MinimumGrowingMs));
}

std::pair<qint64, qint64> RangeController::range(qint64 nowMs) const
{
    if (!m_following)
        return { m_fixedFrom, m_fixedTo };
    return { growingRangeStart(nowMs - m_rangeMs, nowMs, m_dataStart), nowMs };
}

void RangeController::noteDataStart(qint64 earliestMs, qint64 queriedFromMs, qint64 nowMs)
{
    // A refresh is queried a little before its results arrive: a second of slack.
    constexpr qint64 Slack = 1000;
    if (!m_following || queriedFromMs > nowMs - m_rangeMs + Slack)
        return;
    m_dataStart = earliestMs;
}

void RangeController::setRangeMs(qint64 rangeMs, qint64 nowMs)
{
    m_rangeMs = rangeMs;
    m_dataStart = 0; // older data may be in the new length
    if (!m_following) {
        m_fixedTo = nowMs;
        m_fixedFrom = m_fixedTo - rangeMs;
    }
}

void RangeController::zoom(qint64 fromMs, qint64 toMs, qint64 nowMs)
{
    m_fixedFrom = fromMs;
    m_fixedTo = toMs;
    setFollowing(false, nowMs);
}

void RangeController::setFollowing(bool follow, qint64 nowMs)
{
    if (!follow && m_following) {
        if (m_fixedTo <= m_fixedFrom) { // pausing: freeze the range shown now
            const auto [from, to] = range(nowMs);
            m_fixedFrom = from;
            m_fixedTo = to;
        }
    }
    m_following = follow;
    m_dataStart = 0;
    if (follow)
        m_fixedFrom = m_fixedTo = 0;
}

} // namespace Headroom
