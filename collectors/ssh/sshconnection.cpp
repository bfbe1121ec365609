// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sshconnection.h"

#include "collector/hostresolver.h"
#include "sshconfigjump.h"
#include "sshlogging.h"
#include "tcpconnect.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <algorithm>
#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 FirstRetryMs = 1000;
constexpr qint64 LongestRetryMs = 10000;
// A poll with no deadline of its own still must not wait forever on a silent server.
constexpr qint64 DefaultTimeoutMs = 30000;
// Saying goodbye (closing a channel, disconnecting) never waits longer than this.
constexpr long GoodbyeTimeoutMicros = 100 * 1000;
constexpr int ReadChunk = 64 * 1024;

qint64 remainingMs(const QDeadlineTimer &deadline)
{
    return deadline.isForever() ? DefaultTimeoutMs : std::max<qint64>(deadline.remainingTime(), 0);
}

QString libsshError(ssh_session session)
{
    return QString::fromUtf8(ssh_get_error(session));
}

// ssh_options_set, checked. A value libssh refuses must not be dropped silently: a user
// name it rejects (shell metacharacters) would sign in as the local user, a host name it
// rejects would leave the session without one. `what` names the value for the status.
bool setOption(ssh_session session, ssh_options_e option, const char *optionName, const void *value,
               const QString &what, QString *error)
{
    if (ssh_options_set(session, option, value) == SSH_OK)
        return true;
    *error = u"libssh refuses %1 (%2): %3"_s.arg(what, QString::fromLatin1(optionName),
                                                 libsshError(session));
    return false;
}

#define HEADROOM_SSH_OPTION(session, option, value, what, error)                                   \
    setOption(session, option, #option, value, what, error)

bool setTimeoutMs(ssh_session session, qint64 ms, QString *error)
{
    long seconds = long(ms / 1000);
    long micros = long(ms % 1000) * 1000;
    return HEADROOM_SSH_OPTION(session, SSH_OPTIONS_TIMEOUT, &seconds, u"the timeout"_s, error)
        && HEADROOM_SSH_OPTION(session, SSH_OPTIONS_TIMEOUT_USEC, &micros, u"the timeout"_s, error);
}

// libssh bounds each blocking step (connect, key exchange, auth, channel requests) by the
// session timeout; it is set to what is left of the deadline before each step.
bool setTimeout(ssh_session session, const QDeadlineTimer &deadline, QString *error)
{
    return setTimeoutMs(session, std::max<qint64>(remainingMs(deadline), 1), error);
}

// Before a goodbye, which nobody waits for: a refusal is only logged, and the previous
// timeout (a poll's deadline at most) still bounds it.
void setGoodbyeTimeout(ssh_session session)
{
    QString error;
    if (!setTimeoutMs(session, GoodbyeTimeoutMicros / 1000, &error))
        qCDebug(lcSsh, "%s", qPrintable(error));
}

// Connects the session's socket ourselves, so that resolving the name and connecting
// end at the deadline (libssh's own connect resolves with a blocking getaddrinfo). The
// session keeps the host name, which known_hosts is checked against. *fd is the socket
// handed to libssh, or -1 when a ProxyCommand or ProxyJump makes the connection. False
// with *error.
bool connectSocket(ssh_session handle, const QString &config, const QDeadlineTimer &deadline,
                   int *fd, QString *error)
{
    *fd = -1;
    char *proxyCommand = nullptr;
    if (ssh_options_get(handle, SSH_OPTIONS_PROXYCOMMAND, &proxyCommand) == SSH_OK
        && proxyCommand) {
        ssh_string_free_char(proxyCommand);
        return true; // the command resolves and connects, in its own process
    }
    if (sshConfigMayJump(config))
        return true; // libssh makes the jump (and its lookups are not bounded then)
    char *configured = nullptr;
    if (ssh_options_get(handle, SSH_OPTIONS_HOST, &configured) != SSH_OK || !configured) {
        *error = u"no host name"_s;
        return false;
    }
    const QString host = QString::fromUtf8(configured); // HostName of ~/.ssh/config, if any
    ssh_string_free_char(configured);
    unsigned int port = 22;
    ssh_options_get_port(handle, &port);
    const auto addresses = resolveHost(host, deadline, error);
    if (!addresses)
        return false;
    const int connected = connectTcp(*addresses, quint16(port), deadline, error);
    if (connected < 0)
        return false;
    socket_t option = connected;
    if (!HEADROOM_SSH_OPTION(handle, SSH_OPTIONS_FD, &option, u"the connected socket"_s, error)) {
        close(connected);
        return false;
    }
    *fd = connected;
    return true;
}

// Whether descriptor fd still is the socket whose fstat was `ours`: libssh takes the
// socket over in ssh_connect (and closes it with the session), unless ssh_connect
// failed before it got that far.
bool stillOurs(int fd, const struct stat &ours)
{
    struct stat now {};
    return fstat(fd, &now) == 0 && now.st_dev == ours.st_dev && now.st_ino == ours.st_ino;
}

// A key with a passphrase is never prompted for: it must be loaded into ssh-agent.
int refusePassphrase(const char *, char *, size_t, int, int, void *)
{
    return -1;
}

QString serverKeyText(ssh_session session)
{
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(session, &key) != SSH_OK)
        return u"key unknown"_s;
    QString text = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
    unsigned char *hash = nullptr;
    size_t length = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) == 0) {
        char *fingerprint = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
        text += u' ' + QString::fromLatin1(fingerprint);
        ssh_string_free_char(fingerprint);
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(key);
    return text;
}

QString knownHostsFile(ssh_session session)
{
    char *path = nullptr;
    if (ssh_options_get(session, SSH_OPTIONS_KNOWNHOSTS, &path) != SSH_OK || !path)
        return u"known_hosts"_s;
    const QString text = QString::fromUtf8(path);
    ssh_string_free_char(path);
    return text;
}

// The name known_hosts files use: "host", or "[host]:port" off port 22, after
// ~/.ssh/config (a Host alias's HostName and Port).
QString knownHostsName(const SshTarget &target, ssh_session session)
{
    QString host = target.host;
    char *configured = nullptr;
    if (ssh_options_get(session, SSH_OPTIONS_HOST, &configured) == SSH_OK && configured) {
        host = QString::fromUtf8(configured);
        ssh_string_free_char(configured);
    }
    unsigned int port = 22;
    ssh_options_get_port(session, &port);
    return port == 22 ? host : u"[%1]:%2"_s.arg(host).arg(port);
}

} // namespace

struct SshConnection::Session
{
    ssh_session handle = nullptr;
    ssh_callbacks_struct callbacks {};
    ssh_channel shell = nullptr;
    QByteArray shellCommand;

    void closeShell()
    {
        if (shell) {
            setGoodbyeTimeout(handle);
            ssh_channel_close(shell);
            ssh_channel_free(shell);
            shell = nullptr;
        }
    }

    ~Session()
    {
        if (handle) {
            // The goodbye must not wait on a server that stopped answering.
            closeShell();
            setGoodbyeTimeout(handle);
            ssh_disconnect(handle);
            ssh_free(handle);
        }
    }
};

std::shared_ptr<SshConnection> SshConnection::shared(const SshTarget &target)
{
    static QMutex lock;
    static QHash<QString, std::weak_ptr<SshConnection>> connections;
    const QMutexLocker locker(&lock);
    std::weak_ptr<SshConnection> &slot = connections[target.url()];
    auto connection = slot.lock();
    if (!connection) {
        connection = std::make_shared<SshConnection>(target);
        slot = connection;
    }
    return connection;
}

SshConnection::SshConnection(SshTarget target)
    : m_target(std::move(target))
    , m_retryAt(0)
{
}

SshConnection::~SshConnection() = default;

SshConnection::Stats SshConnection::stats() const
{
    const std::lock_guard locker(m_statsLock);
    return m_stats;
}

void SshConnection::noteFailure(const QString &error)
{
    dropSession();
    // After a failed attempt the next one waits 1 s, then 2, 4, 8 and 10 s at most.
    const qint64 wait = std::min(FirstRetryMs << std::min(m_failuresInRow, 4), LongestRetryMs);
    ++m_failuresInRow;
    m_retryAt = QDeadlineTimer(wait);
    m_lastError = error;
    const std::lock_guard locker(m_statsLock);
    ++m_stats.failures;
}

void SshConnection::dropSession()
{
    m_session.reset();
}

SshConnection::Output SshConnection::converse(const QByteArray &shellCommand,
                                              const QByteArray &script, const QByteArray &endMarker,
                                              QDeadlineTimer deadline, qint64 maxBytes)
{
    if (deadline.isForever())
        deadline = QDeadlineTimer(DefaultTimeoutMs);
    Output output;
    std::unique_lock turn(m_turn, std::defer_lock);
    if (!turn.try_lock_for(std::chrono::milliseconds(remainingMs(deadline)))) {
        output.error = u"busy with another collector's read until the poll's deadline"_s;
        return output;
    }

    if (!m_session && !m_retryAt.hasExpired()) {
        output.error = u"%1 (next attempt in %2 s)"_s.arg(m_lastError)
                           .arg((m_retryAt.remainingTime() + 999) / 1000);
        return output;
    }
    // A session that was fine at the last poll may have been closed since (server
    // restart, idle NAT): one fresh connection is tried at once before giving up.
    const bool hadSession = bool(m_session);
    for (int attempt = 0; attempt < 2; ++attempt) {
        QString error;
        if (!m_session && !connectSession(deadline, &error)) {
            noteFailure(error);
            output.error = error;
            return output;
        }
        output = Output();
        if (startShell(shellCommand, deadline, &output.error)
            && exchange(script, endMarker, deadline, maxBytes, &output)) {
            m_failuresInRow = 0;
            const std::lock_guard locker(m_statsLock);
            ++m_stats.exchanges;
            return output;
        }
        qCInfo(lcSsh, "%s: %s", qPrintable(m_target.url()), qPrintable(output.error));
        // Whatever of the answer is still on its way would be taken for the next one's.
        dropSession();
        if (!hadSession || deadline.hasExpired())
            break;
    }
    noteFailure(output.error);
    return output;
}

bool SshConnection::connectSession(const QDeadlineTimer &deadline, QString *error)
{
    const QString url = m_target.url();
    auto session = std::make_unique<Session>();
    session->handle = ssh_new();
    if (!session->handle) {
        *error = u"cannot create an SSH session"_s;
        return false;
    }
    ssh_session handle = session->handle;
    // The user's own ~/.ssh/config is read (Host aliases, User, Port, IdentityFile); the
    // system-wide one is not, and whatever the config says, unknown host keys are refused.
    bool processConfig = false;
    if (!HEADROOM_SSH_OPTION(handle, SSH_OPTIONS_PROCESS_CONFIG, &processConfig,
                             u"not reading the system's ssh_config"_s, error))
        return false;
    const QByteArray host = m_target.host.toUtf8();
    if (!HEADROOM_SSH_OPTION(handle, SSH_OPTIONS_HOST, host.constData(),
                             u"the host name \"%1\""_s.arg(m_target.host), error))
        return false;
    // $HOME, not the password database's home: what the user's shell and ssh use.
    const QString sshDir = QDir::homePath() + u"/.ssh"_s;
    if (!HEADROOM_SSH_OPTION(handle, SSH_OPTIONS_SSH_DIR, QFile::encodeName(sshDir).constData(),
                             u"the folder %1"_s.arg(sshDir), error))
        return false;
    const QString config = sshDir + u"/config"_s;
    if (QFileInfo::exists(config)
        && ssh_options_parse_config(handle, QFile::encodeName(config).constData()) != SSH_OK) {
        *error = u"cannot use %1: %2"_s.arg(config, libsshError(handle));
        return false;
    }
    if (!m_target.user.isEmpty()) {
        const QByteArray user = m_target.user.toUtf8();
        if (!HEADROOM_SSH_OPTION(handle, SSH_OPTIONS_USER, user.constData(),
                                 u"the user name \"%1\""_s.arg(m_target.user), error))
            return false;
    }
    if (m_target.port != 0) {
        int port = m_target.port;
        if (!HEADROOM_SSH_OPTION(handle, SSH_OPTIONS_PORT, &port,
                                 u"the port %1"_s.arg(m_target.port), error))
            return false;
    }
    int strict = 1;
    if (!HEADROOM_SSH_OPTION(handle, SSH_OPTIONS_STRICTHOSTKEYCHECK, &strict,
                             u"strict host key checking"_s, error))
        return false;
    ssh_callbacks_init(&session->callbacks);
    session->callbacks.auth_function = refusePassphrase;
    ssh_set_callbacks(handle, &session->callbacks);

    int fd = -1;
    QString reason;
    if (!connectSocket(handle, config, deadline, &fd, &reason)) {
        *error = u"cannot connect: %1"_s.arg(reason);
        return false;
    }
    struct stat ours {};
    if (fd >= 0 && fstat(fd, &ours) != 0)
        ours = {};
    // Until ssh_connect takes the socket over, it is ours to close (ssh_free does not).
    const auto closeUnlessTaken = [&] {
        if (fd >= 0 && ssh_get_fd(handle) != fd && stillOurs(fd, ours))
            close(fd);
    };
    if (!setTimeout(handle, deadline, error)) {
        closeUnlessTaken();
        return false;
    }
    if (ssh_connect(handle) != SSH_OK) {
        *error = u"cannot connect: %1"_s.arg(libsshError(handle));
        closeUnlessTaken();
        return false;
    }

    const QString name = knownHostsName(m_target, handle);
    switch (ssh_session_is_known_server(handle)) {
    case SSH_KNOWN_HOSTS_OK:
        break;
    case SSH_KNOWN_HOSTS_UNKNOWN:
    case SSH_KNOWN_HOSTS_NOT_FOUND:
        *error = u"refused: the server's host key (%1) is not in %2 for %3. Check the "
                 "fingerprint with the server's administrator and add the key (connect once "
                 "with ssh, or ssh-keyscan); Headroom never accepts a key by itself"_s.arg(
                     serverKeyText(handle), knownHostsFile(handle), name);
        return false;
    case SSH_KNOWN_HOSTS_CHANGED:
        *error = u"refused: THE SERVER'S HOST KEY HAS CHANGED (now %1) since it was "
                 "recorded in %2 for %3. Someone may be intercepting the connection; if the "
                 "server was reinstalled, replace its line (ssh-keygen -R '%3')"_s.arg(
                     serverKeyText(handle), knownHostsFile(handle), name);
        return false;
    case SSH_KNOWN_HOSTS_OTHER:
        *error
            = u"refused: the server offered a %1 key, but %2 records a key of another "
              "type for %3. Someone may be intercepting the connection; check with the "
              "server's administrator"_s.arg(serverKeyText(handle), knownHostsFile(handle), name);
        return false;
    case SSH_KNOWN_HOSTS_ERROR:
    default: // anything but OK refuses
        *error = u"cannot check the host key: %1"_s.arg(libsshError(handle));
        return false;
    }

    if (!setTimeout(handle, deadline, error))
        return false;
    switch (ssh_userauth_publickey_auto(handle, nullptr, nullptr)) {
    case SSH_AUTH_SUCCESS:
        break;
    case SSH_AUTH_PARTIAL:
        *error = u"the server wants more than a key (a second factor); Headroom signs "
                 "in with a key only"_s;
        return false;
    case SSH_AUTH_DENIED:
        *error = u"no key was accepted (tried ssh-agent and the key files in %1). Add "
                 "your key to ssh-agent (ssh-add), or name it with IdentityFile in %2; keys "
                 "with a passphrase must be in the agent"_s.arg(sshDir, config);
        return false;
    default:
        *error = u"authentication failed: %1"_s.arg(libsshError(handle));
        return false;
    }

    qCInfo(lcSsh, "%s: connected", qPrintable(url));
    m_session = std::move(session);
    const std::lock_guard locker(m_statsLock);
    ++m_stats.connects;
    return true;
}

bool SshConnection::startShell(const QByteArray &shellCommand, const QDeadlineTimer &deadline,
                               QString *error)
{
    Session &session = *m_session;
    if (session.shell && session.shellCommand == shellCommand)
        return true;
    session.closeShell();
    ssh_session handle = session.handle;
    ssh_channel channel = ssh_channel_new(handle);
    // Each blocking step may take what is left of the deadline, not more.
    QString optionError;
    const auto step = [&](auto call) {
        return setTimeout(handle, deadline, &optionError) && !deadline.hasExpired()
            && call() == SSH_OK;
    };
    if (!channel || !step([&] { return ssh_channel_open_session(channel); })
        || !step([&] { return ssh_channel_request_exec(channel, shellCommand.constData()); })) {
        const QString reason = !optionError.isEmpty() ? optionError : libsshError(handle);
        *error = u"cannot start a shell: %1"_s.arg(!reason.isEmpty() ? reason
                                                       : deadline.hasExpired()
                                                       ? u"no answer before the poll's deadline"_s
                                                       : u"no answer"_s);
        if (channel) {
            setGoodbyeTimeout(handle);
            ssh_channel_free(channel);
        }
        return false;
    }
    session.shell = channel;
    session.shellCommand = shellCommand;
    const std::lock_guard locker(m_statsLock);
    ++m_stats.shells;
    return true;
}

bool SshConnection::exchange(const QByteArray &script, const QByteArray &endMarker,
                             const QDeadlineTimer &deadline, qint64 maxBytes, Output *output)
{
    ssh_session handle = m_session->handle;
    ssh_channel shell = m_session->shell;
    if (!setTimeout(handle, deadline, &output->error))
        return false;
    if (deadline.hasExpired()
        || ssh_channel_write(shell, script.constData(), uint32_t(script.size()))
            != int(script.size())) {
        output->error = u"cannot send the read script: %1"_s.arg(
            deadline.hasExpired() ? u"no time left before the poll's deadline"_s
                                  : libsshError(handle));
        return false;
    }

    QByteArray buffer(ReadChunk, Qt::Uninitialized);
    QByteArray shellErrors; // kept for the message if the shell ends
    for (;;) {
        if (deadline.hasExpired()) {
            output->error = u"no complete answer before the poll's deadline"_s;
            return false;
        }
        // Short waits, so the shell's stderr is drained while stdout is still coming.
        const int waitMs = int(std::min<qint64>(remainingMs(deadline), 100));
        const int n
            = ssh_channel_read_timeout(shell, buffer.data(), ReadChunk, 0, std::max(waitMs, 1));
        if (n < 0 && n != SSH_AGAIN) { // SSH_AGAIN: nothing within waitMs
            output->error = u"connection lost: %1"_s.arg(libsshError(handle));
            return false;
        }
        if (n > 0) {
            output->standardOutput.append(buffer.constData(), n);
            if (output->standardOutput.size() > maxBytes) {
                output->error = u"the answer exceeds %1 MiB"_s.arg(maxBytes / (1024 * 1024));
                return false;
            }
            if (output->standardOutput.endsWith(endMarker))
                return true;
        }
        while (ssh_channel_poll(shell, 1) > 0) {
            const int e = ssh_channel_read_nonblocking(shell, buffer.data(), ReadChunk, 1);
            if (e <= 0)
                break;
            shellErrors.append(buffer.constData(), e);
            shellErrors = shellErrors.right(4096);
        }
        if (n <= 0 && ssh_channel_is_eof(shell)) {
            const QByteArray said = shellErrors.trimmed();
            output->error = u"the shell on the server ended%1"_s.arg(
                said.isEmpty() ? QString() : u": "_s + QString::fromUtf8(said.right(200)));
            return false;
        }
        if (n <= 0 && !ssh_is_connected(handle)) {
            output->error = u"connection lost"_s;
            return false;
        }
    }
}

} // namespace Headroom
