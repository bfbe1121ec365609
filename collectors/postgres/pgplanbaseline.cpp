// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgplanbaseline.h"

#include <algorithm>
#include <cmath>

namespace Headroom {

double PlanBaseline::median() const
{
    std::array<double, Size> sorted = m_values;
    const auto end = sorted.begin() + m_count;
    const auto middle = sorted.begin() + m_count / 2;
    std::nth_element(sorted.begin(), middle, end);
    return *middle;
}

void PlanBaseline::remember(double value)
{
    m_values[size_t(m_next)] = value;
    m_next = (m_next + 1) % Size;
    m_count = std::min(m_count + 1, Size);
}

std::optional<double> PlanBaseline::add(double value, double floor)
{
    if (!std::isfinite(value) || value < 0)
        return std::nullopt;
    if (m_count < MinHistory) {
        remember(value);
        return std::nullopt;
    }
    const double usual = std::max(median(), floor);
    const double ratio = std::max(value, floor) / usual;
    if (ratio <= Band && ratio >= 1 / Band) {
        m_offStreak = 0;
        remember(value);
    } else if (++m_offStreak >= AdoptAfter) {
        m_count = 0; // the new level is the usual one from now on
        m_next = 0;
        m_offStreak = 0;
        remember(value);
    }
    return value / usual;
}

} // namespace Headroom
