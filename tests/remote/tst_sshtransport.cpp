// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The SSH transport against a real OpenSSH sshd on loopback (its own host key, key
// authentication only): the host and nic collectors over ssh:// give the same series
// as this machine's local collectors, one round trip per poll on one shared session;
// unknown and changed host keys are refused with a clear message; ssh-agent works; a
// frozen or killed server gives errors within the poll's deadline, and the figures
// come back when it does.
#include "hostcollector.h"
#include "niccollector.h"
#include "remotetestutil.h"
#include "sshconnection.h"
#include "sshfilesource.h"
#include "sshtarget.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <csignal>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestSshTransport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void readsWhatLocalReads();
    void listingCapOverSsh();
    void onePollOneRoundTrip();
    void hostFiguresMatchLocal();
    void nicSeriesMatchLocal();
    void unknownHostKeyRefused();
    void hostNameKeptForKnownHosts();
    void changedHostKeyRefused();
    void noAcceptedKey();
    void agentAuthentication();
    void shellKilledIsReplaced();
    void frozenServerNeverHangs();
    void killedServerRecovers();

private:
    std::unique_ptr<SshServer> m_server;
};

namespace {

// A poll expected to succeed gets a source's default timeout (DashboardSource::timeoutMs):
// on a loaded machine (CI runs tests side by side, with the disk busy) a reconnect and
// an exchange together can take more than 1.5 s.
constexpr int PollMs = 5000;
// A poll meant to hit its deadline (a frozen or dead server) gets a short one, so the
// test can check the poll ends on time.
constexpr int DeadlineMs = 1500;

std::unique_ptr<SshFileSource> sourceFor(const QString &url)
{
    QString error;
    const auto target = parseSshTarget(url, &error);
    if (!target)
        qFatal("%s", qPrintable(error));
    return std::make_unique<SshFileSource>(SshConnection::shared(*target));
}

} // namespace

void TestSshTransport::initTestCase()
{
    m_server = std::make_unique<SshServer>();
    QString error;
    QVERIFY2(m_server->start(&error), qPrintable(error));
}

void TestSshTransport::readsWhatLocalReads()
{
    const HomeDirectory home(m_server->home());
    const auto remote = sourceFor(m_server->url());
    LocalFileSource local;
    // Files that do not change between two reads, and one that is not there.
    const QStringList paths { u"/proc/sys/kernel/ostype"_s, u"/proc/sys/kernel/osrelease"_s,
                              u"/sys/class/net/lo/type"_s, u"/proc/cpuinfo"_s,
                              u"/proc/no-such-file"_s };
    const FileReadResult got = remote->readFiles(paths, QDeadlineTimer(PollMs));
    const FileReadResult want = local.readFiles(paths, QDeadlineTimer(PollMs));
    QCOMPARE(got.contents, want.contents);
    QCOMPARE(got.contents.size(), 4);
    QCOMPARE(got.errors.value(u"/proc/no-such-file"_s), u"No such file or directory"_s);
    QCOMPARE(remote->listDirectory(u"/sys/class/net"_s, QDeadlineTimer(PollMs)).entries,
             local.listDirectory(u"/sys/class/net"_s, QDeadlineTimer(PollMs)).entries);
    const DirectoryListing missing
        = remote->listDirectory(u"/sys/no-such-dir"_s, QDeadlineTimer(PollMs));
    QVERIFY(missing.entries.isEmpty());
    QCOMPARE(missing.error, u"No such file or directory"_s);
    QCOMPARE(remote->description(), m_server->url());
}

// A remote directory with more entries than the cap: the listing that arrives whole is
// cut to the same first MaxEntries names as a local one, and knows how many there were.
void TestSshTransport::listingCapOverSsh()
{
    const HomeDirectory home(m_server->home());
    const QFileInfo shm(u"/dev/shm"_s); // thousands of directories: tmpfs when there is one
    QTemporaryDir dir((shm.isDir() && shm.isWritable() ? shm.filePath() : QDir::tempPath())
                      + u"/headroom-ssh-listing-XXXXXX"_s);
    QVERIFY(dir.isValid());
    const int entries = DirectoryListing::MaxEntries + 3;
    QDir parent(dir.path());
    for (int i = entries - 1; i >= 0; --i)
        QVERIFY(parent.mkdir(u"e%1"_s.arg(i, 5, 10, QChar(u'0'))));
    const auto remote = sourceFor(m_server->url());
    const DirectoryListing got = remote->listDirectory(dir.path(), QDeadlineTimer(10'000));
    QVERIFY2(got.error.isEmpty(), qPrintable(got.error));
    QCOMPARE(got.entries.size(), qsizetype(DirectoryListing::MaxEntries));
    QCOMPARE(got.totalEntries, qsizetype(entries));
    QVERIFY(got.capped());
    QCOMPARE(got.entries,
             LocalFileSource().listDirectory(dir.path(), QDeadlineTimer(PollMs)).entries);
    QCOMPARE(got.entries.constLast(),
             u"e%1"_s.arg(DirectoryListing::MaxEntries - 1, 5, 10, QChar(u'0')));
}

void TestSshTransport::onePollOneRoundTrip()
{
    const HomeDirectory home(m_server->home());
    const auto host = createCollector(u"host"_s, { { u"host"_s, m_server->url() } });
    const auto nic = createCollector(u"nic"_s, { { u"host"_s, m_server->url() } });
    // Both collectors hold the same connection.
    QString error;
    const auto connection = SshConnection::shared(*parseSshTarget(m_server->url(), &error));
    const int acceptedBefore = int(m_server->log().count("Accepted publickey"));

    // The first poll of each lists its directories on its own: one more round trip each
    // (the host's /sys/block and /proc, the nic's /sys/class/net).
    QVERIFY(host->poll(QDeadlineTimer(PollMs)).error.isEmpty());
    QVERIFY(nic->poll(QDeadlineTimer(PollMs)).error.isEmpty());
    const SshConnection::Stats first = connection->stats();
    QCOMPARE(first.exchanges, 5);
    // The server is this machine: the last PID handed out (/proc/loadavg) tells how many
    // processes the polls started there, for the record.
    const auto lastPid = [] {
        QFile loadavg(u"/proc/loadavg"_s);
        loadavg.open(QIODevice::ReadOnly);
        return loadavg.readAll().trimmed().split(' ').value(4).toLongLong();
    };
    const qint64 pidBefore = lastPid();
    QList<qint64> hostPollMs;
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer took;
        took.start();
        const PollResult h = host->poll(QDeadlineTimer(PollMs));
        hostPollMs << took.elapsed();
        QVERIFY2(h.error.isEmpty(), qPrintable(h.error));
        const PollResult n = nic->poll(QDeadlineTimer(PollMs));
        QVERIFY2(n.error.isEmpty(), qPrintable(n.error));
    }
    // For the record (not a target): a host poll over ssh on loopback.
    qInfo("host polls over ssh on loopback: %lld, %lld, %lld ms; about %lld new PIDs on the "
          "server per host + nic poll (its cat, ls and stat -f processes)",
          hostPollMs.at(0), hostPollMs.at(1), hostPollMs.at(2), (lastPid() - pidBefore) / 3);
    const SshConnection::Stats after = connection->stats();
    qInfo("6 polls of host and nic: %d exchanges, %d session(s), %d shell(s)",
          after.exchanges - first.exchanges, after.connects, after.shells);
    QCOMPARE(after.exchanges - first.exchanges, 6);
    QCOMPARE(after.connects, 1);
    QCOMPARE(after.shells, 1); // one shell on the server for all of them
    QCOMPARE(after.failures, 0);
    QCOMPARE(int(m_server->log().count("Accepted publickey")) - acceptedBefore, 1);
}

void TestSshTransport::hostFiguresMatchLocal()
{
    const HomeDirectory home(m_server->home());
    const auto remote = createCollector(u"host"_s, { { u"host"_s, m_server->url() } });
    const auto local = createCollector(u"host"_s, {});
    const auto [r, l] = pollSideBySide(*remote, *local, 3);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    // The same series (names and labels: CPUs, disks, PSI kinds, filesystems) but the
    // top processes, which two reads rank apart (the remote shell is one of them) ...
    const auto withoutProcesses = [](QSet<QString> keys) {
        keys.removeIf([](const QString &key) { return key.startsWith("host.process."_L1); });
        return keys;
    };
    QCOMPARE(withoutProcesses(seriesKeys(r)), withoutProcesses(seriesKeys(l)));
    QVERIFY(seriesKeys(r).size() > 20);
    QVERIFY(!seriesKeys(r, u"host.fs.used"_s).isEmpty());
    // ... which the remote /proc gives too, with their pid, command and user.
    const QSet<QString> processes = seriesKeys(r, u"host.process.rss"_s);
    QVERIFY2(!processes.isEmpty(), qPrintable(r.warnings.join(u'\n')));
    for (const QString &key : processes)
        QVERIFY2(key.contains(u"pid="_s) && key.contains(u"comm="_s) && key.contains(u"user="_s),
                 qPrintable(key));
    QCOMPARE(seriesValue(r, u"host.process.count"_s) > 0, true);
    // ... and, read milliseconds apart, the same or nearly the same figures.
    QCOMPARE(seriesValue(r, u"host.cpu.count"_s), seriesValue(l, u"host.cpu.count"_s));
    QCOMPARE(seriesValue(r, u"host.mem.total"_s), seriesValue(l, u"host.mem.total"_s));
    const double memR = seriesValue(r, u"host.mem.utilization"_s);
    const double memL = seriesValue(l, u"host.mem.utilization"_s);
    qInfo("mem utilization: ssh %.2f %%, local %.2f %%; load1: ssh %.2f, local %.2f", memR, memL,
          seriesValue(r, u"host.load.1"_s), seriesValue(l, u"host.load.1"_s));
    QVERIFY2(std::abs(memR - memL) < 2.0, qPrintable(u"%1 vs %2"_s.arg(memR).arg(memL)));
    QVERIFY(std::abs(seriesValue(r, u"host.load.1"_s) - seriesValue(l, u"host.load.1"_s)) < 0.5);
    const double cpuR = seriesValue(r, u"host.cpu.utilization"_s, { { u"cpu"_s, u"all"_s } });
    QVERIFY2(cpuR >= 0 && cpuR <= 100, qPrintable(QString::number(cpuR)));
}

void TestSshTransport::nicSeriesMatchLocal()
{
    const HomeDirectory home(m_server->home());
    const auto remote = createCollector(u"nic"_s, { { u"host"_s, m_server->url() } });
    const auto local = createCollector(u"nic"_s, {});
    const auto [r, l] = pollSideBySide(*remote, *local, 2);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(seriesKeys(r), remotelyReadableKeys(l));
    QVERIFY(seriesKeys(r, u"nic.qdisc."_s).isEmpty());
    QVERIFY(!seriesKeys(r, u"tcp."_s).isEmpty());
    QCOMPARE(r.warnings, l.warnings); // the same "no link speed" notes, if any
}

void TestSshTransport::unknownHostKeyRefused()
{
    const QString knownHosts = m_server->home() + u"/.ssh/known_hosts"_s;
    QFile file(knownHosts);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray saved = file.readAll();
    file.close();
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    // Another server's line: this one is not known.
    file.write("[127.0.0.1]:1 ssh-ed25519 "
               "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n");
    file.close();
    const QByteArray before = [&] {
        QFile f(knownHosts);
        f.open(QIODevice::ReadOnly);
        return f.readAll();
    }();

    const int accepted = int(m_server->log().count("Accepted publickey"));
    {
        const HomeDirectory home(m_server->home());
        const auto host = createCollector(u"host"_s, { { u"host"_s, m_server->url() } });
        const PollResult result = host->poll(QDeadlineTimer(PollMs));
        qInfo("%s", qPrintable(result.error));
        QVERIFY(result.batch.values.isEmpty());
        QVERIFY2(result.error.contains(
                     u"refused: the server's host key (ssh-ed25519 %1) is not in %2 "
                     "for [127.0.0.1]:%3"_s.arg(m_server->hostKeyFingerprint(), knownHosts)
                         .arg(m_server->port())),
                 qPrintable(result.error));
        QVERIFY(result.error.contains("Headroom never accepts a key by itself"_L1));
        // Asked again later: still refused, never learned.
        QThread::msleep(1100);
        QVERIFY(host->poll(QDeadlineTimer(PollMs)).error.contains("is not in"_L1));
    }
    QFile after(knownHosts);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), before);
    QCOMPARE(int(m_server->log().count("Accepted publickey")), accepted); // never signed in
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(saved);
}

// Headroom resolves the name and connects the socket itself (bounded by the deadline),
// but known_hosts is still checked for the name: "localhost" is known only under that
// name here, and [127.0.0.1] alone does not let ssh://localhost in. localhost also
// resolves to ::1 first, where this sshd does not listen: the next address is tried.
void TestSshTransport::hostNameKeptForKnownHosts()
{
    QTemporaryDir other;
    QDir().mkpath(other.filePath(u"home/.ssh"_s));
    QFile::copy(m_server->home() + u"/.ssh/id_ed25519"_s,
                other.filePath(u"home/.ssh/id_ed25519"_s));
    const auto writeKnownHosts = [&](const QString &line) {
        QFile knownHosts(other.filePath(u"home/.ssh/known_hosts"_s));
        QVERIFY(knownHosts.open(QIODevice::WriteOnly | QIODevice::Truncate));
        knownHosts.write(line.toUtf8() + '\n');
    };
    const HomeDirectory home(other.filePath(u"home"_s));
    const QString byName = u"ssh://%1@localhost:%2"_s.arg(currentUserName()).arg(m_server->port());
    const QString lineForAddress = m_server->knownHostsLine();
    QVERIFY(lineForAddress.startsWith(u"[127.0.0.1]:"_s));

    writeKnownHosts(lineForAddress);
    PollResult result
        = createCollector(u"host"_s, { { u"host"_s, byName } })->poll(QDeadlineTimer(PollMs));
    QVERIFY2(result.error.contains(u"is not in %1 for [localhost]:%2"_s.arg(
                 other.filePath(u"home/.ssh/known_hosts"_s), QString::number(m_server->port()))),
             qPrintable(result.error));

    writeKnownHosts(u"[localhost]"_s + lineForAddress.mid(lineForAddress.indexOf(u']') + 1));
    result = createCollector(u"host"_s, { { u"host"_s, byName } })->poll(QDeadlineTimer(PollMs));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(!result.batch.values.isEmpty());
}

void TestSshTransport::changedHostKeyRefused()
{
    // known_hosts records another key for this very server.
    QTemporaryDir other;
    runTool(
        u"ssh-keygen"_s,
        { u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-f"_s, other.filePath(u"k"_s) });
    QFile pub(other.filePath(u"k.pub"_s));
    QVERIFY(pub.open(QIODevice::ReadOnly));
    const QList<QByteArray> fields = pub.readAll().split(' ');
    QDir().mkpath(other.filePath(u"home/.ssh"_s));
    QFile::copy(m_server->home() + u"/.ssh/id_ed25519"_s,
                other.filePath(u"home/.ssh/id_ed25519"_s));
    QFile knownHosts(other.filePath(u"home/.ssh/known_hosts"_s));
    QVERIFY(knownHosts.open(QIODevice::WriteOnly));
    knownHosts.write("[127.0.0.1]:" + QByteArray::number(m_server->port()) + ' ' + fields.at(0)
                     + ' ' + fields.at(1) + '\n');
    knownHosts.close();

    const HomeDirectory home(other.filePath(u"home"_s));
    const auto nic = createCollector(u"nic"_s, { { u"host"_s, m_server->url() } });
    const PollResult result = nic->poll(QDeadlineTimer(PollMs));
    qInfo("%s", qPrintable(result.error));
    QVERIFY(result.batch.values.isEmpty());
    QVERIFY2(result.error.contains(
                 u"refused: THE SERVER'S HOST KEY HAS CHANGED (now ssh-ed25519 %1)"_s.arg(
                     m_server->hostKeyFingerprint())),
             qPrintable(result.error));
    QVERIFY(result.error.contains("ssh-keygen -R '[127.0.0.1]:"_L1));
}

void TestSshTransport::noAcceptedKey()
{
    QTemporaryDir other;
    QDir().mkpath(other.filePath(u"home/.ssh"_s));
    runTool(u"ssh-keygen"_s,
            { u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(), u"-f"_s,
              other.filePath(u"home/.ssh/id_ed25519"_s) });
    QFile::copy(m_server->home() + u"/.ssh/known_hosts"_s,
                other.filePath(u"home/.ssh/known_hosts"_s));
    const QByteArray agent = qgetenv("SSH_AUTH_SOCK");
    qunsetenv("SSH_AUTH_SOCK");
    const HomeDirectory home(other.filePath(u"home"_s));
    const auto host = createCollector(u"host"_s, { { u"host"_s, m_server->url() } });
    const PollResult result = host->poll(QDeadlineTimer(PollMs));
    qputenv("SSH_AUTH_SOCK", agent);
    qInfo("%s", qPrintable(result.error));
    QVERIFY2(result.error.contains("no key was accepted (tried ssh-agent and the key files in "_L1
                                   + other.filePath(u"home/.ssh"_s)),
             qPrintable(result.error));
}

void TestSshTransport::agentAuthentication()
{
    // The key only in an agent: HOME has known_hosts and no key file.
    QTemporaryDir other;
    QDir().mkpath(other.filePath(u"home/.ssh"_s));
    QFile::copy(m_server->home() + u"/.ssh/known_hosts"_s,
                other.filePath(u"home/.ssh/known_hosts"_s));
    const QString socket = other.filePath(u"agent.sock"_s);
    QProcess agent;
    agent.start(u"ssh-agent"_s, { u"-D"_s, u"-a"_s, socket });
    QVERIFY(agent.waitForStarted());
    QTRY_VERIFY(QFile::exists(socket));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"SSH_AUTH_SOCK"_s, socket);
    runTool(u"ssh-add"_s, { u"-q"_s, m_server->path(u"client_key"_s) }, environment);

    // Restored however the test ends.
    const std::unique_ptr<QByteArray, void (*)(QByteArray *)> saved(
        new QByteArray(qgetenv("SSH_AUTH_SOCK")), [](QByteArray *value) {
            qputenv("SSH_AUTH_SOCK", *value);
            delete value;
        });
    qputenv("SSH_AUTH_SOCK", QFile::encodeName(socket));
    {
        const HomeDirectory home(other.filePath(u"home"_s));
        const auto host = createCollector(u"host"_s, { { u"host"_s, m_server->url() } });
        const PollResult result = host->poll(QDeadlineTimer(PollMs));
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QVERIFY(seriesValue(result, u"host.cpu.count"_s) >= 1);
    }
    agent.kill();
    agent.waitForFinished();
}

void TestSshTransport::shellKilledIsReplaced()
{
    // Someone on the server kills Headroom's shell: the next poll notices, and gets its
    // figures from a fresh session and shell, with no gap.
    const HomeDirectory home(m_server->home());
    const auto host = createCollector(u"host"_s, { { u"host"_s, m_server->url() } });
    QString error;
    const auto connection = SshConnection::shared(*parseSshTarget(m_server->url(), &error));
    QVERIFY(host->poll(QDeadlineTimer(PollMs)).error.isEmpty());
    const SshConnection::Stats before = connection->stats();
    QCOMPARE(m_server->signalCommand({ "/bin/sh", "-s" }, SIGKILL), 1);
    QThread::msleep(200);
    QElapsedTimer took;
    took.start();
    const PollResult result = host->poll(QDeadlineTimer(PollMs));
    qInfo("the poll after the kill took %lld ms (deadline %d ms)", took.elapsed(), PollMs);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(seriesValue(result, u"host.cpu.count"_s) >= 1);
    const SshConnection::Stats after = connection->stats();
    QCOMPARE(after.shells, before.shells + 1);
    QCOMPARE(after.connects, before.connects + 1);
    QCOMPARE(after.failures, before.failures);
}

void TestSshTransport::frozenServerNeverHangs()
{
    const HomeDirectory home(m_server->home());
    const auto host = createCollector(u"host"_s, { { u"host"_s, m_server->url() } });
    QVERIFY(host->poll(QDeadlineTimer(PollMs)).error.isEmpty());

    // sshd and its session processes stop answering, connections stay open: the worst
    // case, a host that hangs or a network that drops everything.
    m_server->signalAll(SIGSTOP);
    QElapsedTimer frozen;
    frozen.start();
    qint64 longest = 0;
    QStringList errors;
    while (frozen.elapsed() < 5000) {
        QElapsedTimer took;
        took.start();
        const PollResult result = host->poll(QDeadlineTimer(DeadlineMs));
        longest = std::max(longest, took.elapsed());
        QVERIFY(result.batch.values.isEmpty()); // a gap, nothing made up
        QVERIFY(!result.error.isEmpty());
        if (!errors.contains(result.error))
            errors << result.error;
        QThread::msleep(200);
    }
    qInfo("frozen 5 s: longest poll %lld ms (deadline %d ms); errors:\n  %s", longest, DeadlineMs,
          qPrintable(errors.join(u"\n  "_s)));
    QVERIFY2(longest <= DeadlineMs + 300, qPrintable(QString::number(longest)));
    QVERIFY(errors.first().contains("no complete answer before the poll's deadline"_L1)
            || errors.first().contains("cannot send the read script"_L1));
    QVERIFY(errors.join(u' ').contains("next attempt in"_L1));

    m_server->signalAll(SIGCONT);
    QElapsedTimer thawed;
    thawed.start();
    PollResult result;
    do {
        QThread::msleep(200);
        result = host->poll(QDeadlineTimer(PollMs));
    } while (!result.error.isEmpty() && thawed.elapsed() < 20000);
    qInfo("figures back %lld ms after the server was thawed", thawed.elapsed());
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(thawed.elapsed() <= 10000 + PollMs); // at most the longest backoff, then a poll
    QVERIFY(seriesValue(result, u"host.cpu.count"_s) >= 1);
}

void TestSshTransport::killedServerRecovers()
{
    const HomeDirectory home(m_server->home());
    const auto nic = createCollector(u"nic"_s, { { u"host"_s, m_server->url() } });
    QVERIFY(nic->poll(QDeadlineTimer(PollMs)).error.isEmpty());
    m_server->kill();

    QElapsedTimer took;
    took.start();
    const PollResult down = nic->poll(QDeadlineTimer(DeadlineMs));
    qInfo("killed: %s (%lld ms)", qPrintable(down.error), took.elapsed());
    QVERIFY(down.batch.values.isEmpty());
    // The open session breaks; the fresh connection tried at once is refused.
    QVERIFY2(down.error.contains(
                 u"cannot read /proc/net/snmp on %1: cannot connect"_s.arg(m_server->url())),
             qPrintable(down.error));
    QVERIFY(took.elapsed() < DeadlineMs);

    QThread::msleep(1500);
    QString error;
    QVERIFY2(m_server->start(&error), qPrintable(error));
    QElapsedTimer restarted;
    restarted.start();
    PollResult result;
    do {
        QThread::msleep(200);
        result = nic->poll(QDeadlineTimer(PollMs));
    } while (!result.error.isEmpty() && restarted.elapsed() < 20000);
    qInfo("figures back %lld ms after sshd restarted", restarted.elapsed());
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(!result.batch.values.isEmpty() || !result.warnings.isEmpty());
}

QTEST_GUILESS_MAIN(TestSshTransport)
#include "tst_sshtransport.moc"
