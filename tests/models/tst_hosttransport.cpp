// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The "host" option of the host and nic collectors, read once by parseHostTransport:
// which transport each value names, what a Local one reads under "root", and the
// refusals, word for word (the collectors' create() tests check the same messages
// through the plugins); and a database dashboard's host, which follows the server named
// beside it: where a libpq conninfo or a mariadb URL says the server runs.
#include "collector/hosttransport.h"
#include "collector/serverplace.h"

#include <QJsonObject>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Headroom::HostTransport::Kind)
Q_DECLARE_METATYPE(Headroom::ServerPlace::Kind)

namespace {
const QString NotReadable = u"\"host\": %1 is not a host this collector can read; use local, "
                            "ssh://user@server[:port] or http://server:9100/metrics "
                            "(node_exporter)"_s;
}

class TestHostTransport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void postgresPlace_data();
    void postgresPlace();
    void mariadbPlace_data();
    void mariadbPlace();
    void noErrorPointer();
};

void TestHostTransport::parse_data()
{
    using Kind = HostTransport::Kind;
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("root");
    QTest::addColumn<QString>("error"); // empty: parsed

    QTest::newRow("no host") << QJsonObject() << Kind::Local << QString() << QString();
    QTest::newRow("null host") << QJsonObject { { u"host"_s, QJsonValue::Null } } << Kind::Local
                               << QString() << QString();
    QTest::newRow("empty") << QJsonObject { { u"host"_s, u""_s } } << Kind::Local << QString()
                           << QString();
    QTest::newRow("local") << QJsonObject { { u"host"_s, u"local"_s } } << Kind::Local << QString()
                           << QString();
    QTest::newRow("local root") << QJsonObject { { u"host"_s, u"local"_s },
                                                 { u"root"_s, u"/tmp/capture"_s } }
                                << Kind::Local << u"/tmp/capture"_s << QString();
    QTest::newRow("root alone") << QJsonObject { { u"root"_s, u"/tmp/capture"_s } } << Kind::Local
                                << u"/tmp/capture"_s << QString();
    // ssh:// in any case (URL schemes are); the rest of the value is parseSshTarget's.
    QTest::newRow("ssh") << QJsonObject { { u"host"_s, u"ssh://ops@db1:2222"_s } } << Kind::Ssh
                         << QString() << QString();
    QTest::newRow("ssh upper") << QJsonObject { { u"host"_s, u"SSH://db1"_s } } << Kind::Ssh
                               << QString() << QString();
    QTest::newRow("ssh password") << QJsonObject { { u"host"_s, u"ssh://ops:hunter2@db1"_s } }
                                  << Kind::Ssh << QString() << QString();
    QTest::newRow("ssh empty root")
        << QJsonObject { { u"host"_s, u"ssh://db1"_s }, { u"root"_s, u""_s } } << Kind::Ssh
        << QString() << QString();
    QTest::newRow("http") << QJsonObject { { u"host"_s, u"http://web1:9100/metrics"_s } }
                          << Kind::NodeExporter << QString() << QString();
    QTest::newRow("https") << QJsonObject { { u"host"_s, u"https://web1/metrics"_s } }
                           << Kind::NodeExporter << QString() << QString();

    // Refused.
    QTest::newRow("ssh root") << QJsonObject { { u"host"_s, u"ssh://db1"_s },
                                               { u"root"_s, u"/x"_s } }
                              << Kind::Local << QString()
                              << u"\"root\" is for local captured trees; it cannot be used with "
                                 "ssh://"_s;
    QTest::newRow("http root") << QJsonObject { { u"host"_s, u"http://web1:9100/metrics"_s },
                                                { u"root"_s, u"/x"_s } }
                               << Kind::Local << QString()
                               << u"\"root\" is for local captured trees; it cannot be used with "
                                  "http://"_s;
    QTest::newRow("bare name") << QJsonObject { { u"host"_s, u"db1"_s } } << Kind::Local
                               << QString() << NotReadable.arg(u"db1"_s);
    QTest::newRow("LOCAL") << QJsonObject { { u"host"_s, u"LOCAL"_s } } << Kind::Local << QString()
                           << NotReadable.arg(u"LOCAL"_s);
    QTest::newRow("space") << QJsonObject { { u"host"_s, u" local"_s } } << Kind::Local << QString()
                           << NotReadable.arg(u" local"_s);
    // node_exporter's scheme is matched in lower case only, as it always was.
    QTest::newRow("HTTP") << QJsonObject { { u"host"_s, u"HTTP://web1:9100/metrics"_s } }
                          << Kind::Local << QString()
                          << NotReadable.arg(u"http://web1:9100/metrics"_s);
    QTest::newRow("other scheme, password not repeated")
        << QJsonObject { { u"host"_s, u"ftp://ops:hunter2@db1"_s } } << Kind::Local << QString()
        << NotReadable.arg(u"ftp://ops@db1"_s);
    QTest::newRow("number") << QJsonObject { { u"host"_s, 5 } } << Kind::Local << QString()
                            << u"\"host\" must be a string"_s;
    QTest::newRow("object") << QJsonObject { { u"host"_s, QJsonObject() } } << Kind::Local
                            << QString() << u"\"host\" must be a string"_s;

    // A database dashboard's host: empty follows the server named beside it.
    const auto pg = [](const QString &host, const QString &conninfo) {
        return QJsonObject { { u"host"_s, host }, { u"postgresServer"_s, conninfo } };
    };
    const auto maria = [](const QString &host, const QString &url) {
        return QJsonObject { { u"host"_s, host }, { u"mariadbServer"_s, url } };
    };
    const QString Elsewhere = u"\"host\" is not set and the database server is %1: set the "
                              "dashboard's host variable to the server's host, "
                              "ssh://user@server[:port] or http://server:9100/metrics "
                              "(node_exporter)"_s;
    QTest::newRow("pg socket") << pg(u""_s, u"host=/run/postgresql dbname=shop"_s) << Kind::Local
                               << QString() << QString();
    QTest::newRow("pg loopback") << pg(u""_s, u"host=127.0.0.1 port=5432"_s) << Kind::Local
                                 << QString() << QString();
    QTest::newRow("pg remote") << pg(u""_s, u"host=db1 password=hunter2"_s) << Kind::Local
                               << QString() << Elsewhere.arg(u"on db1, not on this machine"_s);
    QTest::newRow("pg remote, host set")
        << pg(u"ssh://ops@db1"_s, u"host=db1"_s) << Kind::Ssh << QString() << QString();
    QTest::newRow("pg remote, local said")
        << pg(u"local"_s, u"host=db1"_s) << Kind::Local << QString() << QString();
    QTest::newRow("pg service") << pg(u""_s, u"service=orders"_s) << Kind::Local << QString()
                                << Elsewhere.arg(u"where this cannot tell (a service names the "
                                                 "server)"_s);
    QTest::newRow("mariadb socket")
        << maria(u""_s, u"mariadb:///shop?socket=/run/mysqld/mysqld.sock"_s) << Kind::Local
        << QString() << QString();
    QTest::newRow("mariadb localhost") << maria(u""_s, u"mariadb://monitor@localhost/shop"_s)
                                       << Kind::Local << QString() << QString();
    QTest::newRow("mariadb remote")
        << maria(u""_s, u"mariadb://monitor@10.0.0.5:3307/shop"_s) << Kind::Local << QString()
        << Elsewhere.arg(u"on 10.0.0.5, not on this machine"_s);
}

void TestHostTransport::parse()
{
    QFETCH(QJsonObject, options);
    QFETCH(HostTransport::Kind, kind);
    QFETCH(QString, root);
    QFETCH(QString, error);
    QString actualError;
    const auto transport = parseHostTransport(options, &actualError);
    QCOMPARE(actualError, error);
    QCOMPARE(transport.has_value(), error.isEmpty());
    if (!transport)
        return;
    QCOMPARE(transport->kind, kind);
    QCOMPARE(transport->address, options.value("host"_L1).toString());
    QCOMPARE(transport->root, root);
}

void TestHostTransport::postgresPlace_data()
{
    using Kind = ServerPlace::Kind;
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<QString>("pghost"); // the environment's PGHOST
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("where");
    QTest::newRow("libpq defaults")
        << QString() << QString() << Kind::Local << u"the default socket"_s;
    QTest::newRow("PGHOST remote") << QString() << u"db1"_s << Kind::Remote << u"db1"_s;
    QTest::newRow("PGHOST socket") << u"dbname=shop"_s << u"/tmp"_s << Kind::Local << u"/tmp"_s;
    QTest::newRow("host beats PGHOST")
        << u"host=localhost"_s << u"db1"_s << Kind::Local << u"localhost"_s;
    QTest::newRow("abstract socket") << u"host=@pg"_s << QString() << Kind::Local << u"@pg"_s;
    QTest::newRow("127.0.0.2") << u"host=127.0.0.2"_s << QString() << Kind::Local << u"127.0.0.2"_s;
    QTest::newRow("::1") << u"host=::1"_s << QString() << Kind::Local << u"::1"_s;
    QTest::newRow("one of two remote")
        << u"host=/tmp,db2"_s << QString() << Kind::Remote << u"db2"_s;
    // hostaddr is where libpq connects; host then names the server for authentication.
    QTest::newRow("hostaddr") << u"host=db1 hostaddr=127.0.0.1"_s << QString() << Kind::Local
                              << u"127.0.0.1"_s;
    QTest::newRow("uri socket") << u"postgresql://%2Frun%2Fpostgresql/shop"_s << QString()
                                << Kind::Local << u"/run/postgresql"_s;
    QTest::newRow("uri remote with password")
        << u"postgresql://ops:hunter2@db1:5433/shop?sslmode=require"_s << QString() << Kind::Remote
        << u"db1"_s;
    QTest::newRow("uri ipv6 loopback")
        << u"postgres://[::1]:5432/shop"_s << QString() << Kind::Local << u"::1"_s;
    QTest::newRow("uri no host") << u"postgresql:///shop"_s << QString() << Kind::Local
                                 << u"the default socket"_s;
    QTest::newRow("uri host parameter")
        << u"postgresql:///shop?host=/var/run/pg"_s << u"db1"_s << Kind::Local << u"/var/run/pg"_s;
    QTest::newRow("unparsable") << u"${pg}"_s << QString() << Kind::Unknown
                                << u"a connection string that does not parse"_s;
}

void TestHostTransport::postgresPlace()
{
    QFETCH(QString, conninfo);
    QFETCH(QString, pghost);
    QFETCH(ServerPlace::Kind, kind);
    QFETCH(QString, where);
    const ServerPlace place = postgresServerPlace(conninfo, [&](const char *name) {
        return qstrcmp(name, "PGHOST") == 0 ? pghost : QString();
    });
    QCOMPARE(place.kind, kind);
    QCOMPARE(place.where, where);
}

void TestHostTransport::mariadbPlace_data()
{
    using Kind = ServerPlace::Kind;
    QTest::addColumn<QString>("url");
    QTest::addColumn<QByteArray>("myCnf");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("where");
    QTest::newRow("empty") << QString() << QByteArray() << Kind::Local << u"the local socket"_s;
    QTest::newRow("empty, my.cnf remote")
        << QString() << QByteArray("[client]\nuser = monitor\nhost = \"db2\"\n") << Kind::Remote
        << u"db2"_s;
    QTest::newRow("empty, my.cnf socket")
        << QString() << QByteArray("[client]\nsocket=/tmp/my.sock\n") << Kind::Local
        << u"the local socket"_s;
    QTest::newRow("socket") << u"mariadb:///shop?socket=/tmp/my.sock"_s << QByteArray("host=db2")
                            << Kind::Local << u"a socket"_s;
    QTest::newRow("loopback") << u"mysql://monitor@127.0.0.1:3306/shop"_s << QByteArray()
                              << Kind::Local << u"127.0.0.1"_s;
    QTest::newRow("remote") << u"mariadb://monitor@db1/shop"_s << QByteArray() << Kind::Remote
                            << u"db1"_s;
}

void TestHostTransport::mariadbPlace()
{
    QFETCH(QString, url);
    QFETCH(QByteArray, myCnf);
    QFETCH(ServerPlace::Kind, kind);
    QFETCH(QString, where);
    const ServerPlace place = mariadbServerPlace(url, [&] { return myCnf; });
    QCOMPARE(place.kind, kind);
    QCOMPARE(place.where, where);
}

void TestHostTransport::noErrorPointer()
{
    QVERIFY(!parseHostTransport({ { u"host"_s, u"db1"_s } }, nullptr));
    QVERIFY(parseHostTransport({ { u"host"_s, u"local"_s } }, nullptr));
}

QTEST_GUILESS_MAIN(TestHostTransport)
#include "tst_hosttransport.moc"
