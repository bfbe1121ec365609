// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Where ~/.my.cnf's password may go by which authentication plugin. A server named by a
// dashboard file (and by ~/.my.cnf's [client] host, so the password is meant for it)
// that asks for mysql_native_password or caching_sha2_password gets no authentication
// data at all, and the error names the plugin and what the user can do; a URL the user
// typed keeps every plugin. Against the private MariaDB: an account IDENTIFIED VIA
// ed25519 serves a file's URL; one by mysql_native_password is refused with the advice.
#include "fakemysqlserver.h"
#include "mariadbtestutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestMariadbAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        // ~/.my.cnf is the user's: every test here brings its own.
        qputenv("HOME", m_home.path().toUtf8());
    }

    void fileTargetGetsNothingToCrack_data()
    {
        QTest::addColumn<QByteArray>("plugin");
        QTest::newRow("mysql_native_password") << QByteArray("mysql_native_password");
        QTest::newRow("caching_sha2_password") << QByteArray("caching_sha2_password");
    }

    void fileTargetGetsNothingToCrack()
    {
        QFETCH(QByteArray, plugin);
        FakeMysqlServer fake(plugin);
        QVERIFY(fake.port() > 0);
        // The password is meant for this host and port: mayUsePassword lets it go there.
        writeMyCnf(u"[client]\nuser=monitor\npassword=cnf-secret\nhost=127.0.0.1\nport=%1\n"_s.arg(
            fake.port()));
        const QString url = u"mariadb://monitor@127.0.0.1:%1/"_s.arg(fake.port());
        auto fromFile
            = makeMariadbCollector({ { u"url"_s, url }, { u"connectTimeoutMs"_s, 2000 } });
        QVERIFY(fromFile);
        const PollResult refused = fromFile->poll(QDeadlineTimer(4000));
        QVERIFY2(refused.error.contains(u"'%1'"_s.arg(QString::fromLatin1(plugin)))
                     && refused.error.contains(u"--var"_s)
                     && refused.error.contains(u"IDENTIFIED VIA ed25519"_s)
                     && !refused.error.contains(u"cnf-secret"_s),
                 qPrintable(refused.error));
        // Two answers, neither with data: the password's, naming client_ed25519, and the
        // retry without it (for an account by unix_socket), which gets 1045.
        QCOMPARE(fake.responses(), 2);
        QCOMPARE(fake.clientPlugins().value(0), QByteArray("client_ed25519"));
        QCOMPARE(fake.authData(), QList<QByteArray>());

        // The control: typed by the user (--var), the same URL gets the plugin's answer.
        auto typed = makeMariadbCollector({ { u"url"_s, url }, { u"connectTimeoutMs"_s, 2000 } },
                                          { u"url"_s });
        QVERIFY(typed);
        const PollResult denied = typed->poll(QDeadlineTimer(4000));
        QVERIFY2(denied.error.contains(u"Access denied"_s), qPrintable(denied.error));
        QCOMPARE(fake.authData().size(), 1);
        QVERIFY(!fake.authData().constFirst().contains("cnf-secret"));
    }

    // The private MariaDB's monitor is IDENTIFIED VIA ed25519 (tests/mariadb-server): a
    // file's URL for the host and port ~/.my.cnf names logs in with its password.
    void ed25519AccountServesAFileTarget()
    {
        if (mariadbPort() == 0)
            QSKIP("no test MariaDB (tests/run-tests starts one)");
        writeMyCnf(
            u"[client]\nuser=monitor\npassword=monitor-secret\nhost=127.0.0.1\nport=%1\n"_s.arg(
                mariadbPort()));
        auto fromFile = makeMariadbCollector(
            { { u"url"_s, u"mariadb://monitor@127.0.0.1:%1/"_s.arg(mariadbPort()) } });
        QVERIFY(fromFile);
        const PollResult ok = fromFile->poll(QDeadlineTimer(5000));
        QVERIFY2(ok.error.isEmpty(), qPrintable(ok.error));
    }

    // app is IDENTIFIED BY a password (mysql_native_password): refused for a file's URL,
    // with the advice; typed, it logs in.
    void nativeAccountNeedsATypedUrl()
    {
        if (mariadbPort() == 0)
            QSKIP("no test MariaDB (tests/run-tests starts one)");
        writeMyCnf(u"[client]\nuser=app\npassword=app-secret\nhost=127.0.0.1\nport=%1\n"_s.arg(
            mariadbPort()));
        const QString url
            = u"mariadb://app@127.0.0.1:%1/%2"_s.arg(mariadbPort()).arg(MariadbDatabase);
        auto fromFile = makeMariadbCollector({ { u"url"_s, url } });
        QVERIFY(fromFile);
        const PollResult refused = fromFile->poll(QDeadlineTimer(5000));
        QVERIFY2(refused.error.contains(u"'mysql_native_password'"_s)
                     && refused.error.contains(u"--var"_s),
                 qPrintable(refused.error));
        auto typed = makeMariadbCollector({ { u"url"_s, url } }, { u"url"_s });
        const PollResult ok = typed->poll(QDeadlineTimer(5000));
        QVERIFY2(ok.error.isEmpty(), qPrintable(ok.error));
    }

    // root is IDENTIFIED VIA mysql_native_password USING 'invalid' OR unix_socket (as
    // mariadb-install-db makes it): with ~/.my.cnf's password to send over the user's
    // own socket, the unix_socket part still lets it in, with nothing sent.
    void socketAccountStillConnects()
    {
        if (mariadbPort() == 0)
            QSKIP("no test MariaDB (tests/run-tests starts one)");
        writeMyCnf(u"[client]\npassword=cnf-secret\nsocket=%1\n"_s.arg(mariadbSocket()));
        auto fromFile = makeMariadbCollector({ { u"url"_s, rootSocketUrl() } });
        QVERIFY(fromFile);
        const PollResult ok = fromFile->poll(QDeadlineTimer(5000));
        QVERIFY2(ok.error.isEmpty(), qPrintable(ok.error));
    }

private:
    void writeMyCnf(const QString &text)
    {
        QFile file(m_home.filePath(u".my.cnf"_s));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text.toUtf8());
    }

    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestMariadbAuth)
#include "tst_mariadbauth.moc"
