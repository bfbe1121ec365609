// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/dayreclaimer.h"

#include "cachelogging.h"
#include "engine/cache/cacheschema.h"
#include "engine/cache/sqlitedb.h"

#include <QElapsedTimer>
#include <QSet>
#include <algorithm>
#include <sqlite3.h>

namespace Headroom {

using CacheSchema::blocksTable;
using CacheSchema::histTable;

DayReclaimer::DayReclaimer(sqlite3 *db, int firstSliceRows)
    : m_db(db)
    , m_sliceRows(std::clamp(firstSliceRows, MinSliceRows, MaxSliceRows))
{
}

bool DayReclaimer::findOrphans(QString *error)
{
    QSet<qint64> listed;
    Sqlite::Statement chunks(m_db, "SELECT day FROM chunks");
    bool done = false;
    while (chunks.step(&done))
        listed.insert(chunks.columnInt64(0));
    if (!done) {
        *error = Sqlite::errorText(m_db);
        return false;
    }
    Sqlite::Statement tables(m_db, "SELECT name FROM sqlite_schema WHERE type = 'table'");
    done = false;
    QSet<qint64> orphans;
    while (tables.step(&done)) {
        const std::optional<qint64> day = CacheSchema::dayOfTable(tables.columnBlob(0));
        if (day && !listed.contains(*day))
            orphans.insert(*day);
    }
    if (!done) {
        *error = Sqlite::errorText(m_db);
        return false;
    }
    QList<qint64> sorted(orphans.begin(), orphans.end());
    std::sort(sorted.begin(), sorted.end());
    for (qint64 day : std::as_const(sorted))
        add(day);
    if (!sorted.isEmpty())
        qCInfo(lcCache) << "cache: resuming to free" << sorted.size() << "expired day(s)";
    return true;
}

void DayReclaimer::add(qint64 day)
{
    if (contains(day))
        return;
    m_days.insert(std::upper_bound(m_days.begin(), m_days.end(), day), day);
}

bool DayReclaimer::contains(qint64 day) const
{
    return std::binary_search(m_days.begin(), m_days.end(), day);
}

void DayReclaimer::forget(qint64 day)
{
    const auto it = std::lower_bound(m_days.begin(), m_days.end(), day);
    if (it != m_days.end() && *it == day)
        m_days.erase(it);
}

QByteArray DayReclaimer::dropWholeSql(qint64 day)
{
    return "DROP TABLE IF EXISTS " + blocksTable(day) + "; DROP TABLE IF EXISTS " + histTable(day)
        + ";";
}

bool DayReclaimer::exists(const char *type, const QByteArray &name) const
{
    Sqlite::Statement st(m_db, "SELECT 1 FROM sqlite_schema WHERE type = ? AND name = ?");
    st.bind(1, QString::fromLatin1(type));
    st.bind(2, QString::fromLatin1(name));
    return st.step();
}

bool DayReclaimer::deleteSlice(const QByteArray &table, bool *empty, int *rows)
{
    *empty = true;
    if (!exists("table", table))
        return true;
    // Oldest rows first, in rowid order: they fill whole leaf pages of the table, which
    // are freed without being written again (their index entries are rewritten).
    Sqlite::Statement del(m_db,
                          "DELETE FROM " + table + " WHERE id IN (SELECT id FROM " + table
                              + " ORDER BY id LIMIT ?)");
    const int limit = m_sliceRows - *rows;
    del.bind(1, qint64(limit));
    if (!del.run())
        return false;
    const int deleted = sqlite3_changes(m_db);
    *rows += deleted;
    *empty = deleted < limit;
    // An empty table and its index are a root page each: dropping them is cheap.
    return !*empty || Sqlite::exec(m_db, "DROP TABLE " + table, nullptr);
}

bool DayReclaimer::runSlice(QString *error)
{
    if (m_days.empty())
        return true;
    const qint64 day = m_days.front();
    QElapsedTimer timer;
    timer.start();
    if (!Sqlite::exec(m_db, "BEGIN IMMEDIATE", error))
        return false;
    int rows = 0;
    bool blocksEmpty = false, histEmpty = false;
    bool ok = deleteSlice(blocksTable(day), &blocksEmpty, &rows);
    if (ok && blocksEmpty && rows < m_sliceRows)
        ok = deleteSlice(histTable(day), &histEmpty, &rows);
    if (!ok || !Sqlite::exec(m_db, "COMMIT", error)) {
        if (error->isEmpty())
            *error = Sqlite::errorText(m_db);
        Sqlite::exec(m_db, "ROLLBACK");
        return false;
    }
    m_rowsDeleted += rows;
    qCDebug(lcCache) << "cache: freed" << rows << "rows of day" << day << "in"
                     << double(timer.nsecsElapsed()) / 1e6 << "ms";
    if (blocksEmpty && histEmpty)
        m_days.pop_front();
    // Each slice about TargetSliceMs: halve after a slow one, double after a quick one
    // that was full (a short last slice of a table says nothing about the speed).
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    if (ms > TargetSliceMs)
        m_sliceRows = std::max(MinSliceRows, m_sliceRows / 2);
    else if (ms < TargetSliceMs / 2 && rows >= m_sliceRows)
        m_sliceRows = std::min(MaxSliceRows, m_sliceRows * 2);
    return true;
}

} // namespace Headroom
