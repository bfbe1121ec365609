// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgconnection.h"

#include "collector/hostresolver.h"
#include "core/conninfo.h"
#include "core/environmentsecrets.h"
#include "pgstatementtext.h"
#include "postgreslogging.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <libpq-fe.h>
#include <poll.h>
#include <vector>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

enum class Wait
{
    Ready,
    Timeout,
    Failed
};

// Waits until the socket is readable and/or writable, or the deadline passes.
Wait waitSocket(int fd, bool forRead, bool forWrite, const QDeadlineTimer &deadline)
{
    if (fd < 0)
        return Wait::Failed;
    while (true) {
        const qint64 remaining = deadline.remainingTime();
        if (remaining == 0)
            return Wait::Timeout;
        pollfd pfd {};
        pfd.fd = fd;
        pfd.events = short((forRead ? POLLIN : 0) | (forWrite ? POLLOUT : 0));
        const int timeout = remaining < 0 ? -1 : int(std::min<qint64>(remaining, INT_MAX));
        const int ready = ::poll(&pfd, 1, timeout);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            return Wait::Failed;
        }
        if (ready > 0)
            return Wait::Ready; // errors and hang-ups are for libpq to read and report
        // poll() rounds down to whole milliseconds: loop until the deadline really passed.
    }
}

// libpq messages end in newlines and wrap hints onto indented lines; one line reads
// better in a status field.
QString oneLine(const char *message)
{
    const QString text = QString::fromUtf8(message ? message : "").simplified();
    return text.isEmpty() ? u"unknown libpq error"_s : text;
}

QString endpoint(pg_conn *conn)
{
    const QString host = QString::fromUtf8(PQhost(conn) ? PQhost(conn) : "");
    const QString port = QString::fromUtf8(PQport(conn) ? PQport(conn) : "");
    if (host.startsWith(u'/'))
        return u"socket %1/.s.PGSQL.%2"_s.arg(host, port);
    return host + u':' + port;
}

// Errors after which the session is gone: connection exceptions (08xxx) and the
// server shutting down or restarting (57P01..57P05).
// libpq looks host names up inside PQconnectPoll with the system resolver, which knows
// nothing of our deadline (5 s per name server and try). Names are resolved here with
// the deadline instead and handed over as hostaddr; a name with several addresses
// becomes as many host entries (same name, same port), so libpq still tries each in
// turn. host keeps the name, for ~/.pgpass, SSL checks and messages.
struct ResolvedHosts
{
    QByteArray host, hostaddr, port; // empty: leave the conninfo's own
};

std::optional<ResolvedHosts> resolveHosts(const QString &conninfo, const QDeadlineTimer &deadline,
                                          QString *error)
{
    QString hosts = qEnvironmentVariable("PGHOST");
    QString ports = qEnvironmentVariable("PGPORT");
    if (!conninfo.trimmed().isEmpty()) {
        PQconninfoOption *options = PQconninfoParse(conninfo.toUtf8().constData(), nullptr);
        if (!options)
            return ResolvedHosts(); // libpq's own error says what is wrong
        bool hasHostaddr = false;
        bool hasHost = false;
        bool hasService = !qEnvironmentVariableIsEmpty("PGSERVICE");
        for (PQconninfoOption *option = options; option->keyword; ++option) {
            const QString value = QString::fromUtf8(option->val ? option->val : "");
            if (value.isEmpty())
                continue;
            if (qstrcmp(option->keyword, "hostaddr") == 0) {
                hasHostaddr = true;
            } else if (qstrcmp(option->keyword, "host") == 0) {
                hosts = value;
                hasHost = true;
            } else if (qstrcmp(option->keyword, "port") == 0) {
                ports = value;
            } else if (qstrcmp(option->keyword, "service") == 0) {
                hasService = true;
            }
        }
        PQconninfoFree(options);
        if (hasHostaddr)
            return ResolvedHosts(); // the user's own choice (a dashboard's is refused)
        // A service file's host outranks PGHOST, and only libpq reads service files:
        // naming a host here would override it. libpq looks that one up itself.
        if (hasService && !hasHost)
            return ResolvedHosts();
    }
    const QStringList hostList = hosts.split(u',');
    const QStringList portList = ports.split(u',');
    QStringList outHosts, outAddresses, outPorts;
    bool any = false;
    for (qsizetype i = 0; i < hostList.size(); ++i) {
        const QString host = hostList.at(i).trimmed();
        const QString port = portList.size() == hostList.size() ? portList.at(i) : QString();
        if (host.isEmpty() || host.startsWith(u'/') || host.startsWith(u'@')) {
            outHosts << host; // a socket directory: nothing to look up
            outAddresses << QString();
            outPorts << port;
            continue;
        }
        const auto resolved = resolveHost(host, deadline, error);
        if (!resolved || resolved->isEmpty())
            return std::nullopt;
        for (const QHostAddress &address : *resolved) {
            outHosts << host;
            outAddresses << address.toString();
            outPorts << port;
        }
        any = true;
    }
    if (!any)
        return ResolvedHosts();
    ResolvedHosts out;
    out.host = outHosts.join(u',').toUtf8();
    out.hostaddr = outAddresses.join(u',').toUtf8();
    // One port for all (or none) stays as the conninfo says; a list follows the hosts.
    if (portList.size() == hostList.size() && hostList.size() > 1)
        out.port = outPorts.join(u',').toUtf8();
    return out;
}

// require_auth arrived with libpq 16; an older one would refuse the keyword.
bool libpqHasRequireAuth()
{
    static const bool known = [] {
        PQconninfoOption *defaults = PQconndefaults();
        bool found = false;
        for (PQconninfoOption *option = defaults; option && option->keyword; ++option)
            found = found || qstrcmp(option->keyword, "require_auth") == 0;
        PQconninfoFree(defaults);
        if (!found)
            qCWarning(lcPostgres) << "this libpq has no require_auth (libpq 16+): a server named "
                                     "in a dashboard file may ask for a cleartext password";
        return found;
    }();
    return known;
}

bool sqlStateMeansBroken(const QByteArray &state)
{
    return state.startsWith("08") || state.startsWith("57P");
}

struct Collected
{
    PGresult *last = nullptr; // the last successful result
    PGresult *error = nullptr; // the first failed one
    ~Collected()
    {
        PQclear(last);
        PQclear(error);
    }
    void take(PGresult *result)
    {
        const ExecStatusType status = PQresultStatus(result);
        if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK
            || status == PGRES_EMPTY_QUERY) {
            PQclear(last);
            last = result;
        } else if (!error) {
            error = result;
        } else {
            PQclear(result);
        }
    }
};

enum class Drain
{
    Done,
    Timeout,
    Broken
};

// One wait on the socket (for reading, and writing when asked), then takes in what
// arrived. Done means "go on".
Drain waitAndRead(pg_conn *conn, bool forWrite, const QDeadlineTimer &deadline)
{
    switch (waitSocket(PQsocket(conn), true, forWrite, deadline)) {
    case Wait::Timeout:
        return Drain::Timeout;
    case Wait::Failed:
        return Drain::Broken;
    case Wait::Ready:
        break;
    }
    return PQconsumeInput(conn) ? Drain::Done : Drain::Broken;
}

// Reads results until libpq has none left for the current query, or the deadline.
Drain drain(pg_conn *conn, Collected &collected, const QDeadlineTimer &deadline)
{
    while (true) {
        while (!PQisBusy(conn)) {
            PGresult *result = PQgetResult(conn);
            if (!result)
                return Drain::Done;
            collected.take(result);
        }
        if (const Drain waited = waitAndRead(conn, false, deadline); waited != Drain::Done)
            return waited;
    }
}

// Sends what libpq buffered (non-blocking mode), reading meanwhile so that a server
// that answers before it reads everything cannot deadlock us.
Drain flush(pg_conn *conn, const QDeadlineTimer &deadline)
{
    while (true) {
        const int pending = PQflush(conn);
        if (pending == 0)
            return Drain::Done;
        if (pending < 0)
            return Drain::Broken;
        if (const Drain waited = waitAndRead(conn, true, deadline); waited != Drain::Done)
            return waited;
    }
}

} // namespace

PgConnectFailure parseVerboseConnectError(const QString &verbose)
{
    // "<severity>:  <SQLSTATE>: <message>", severity and LOCATION translated by the
    // server's lc_messages and libpq's locale: only the shapes are matched.
    static const QRegularExpression state(u":  ([0-9A-Z]{5}): "_s);
    static const QRegularExpression location(u"\\n[^\\n:]+:  [A-Za-z_0-9]+, [A-Za-z_0-9.]+:\\d+"_s);
    PgConnectFailure failure;
    QString text = verbose;
    QRegularExpressionMatchIterator it = state.globalMatch(text);
    while (it.hasNext())
        failure.sqlState = it.next().captured(1).toLatin1();
    text.replace(state, u":  "_s);
    text.remove(location);
    failure.message = oneLine(text.toUtf8().constData());
    return failure;
}

void PgResult::Clear::operator()(pg_result *result) const
{
    PQclear(result);
}

int PgResult::rows() const
{
    return m_result ? PQntuples(m_result.get()) : 0;
}

int PgResult::columns() const
{
    return m_result ? PQnfields(m_result.get()) : 0;
}

bool PgResult::isNull(int row, int column) const
{
    return !m_result || PQgetisnull(m_result.get(), row, column);
}

QString PgResult::text(int row, int column) const
{
    return m_result ? QString::fromUtf8(PQgetvalue(m_result.get(), row, column)) : QString();
}

double PgResult::number(int row, int column, bool *ok) const
{
    if (isNull(row, column)) {
        if (ok)
            *ok = false;
        return 0;
    }
    // Straight from libpq's buffer: this runs for every cell of pg_stat_statements,
    // thousands per poll. from_chars ignores the locale, as the server's text does.
    const char *text = PQgetvalue(m_result.get(), row, column);
    const char *end = text + PQgetlength(m_result.get(), row, column);
    if (end - text == 1 && (*text == 't' || *text == 'f')) { // bool
        if (ok)
            *ok = true;
        return *text == 't' ? 1 : 0;
    }
    double value = 0;
    const auto [stop, error] = std::from_chars(text, end, value);
    const bool parsed = error == std::errc() && stop == end;
    if (ok)
        *ok = parsed;
    return parsed ? value : 0;
}

QString PgResult::columnName(int column) const
{
    return m_result ? QString::fromUtf8(PQfname(m_result.get(), column)) : QString();
}

bool PgResult::isNumericColumn(int column) const
{
    if (!m_result)
        return false;
    // Built-in type OIDs are fixed (pg_type.dat): int8, int2, int4, oid, float4,
    // float8, numeric, bool.
    switch (PQftype(m_result.get(), column)) {
    case 20:
    case 21:
    case 23:
    case 26:
    case 700:
    case 701:
    case 1700:
    case 16:
        return true;
    default:
        return false;
    }
}

bool PgConnection::inTransaction() const
{
    if (!m_conn)
        return false;
    const PGTransactionStatusType status = PQtransactionStatus(m_conn);
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR;
}

bool PgConnection::inOpenTransaction() const
{
    return m_conn && PQtransactionStatus(m_conn) == PQTRANS_INTRANS;
}

PgConnection::PgConnection(PgSettings settings)
    : m_settings(std::move(settings))
{
}

PgConnection::~PgConnection()
{
    close();
}

QString PgConnection::redactedConninfo() const
{
    return m_settings.conninfo.isEmpty() ? u"(libpq defaults)"_s
                                         : redactConninfo(m_settings.conninfo);
}

int PgConnection::serverVersion() const
{
    return m_conn ? PQserverVersion(m_conn) : 0;
}

int PgConnection::backendPid() const
{
    return m_conn ? PQbackendPID(m_conn) : 0;
}

void PgConnection::close()
{
    if (m_conn) {
        PQfinish(m_conn);
        m_conn = nullptr;
    }
}

void PgConnection::scheduleRetry(const QString &reason)
{
    m_lastError = reason;
    m_backingOff = true;
    m_retryAt = QDeadlineTimer(m_backoffMs);
    qCWarning(lcPostgres).noquote()
        << redactedConninfo() << reason << "- next attempt in" << m_backoffMs << "ms";
    m_backoffMs = std::min(m_backoffMs * 2, MaxBackoffMs);
}

void PgConnection::markBroken(const QString &reason)
{
    close();
    scheduleRetry(reason);
}

bool PgConnection::ensureConnected(const QDeadlineTimer &deadline, QString *error)
{
    if (m_conn)
        return true;
    if (m_backingOff && !m_retryAt.hasExpired()) {
        const qint64 seconds = (m_retryAt.remainingTime() + 999) / 1000;
        *error = u"reconnecting in %1 s: %2"_s.arg(seconds).arg(m_lastError);
        return false;
    }
    QString failure;
    if (!connectNow(deadline, &failure) || !setUpSession(deadline, &failure)) {
        close();
        scheduleRetry(failure);
        *error = failure;
        return false;
    }
    m_backingOff = false;
    m_backoffMs = InitialBackoffMs;
    m_lastRefusal.clear();
    ++m_generation;
    m_ownRollbacks = 0;
    qCInfo(lcPostgres).noquote() << "connected to" << endpoint(m_conn) << "server"
                                 << PQserverVersion(m_conn) << "as" << PQuser(m_conn) << "db"
                                 << PQdb(m_conn);
    return true;
}

bool PgConnection::connectNow(const QDeadlineTimer &pollDeadline, QString *error)
{
    QElapsedTimer elapsed;
    elapsed.start();
    const QDeadlineTimer deadline
        = std::min(pollDeadline, QDeadlineTimer(m_settings.connectTimeoutMs));
    // The whole conninfo goes in as an expandable dbname: keyword/value strings and URIs
    // both work, and an empty one leaves everything to PG* variables and service files.
    // Keywords after it override what it says.
    const QByteArray conninfo = m_settings.conninfo.toUtf8();
    std::vector<const char *> keys { "dbname", "fallback_application_name" };
    std::vector<const char *> values { conninfo.constData(), "headroom" };
    // A server named by a dashboard file gets a SCRAM exchange or nothing at all (trust,
    // peer, a client certificate): an md5 answer is md5(md5(password + user) + salt) for
    // a salt the server chose, cheap to crack offline, and cleartext is the password.
    const QByteArray requireAuth = qEnvironmentVariableIsEmpty("PGREQUIREAUTH")
        ? QByteArray(DashboardRequireAuth)
        : qgetenv("PGREQUIREAUTH");
    const QByteArray password = environmentPgPassword();
    const std::optional<ResolvedHosts> resolved
        = resolveHosts(m_settings.conninfo, deadline, error);
    if (!resolved)
        return false;
    if (!resolved->hostaddr.isEmpty()) {
        keys.insert(keys.end(), { "host", "hostaddr" });
        values.insert(values.end(), { resolved->host.constData(), resolved->hostaddr.constData() });
        if (!resolved->port.isEmpty()) {
            keys.push_back("port");
            values.push_back(resolved->port.constData());
        }
    }
    if (m_settings.fromDashboard && libpqHasRequireAuth()) {
        keys.push_back("require_auth");
        values.push_back(requireAuth.constData());
    } else if (!m_settings.fromDashboard && !password.isEmpty()
               && !conninfoHasPassword(m_settings.conninfo)) {
        keys.push_back("password"); // PGPASSWORD, which main() took out of the environment
        values.push_back(password.constData());
    }
    keys.push_back(nullptr);
    values.push_back(nullptr);
    m_conn = PQconnectStartParams(keys.data(), values.data(), 1);
    if (!m_conn) {
        *error = u"out of memory starting a libpq connection"_s;
        return false;
    }
    if (PQstatus(m_conn) == CONNECTION_BAD) {
        *error = oneLine(PQerrorMessage(m_conn));
        return false;
    }
    // Verbose while connecting: only that wording carries the server's SQLSTATE, which
    // tells a refusal for want of a connection slot (53300) from any other failure.
    // setUpSession() goes back to the default, so query errors read as always.
    PQsetErrorVerbosity(m_conn, PQERRORS_VERBOSE);
    m_lastRefusal.clear();
    // Per the libpq manual: wait for writability first, then as PQconnectPoll says.
    PostgresPollingStatusType status = PGRES_POLLING_WRITING;
    while (status != PGRES_POLLING_OK) {
        if (status == PGRES_POLLING_FAILED) {
            const PgConnectFailure failure
                = parseVerboseConnectError(QString::fromUtf8(PQerrorMessage(m_conn)));
            *error = failure.message;
            m_lastRefusal = failure.sqlState;
            if (m_settings.fromDashboard && error->contains(u"authentication method requirement"_s))
                *error += u" (a server named by a dashboard file may ask only for SCRAM; give "
                          "the connection string yourself with --var, or allow more with "
                          "PGREQUIREAUTH)"_s;
            return false;
        }
        const Wait wait = waitSocket(PQsocket(m_conn), status == PGRES_POLLING_READING,
                                     status == PGRES_POLLING_WRITING, deadline);
        if (wait == Wait::Timeout) {
            *error = u"timed out after %1 ms connecting to %2 (the server did not answer)"_s
                         .arg(elapsed.elapsed())
                         .arg(endpoint(m_conn));
            return false;
        }
        if (wait == Wait::Failed) {
            *error = u"cannot wait on the connection socket: %1"_s.arg(
                oneLine(PQerrorMessage(m_conn)));
            return false;
        }
        status = PQconnectPoll(m_conn);
    }
    return true;
}

bool PgConnection::setUpSession(const QDeadlineTimer &deadline, QString *error)
{
    PQsetErrorVerbosity(m_conn, PQERRORS_DEFAULT);
    // Non-blocking, so that sending can never stall past a deadline either.
    if (PQsetnonblocking(m_conn, 1) != 0) {
        *error = oneLine(PQerrorMessage(m_conn));
        return false;
    }
    // Read-only and short timeouts protect the monitored server from us: a dashboard
    // query cannot write, and nothing we run can queue behind locks for long.
    // The screen of dashboard SQL (pgsqlguard.h) reads quotes as a UTF-8 session with
    // standard strings does: a role, database or options setting must not change that.
    // Each marked as Headroom's own, so pg_stat_statements' top leaves them out.
    const QList<QByteArray> statements {
        "SET application_name = 'headroom'",
        "SET default_transaction_read_only = on",
        "SET standard_conforming_strings = on",
        "SET client_encoding = 'UTF8'",
        "SET statement_timeout = " + QByteArray::number(m_settings.statementTimeoutMs),
        "SET lock_timeout = " + QByteArray::number(m_settings.lockTimeoutMs),
    };
    QByteArray setup;
    for (const QByteArray &statement : statements)
        setup += OwnStatementMarker + statement + "; ";
    // The simple protocol runs all four in one round trip.
    if (!PQsendQuery(m_conn, setup.constData())) {
        *error = oneLine(PQerrorMessage(m_conn));
        return false;
    }
    const PgResult result = collect(deadline);
    if (!result.ok()) {
        *error = u"session setup failed: %1"_s.arg(result.error());
        return false;
    }
    return true;
}

PgResult PgConnection::exec(const QByteArray &sql, const QList<QByteArray> &params,
                            const QDeadlineTimer &deadline)
{
    if (!m_conn) {
        PgResult result;
        result.m_error = u"not connected"_s;
        return result;
    }
    std::vector<const char *> values;
    values.reserve(size_t(params.size()));
    for (const QByteArray &param : params)
        values.push_back(param.isNull() ? nullptr : param.constData());
    const PGTransactionStatusType before = PQtransactionStatus(m_conn);
    const QByteArray marked = OwnStatementMarker + sql;
    if (!PQsendQueryParams(m_conn, marked.constData(), int(values.size()), nullptr, values.data(),
                           nullptr, nullptr, 0)) {
        PgResult result;
        result.m_error = oneLine(PQerrorMessage(m_conn));
        if (PQstatus(m_conn) == CONNECTION_BAD)
            markBroken(result.m_error);
        return result;
    }
    const int generation = m_generation;
    PgResult result = collect(deadline);
    // The server got the statement: count the transactions it ends in a rollback. A
    // session lost meanwhile takes its count with it (a new one starts from 0).
    const bool inBlock = before == PQTRANS_INTRANS || before == PQTRANS_INERROR;
    if (generation == m_generation
        && ((inBlock && sql == "ROLLBACK") || (before == PQTRANS_IDLE && !result.ok())))
        ++m_ownRollbacks;
    return result;
}

QString PgConnection::database() const
{
    return m_conn ? QString::fromUtf8(PQdb(m_conn)) : QString();
}

PgResult PgConnection::collect(const QDeadlineTimer &deadline)
{
    PgResult result;
    Collected collected;
    Drain outcome = flush(m_conn, deadline);
    if (outcome == Drain::Done)
        outcome = drain(m_conn, collected, deadline);

    if (outcome == Drain::Timeout) {
        // Ask the server to stop, then give the answer a short grace to arrive so the
        // session stays usable; a server that does not answer even that loses it.
        const QDeadlineTimer grace(m_settings.cancelGraceMs);
        const bool cancelled = cancel(grace);
        result.m_timedOut = true;
        result.m_error = u"query did not finish within the poll deadline; %1"_s.arg(
            cancelled ? u"cancelled"_s : u"cancel request failed"_s);
        Collected discarded;
        if (!cancelled || drain(m_conn, discarded, grace) != Drain::Done)
            markBroken(result.m_error);
        return result;
    }
    if (outcome == Drain::Broken) {
        result.m_error = collected.error ? oneLine(PQresultErrorMessage(collected.error))
                                         : oneLine(PQerrorMessage(m_conn));
        markBroken(result.m_error);
        return result;
    }
    if (collected.error) {
        result.m_error = oneLine(PQresultErrorMessage(collected.error));
        const char *state = PQresultErrorField(collected.error, PG_DIAG_SQLSTATE);
        result.m_sqlState = QByteArray(state ? state : "");
        if (PQstatus(m_conn) == CONNECTION_BAD || sqlStateMeansBroken(result.m_sqlState))
            markBroken(result.m_error);
        return result;
    }
    if (PQstatus(m_conn) == CONNECTION_BAD) {
        result.m_error = oneLine(PQerrorMessage(m_conn));
        markBroken(result.m_error);
        return result;
    }
    result.m_ok = true;
    result.m_result
        = std::shared_ptr<pg_result>(std::exchange(collected.last, nullptr), PgResult::Clear());
    return result;
}

bool PgConnection::cancel(const QDeadlineTimer &grace)
{
#ifdef LIBPQ_HAS_ASYNC_CANCEL
    // libpq 17's non-blocking cancel: the request goes over its own connection, which
    // we drive with the same socket waits so a dead server cannot hold us.
    PGcancelConn *request = PQcancelCreate(m_conn);
    if (!request)
        return false;
    bool sent = false;
    if (PQcancelStart(request)) {
        PostgresPollingStatusType status = PGRES_POLLING_WRITING;
        while (true) {
            if (waitSocket(PQcancelSocket(request), status == PGRES_POLLING_READING,
                           status == PGRES_POLLING_WRITING, grace)
                != Wait::Ready)
                break;
            status = PQcancelPoll(request);
            if (status == PGRES_POLLING_OK) {
                sent = true;
                break;
            }
            if (status == PGRES_POLLING_FAILED)
                break;
        }
    }
    if (!sent)
        qCDebug(lcPostgres) << "cancel failed:" << oneLine(PQcancelErrorMessage(request));
    PQcancelFinish(request);
    return sent;
#else
    // The older PQcancel() blocks without a timeout; instead the session is dropped and
    // the server's own statement_timeout ends the query.
    Q_UNUSED(grace);
    return false;
#endif
}

} // namespace Headroom
