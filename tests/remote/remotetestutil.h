// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Real servers for the remote-host tests, on loopback: an OpenSSH sshd with its own host
// key that accepts one client key, and prometheus-node-exporter. Both run from Debian's
// packages (openssh-server, prometheus-node-exporter); a test fails, not skips, when
// they cannot start, so a missing install step shows.
#pragma once

#include "collector/collector.h"

#include <QByteArray>
#include <QProcess>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

namespace Headroom::Test {

// A host or nic collector ("plugin") with these options; a fatal test error when the
// options are refused.
std::unique_ptr<Collector> createCollector(const QString &plugin, const QJsonObject &options);

// Polls both `polls` times, 1 s apart, each pair back to back; returns the last pair.
struct SideBySide
{
    PollResult remote;
    PollResult local;
};
SideBySide pollSideBySide(Collector &remote, Collector &local, int polls);

// "metric{labels}" of each value (whose metric starts with prefix), and one's value
// (NaN when absent).
QSet<QString> seriesKeys(const PollResult &result, const QString &prefix = QString());
// seriesKeys of a local NIC poll without the series only this machine has: the qdisc
// statistics come from netlink here, and neither SSH nor node_exporter can read them.
QSet<QString> remotelyReadableKeys(const PollResult &local);
double seriesValue(const PollResult &result, const QString &metric, const Labels &labels = {});
// Sorted and space-separated, for messages and comparisons.
QString sortedText(const QSet<QString> &keys);

int freeLoopbackPort();

// Runs a program to its end (30 s at most); its standard output, or a fatal test error.
QByteArray runTool(const QString &program, const QStringList &arguments,
                   const QProcessEnvironment &environment
                   = QProcessEnvironment::systemEnvironment());

// The local user name, for ssh://user@ URLs.
QString currentUserName();

// Sets HOME (where Headroom's SSH transport finds ~/.ssh) for the scope.
class HomeDirectory
{
public:
    explicit HomeDirectory(const QString &home);
    ~HomeDirectory();

private:
    QByteArray m_saved;
};

class SshServer
{
public:
    SshServer();
    ~SshServer();

    // Starts sshd -D on its port (the same port after a kill). False and the log on failure.
    bool start(QString *error);
    // Sends signal to sshd and every process under it (its per-connection children).
    void signalAll(int signal);
    // Sends signal to the processes under sshd whose command line is exactly argv
    // (e.g. {"/bin/sh", "-s"}); how many there were.
    int signalCommand(const QByteArrayList &argv, int signal);
    void kill(); // SIGKILL to all, and waits

    int port() const { return m_port; }
    QString url() const; // ssh://USER@127.0.0.1:PORT
    // A HOME whose .ssh holds the accepted client key and a known_hosts with this server.
    QString home() const { return m_dir.filePath(QStringLiteral("home")); }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString knownHostsLine() const; // "[127.0.0.1]:PORT ssh-ed25519 AAAA..."
    QString hostKeyFingerprint() const; // "SHA256:..." as ssh-keygen -l prints it
    QByteArray log() const;

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
};

class NodeExporter
{
public:
    NodeExporter();
    ~NodeExporter();
    bool start(QString *error); // on the same port each time
    void kill();
    void signal(int signal);
    QString url() const; // http://127.0.0.1:PORT/metrics

private:
    QProcess m_process;
    int m_port = 0;
};

} // namespace Headroom::Test
