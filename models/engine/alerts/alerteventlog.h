// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The newest alert events in memory, for a session without a cache and for the second
// between an event and the cache's commit. Thread-safe: the engine appends on its
// thread, panels read from the query pool.
#pragma once

#include "engine/runtime/alertevent.h"

#include <QMutex>
#include <deque>

namespace Headroom {

class AlertEventLog
{
public:
    static constexpr size_t Capacity = 10000;

    void append(const QList<AlertEvent> &events);
    void markAcknowledged(const QString &ruleId, const SeriesKey &series, qint64 upToMs);
    // Events with from <= ts <= to, oldest first.
    QList<AlertEvent> read(qint64 fromMs, qint64 toMs) const;

private:
    mutable QMutex m_lock;
    std::deque<AlertEvent> m_events;
};

// The same event from two places (cache and log): same instance, time and state.
bool sameAlertEvent(const AlertEvent &a, const AlertEvent &b);

} // namespace Headroom
