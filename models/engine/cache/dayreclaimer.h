// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Frees the tables of expired days a slice at a time, between the writer's commits.
//
// Expiry takes a day out of the chunks catalogue at once, so readers stop seeing it in
// that same short commit. Its blocks_<day> and hist_<day> tables then lose their rows a
// slice at a time, each slice a transaction of its own of about TargetSliceMs, and are
// dropped once empty. The series indexes stay until then: dropping one is a single
// pass over its pages that took 44-56 ms for a day of the bench mix, longer than any
// slice; deleting rows with the index in place costs more pages in all (each row's
// entry is elsewhere in the index), but in bounded slices. Dropping a whole day in one
// transaction walks every page of it (200-340 ms for a day of bench_cache's mix) while no batch can
// be committed. Day tables that the catalogue no longer lists (a run stopped while freeing them)
// are found again by findOrphans() when the writer starts, and freed the same way. Writer thread
// only; it owns the connection.
#pragma once

#include <QByteArray>
#include <QString>
#include <deque>

struct sqlite3;

namespace Headroom {

class DayReclaimer
{
public:
    static constexpr double TargetSliceMs = 5;
    static constexpr int MinSliceRows = 64;
    static constexpr int MaxSliceRows = 65536;

    explicit DayReclaimer(sqlite3 *db, int firstSliceRows = 1024);

    // Queues every day table in the file whose day the catalogue does not list.
    bool findOrphans(QString *error);
    void add(qint64 day);
    bool contains(qint64 day) const;
    // The day's tables were dropped whole by someone else (a day written again).
    void forget(qint64 day);
    bool pending() const { return !m_days.empty(); }
    int pendingDays() const { return int(m_days.size()); }
    int sliceRows() const { return m_sliceRows; }
    qint64 rowsDeleted() const { return m_rowsDeleted; }

    // One transaction: deletes up to sliceRows() rows of the oldest queued day, or drops
    // its tables once they are empty (and then moves on to the next day). The slice size
    // follows the time each slice took. False (rolled back, the day stays queued) on an
    // SQLite error, with *error saying which.
    bool runSlice(QString *error);

    // SQL dropping a day's tables whole, in one go: for a full disk, which needs the
    // space now, and before a day is created again while its old rows are being freed.
    static QByteArray dropWholeSql(qint64 day);

private:
    bool exists(const char *type, const QByteArray &name) const;
    // Deletes up to m_sliceRows rows of table; *empty when nothing is left in it.
    bool deleteSlice(const QByteArray &table, bool *empty, int *rows);

    sqlite3 *m_db;
    std::deque<qint64> m_days; // oldest first
    int m_sliceRows;
    qint64 m_rowsDeleted = 0;
};

} // namespace Headroom
