// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/sqlitedb.h"

#include <cmath>
#include <sqlite3.h>
#include <utility>

namespace Headroom::Sqlite {

void DbCloser::operator()(sqlite3 *db) const
{
    // close_v2 defers the close until every statement is finalized, so an owner that
    // is destroyed before its statements cannot leak the file handle.
    sqlite3_close_v2(db);
}

Db open(const QString &path, int flags, QString *error)
{
    sqlite3 *raw = nullptr;
    // NOMUTEX: every connection is used by one thread at a time (the writer's by the
    // writer thread, readers through the pool), so SQLite's own mutexes are redundant.
    const int rc
        = sqlite3_open_v2(path.toUtf8().constData(), &raw, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    Db db(raw);
    if (rc != SQLITE_OK) {
        if (error)
            *error = raw ? errorText(raw) : QString::fromUtf8(sqlite3_errstr(rc));
        return nullptr;
    }
    sqlite3_extended_result_codes(raw, 1);
    // Every cache and recording is untrusted input. Defensive: no PRAGMA or write can
    // corrupt the file (writable_schema and the like are refused). Untrusted schema:
    // functions and virtual tables a view, trigger, index or default might name run only
    // when they are harmless (the schema check refuses views and triggers anyway).
    if (sqlite3_db_config(raw, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr) != SQLITE_OK
        || sqlite3_db_config(raw, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr) != SQLITE_OK) {
        if (error)
            *error = errorText(raw);
        return nullptr;
    }
    return db;
}

QString errorText(sqlite3 *db)
{
    return QString::fromUtf8(sqlite3_errmsg(db));
}

bool exec(sqlite3 *db, const char *sql, QString *error)
{
    char *message = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        if (error)
            *error = QString::fromUtf8(message ? message : sqlite3_errstr(rc));
        sqlite3_free(message);
        return false;
    }
    return true;
}

bool exec(sqlite3 *db, const QByteArray &sql, QString *error)
{
    return exec(db, sql.constData(), error);
}

bool configure(sqlite3 *db, bool writable, QString *error)
{
    sqlite3_busy_timeout(db, BusyTimeoutMs);
    if (!writable)
        return exec(db, "PRAGMA query_only = 1", error);
    // WAL: readers never block the writer nor the writer the readers. NORMAL: a commit
    // survives a crash of the process (the WAL is in the page cache); only a power cut
    // can lose the last commits, never corrupt the file.
    return exec(db,
                "PRAGMA journal_mode = WAL;"
                "PRAGMA synchronous = NORMAL;"
                "PRAGMA journal_size_limit = 67108864;"
                // The writer touches the newest index page of every series each commit:
                // with hundreds of series that working set outgrows the default 2 MB
                // and every commit re-reads pages (the ingest rate then falls as the
                // file grows). 64 MB holds it for thousands of series.
                "PRAGMA cache_size = -65536;"
                // Some distributions build SQLite with secure_delete on: every page freed
                // is then zeroed through the WAL, and dropping a day chunk writes the
                // whole chunk again (seconds, during which no commit can happen). FAST
                // only clears freed content when it costs no extra I/O.
                "PRAGMA secure_delete = FAST;",
                error);
}

Statement::Statement(sqlite3 *db, const QByteArray &sql, bool persistent)
{
    if (sqlite3_prepare_v3(db, sql.constData(), int(sql.size()),
                           persistent ? SQLITE_PREPARE_PERSISTENT : 0, &m_stmt, nullptr)
        != SQLITE_OK) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement &&other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
{
}

Statement &Statement::operator=(Statement &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

void Statement::bind(int index, qint64 value)
{
    sqlite3_bind_int64(m_stmt, index, value);
}

void Statement::bind(int index, double value)
{
    if (std::isnan(value))
        sqlite3_bind_null(m_stmt, index);
    else
        sqlite3_bind_double(m_stmt, index, value);
}

void Statement::bind(int index, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    sqlite3_bind_text(m_stmt, index, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

void Statement::bind(int index, const QByteArray &blob)
{
    // A zero-length blob must stay a blob, not NULL: bind_zeroblob keeps the type.
    if (blob.isEmpty())
        sqlite3_bind_zeroblob(m_stmt, index, 0);
    else
        sqlite3_bind_blob(m_stmt, index, blob.constData(), int(blob.size()), SQLITE_TRANSIENT);
}

bool Statement::step(bool *done)
{
    if (done)
        *done = false;
    if (!m_stmt)
        return false;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE && done)
        *done = true;
    return false;
}

bool Statement::run()
{
    bool done = false;
    while (step(&done)) { }
    reset();
    return done;
}

void Statement::reset()
{
    if (!m_stmt)
        return;
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

qint64 Statement::columnInt64(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double Statement::columnDouble(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

QString Statement::columnText(int column) const
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    return QString::fromUtf8(text, sqlite3_column_bytes(m_stmt, column));
}

QByteArray Statement::columnBlob(int column) const
{
    const auto *data = static_cast<const char *>(sqlite3_column_blob(m_stmt, column));
    return QByteArray(data, sqlite3_column_bytes(m_stmt, column));
}

bool Statement::columnIsNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

} // namespace Headroom::Sqlite
