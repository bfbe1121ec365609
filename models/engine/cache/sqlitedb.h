// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Thin RAII over the SQLite C API, shared by the cache's writer and readers.
//
// Only what the cache needs: owning handles, bind/step/column helpers and error text
// that names the failing operation. No Qt SQL: it hides the connection-per-thread rules
// and the WAL/busy settings that the cache depends on.
#pragma once

#include <QByteArray>
#include <QString>
#include <memory>

struct sqlite3;
struct sqlite3_stmt;

namespace Headroom::Sqlite {

// How long any connection waits on a lock before SQLITE_BUSY; readers and the writer
// only ever hold locks for one short transaction, so this is never reached in practice.
constexpr int BusyTimeoutMs = 10000;

struct DbCloser
{
    void operator()(sqlite3 *db) const;
};
using Db = std::unique_ptr<sqlite3, DbCloser>;

// Opens path with the given SQLITE_OPEN_* flags, defensive (SQLITE_DBCONFIG_DEFENSIVE)
// and with an untrusted schema (trusted_schema off). On failure returns nullptr and sets
// *error to SQLite's message.
Db open(const QString &path, int flags, QString *error);

// The last error of db as text (never a path or connection string: SQLite has none).
QString errorText(sqlite3 *db);

// Runs one or more statements that return no rows we need. false + *error on failure.
bool exec(sqlite3 *db, const char *sql, QString *error = nullptr);
bool exec(sqlite3 *db, const QByteArray &sql, QString *error = nullptr);

// Sets busy_timeout, and for writable connections WAL + synchronous=NORMAL.
bool configure(sqlite3 *db, bool writable, QString *error);

class Statement
{
public:
    Statement() = default;
    Statement(sqlite3 *db, const QByteArray &sql, bool persistent = false);
    ~Statement();
    Statement(Statement &&other) noexcept;
    Statement &operator=(Statement &&other) noexcept;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool isValid() const { return m_stmt != nullptr; }
    sqlite3_stmt *get() const { return m_stmt; }

    // Binding indexes are 1-based, as in SQLite.
    void bind(int index, qint64 value);
    void bind(int index, double value); // NaN is bound as NULL (what SQLite makes of it)
    void bind(int index, const QString &value);
    void bind(int index, const QByteArray &blob);

    // SQLITE_ROW -> true; SQLITE_DONE -> false with *done = true; errors -> false.
    bool step(bool *done = nullptr);
    // step() until SQLITE_DONE, then reset(); true on success.
    bool run();
    void reset(); // also clears bindings

    qint64 columnInt64(int column) const;
    double columnDouble(int column) const;
    QString columnText(int column) const;
    QByteArray columnBlob(int column) const;
    bool columnIsNull(int column) const;

private:
    sqlite3_stmt *m_stmt = nullptr;
};

} // namespace Headroom::Sqlite
