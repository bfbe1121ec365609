// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The deadline-bounded resolver: numeric addresses without a lookup, localhost, a name
// that does not exist (.invalid, RFC 6761), and a name server that does not answer in
// time. The last is this test's own getaddrinfo, which the resolver's calls reach
// before libc's (the executable's definition wins): names under .slow.test take 1.5 s,
// as a dead DNS server would take 5 s and more; every other name goes to libc.
#include "../slowgetaddrinfo.h"
#include "collector/hostresolver.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <atomic>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestHostResolver : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void numeric_data()
    {
        QTest::addColumn<QString>("host");
        QTest::newRow("IPv4") << u"192.0.2.7"_s;
        QTest::newRow("IPv6") << u"2001:db8::1"_s;
        QTest::newRow("IPv6 loopback") << u"::1"_s;
    }

    void numeric()
    {
        QFETCH(QString, host);
        QString error;
        // An expired deadline: a numeric address needs no time at all.
        const auto addresses = resolveHost(host, QDeadlineTimer(0), &error);
        QVERIFY2(addresses, qPrintable(error));
        QCOMPARE(*addresses, QList<QHostAddress> { QHostAddress(host) });
    }

    void localhost()
    {
        QString error;
        const auto addresses = resolveHost(u"localhost"_s, QDeadlineTimer(5000), &error);
        QVERIFY2(addresses, qPrintable(error));
        QVERIFY(!addresses->isEmpty());
        for (const QHostAddress &address : *addresses)
            QVERIFY2(address.isLoopback(), qPrintable(address.toString()));
    }

    void nameThatDoesNotExist()
    {
        QString error;
        QElapsedTimer took;
        took.start();
        const auto addresses = resolveHost(u"nosuchhost.invalid"_s, QDeadlineTimer(5000), &error);
        QVERIFY(!addresses);
        // "Name or service not known", or "Temporary failure ..." without a name server,
        // or the deadline: in every case a message naming the host, never a hang.
        QVERIFY2(error.startsWith(u"cannot resolve \"nosuchhost.invalid\": "_s), qPrintable(error));
        QVERIFY(took.elapsed() < 5000 + 200);
    }

    void emptyName()
    {
        QString error;
        QVERIFY(!resolveHost(QString(), QDeadlineTimer(1000), &error));
        QCOMPARE(error, u"no host name"_s);
    }

    void deadlinePasses()
    {
        QString error;
        QElapsedTimer took;
        took.start();
        QVERIFY(!resolveHost(u"db1.slow.test"_s, QDeadlineTimer(300), &error));
        const qint64 first = took.elapsed();
        QVERIFY2(first >= 290 && first < 300 + 150, qPrintable(QString::number(first)));
        QVERIFY2(error.startsWith(u"cannot resolve \"db1.slow.test\": no answer from the name "
                                  "service before the poll's deadline ("_s),
                 qPrintable(error));
        // The next poll joins the lookup still running instead of starting another.
        took.restart();
        QVERIFY(!resolveHost(u"db1.slow.test"_s, QDeadlineTimer(300), &error));
        QVERIFY(took.elapsed() < 300 + 150);
        QCOMPARE(slowLookups.load(), 1);
        // When it ends, its answer (here: the name server's failure) is what a caller
        // with time enough gets.
        QVERIFY(!resolveHost(u"db1.slow.test"_s, QDeadlineTimer(3000), &error));
        QVERIFY2(error.startsWith(u"cannot resolve \"db1.slow.test\": "_s)
                     && !error.contains(u"deadline"_s),
                 qPrintable(error));
        QCOMPARE(slowLookups.load(), 1);
        // And a later lookup starts afresh.
        QVERIFY(!resolveHost(u"db1.slow.test"_s, QDeadlineTimer(100), &error));
        QCOMPARE(slowLookups.load(), 2);
    }
};

QTEST_GUILESS_MAIN(TestHostResolver)
#include "tst_hostresolver.moc"
