// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One libpq session that never blocks past a deadline: non-blocking connect
// (PQconnectStartParams + PQconnectPoll) and queries (PQsendQueryParams) driven by
// poll(2) on the socket, a cancel request when a deadline passes, and reconnects with
// exponential backoff after the connection breaks. Used from one thread only.
#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QList>
#include <QString>
#include <memory>

struct pg_conn;
struct pg_result;

namespace Headroom {

// What libpq may answer a server named by a dashboard file: SCRAM, whose exchange
// gives the server neither the password nor a hash it could log in with, and "none"
// (trust, peer, a client certificate), which gives it nothing.
inline constexpr char DashboardRequireAuth[] = "scram-sha-256,none";

struct PgSettings
{
    QString conninfo; // keyword/value or URI; empty means libpq's defaults (PG*, service)
    // The conninfo was written in a dashboard file, not typed by the user: libpq
    // answers only a SCRAM exchange or a server that asks for nothing
    // (require_auth=DashboardRequireAuth, unless the user's PGREQUIREAUTH says otherwise),
    // never md5 or cleartext, and PGPASSWORD is not sent.
    bool fromDashboard = true;
    int connectTimeoutMs = 3000;
    int statementTimeoutMs = 1000;
    int lockTimeoutMs = 100;
    // How long after a query's deadline we may spend asking the server to cancel it
    // and reading the answer; callers give queries a deadline this much early.
    int cancelGraceMs = 200;
};

// A query's outcome. ok with rows, or an error with the server's SQLSTATE when known.
class PgResult
{
public:
    bool ok() const { return m_ok; }
    QString error() const { return m_error; }
    QByteArray sqlState() const { return m_sqlState; }
    bool timedOut() const { return m_timedOut; }

    int rows() const;
    int columns() const;
    bool isNull(int row, int column) const;
    QString text(int row, int column) const;
    double number(int row, int column, bool *ok = nullptr) const;
    QString columnName(int column) const;
    // Whether the column's type is a number (integers, float, numeric, oid, bool as 0/1).
    bool isNumericColumn(int column) const;

private:
    friend class PgConnection;
    struct Clear
    {
        void operator()(pg_result *result) const;
    };
    std::shared_ptr<pg_result> m_result;
    bool m_ok = false;
    bool m_timedOut = false;
    QString m_error;
    QByteArray m_sqlState;
};

class PgConnection
{
public:
    explicit PgConnection(PgSettings settings);
    ~PgConnection();
    PgConnection(const PgConnection &) = delete;
    PgConnection &operator=(const PgConnection &) = delete;

    // Connected and set up (application_name, read-only, timeouts) by `deadline`, or
    // false with *error. While backing off after a failure it returns false at once
    // with "reconnecting in N s: <last error>".
    bool ensureConnected(const QDeadlineTimer &deadline, QString *error);
    bool isConnected() const { return m_conn != nullptr; }
    // Inside a transaction block (open or aborted): a poll cut short may leave one.
    bool inTransaction() const;
    // Inside a transaction block that has not failed: where a dashboard statement must
    // leave the read-only transaction Headroom opened for it.
    bool inOpenTransaction() const;
    // Increases each time a new session is established; lets callers drop state
    // (counter baselines) that belonged to the previous server or session.
    int generation() const { return m_generation; }
    int serverVersion() const;
    int backendPid() const;
    // The database this session is connected to (empty when not connected).
    QString database() const;
    // Transactions this session has ended in a rollback since it was established: each
    // ROLLBACK of a transaction block, and each statement outside one that failed (its
    // implicit transaction aborts). pg_stat_database counts them as xact_rollback of
    // database(); the collector takes them out, so that watching a database is not
    // seen as rollbacks in it.
    qint64 ownRollbacks() const { return m_ownRollbacks; }
    // The SQLSTATE of the server's refusal when the last connection attempt failed on
    // the server's answer (53300: no connection slot left for this role, "too many
    // clients already"); empty once a session is established, or when the attempt
    // failed before the server said why (unreachable, a timeout).
    QByteArray lastRefusal() const { return m_lastRefusal; }
    bool refusedForSlots() const { return m_lastRefusal == TooManyConnections; }
    static constexpr char TooManyConnections[] = "53300";

    // Runs one statement with text parameters. When `deadline` passes, the query is
    // cancelled (within cancelGraceMs) and the result says timedOut. A broken connection
    // is closed and a reconnect scheduled; the result carries the error.
    PgResult exec(const QByteArray &sql, const QList<QByteArray> &params,
                  const QDeadlineTimer &deadline);

    // Closes the session and schedules the next connect attempt with backoff.
    void markBroken(const QString &reason);

    QString redactedConninfo() const;
    // The backoff that will apply to the next failure, for tests and logs.
    int currentBackoffMs() const { return m_backoffMs; }

    static constexpr int InitialBackoffMs = 1000;
    static constexpr int MaxBackoffMs = 30000;

private:
    bool connectNow(const QDeadlineTimer &deadline, QString *error);
    bool setUpSession(const QDeadlineTimer &deadline, QString *error);
    PgResult collect(const QDeadlineTimer &deadline);
    bool cancel(const QDeadlineTimer &grace);
    void close();
    void scheduleRetry(const QString &reason);

    PgSettings m_settings;
    pg_conn *m_conn = nullptr;
    int m_generation = 0;
    qint64 m_ownRollbacks = 0;
    // Backoff state: the next attempt may start when m_retryAt expires.
    QDeadlineTimer m_retryAt { QDeadlineTimer::Forever };
    bool m_backingOff = false;
    int m_backoffMs = InitialBackoffMs;
    QString m_lastError;
    QByteArray m_lastRefusal;
};

// A connection failure as libpq words it with PQERRORS_VERBOSE, which alone carries the
// server's SQLSTATE ("FATAL:  53300: sorry, too many clients already" and a LOCATION
// line): the last SQLSTATE in it, and the text as the default verbosity has it.
struct PgConnectFailure
{
    QByteArray sqlState;
    QString message;
};
PgConnectFailure parseVerboseConnectError(const QString &verbose);

} // namespace Headroom
