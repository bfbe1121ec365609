// One persistent libssh session to one server, shared by every collector that reads
// it (host and nic): SshConnection::shared() hands out the same object for the same
// ssh:// target while anyone holds it. run() executes one command, with the given
// standard input, and returns its output; callers on different worker threads take turns, each
// within its deadline.
//
// Connecting checks the server's key against known_hosts (~/.ssh/known_hosts, and the
// system's) and refuses an unknown or changed key with a message saying what to do;
// Headroom never adds or accepts a key itself. Authentication is by ssh-agent or key
// files only (a key needing a passphrase must be in the agent); nothing is ever asked
// for or stored. A failed attempt waits before the next one (1 s, doubling, at most
// 10 s), so a dead host costs a poll nothing until then; every blocking step is bounded
// by the caller's deadline.
#pragma once

#include "sshtarget.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QString>
#include <memory>
#include <mutex>

namespace Headroom {

class SshConnection
{
public:
    struct Output
    {
        QByteArray standardOutput;
        QByteArray standardError;
        QString error; // empty when the command ran to the end
    };

    struct Stats
    {
        int connects = 0; // sessions established
        int commands = 0; // commands that ran to the end
        int failures = 0; // failed connection attempts and commands
    };

    static std::shared_ptr<SshConnection> shared(const SshTarget &target);

    explicit SshConnection(SshTarget target);
    ~SshConnection();
    SshConnection(const SshConnection &) = delete;
    SshConnection &operator=(const SshConnection &) = delete;

    const SshTarget &target() const { return m_target; }
    // Runs command on the server with input on its standard input (one channel, read to
    // its end), connecting first if needed. Output beyond maxBytes is an error. With no
    // deadline (forever), 30 s.
    Output run(const QByteArray &command, const QByteArray &input, QDeadlineTimer deadline,
               qint64 maxBytes);
    Stats stats() const;

private:
    struct Session;

    bool connectSession(const QDeadlineTimer &deadline, QString *error);
    bool execute(const QByteArray &command, const QByteArray &input, const QDeadlineTimer &deadline,
                 qint64 maxBytes, Output *output);
    void dropSession();
    void noteFailure(const QString &error);

    const SshTarget m_target;
    std::timed_mutex m_turn; // one command at a time on the session
    std::unique_ptr<Session> m_session;
    // Backoff after failures: no new attempt before m_retryAt.
    int m_failuresInRow = 0;
    QDeadlineTimer m_retryAt;
    QString m_lastError;
    mutable std::mutex m_statsLock;
    Stats m_stats;
};

} // namespace Headroom
