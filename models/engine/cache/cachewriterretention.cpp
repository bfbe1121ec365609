// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// CacheWriter's retention: whole days of samples dropped past the retention (a slice at a
// time in the background, never a DELETE over a big table), the rollup tiers' own
// retention, and the hourly maintenance that runs them.
#include "cachelogging.h"
#include "engine/cache/cachewriter.h"
#include "engine/cache/cachewriterlimits.h"

#include <QDateTime>
#include <algorithm>
#include <sqlite3.h>

namespace Headroom {

using namespace Qt::StringLiterals;
using namespace CacheSchema;
using namespace CacheWriterLimits;

int CacheWriter::expire(qint64 beforeMs)
{
    commit(); // blocks sealed for old days go in first, so the drop below is complete
    return dropDays(beforeMs, Drop::InSlices);
}

void CacheWriter::reclaimSlice()
{
    QString error;
    if (m_reclaimer->runSlice(&error))
        return;
    qCWarning(lcCache) << "cache: freeing expired days failed, retrying in an hour:" << error;
    m_reclaimPausedUntil = Clock::now() + MaintenanceInterval;
}

int CacheWriter::dropDays(qint64 beforeMs, Drop how)
{
    // Day d is entirely older than beforeMs when its end, (d + 1) * DayMs, is <= beforeMs.
    const qint64 lastDay = dayOf(beforeMs) - 1;
    QList<qint64> days;
    for (qint64 day : std::as_const(m_days)) {
        if (day <= lastDay)
            days.append(day);
    }
    // The tail is small (at most one block per series), so DELETE on it is cheap.
    const qint64 cutoff = (lastDay + 1) * DayMs;
    sqlite3 *db = m_db.get();
    QString error;
    if (!Sqlite::exec(db, "BEGIN IMMEDIATE", &error)) {
        qCWarning(lcCache) << "cache: expiry cannot begin:" << error;
        return 0;
    }
    bool ok = true;
    for (qint64 day : std::as_const(days)) {
        m_dayStatements.erase(day);
        // Out of the catalogue, the day is gone for every reader that starts after this
        // commit; its pages are freed by the reclaimer, or here when space is needed now.
        QByteArray sql = "DELETE FROM chunks WHERE day = " + QByteArray::number(day) + ";";
        if (how == Drop::Whole)
            sql += DayReclaimer::dropWholeSql(day);
        ok = ok && Sqlite::exec(db, sql, &error);
    }
    ok = ok
        && Sqlite::exec(db, "DELETE FROM tail_chunks WHERE last_ts < " + QByteArray::number(cutoff),
                        &error)
        && AlertEventStore::deleteBefore(db, cutoff) && Sqlite::exec(db, "COMMIT", &error);
    if (!ok) {
        qCWarning(lcCache) << "cache: expiry failed:" << error;
        Sqlite::exec(db, "ROLLBACK");
        return 0;
    }
    for (qint64 day : std::as_const(days)) {
        m_days.remove(day);
        if (how == Drop::InSlices)
            m_reclaimer->add(day);
    }
    updateStatus(); // before expireBefore() returns: the days now wait to be freed
    for (auto &[id, state] : m_series) {
        if (!state.open.empty() && state.open.front().tsMs < cutoff) {
            state.open.clear(); // one day per open block: all of it is expired
            state.unsavedTail.clear();
            state.committedTail = false; // its chunks went with the DELETE above
        }
    }
    if (!days.isEmpty())
        qCInfo(lcCache) << "cache: dropped" << days.size() << "day chunks before" << beforeMs;
    return int(days.size());
}

void CacheWriter::setRetentionDays(int days)
{
    {
        std::lock_guard lock(m_mutex);
        m_retentionDays = days;
        m_retentionChanged = true;
    }
    m_wake.notify_one();
}

void CacheWriter::setTierRetentionDays(int minuteDays, int hourDays)
{
    {
        std::lock_guard lock(m_mutex);
        m_minuteRetentionDays = minuteDays;
        m_hourRetentionDays = hourDays;
        m_retentionChanged = true;
    }
    m_wake.notify_one();
}

void CacheWriter::expireTiers(qint64 nowMs)
{
    int raw = 0, minute = 0, hour = 0;
    {
        std::lock_guard lock(m_mutex);
        raw = m_retentionDays;
        minute = m_minuteRetentionDays;
        hour = m_hourRetentionDays;
    }
    // A tier is kept at least as long as the one below it: no range goes blank in a
    // tier while a finer one still holds it. Keeping everything raw keeps every tier.
    if (raw <= 0)
        return;
    minute = minute <= 0 ? 0 : std::max(minute, raw);
    hour = hour <= 0 || minute <= 0 ? 0 : std::max(hour, minute);
    // Rows are small (one per series and hour or day): a plain DELETE, hourly.
    QByteArray sql;
    for (const auto &[tier, days] :
         { std::pair { RollupTier::Minute, minute }, std::pair { RollupTier::Hour, hour } }) {
        if (days <= 0)
            continue;
        const qint64 cutoff = nowMs - qint64(days) * DayMs - rollupRowSpanMs(tier);
        for (const char *table : { "rollup", "rollup_hist" })
            sql += QByteArray("DELETE FROM ") + table
                + " WHERE tier = " + QByteArray::number(int(tier)) + " AND start_ts < "
                + QByteArray::number(cutoff) + ";";
    }
    QString error;
    if (!sql.isEmpty() && !Sqlite::exec(m_db.get(), sql, &error))
        qCWarning(lcCache) << "cache: expiring rollup rows failed, retrying in an hour:" << error;
}

void CacheWriter::maintenance()
{
    int retentionDays = 0;
    {
        std::lock_guard lock(m_mutex);
        retentionDays = m_retentionDays;
    }
    if (retentionDays > 0) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        expire(now - qint64(retentionDays) * DayMs);
    }
    // A series that went quiet keeps its last samples in the tail; once newer data of a
    // later day arrives elsewhere, seal them so the tail stays small.
    if (m_newestTs != std::numeric_limits<qint64>::min()) {
        const qint64 today = dayOf(m_newestTs);
        for (auto &[id, state] : m_series) {
            if (!state.open.empty() && dayOf(state.open.front().tsMs) < today)
                seal(id, state);
        }
        m_rollups->writeUnfinished(m_newestTs); // the tiers of series gone quiet, so far
        commit();
    }
    expireTiers(QDateTime::currentMSecsSinceEpoch());
    // Automatic checkpoints are PASSIVE: with readers always overlapping they may never
    // reach the end of the WAL, which then only grows. TRUNCATE waits (busy_timeout) for
    // a gap between the short read transactions and resets it.
    QString error;
    if (!Sqlite::exec(m_db.get(), "PRAGMA wal_checkpoint(TRUNCATE)", &error))
        qCDebug(lcCache) << "cache: checkpoint postponed:" << error;
    if (m_reserve && !m_lastCommitFailed)
        m_reserve->ensure();
}

} // namespace Headroom
