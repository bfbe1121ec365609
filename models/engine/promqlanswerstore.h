// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// PromQL answers kept on disk, so a dashboard reopened without its engine (offline, or
// the engine gone) still draws the complete ranges it drew before. A SQLite file of its
// own beside the sample cache (<cache base>-promql.sqlite): the sample cache's file is
// never touched. A file at that path that is not one of these (not SQLite, or SQLite
// holding other tables) is refused and left exactly as it is; an entry that does not
// decode (the file is untrusted input like any other) is a miss, replaced on the next
// fetch. At most MaxEntries answers are kept (about a week of 7-day panels' chunks for
// a few dashboards), the least recently used go first: every load and save stamps its
// entry with a use time that never repeats, so the order is exact even within one
// millisecond.
// Thread-safe (one connection behind a mutex: answers are written a chunk at a time).
#pragma once

#include "collector/promql/promqlresponse.h"
#include "engine/cache/sqlitedb.h"

#include <QMutex>
#include <optional>

namespace Headroom {

class PromqlAnswerStore
{
public:
    static constexpr int MaxEntries = 20'000;

    // maxEntries other than MaxEntries: for tests of the bound.
    explicit PromqlAnswerStore(int maxEntries = MaxEntries)
        : m_maxEntries(maxEntries)
    {
    }

    // Opens or creates path; false with *error (naming the file) when it cannot be used.
    bool open(const QString &path, QString *error);
    // The path beside a sample cache's.
    static QString pathBesideCache(const QString &cachePath);

    std::optional<PromqlResult> load(const QString &key) const;
    void save(const QString &key, const PromqlResult &result);

    // The stored form: versioned, every count checked against what is left and the caps.
    static QByteArray encode(const PromqlResult &result);
    static std::optional<PromqlResult> decode(const QByteArray &bytes);

private:
    // Now, or one past the last stamp handed out (the clock's millisecond repeats).
    qint64 nextUse() const;

    const int m_maxEntries;
    mutable QMutex m_lock;
    Sqlite::Db m_db;
    mutable qint64 m_lastUseMs = 0;
};

} // namespace Headroom
