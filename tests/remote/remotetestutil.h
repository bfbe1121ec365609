// Real servers for the remote-host tests, on loopback: an OpenSSH sshd with its own host
// key that accepts one client key, and prometheus-node-exporter. Both run from Debian's
// packages (openssh-server, prometheus-node-exporter); a test fails, not skips, when
// they cannot start, so a missing install step shows.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace Headroom::Test {

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
