// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One MariaDB/MySQL session that never blocks past a deadline: Connector/C's
// non-blocking API (mysql_real_connect_start, mysql_real_query_start...) driven by
// poll(2) on its socket. A query that outlives its deadline closes the session (the
// server's max_statement_time ends it there); a broken session reconnects with
// exponential backoff. The session is read-only with short lock and statement timeouts,
// and never lets the server read a local file (LOAD DATA LOCAL). Used from one thread.
#pragma once

#include "mariadboptions.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QList>
#include <QString>
#include <initializer_list>

struct st_mysql;

namespace Headroom {

// The authentication plugins by which ~/.my.cnf's password may reach a server a
// dashboard file names: each signs the server's challenge with a key derived from the
// password, so the server learns neither the password nor a hash to log in with.
inline constexpr char MariadbPasswordPlugins[] = "client_ed25519,parsec";

struct MariadbSettings
{
    MariadbTarget target;
    // Sent only when mayUsePassword() allowed it; never logged.
    QString password;
    bool sendPassword = false;
    // The URL came from a dashboard file: with a password to send, only the plugins of
    // MariadbPasswordPlugins; without one, none that prompts for a password in clear
    // text (mysql_clear_password, PAM's dialog).
    bool fromDashboard = true;
    int connectTimeoutMs = 3000;
    int statementTimeoutMs = 1000;
};

class MariadbResult
{
public:
    bool ok() const { return m_ok; }
    QString error() const { return m_error; }
    unsigned errorNumber() const { return m_errno; }
    bool timedOut() const { return m_timedOut; }

    int rows() const { return int(m_rows.size()); }
    int columns() const { return int(m_columns.size()); }
    QString columnName(int column) const { return m_columns.value(column); }
    // -1 when there is no such column (case-insensitive).
    int column(QStringView name) const;
    bool isNull(int row, int column) const;
    QString text(int row, int column) const;
    double number(int row, int column, bool *ok = nullptr) const;
    // The numbers of the row's columns from firstColumn on into *out; false when one is
    // NULL or not a number (the server's answer is untrusted: such a row is skipped).
    bool numbers(int row, int firstColumn, std::initializer_list<double *> out) const;

private:
    friend class MariadbConnection;
    bool m_ok = false;
    bool m_timedOut = false;
    unsigned m_errno = 0;
    QString m_error;
    QStringList m_columns;
    QList<QList<QByteArray>> m_rows; // a SQL NULL is a null QByteArray
};

class MariadbConnection
{
public:
    explicit MariadbConnection(MariadbSettings settings);
    ~MariadbConnection();
    MariadbConnection(const MariadbConnection &) = delete;
    MariadbConnection &operator=(const MariadbConnection &) = delete;

    // Connected and set up by `deadline`, or false with *error. While backing off after
    // a failure it returns false at once with "reconnecting in N s: <last error>".
    bool ensureConnected(const QDeadlineTimer &deadline, QString *error);
    bool isConnected() const { return m_mysql != nullptr; }
    int generation() const { return m_generation; }
    bool isMariadb() const { return m_isMariadb; }
    unsigned long serverVersion() const { return m_serverVersion; }
    unsigned long connectionId() const { return m_connectionId; }

    // One statement. Past `deadline` the session is closed and the result says
    // timedOut; a lost connection is closed too, and a reconnect scheduled.
    MariadbResult exec(const QByteArray &sql, const QDeadlineTimer &deadline);

    void markBroken(const QString &reason);
    int currentBackoffMs() const { return m_backoffMs; }

    static constexpr int InitialBackoffMs = 1000;
    static constexpr int MaxBackoffMs = 30000;

private:
    // Waits for what Connector/C asked (MYSQL_WAIT_*), by `deadline`; the events that
    // happened, or 0 when the deadline passed first.
    int waitFor(int status, const QDeadlineTimer &deadline);
    bool connectNow(const QDeadlineTimer &deadline, QString *error);
    // mysql_real_connect with or without ~/.my.cnf's password, the plugins allowed to
    // match; false with *error and the client's error number.
    bool openSession(const QDeadlineTimer &deadline, bool withPassword, QString *error,
                     unsigned *errorNumber);
    void close();
    void scheduleRetry(const QString &reason);
    QString lastError() const;

    MariadbSettings m_settings;
    st_mysql *m_mysql = nullptr;
    int m_generation = 0;
    bool m_isMariadb = true;
    unsigned long m_serverVersion = 0;
    unsigned long m_connectionId = 0;
    QDeadlineTimer m_retryAt { QDeadlineTimer::Forever };
    bool m_backingOff = false;
    bool m_connecting = false; // setting a session up: a failure is connectNow's to report
    int m_backoffMs = InitialBackoffMs;
    QString m_lastError;
};

} // namespace Headroom
