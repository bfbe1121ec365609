// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The SSH transport's pure parts: ssh:// values, and one poll's read script, run here
// by the local /bin/sh (the same POSIX sh, cat and ls a server runs) and parsed back,
// batch after batch in one long-running shell as on a server, then parsed from
// cut-off and garbled answers.
#include "remotereadbatch.h"
#include "sshtarget.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestRemoteReadBatch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void target_data();
    void target();
    void roundTrip();
    void emptyBatch();
    void longBatch();
    void oneShellManyBatches();
    void reasonsInBand();
    void damagedAnswer_data();
    void damagedAnswer();
    void processesCountsFilesystems();
    void damagedCountsFilesystems();

private:
    static QByteArray runLocally(const QByteArray &script);
};

void TestRemoteReadBatch::target_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("url"); // empty: refused
    QTest::addColumn<QString>("error");
    QTest::newRow("host") << u"ssh://db1"_s << u"ssh://db1"_s << QString();
    QTest::newRow("user port") << u"ssh://ops@db1.example.com:2222"_s
                               << u"ssh://ops@db1.example.com:2222"_s << QString();
    QTest::newRow("trailing slash") << u"ssh://ops@db1/"_s << u"ssh://ops@db1"_s << QString();
    QTest::newRow("ipv6") << u"ssh://[::1]:22"_s << u"ssh://[::1]:22"_s << QString();
    QTest::newRow("upper scheme") << u"SSH://db1"_s << u"ssh://db1"_s << QString();
    QTest::newRow("password")
        << u"ssh://ops:s3cret@db1"_s << QString()
        << u"\"host\": ssh://ops@db1: ssh:// URLs take no password; Headroom signs in with "
           "ssh-agent or a key file (~/.ssh/id_*, or IdentityFile in ~/.ssh/config)"_s;
    QTest::newRow("no server") << u"ssh://ops@"_s << QString()
                               << u"\"host\": ssh://ops@ names no server"_s;
    QTest::newRow("path") << u"ssh://db1/proc"_s << QString()
                          << u"\"host\": ssh://db1/proc: a path has no meaning here (the "
                             "collector reads /proc and /sys)"_s;
    QTest::newRow("query") << u"ssh://db1?x=1"_s << QString()
                           << u"\"host\": ssh://db1?x=1: no query or fragment is understood"_s;
    QTest::newRow("bad port") << u"ssh://db1:99999"_s << QString()
                              << u"\"host\": the ssh:// value is not an "
                                 "ssh://[user@]server[:port] URL"_s;
    QTest::newRow("http") << u"http://db1"_s << QString()
                          << u"\"host\": http://db1 is not an ssh://[user@]server[:port] URL"_s;
}

void TestRemoteReadBatch::target()
{
    QFETCH(QString, value);
    QFETCH(QString, url);
    QFETCH(QString, error);
    QString actualError;
    const auto parsed = parseSshTarget(value, &actualError);
    QCOMPARE(parsed.has_value(), !url.isEmpty());
    QCOMPARE(actualError, error);
    QVERIFY(!actualError.contains("s3cret"_L1));
    if (parsed)
        QCOMPARE(parsed->url(), url);
}

namespace {

void startShell(QProcess *sh)
{
    const QStringList shell = QString::fromLatin1(RemoteReadShell).split(u' ');
    sh->start(shell.first(), shell.mid(1));
    if (!sh->waitForStarted())
        qFatal("cannot start %s", RemoteReadShell);
}

} // namespace

// As the server runs it: RemoteReadShell with the script on standard input.
QByteArray TestRemoteReadBatch::runLocally(const QByteArray &script)
{
    QProcess sh;
    startShell(&sh);
    sh.write(script);
    sh.closeWriteChannel();
    if (!sh.waitForFinished(30000))
        qFatal("sh did not finish");
    const QByteArray errors = sh.readAllStandardError();
    if (!errors.isEmpty()) // scripts keep their errors in band
        qFatal("stderr: %s", errors.constData());
    return sh.readAllStandardOutput();
}

void TestRemoteReadBatch::roundTrip()
{
    QTemporaryDir dir;
    const auto write = [&](const QString &name, const QByteArray &content) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    };
    // What /proc and /sys hold, and what could trip a framing: no final newline, an
    // empty file, blank lines at the end, bytes that are not text, quotes and spaces
    // in a name.
    const QByteArray binary("\x00\x01\xff\n\n", 5);
    write(u"stat"_s, "cpu  1 2 3\ncpu0 1 2 3\n");
    write(u"speed"_s, "1000");
    write(u"empty"_s, "");
    write(u"blank lines"_s, "x\n\n\n");
    write(u"it's \"odd\""_s, binary);
    QDir(dir.path()).mkpath(u"net/eth0"_s);
    QDir(dir.path()).mkpath(u"net/lo"_s);
    write(u"net/bonding_masters"_s, "");

    RemoteReadBatch batch;
    for (const QString &name :
         { u"stat"_s, u"speed"_s, u"empty"_s, u"blank lines"_s, u"it's \"odd\""_s, u"missing"_s })
        batch.files << dir.filePath(name);
    batch.files << dir.filePath(u"net"_s); // a directory: cat fails
    // Under /sys: read by the shell itself.
    batch.files << u"/sys/class/net/lo/type"_s << u"/sys/class/net/lo/no-such-attribute"_s
                << u"/sys/class/net"_s;
    batch.directories << dir.filePath(u"net"_s) << dir.filePath(u"nowhere"_s);
    const QByteArray boundary = newBatchBoundary();
    QCOMPARE(boundary.size(), 32);
    QVERIFY(boundary != newBatchBoundary());

    const QByteArray output = runLocally(remoteReadScript(batch, boundary));
    QVERIFY(output.endsWith(endMarker(boundary)));
    const RemoteReadReply reply = parseRemoteReadOutput(batch, output, boundary);
    QVERIFY(reply.complete);
    const QHash<QString, QByteArray> &got = reply.files.contents;
    QCOMPARE(got.value(dir.filePath(u"stat"_s)), QByteArray("cpu  1 2 3\ncpu0 1 2 3\n"));
    QCOMPARE(got.value(dir.filePath(u"speed"_s)), QByteArray("1000"));
    QVERIFY(got.contains(dir.filePath(u"empty"_s)));
    QCOMPARE(got.value(dir.filePath(u"empty"_s)), QByteArray());
    QCOMPARE(got.value(dir.filePath(u"blank lines"_s)), QByteArray("x\n\n\n"));
    QCOMPARE(got.value(dir.filePath(u"it's \"odd\""_s)), binary);
    QCOMPARE(got.value(u"/sys/class/net/lo/type"_s), QByteArray("772\n"));
    QCOMPARE(got.size(), 6);
    qInfo("/sys errors: %s; %s",
          qPrintable(reply.files.errors.value(u"/sys/class/net/lo/no-such-attribute"_s)),
          qPrintable(reply.files.errors.value(u"/sys/class/net"_s)));
    QVERIFY(reply.files.errors.value(u"/sys/class/net/lo/no-such-attribute"_s)
                .startsWith("No such file"_L1));
    QVERIFY(reply.files.errors.contains(u"/sys/class/net"_s));
    QCOMPARE(reply.files.errors.value(dir.filePath(u"missing"_s)), u"No such file or directory"_s);
    QCOMPARE(reply.files.errors.value(dir.filePath(u"net"_s)), u"Is a directory"_s);
    QCOMPARE(reply.directories.value(dir.filePath(u"net"_s)).entries,
             (QStringList { u"bonding_masters"_s, u"eth0"_s, u"lo"_s }));
    QVERIFY(reply.directories.value(dir.filePath(u"net"_s)).error.isEmpty());
    QCOMPARE(reply.directories.value(dir.filePath(u"nowhere"_s)).error,
             u"No such file or directory"_s);
}

void TestRemoteReadBatch::emptyBatch()
{
    const QByteArray boundary = newBatchBoundary();
    const RemoteReadReply reply
        = parseRemoteReadOutput({}, runLocally(remoteReadScript({}, boundary)), boundary);
    QVERIFY(reply.complete);
    QVERIFY(reply.files.contents.isEmpty() && reply.files.errors.isEmpty());
}

void TestRemoteReadBatch::longBatch()
{
    // A host with hundreds of interfaces: a script far over the 128 KiB a single
    // command-line argument may have on Linux.
    RemoteReadBatch batch;
    for (int i = 0; i < 3000; ++i)
        batch.files << u"/sys/class/net/veth%1abcdef0123456789/statistics/rx_bytes"_s.arg(i);
    batch.files << u"/proc/loadavg"_s;
    const QByteArray boundary = newBatchBoundary();
    const QByteArray script = remoteReadScript(batch, boundary);
    QVERIFY(script.size() > 128 * 1024);
    const RemoteReadReply reply = parseRemoteReadOutput(batch, runLocally(script), boundary);
    QVERIFY(reply.complete);
    QCOMPARE(reply.files.errors.size(), 3000);
    // Under /sys the shell's own words (dash: "cannot open ...: No such file").
    QVERIFY(reply.files.errors.value(batch.files.first()).startsWith("No such file"_L1));
    QVERIFY(reply.files.contents.value(u"/proc/loadavg"_s).count(' ') >= 4);
}

void TestRemoteReadBatch::oneShellManyBatches()
{
    // One shell, batches one after the other, each answer read up to its end marker
    // while the shell waits for the next: as SshConnection does on a server.
    QTemporaryDir dir;
    QProcess sh;
    startShell(&sh);
    for (int round = 0; round < 3; ++round) {
        QFile file(dir.filePath(u"value"_s));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QByteArray::number(round));
        file.close();
        const RemoteReadBatch batch {
            { file.fileName(), dir.filePath(u"gone"_s) }, { dir.path() }, {}, {}
        };
        const QByteArray boundary = newBatchBoundary();
        sh.write(remoteReadScript(batch, boundary));
        QByteArray output;
        while (!output.endsWith(endMarker(boundary))) {
            QVERIFY(sh.waitForReadyRead(10000));
            output += sh.readAllStandardOutput();
        }
        const RemoteReadReply reply = parseRemoteReadOutput(batch, output, boundary);
        QVERIFY(reply.complete);
        QCOMPARE(reply.files.contents.value(file.fileName()), QByteArray::number(round));
        QCOMPARE(reply.files.errors.value(dir.filePath(u"gone"_s)), u"No such file or directory"_s);
        QCOMPARE(reply.directories.value(dir.path()).entries, QStringList { u"value"_s });
    }
    QCOMPARE(sh.state(), QProcess::Running);
    QVERIFY(sh.readAllStandardError().isEmpty());
    sh.closeWriteChannel();
    QVERIFY(sh.waitForFinished(5000));
}

void TestRemoteReadBatch::reasonsInBand()
{
    // The tools' own words before each E line: GNU, BusyBox, dash, and a missing tool.
    const RemoteReadBatch batch { { u"/a"_s, u"/b"_s, u"/sys/c"_s, u"/e"_s }, { u"/d"_s }, {}, {} };
    const QByteArray B = "\nBOUNDARY";
    const QByteArray answer = B + " F /a\ncat: can't open '/a': Permission denied\n" + B + " E /a\n"
        + B + " F /b\n2" + B + " F /sys/c\n/bin/sh: 1: cannot open /sys/c: No such file" + B
        + " E /sys/c\n" + B + " F /e\nsh: 1: cat: not found" + B + " E /e\n" + B
        + " D /d\nls: cannot access '/d': No such file or directory\n" + B + " E /d\n" + B
        + " END\n";
    const RemoteReadReply reply = parseRemoteReadOutput(batch, answer, "BOUNDARY");
    QVERIFY(reply.complete);
    QCOMPARE(reply.files.errors.value(u"/a"_s), u"Permission denied"_s);
    QCOMPARE(reply.files.contents.value(u"/b"_s), QByteArray("2"));
    QCOMPARE(reply.files.errors.value(u"/sys/c"_s), u"No such file"_s);
    QCOMPARE(reply.files.errors.value(u"/e"_s), u"not found"_s);
    QCOMPARE(reply.directories.value(u"/d"_s).error, u"No such file or directory"_s);
}

void TestRemoteReadBatch::damagedAnswer_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<bool>("complete");
    QTest::addColumn<QString>("aError"); // empty: /a read as "1\n"
    QTest::addColumn<QString>("bError"); // empty: /b read as "2"
    const QByteArray B = "\nBOUNDARY";
    QTest::newRow("whole") << B + " F /a\n1\n" + B + " F /b\n2" + B + " END\n"
                           << true << QString() << QString();
    QTest::newRow("cut in b") << B + " F /a\n1\n" + B + " F /b\n2" << false << QString()
                              << u"the server's answer stopped early"_s;
    QTest::newRow("cut in a header") << B + " F /a\n1\n" + B + " F /" << false << QString()
                                     << u"the server's answer stopped early"_s;
    QTest::newRow("nothing") << QByteArray() << false << u"the server's answer stopped early"_s
                             << u"the server's answer stopped early"_s;
    QTest::newRow("b left out") << B + " F /a\n1\n" + B + " END\n"
                                << true << QString() << u"missing from the server's answer"_s;
    QTest::newRow("unasked path ignored")
        << B + " F /etc/shadow\nx\n" + B + " F /a\n1\n" + B + " F /b\n2" + B + " END\n"
        << true << QString() << QString();
    QTest::newRow("wrong boundary")
        << QByteArray("\nOTHER F /a\n1\n\nOTHER END\n") << false
        << u"the server's answer stopped early"_s << u"the server's answer stopped early"_s;
    QTest::newRow("error marker") << B + " F /a\n" + B + " E /a\n" + B + " F /b\n2" + B + " END\n"
                                  << true << u"cannot be read"_s << QString();
    QTest::newRow("garbage") << QByteArray("\x01\x02 junk\n\n\nBOUNDARY\nBOUNDARY X") << false
                             << u"the server's answer stopped early"_s
                             << u"the server's answer stopped early"_s;
}

void TestRemoteReadBatch::damagedAnswer()
{
    QFETCH(QByteArray, answer);
    QFETCH(bool, complete);
    QFETCH(QString, aError);
    QFETCH(QString, bError);
    const RemoteReadBatch batch { { u"/a"_s, u"/b"_s }, {}, {}, {} };
    const RemoteReadReply reply = parseRemoteReadOutput(batch, answer, "BOUNDARY");
    QCOMPARE(reply.complete, complete);
    QCOMPARE(reply.files.errors.value(u"/a"_s), aError);
    QCOMPARE(reply.files.errors.value(u"/b"_s), bError);
    if (aError.isEmpty())
        QCOMPARE(reply.files.contents.value(u"/a"_s), QByteArray("1\n"));
    if (bError.isEmpty())
        QCOMPARE(reply.files.contents.value(u"/b"_s), QByteArray("2"));
    QVERIFY(!reply.files.contents.contains(u"/etc/shadow"_s));
    QCOMPARE(reply.files.contents.size() + reply.files.errors.size(), 2);
}

// A process's files (stat and statm by the shell's read, io, status and cgroup line by
// line), entry counts and filesystem figures, run here by /bin/sh and compared with
// LocalFileSource reading the same.
void TestRemoteReadBatch::processesCountsFilesystems()
{
    QProcess sleeper;
    sleeper.start(u"sleep"_s, { u"30"_s });
    QVERIFY(sleeper.waitForStarted());
    const QString proc = u"/proc/%1/"_s.arg(sleeper.processId());
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(u"three"_s) && QDir(dir.path()).mkpath(u"none"_s));
    for (const QString &name : { u"a"_s, u"b"_s, u".hidden"_s }) {
        QFile file(dir.filePath(u"three/"_s + name));
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    RemoteReadBatch batch;
    for (const QString &file : { u"stat"_s, u"statm"_s, u"io"_s, u"status"_s, u"cgroup"_s })
        batch.files << proc + file;
    batch.files << u"/proc/999999999/io"_s;
    batch.entryCounts << dir.filePath(u"three"_s) << dir.filePath(u"none"_s)
                      << dir.filePath(u"nowhere"_s) << proc + u"fd"_s;
    batch.filesystems << u"/"_s << dir.path() << dir.filePath(u"nowhere"_s);
    const QByteArray boundary = newBatchBoundary();
    const RemoteReadReply reply
        = parseRemoteReadOutput(batch, runLocally(remoteReadScript(batch, boundary)), boundary);
    QVERIFY(reply.complete);

    LocalFileSource local;
    const FileReadResult want
        = local.read(FileReadRequest { batch.files, batch.entryCounts, batch.filesystems },
                     QDeadlineTimer(5000));
    for (const QString &file : { u"stat"_s, u"statm"_s, u"io"_s, u"status"_s, u"cgroup"_s }) {
        const QString path = proc + file;
        QVERIFY2(reply.files.contents.contains(path),
                 qPrintable(path + u": "_s + reply.files.errors.value(path)));
        if (file != "status"_L1 && file != "io"_L1) // status and io move while it sleeps
            QCOMPARE(reply.files.contents.value(path), want.contents.value(path));
    }
    QVERIFY(reply.files.contents.value(proc + u"io"_s).contains("write_bytes: "));
    QVERIFY(reply.files.contents.value(proc + u"status"_s).contains("\nUid:\t"));
    QVERIFY(reply.files.errors.value(u"/proc/999999999/io"_s).contains("No such file"_L1));
    // The glob leaves dot files out; /proc/PID/fd has none.
    QCOMPARE(reply.files.entryCounts.value(dir.filePath(u"three"_s)), 2);
    QCOMPARE(reply.files.entryCounts.value(dir.filePath(u"none"_s)), 0);
    QCOMPARE(reply.files.entryCountErrors.value(dir.filePath(u"nowhere"_s)),
             u"No such file or directory"_s);
    QCOMPARE(reply.files.entryCounts.value(proc + u"fd"_s), want.entryCounts.value(proc + u"fd"_s));
    QVERIFY(reply.files.entryCounts.value(proc + u"fd"_s) >= 3);
    for (const QString &mount : { u"/"_s, dir.path() }) {
        QVERIFY2(reply.files.filesystems.contains(mount),
                 qPrintable(reply.files.filesystemErrors.value(mount)));
        const FilesystemFigures got = reply.files.filesystems.value(mount);
        const FilesystemFigures here = want.filesystems.value(mount);
        QCOMPARE(got.sizeBytes, here.sizeBytes);
        QCOMPARE(got.inodes, here.inodes);
        QVERIFY(got.sizeBytes > 0 && got.availableBytes <= got.freeBytes);
    }
    QVERIFY(
        reply.files.filesystemErrors.value(dir.filePath(u"nowhere"_s)).contains("No such file"_L1));
    sleeper.kill();
    sleeper.waitForFinished();
}

void TestRemoteReadBatch::damagedCountsFilesystems()
{
    const RemoteReadBatch batch {
        {}, {}, { u"/c1"_s, u"/c2"_s, u"/c3"_s }, { u"/s1"_s, u"/s2"_s, u"/s3"_s, u"/s4"_s }
    };
    const QByteArray B = "\nBOUNDARY";
    const QByteArray answer = B + " C /c1\n7\n" + B + " C /c2\nlots\n" + B + " C /c3\n"
        + "count: /c3: Permission denied\n" + B + " E /c3\n" + B
        + " S /s1\n4096 100 50 40 1000 900\n" + B + " S /s2\n4096 100\n" + B
        + " S /s3\nstat: cannot read file system information for '/s3': No such file or "
          "directory\n"
        + B + " E /s3\n" + B + " S /s4\n4096 18446744073709551615 1 1 1 1\n" + B + " END\n";
    const RemoteReadReply reply = parseRemoteReadOutput(batch, answer, "BOUNDARY");
    QVERIFY(reply.complete);
    QCOMPARE(reply.files.entryCounts.value(u"/c1"_s), 7);
    QCOMPARE(reply.files.entryCountErrors.value(u"/c2"_s), u"not a count in the server's answer"_s);
    QCOMPARE(reply.files.entryCountErrors.value(u"/c3"_s), u"Permission denied"_s);
    QCOMPARE(reply.files.filesystems.value(u"/s1"_s),
             (FilesystemFigures { 409600, 204800, 163840, 1000, 900 }));
    QCOMPARE(reply.files.filesystemErrors.value(u"/s2"_s), u"stat -f answered 4096 100"_s);
    QCOMPARE(reply.files.filesystemErrors.value(u"/s3"_s), u"No such file or directory"_s);
    // Bytes that overflow 64 bits are refused, not wrapped.
    QVERIFY(reply.files.filesystemErrors.value(u"/s4"_s).startsWith("stat -f answered"_L1));
    QCOMPARE(reply.files.entryCounts.size() + reply.files.entryCountErrors.size(), 3);
    QCOMPARE(reply.files.filesystems.size() + reply.files.filesystemErrors.size(), 4);
}

QTEST_GUILESS_MAIN(TestRemoteReadBatch)
#include "tst_remotereadbatch.moc"
