// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The newest `capacity` items of one series, oldest overwritten first: the storage of
// every live buffer, for plain samples and histograms alike. Not thread-safe;
// LiveBuffers guards it.
#pragma once

#include "core/sample.h"

#include <algorithm>
#include <vector>

namespace Headroom {

template<typename Timed> class TimeRing
{
public:
    void push(Timed item, size_t capacity)
    {
        if (m_items.size() < capacity) {
            m_items.push_back(std::move(item));
            return;
        }
        m_items[m_start] = std::move(item);
        m_start = (m_start + 1) % m_items.size();
    }

    // Items with from <= ts <= to, oldest first.
    std::vector<Timed> read(qint64 fromMs, qint64 toMs) const
    {
        std::vector<Timed> out;
        const size_t n = m_items.size();
        for (size_t i = 0; i < n; ++i) {
            const Timed &item = m_items[(m_start + i) % n];
            const qint64 ts = timestampOf(item);
            if (ts >= fromMs && ts <= toMs)
                out.push_back(item);
        }
        // Collectors publish in time order per series, but be safe against a clock step.
        const auto earlier
            = [](const Timed &a, const Timed &b) { return timestampOf(a) < timestampOf(b); };
        if (!std::is_sorted(out.begin(), out.end(), earlier))
            std::stable_sort(out.begin(), out.end(), earlier);
        return out;
    }

    // The item pushed last, or nullptr when empty (the exporter's current value).
    const Timed *newest() const
    {
        return m_items.empty() ? nullptr
                               : &m_items[(m_start + m_items.size() - 1) % m_items.size()];
    }

    // Timestamp of the oldest item held, or -1 when empty.
    qint64 oldest() const { return m_items.empty() ? -1 : timestampOf(m_items[m_start]); }
    size_t size() const { return m_items.size(); }

private:
    std::vector<Timed> m_items;
    size_t m_start = 0; // index of the oldest item once the ring is full
};

} // namespace Headroom
