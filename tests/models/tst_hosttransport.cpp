// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The "host" option of the host and nic collectors, read once by parseHostTransport:
// which transport each value names, what a Local one reads under "root", and the
// refusals, word for word (the collectors' create() tests check the same messages
// through the plugins).
#include "collector/hosttransport.h"

#include <QJsonObject>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Headroom::HostTransport::Kind)

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

void TestHostTransport::noErrorPointer()
{
    QVERIFY(!parseHostTransport({ { u"host"_s, u"db1"_s } }, nullptr));
    QVERIFY(parseHostTransport({ { u"host"_s, u"local"_s } }, nullptr));
}

QTEST_GUILESS_MAIN(TestHostTransport)
#include "tst_hosttransport.moc"
