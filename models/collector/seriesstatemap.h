// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Per-series state a collector keeps between polls (counter baselines, the previous
// scrape's histogram buckets), keyed by series name, that cannot grow without bound:
// - an entry not touched for forgetAfterMs (by the poll timestamps passed in) is
//   forgotten (within another quarter of it: that is how often it sweeps), so series that went away
//   (a container's veth, an exporter's label set of yesterday) do not stay for ever;
// - it holds at most `capacity` entries. When a new key would exceed that, the entries
//   not touched in the current poll are forgotten first (once per poll); if it is still
//   full, the new key gets no state and is counted in refused().
// A "poll" is one timestamp: every collector stamps all of a poll's series alike.
// Not thread-safe: each collector owns its maps and polls on one thread.
#pragma once

#include <QHash>
#include <QString>
#include <QtGlobal>

namespace Headroom {

template<typename Value> class SeriesStateMap
{
public:
    // 10 minutes: longer than any sensible poll interval times a few missed polls.
    static constexpr qint64 DefaultForgetAfterMs = 10 * 60 * 1000;
    // Five times the bus's default series cap per source (SeriesRegistry): state beyond
    // it would be for series the bus drops anyway.
    static constexpr qsizetype DefaultCapacity = 50'000;

    explicit SeriesStateMap(qsizetype capacity = DefaultCapacity,
                            qint64 forgetAfterMs = DefaultForgetAfterMs)
        : m_capacity(capacity)
        , m_forgetAfterMs(forgetAfterMs)
    {
    }

    // The state of key, marked as seen at tsMs; a new key's state is value-initialized
    // and *inserted set. nullptr when the map is full (the series gets no state).
    Value *touch(const QString &key, qint64 tsMs, bool *inserted = nullptr)
    {
        beginPoll(tsMs);
        if (inserted)
            *inserted = false;
        auto it = m_entries.find(key);
        if (it != m_entries.end()) {
            it->seenMs = tsMs;
            return &it->value;
        }
        if (m_entries.size() >= m_capacity) {
            if (m_pressureSweptAtMs != tsMs) {
                m_pressureSweptAtMs = tsMs;
                m_entries.removeIf([tsMs](Iterator entry) { return entry->seenMs != tsMs; });
            }
            if (m_entries.size() >= m_capacity) {
                ++m_refused;
                return nullptr;
            }
        }
        if (inserted)
            *inserted = true;
        return &m_entries.insert(key, Entry { Value {}, tsMs })->value;
    }

    const Value *find(const QString &key) const
    {
        const auto it = m_entries.constFind(key);
        return it == m_entries.cend() ? nullptr : &it->value;
    }
    void remove(const QString &key) { m_entries.remove(key); }
    void clear() { m_entries.clear(); }
    qsizetype size() const { return m_entries.size(); }
    qsizetype capacity() const { return m_capacity; }
    // Keys that got no state because the map was full, since construction.
    qint64 refused() const { return m_refused; }

private:
    struct Entry
    {
        Value value;
        qint64 seenMs;
    };
    using Iterator = typename QHash<QString, Entry>::iterator;

    // A new timestamp starts a poll; at most every quarter of forgetAfterMs the entries
    // not seen for forgetAfterMs go (either way: after a clock step back, too).
    void beginPoll(qint64 tsMs)
    {
        if (tsMs == m_pollMs)
            return;
        m_pollMs = tsMs;
        if (qAbs(tsMs - m_sweptAtMs) < m_forgetAfterMs / 4)
            return;
        m_sweptAtMs = tsMs;
        const qint64 forgetAfter = m_forgetAfterMs;
        m_entries.removeIf([tsMs, forgetAfter](Iterator entry) {
            return qAbs(tsMs - entry->seenMs) > forgetAfter;
        });
    }

    QHash<QString, Entry> m_entries;
    qsizetype m_capacity;
    qint64 m_forgetAfterMs;
    qint64 m_pollMs = 0;
    qint64 m_sweptAtMs = 0;
    qint64 m_pressureSweptAtMs = -1;
    qint64 m_refused = 0;
};

} // namespace Headroom
