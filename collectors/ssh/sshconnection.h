// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One persistent libssh session to one server, shared by every collector that reads
// it (host and nic): SshConnection::shared() hands out the same object for the same
// ssh:// target while anyone holds it. On it runs one long-lived shell (one channel):
// converse() writes a script to the shell's standard input and reads its output up to
// an end marker, so a poll starts no process on the server but its readers. Callers
// on different worker threads take turns, each within its deadline.
//
// Connecting checks the server's key against known_hosts (~/.ssh/known_hosts, and the
// system's) and refuses an unknown or changed key with a message saying what to do;
// Headroom never adds or accepts a key itself. Authentication is by ssh-agent or key
// files only (a key needing a passphrase must be in the agent); nothing is ever asked
// for or stored. A failed attempt waits before the next one (1 s, doubling, at most
// 10 s), so a dead host costs a poll nothing until then; every blocking step is bounded
// by the caller's deadline, the name lookup and TCP connect included (Headroom makes the
// socket itself and hands it to libssh). A value libssh refuses (ssh_options_set) fails
// the connection with the option and libssh's reason.
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
        QByteArray standardOutput; // up to and with the end marker
        QString error; // empty when the end marker arrived
    };

    struct Stats
    {
        int connects = 0; // sessions established
        int shells = 0; // shell channels started
        int exchanges = 0; // scripts answered to their end marker
        int failures = 0; // failed connection attempts and exchanges
    };

    static std::shared_ptr<SshConnection> shared(const SshTarget &target);

    explicit SshConnection(SshTarget target);
    ~SshConnection();
    SshConnection(const SshConnection &) = delete;
    SshConnection &operator=(const SshConnection &) = delete;

    const SshTarget &target() const { return m_target; }
    // Sends script to the shell started with shellCommand (connecting and starting it
    // first if needed; another command replaces the shell) and reads its standard output
    // until it ends with endMarker. Output beyond maxBytes is an error; the shell's
    // standard error is dropped (scripts send theirs to standard output). With no
    // deadline (forever), 30 s.
    Output converse(const QByteArray &shellCommand, const QByteArray &script,
                    const QByteArray &endMarker, QDeadlineTimer deadline, qint64 maxBytes);
    Stats stats() const;

private:
    struct Session;

    bool connectSession(const QDeadlineTimer &deadline, QString *error);
    bool startShell(const QByteArray &shellCommand, const QDeadlineTimer &deadline, QString *error);
    bool exchange(const QByteArray &script, const QByteArray &endMarker,
                  const QDeadlineTimer &deadline, qint64 maxBytes, Output *output);
    void dropSession();
    void noteFailure(const QString &error);

    const SshTarget m_target;
    std::timed_mutex m_turn; // one script at a time on the shell
    std::unique_ptr<Session> m_session;
    // Backoff after failures: no new attempt before m_retryAt.
    int m_failuresInRow = 0;
    QDeadlineTimer m_retryAt;
    QString m_lastError;
    mutable std::mutex m_statsLock;
    Stats m_stats;
};

} // namespace Headroom
