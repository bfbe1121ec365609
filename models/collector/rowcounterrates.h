// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Per-second rates of the counters of a statistics table that is read whole every poll
// (statement digests, table I/O), by row key and field. A row that was not in the last
// read came into being since then (a statement first run, a table first used), so its
// first values are rated from zero instead of waiting a poll; a row whose counter went
// down was reset (a gap, as CounterRate says).
#pragma once

#include "collector/counterrate.h"

#include <QSet>
#include <QString>
#include <optional>

namespace Headroom {

class RowCounterRates
{
public:
    // Every read: beginRead, update for each row's fields, endRead.
    void beginRead(qint64 tsMs)
    {
        m_ts = tsMs;
        m_seen.clear();
    }
    std::optional<double> update(const QString &rowKey, char16_t field, double value)
    {
        m_seen.insert(rowKey);
        const QString name = rowKey + u'\x1f' + field;
        if (m_lastTs > 0 && !m_present.contains(rowKey))
            m_rates.startFromZero(name, m_lastTs);
        return m_rates.update(name, value, m_ts);
    }
    void endRead()
    {
        m_present.swap(m_seen);
        m_lastTs = m_ts;
    }
    // A new session (maybe another server): start from baselines again.
    void clear()
    {
        m_rates.clear();
        m_present.clear();
        m_lastTs = 0;
    }

private:
    CounterRate m_rates;
    QSet<QString> m_present; // the rows of the last read
    QSet<QString> m_seen; // of this one
    qint64 m_lastTs = 0;
    qint64 m_ts = 0;
};

} // namespace Headroom
