// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Connecting an SSH session without a server: values libssh refuses (ssh_options_set)
// are reported with the option and libssh's reason instead of being dropped, the name
// lookup and TCP connect end at the poll's deadline, with a message naming what failed,
// and a config that may jump (ProxyJump, also in included files) is recognised. The slow name
// server is this test's own getaddrinfo (the executable's definition wins over libc's): names under
// .slow.test take 3 s to fail.
#include "sshconfigjump.h"
#include "sshconnection.h"
#include "sshtarget.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <dlfcn.h>
#include <netdb.h>

using namespace Headroom;
using namespace Qt::StringLiterals;

extern "C" int getaddrinfo(const char *node, const char *service, const addrinfo *hints,
                           addrinfo **res)
{
    using Real = int (*)(const char *, const char *, const addrinfo *, addrinfo **);
    static const auto real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "getaddrinfo"));
    if (node && QByteArrayView(node).endsWith(".slow.test")) {
        QThread::msleep(3000);
        return EAI_AGAIN;
    }
    return real(node, service, hints, res);
}

namespace {

SshConnection::Output converse(const QString &url, int deadlineMs)
{
    QString error;
    const auto target = parseSshTarget(url, &error);
    if (!target)
        qFatal("%s", qPrintable(error));
    SshConnection connection(*target);
    return connection.converse("/bin/sh -s", "echo END\n", "END\n", QDeadlineTimer(deadlineMs),
                               1 << 20);
}

} // namespace

class TestSshConnect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // No ~/.ssh/config of the user's may change where these connect.
        QVERIFY(m_home.isValid());
        qputenv("HOME", QFile::encodeName(m_home.path()));
    }

    void refusedOptions_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("error");
        QTest::newRow("user with a semicolon")
            << u"ssh://ops;rm@127.0.0.1:1"_s
            << u"libssh refuses the user name \"ops;rm\" (SSH_OPTIONS_USER): Invalid argument "
               "in ssh_options_set"_s;
        QTest::newRow("user with a quote")
            << u"ssh://o'ps@127.0.0.1:1"_s
            << u"libssh refuses the user name \"o'ps\" (SSH_OPTIONS_USER): Invalid argument in "
               "ssh_options_set"_s;
        QTest::newRow("host with an underscore")
            << u"ssh://ops@db_1.example:22"_s
            << u"libssh refuses the host name \"db_1.example\" (SSH_OPTIONS_HOST): Invalid "
               "argument in ssh_options_set"_s;
    }

    void refusedOptions()
    {
        QFETCH(QString, url);
        QFETCH(QString, error);
        QCOMPARE(converse(url, 3000).error, error);
    }

    void refusedPort()
    {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 port = closed.serverPort();
        closed.close(); // nobody listens there now
        const SshConnection::Output output = converse(u"ssh://127.0.0.1:%1"_s.arg(port), 3000);
        QCOMPARE(output.error, u"cannot connect: Connection refused"_s);
    }

    void nameThatDoesNotResolve()
    {
        QElapsedTimer took;
        took.start();
        const SshConnection::Output output = converse(u"ssh://nosuchhost.invalid"_s, 3000);
        QVERIFY2(
            output.error.startsWith(u"cannot connect: cannot resolve \"nosuchhost.invalid\": "_s),
            qPrintable(output.error));
        QVERIFY(took.elapsed() < 3000 + 300);
    }

    void slowNameServerEndsAtTheDeadline()
    {
        QElapsedTimer took;
        took.start();
        const SshConnection::Output output = converse(u"ssh://ops@db1.slow.test"_s, 400);
        const qint64 ms = took.elapsed();
        QVERIFY2(output.error.startsWith(u"cannot connect: cannot resolve \"db1.slow.test\": no "
                                         "answer from the name service before the poll's "
                                         "deadline"_s),
                 qPrintable(output.error));
        QVERIFY2(ms < 400 + 200, qPrintable(QString::number(ms)));
    }

    // When the config may jump, libssh connects by itself (a socket of ours would bypass
    // the jump host); otherwise Headroom does, within the deadline.
    void configMayJump_data()
    {
        QTest::addColumn<QStringList>("files"); // "name" then its text, pairwise
        QTest::addColumn<bool>("mayJump");
        QTest::newRow("no config") << QStringList() << false;
        QTest::newRow("plain") << QStringList { u"config"_s, u"Host db1\n  User ops\n"_s } << false;
        QTest::newRow("ProxyJump")
            << QStringList { u"config"_s, u"Host db1\n  ProxyJump bastion\n"_s } << true;
        QTest::newRow("lower case, =")
            << QStringList { u"config"_s, u"host db1\n\tproxyjump=bastion\n"_s } << true;
        QTest::newRow("comment") << QStringList { u"config"_s, u"# ProxyJump bastion\n"_s }
                                 << false;
        QTest::newRow("Include, no jump")
            << QStringList { u"config"_s, u"Include config.d/*\n"_s, u"config.d/a"_s,
                             u"Host a\n  User x\n"_s }
            << false;
        QTest::newRow("Include, jump")
            << QStringList { u"config"_s,     u"Include config.d/*\n"_s,
                             u"config.d/a"_s, u"Host a\n  User x\n"_s,
                             u"config.d/b"_s, u"Host b\n  ProxyJump j\n"_s }
            << true;
        QTest::newRow("Include from home") << QStringList { u"config"_s, u"Include ~/.ssh/more\n"_s,
                                                            u"more"_s, u"ProxyJump j\n"_s }
                                           << true;
        QTest::newRow("Include of itself")
            << QStringList { u"config"_s, u"Include config\n"_s } << true;
    }

    void configMayJump()
    {
        QFETCH(QStringList, files);
        QFETCH(bool, mayJump);
        QTemporaryDir home;
        const QString sshDir = home.path() + u"/.ssh"_s;
        for (qsizetype i = 0; i + 1 < files.size(); i += 2) {
            const QString path = sshDir + u'/' + files.at(i);
            QDir().mkpath(QFileInfo(path).path());
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(files.at(i + 1).toUtf8());
        }
        const QByteArray savedHome = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(home.path()));
        const bool actual = sshConfigMayJump(sshDir + u"/config"_s);
        qputenv("HOME", savedHome);
        QCOMPARE(actual, mayJump);
    }

private:
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestSshConnect)
#include "tst_sshconnect.moc"
