// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "remotetestutil.h"

#include "collectortestutil.h"
#include "hostcollector.h"
#include "niccollector.h"

#include <QDir>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <csignal>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace Headroom::Test {

using namespace Qt::StringLiterals;

namespace {

bool writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(content) == content.size();
}

bool waitForPort(int port, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        QTcpSocket socket;
        socket.connectToHost(u"127.0.0.1"_s, quint16(port));
        if (socket.waitForConnected(200))
            return true;
        QThread::msleep(50);
    }
    return false;
}

// A server started by a test goes when the test does, even when it crashes before
// cleaning up: no sshd or exporter is left running after a run.
void dieWithTest(QProcess *process)
{
    process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
}

// pid and every process below it, from /proc/*/stat (field 4 is the parent).
QList<qint64> processTree(qint64 root)
{
    QHash<qint64, QList<qint64>> children;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(u"/proc/"_s + entry + u"/stat"_s);
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // "pid (comm) state ppid ...": comm may hold spaces, so split after its ')'.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1)
            children[fields.at(1).toLongLong()].append(pid);
    }
    QList<qint64> tree { root };
    for (qsizetype i = 0; i < tree.size(); ++i)
        tree += children.value(tree.at(i));
    return tree;
}

} // namespace

std::unique_ptr<Collector> createCollector(const QString &plugin, const QJsonObject &options)
{
    CollectorConfig config;
    config.sourceId = plugin;
    config.options = options;
    QString error;
    std::unique_ptr<Collector> collector;
    if (plugin == "host"_L1)
        collector = HostCollector::create(config, &error);
    else
        collector = NicCollector::create(config, &error);
    if (!collector)
        qFatal("%s", qPrintable(error));
    return collector;
}

SideBySide pollSideBySide(Collector &remote, Collector &local, int polls)
{
    SideBySide pair;
    for (int i = 0; i < polls; ++i) {
        if (i > 0)
            QThread::msleep(1000);
        pair.remote = remote.poll(QDeadlineTimer(5000));
        pair.local = local.poll(QDeadlineTimer(5000));
    }
    return pair;
}

QSet<QString> seriesKeys(const PollResult &result, const QString &prefix)
{
    QSet<QString> keys;
    for (const SeriesValue &value : result.batch.values) {
        if (value.info.key.metric.startsWith(prefix))
            keys.insert(value.info.key.metric + labelsToString(value.info.key.labels));
    }
    return keys;
}

QSet<QString> remotelyReadableKeys(const PollResult &local)
{
    QSet<QString> keys = seriesKeys(local);
    const QSet<QString> localOnly = seriesKeys(local, u"nic.qdisc."_s);
    keys.subtract(localOnly);
    return keys;
}

double seriesValue(const PollResult &result, const QString &metric, const Labels &labels)
{
    return valueOf(result.batch, metric, labels).value_or(qQNaN());
}

QString sortedText(const QSet<QString> &keys)
{
    QStringList list(keys.cbegin(), keys.cend());
    list.sort();
    return list.join(u' ');
}

int freeLoopbackPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        qFatal("no free loopback port");
    return server.serverPort();
}

QByteArray runTool(const QString &program, const QStringList &arguments,
                   const QProcessEnvironment &environment)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program, arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit
        || process.exitCode() != 0) {
        qFatal("%s %s failed: %s", qPrintable(program), qPrintable(arguments.join(u' ')),
               process.readAllStandardError().constData());
    }
    return process.readAllStandardOutput();
}

QString currentUserName()
{
    const passwd *entry = getpwuid(getuid());
    return entry ? QString::fromLocal8Bit(entry->pw_name) : QString();
}

HomeDirectory::HomeDirectory(const QString &home)
    : m_saved(qgetenv("HOME"))
{
    qputenv("HOME", QFile::encodeName(home));
}

HomeDirectory::~HomeDirectory()
{
    qputenv("HOME", m_saved);
}

SshServer::SshServer()
    : m_port(freeLoopbackPort())
{
    const auto keygen = [](const QString &file) {
        runTool(u"ssh-keygen"_s,
                { u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-C"_s, u"headroom-test"_s,
                  u"-f"_s, file });
    };
    keygen(path(u"host_key"_s));
    keygen(path(u"client_key"_s));
    QDir().mkpath(home() + u"/.ssh"_s);
    QFile::copy(path(u"client_key"_s), home() + u"/.ssh/id_ed25519"_s);
    QFile::setPermissions(home() + u"/.ssh/id_ed25519"_s, QFile::ReadOwner | QFile::WriteOwner);
    QFile::copy(path(u"client_key.pub"_s), path(u"authorized_keys"_s));
    writeFile(home() + u"/.ssh/known_hosts"_s, knownHostsLine().toUtf8() + '\n');
    const QString config = u"Port %1\n"
                           "ListenAddress 127.0.0.1\n"
                           "HostKey %2\n"
                           "AuthorizedKeysFile %3\n"
                           "PasswordAuthentication no\n"
                           "KbdInteractiveAuthentication no\n"
                           "UsePAM no\n"
                           "StrictModes no\n"
                           "PermitRootLogin prohibit-password\n"
                           // Refused test connections must not get loopback penalised.
                           "PerSourcePenalties no\n"
                           "PidFile none\n"_s.arg(m_port)
                               .arg(path(u"host_key"_s), path(u"authorized_keys"_s));
    writeFile(path(u"sshd_config"_s), config.toUtf8());
}

SshServer::~SshServer()
{
    kill();
}

bool SshServer::start(QString *error)
{
    // Privilege separation wants this directory; a fresh root may not have it yet.
    QDir().mkpath(u"/run/sshd"_s);
    m_process.setStandardOutputFile(path(u"sshd.log"_s), QIODevice::Append);
    m_process.setStandardErrorFile(path(u"sshd.log"_s), QIODevice::Append);
    dieWithTest(&m_process);
    m_process.start(u"/usr/sbin/sshd"_s, { u"-D"_s, u"-e"_s, u"-f"_s, path(u"sshd_config"_s) });
    if (!m_process.waitForStarted(5000) || !waitForPort(m_port, 10000)) {
        *error = u"sshd did not start (package openssh-server): "_s + QString::fromUtf8(log());
        return false;
    }
    return true;
}

void SshServer::signalAll(int signal)
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    for (const auto allPids = processTree(m_process.processId()); qint64 pid : allPids)
        ::kill(pid_t(pid), signal);
}

int SshServer::signalCommand(const QByteArrayList &argv, int signal)
{
    if (m_process.state() == QProcess::NotRunning)
        return 0;
    int matched = 0;
    for (const auto pids = processTree(m_process.processId()); qint64 pid : pids) {
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid));
        if (!cmdline.open(QIODevice::ReadOnly))
            continue;
        QByteArray text = cmdline.readAll();
        text.chop(1); // the last argument's NUL
        if (text.split('\0') == argv) {
            ::kill(pid_t(pid), signal);
            ++matched;
        }
    }
    return matched;
}

void SshServer::kill()
{
    signalAll(SIGKILL);
    m_process.waitForFinished(5000);
}

QString SshServer::url() const
{
    return u"ssh://%1@127.0.0.1:%2"_s.arg(currentUserName()).arg(m_port);
}

QString SshServer::knownHostsLine() const
{
    QFile key(path(u"host_key.pub"_s));
    if (!key.open(QIODevice::ReadOnly))
        qFatal("no host key");
    const QList<QByteArray> fields = key.readAll().trimmed().split(' ');
    return u"[127.0.0.1]:%1 %2 %3"_s.arg(m_port).arg(QString::fromLatin1(fields.at(0)),
                                                     QString::fromLatin1(fields.at(1)));
}

QString SshServer::hostKeyFingerprint() const
{
    const QByteArray line = runTool(
        u"ssh-keygen"_s, { u"-l"_s, u"-E"_s, u"sha256"_s, u"-f"_s, path(u"host_key.pub"_s) });
    return QString::fromLatin1(line.split(' ').value(1));
}

QByteArray SshServer::log() const
{
    QFile file(path(u"sshd.log"_s));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

NodeExporter::NodeExporter()
    : m_port(freeLoopbackPort())
{
}

NodeExporter::~NodeExporter()
{
    kill();
}

void NodeExporter::signal(int signal)
{
    if (m_process.state() != QProcess::NotRunning)
        ::kill(pid_t(m_process.processId()), signal);
}

void NodeExporter::kill()
{
    m_process.kill();
    m_process.waitForFinished(5000);
}

bool NodeExporter::start(QString *error)
{
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    dieWithTest(&m_process);
    m_process.start(u"/usr/bin/prometheus-node-exporter"_s,
                    { u"--web.listen-address=127.0.0.1:%1"_s.arg(m_port) });
    if (!m_process.waitForStarted(5000) || !waitForPort(m_port, 10000)) {
        *error = u"prometheus-node-exporter did not start: "_s
            + QString::fromUtf8(m_process.readAll());
        return false;
    }
    return true;
}

QString NodeExporter::url() const
{
    return u"http://127.0.0.1:%1/metrics"_s.arg(m_port);
}

} // namespace Headroom::Test
