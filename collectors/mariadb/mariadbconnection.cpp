// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "mariadbconnection.h"

#include "collector/hostresolver.h"
#include "mariadblogging.h"

#include <algorithm>
#include <cerrno>
#include <errmsg.h>
#include <mysql.h>
#include <poll.h>
#include <sys/socket.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// What Connector/C says it waits for, as poll(2) events.
short pollEvents(int status)
{
    short events = 0;
    if (status & MYSQL_WAIT_READ)
        events |= POLLIN;
    if (status & MYSQL_WAIT_WRITE)
        events |= POLLOUT;
    if (status & MYSQL_WAIT_EXCEPT)
        events |= POLLPRI;
    return events;
}

} // namespace

int MariadbResult::column(QStringView name) const
{
    for (qsizetype i = 0; i < m_columns.size(); ++i) {
        if (m_columns.at(i).compare(name, Qt::CaseInsensitive) == 0)
            return int(i);
    }
    return -1;
}

bool MariadbResult::isNull(int row, int column) const
{
    if (row < 0 || row >= m_rows.size() || column < 0 || column >= m_rows.at(row).size())
        return true;
    return m_rows.at(row).at(column).isNull();
}

QString MariadbResult::text(int row, int column) const
{
    return isNull(row, column) ? QString() : QString::fromUtf8(m_rows.at(row).at(column));
}

double MariadbResult::number(int row, int column, bool *ok) const
{
    bool parsed = false;
    const double value = isNull(row, column) ? 0 : m_rows.at(row).at(column).toDouble(&parsed);
    if (ok)
        *ok = parsed;
    return parsed ? value : 0;
}

bool MariadbResult::numbers(int row, int firstColumn, std::initializer_list<double *> out) const
{
    int column = firstColumn;
    for (double *value : out) {
        bool ok = false;
        *value = number(row, column++, &ok);
        if (!ok)
            return false;
    }
    return true;
}

MariadbConnection::MariadbConnection(MariadbSettings settings)
    : m_settings(std::move(settings))
{
}

MariadbConnection::~MariadbConnection()
{
    // A healthy session says goodbye (COM_QUIT): one left without it counts in the
    // server's Aborted_clients, an error Headroom itself would then report.
    if (m_mysql)
        mysql_close(m_mysql);
    m_mysql = nullptr;
}

int MariadbConnection::waitFor(int status, const QDeadlineTimer &deadline)
{
    const int fd = mysql_get_socket(m_mysql);
    if (fd < 0)
        return 0;
    for (;;) {
        qint64 waitMs = deadline.isForever() ? -1 : std::max<qint64>(0, deadline.remainingTime());
        bool libraryTimeout = false;
        if (status & MYSQL_WAIT_TIMEOUT) {
            const qint64 own = mysql_get_timeout_value_ms(m_mysql);
            if (waitMs < 0 || own < waitMs) {
                waitMs = own;
                libraryTimeout = true;
            }
        }
        pollfd pfd { fd, pollEvents(status), 0 };
        const int ready = ::poll(&pfd, 1, int(std::min<qint64>(waitMs, 60000)));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0)
            return 0; // cannot wait on this socket: as good as out of time
        if (ready > 0) {
            int events = 0;
            if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
                events |= MYSQL_WAIT_READ;
            if (pfd.revents & POLLOUT)
                events |= MYSQL_WAIT_WRITE;
            if (pfd.revents & POLLPRI)
                events |= MYSQL_WAIT_EXCEPT;
            return events ? events : MYSQL_WAIT_READ;
        }
        if (libraryTimeout)
            return MYSQL_WAIT_TIMEOUT;
        if (deadline.hasExpired() || waitMs == 0)
            return 0;
    }
}

bool MariadbConnection::ensureConnected(const QDeadlineTimer &deadline, QString *error)
{
    if (m_mysql)
        return true;
    if (m_backingOff && !m_retryAt.hasExpired()) {
        *error = u"reconnecting in %1 s: %2"_s.arg((m_retryAt.remainingTime() + 999) / 1000)
                     .arg(m_lastError);
        return false;
    }
    if (!connectNow(deadline, error)) {
        scheduleRetry(*error);
        return false;
    }
    m_backingOff = false;
    m_backoffMs = InitialBackoffMs;
    ++m_generation;
    return true;
}

QString MariadbConnection::lastError() const
{
    return m_mysql ? QString::fromUtf8(mysql_error(m_mysql)) : QString();
}

bool MariadbConnection::openSession(const QDeadlineTimer &deadline, bool withPassword,
                                    QString *error, unsigned *errorNumber)
{
    const MariadbTarget &t = m_settings.target;
    *errorNumber = 0;
    m_mysql = mysql_init(nullptr);
    if (!m_mysql) {
        *error = u"out of memory"_s;
        return false;
    }
    mysql_options(m_mysql, MYSQL_OPT_NONBLOCK, nullptr);
    // A server may ask the client for any local file (LOAD DATA LOCAL INFILE): never.
    const unsigned int noLocalFiles = 0;
    mysql_options(m_mysql, MYSQL_OPT_LOCAL_INFILE, &noLocalFiles);
    const unsigned int timeoutS = unsigned(std::max(1, (m_settings.connectTimeoutMs + 999) / 1000));
    mysql_options(m_mysql, MYSQL_OPT_CONNECT_TIMEOUT, &timeoutS);
    mysql_options(m_mysql, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (m_settings.fromDashboard && withPassword) {
        // ~/.my.cnf's password, to a server a file names: only plugins whose exchange
        // gives the server neither the password nor a hash it could log in with
        // (mysql_native_password answers SHA1 of it mixed with the server's scramble,
        // caching_sha2_password's full path sends the password itself). The first answer
        // names client_ed25519 and carries no data, so a server that greets with another
        // plugin has to ask for it by name, and is refused before anything is sent.
        mysql_options(m_mysql, MYSQL_DEFAULT_AUTH, "client_ed25519");
        mysql_options(m_mysql, MARIADB_OPT_RESTRICTED_AUTH, MariadbPasswordPlugins);
    } else if (m_settings.fromDashboard) {
        // No password to send: these answer with nothing to learn from; the plugins that
        // would prompt for a password in clear text (mysql_clear_password, dialog) stay out.
        mysql_options(m_mysql, MARIADB_OPT_RESTRICTED_AUTH,
                      "mysql_native_password,caching_sha2_password,client_ed25519,parsec");
    }

    // A name is resolved here within the deadline (Connector/C would wait in
    // getaddrinfo as long as the resolver likes); the server sees the same address.
    QByteArray host = "localhost";
    if (t.socket.isEmpty()) {
        const auto addresses = resolveHost(t.host, deadline, error);
        if (!addresses) {
            *error = t.display() + u": "_s + *error;
            close();
            return false;
        }
        host = addresses->constFirst().toString().toUtf8();
    }
    const QByteArray user = t.user.toUtf8();
    // Never null: Connector/C would take MYSQL_PWD from the environment instead.
    const QByteArray password = withPassword ? m_settings.password.toUtf8() : QByteArray("");
    const QByteArray database = t.database.toUtf8();
    const QByteArray socket = t.socket.toUtf8();

    MYSQL *ret = nullptr;
    int status = mysql_real_connect_start(
        &ret, m_mysql, host.constData(), user.isEmpty() ? nullptr : user.constData(),
        password.constData(), database.isEmpty() ? nullptr : database.constData(),
        t.socket.isEmpty() ? unsigned(t.port) : 0, socket.isEmpty() ? nullptr : socket.constData(),
        0);
    while (status) {
        const int events = waitFor(status, deadline);
        if (events == 0) {
            *error
                = u"%1: no answer within %2 ms"_s.arg(t.display()).arg(m_settings.connectTimeoutMs);
            close();
            return false;
        }
        status = mysql_real_connect_cont(&ret, m_mysql, events);
    }
    if (!ret) {
        *errorNumber = mysql_errno(m_mysql);
        *error = u"%1: %2"_s.arg(t.display(), lastError());
        if (*errorNumber == CR_PLUGIN_NOT_ALLOWED && withPassword)
            *error += u" (~/.my.cnf's password goes to a server named by a dashboard file only "
                      "through client_ed25519 or parsec, which do not reveal it: give the URL "
                      "yourself with --var, or make the account IDENTIFIED VIA ed25519 or "
                      "parsec)"_s;
        else if (*errorNumber == CR_PLUGIN_NOT_ALLOWED)
            *error += u" (a server named by a dashboard file may not ask for a password in "
                      "clear text: give the URL yourself with --var)"_s;
        if (*errorNumber == 1045 && !m_settings.sendPassword)
            *error += u" (no password was sent: ~/.my.cnf's goes only to a server on a Unix "
                      u"socket, to the "
                      "host its [client] section names, or to a URL you type with --var)"_s;
        close();
        return false;
    }
    return true;
}

bool MariadbConnection::connectNow(const QDeadlineTimer &deadline, QString *error)
{
    const MariadbTarget &t = m_settings.target;
    const QDeadlineTimer connectBy
        = std::min(deadline, QDeadlineTimer(m_settings.connectTimeoutMs));
    unsigned errorNumber = 0;
    if (!openSession(connectBy, m_settings.sendPassword, error, &errorNumber)) {
        // Refused a plugin that would have revealed the password: an account that needs
        // none (unix_socket, also behind mysql_native_password in a chain such as
        // mariadb-install-db's root) still gets in with nothing to learn from. Otherwise
        // the first refusal is the one to report.
        if (!(m_settings.fromDashboard && m_settings.sendPassword
              && errorNumber == CR_PLUGIN_NOT_ALLOWED))
            return false;
        QString withoutPassword;
        if (!openSession(connectBy, false, &withoutPassword, &errorNumber))
            return false;
    }
    const QString info = QString::fromUtf8(mysql_get_server_info(m_mysql));
    m_isMariadb = info.contains(u"MariaDB"_s, Qt::CaseInsensitive);
    m_serverVersion = mysql_get_server_version(m_mysql);
    m_connectionId = mysql_thread_id(m_mysql);

    // Read-only, and never waiting long for a lock or a slow statement: watching must
    // not become part of the incident.
    const int statementMs = m_settings.statementTimeoutMs;
    QList<QByteArray> setup { "SET SESSION TRANSACTION READ ONLY",
                              "SET SESSION lock_wait_timeout = 1",
                              "SET SESSION innodb_lock_wait_timeout = 1" };
    if (m_isMariadb)
        setup.append("SET SESSION max_statement_time = "
                     + QByteArray::number(statementMs / 1000.0));
    else
        setup.append("SET SESSION max_execution_time = " + QByteArray::number(statementMs));
    m_connecting = true;
    for (const QByteArray &sql : std::as_const(setup)) {
        const MariadbResult result = exec(sql, connectBy);
        if (!result.ok()) {
            m_connecting = false;
            *error = u"%1: setting up the session (%2): %3"_s.arg(
                t.display(), QString::fromLatin1(sql), result.error());
            close();
            return false;
        }
    }
    m_connecting = false;
    qCDebug(lcMariadb).noquote() << "connected to" << t.display() << info << "as connection"
                                 << m_connectionId;
    return true;
}

MariadbResult MariadbConnection::exec(const QByteArray &sql, const QDeadlineTimer &deadline)
{
    MariadbResult result;
    if (!m_mysql) {
        result.m_error = u"not connected"_s;
        return result;
    }
    const auto fail = [&](bool timedOut) {
        result.m_timedOut = timedOut;
        result.m_errno = timedOut ? 0 : mysql_errno(m_mysql);
        result.m_error = timedOut ? u"no answer by the poll's deadline"_s : lastError();
        // Lost or out of step: a fresh session is the only safe state.
        const unsigned e = result.m_errno;
        if (timedOut || e == 2006 || e == 2013 || e == 2014 || e == 2055 || e == 1927) {
            if (m_connecting)
                close(); // connectNow reports it, and ensureConnected backs off once
            else
                markBroken(result.m_error);
        }
        return result;
    };
    int err = 0;
    int status = mysql_real_query_start(&err, m_mysql, sql.constData(), sql.size());
    while (status) {
        const int events = waitFor(status, deadline);
        if (events == 0)
            return fail(true);
        status = mysql_real_query_cont(&err, m_mysql, events);
    }
    if (err)
        return fail(false);
    MYSQL_RES *res = nullptr;
    status = mysql_store_result_start(&res, m_mysql);
    while (status) {
        const int events = waitFor(status, deadline);
        if (events == 0)
            return fail(true);
        status = mysql_store_result_cont(&res, m_mysql, events);
    }
    if (!res) {
        if (mysql_field_count(m_mysql) != 0)
            return fail(false);
        result.m_ok = true; // a statement without rows (SET)
        return result;
    }
    const unsigned fields = mysql_num_fields(res);
    const MYSQL_FIELD *info = mysql_fetch_fields(res);
    for (unsigned i = 0; i < fields; ++i)
        result.m_columns.append(QString::fromUtf8(info[i].name, qsizetype(info[i].name_length)));
    result.m_rows.reserve(qsizetype(mysql_num_rows(res)));
    // The rows are in memory after mysql_store_result: fetching does not block.
    while (MYSQL_ROW row = mysql_fetch_row(res)) {
        const unsigned long *lengths = mysql_fetch_lengths(res);
        QList<QByteArray> values;
        values.reserve(fields);
        for (unsigned i = 0; i < fields; ++i)
            values.append(row[i] ? QByteArray(row[i], qsizetype(lengths[i])) : QByteArray());
        result.m_rows.append(std::move(values));
    }
    mysql_free_result(res);
    result.m_ok = true;
    return result;
}

void MariadbConnection::markBroken(const QString &reason)
{
    close();
    scheduleRetry(reason);
}

void MariadbConnection::close()
{
    if (!m_mysql)
        return;
    // A session that failed, timed out or is being given up: mysql_close says goodbye
    // to the server, which would block on a session that is stuck or gone, so the
    // socket is shut first.
    const int fd = mysql_get_socket(m_mysql);
    if (fd >= 0)
        ::shutdown(fd, SHUT_RDWR);
    mysql_close(m_mysql);
    m_mysql = nullptr;
}

void MariadbConnection::scheduleRetry(const QString &reason)
{
    m_lastError = reason;
    if (m_backingOff)
        m_backoffMs = std::min(m_backoffMs * 2, MaxBackoffMs);
    m_backingOff = true;
    m_retryAt = QDeadlineTimer(m_backoffMs);
    qCDebug(lcMariadb).noquote() << "retry in" << m_backoffMs << "ms:" << reason;
}

} // namespace Headroom
