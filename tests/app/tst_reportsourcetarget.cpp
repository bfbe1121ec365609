// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the incident report shows of a source's config (query/report/sourcetarget.h):
// the target stays readable, no secret survives, whatever the option is called or
// where in a connection string or URL the secret sits.
#include "query/report/sourcetarget.h"

#include <QJsonArray>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestReportSourceTarget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void secretNames_data();
    void secretNames();
    void values_data();
    void values();
    void configLines();
};

void TestReportSourceTarget::secretNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("secret");
    for (const char *name :
         { "password", "Password", "passwd", "sslPassword", "secret", "clientSecret", "token",
           "bearerToken", "apiKey", "api_key", "credentials", "authorization", "privateKey" })
        QTest::newRow(name) << QString::fromLatin1(name) << true;
    for (const char *name :
         { "host", "conninfo", "url", "root", "interfaces", "databases", "topStatements", "user" })
        QTest::newRow(name) << QString::fromLatin1(name) << false;
}

void TestReportSourceTarget::secretNames()
{
    QFETCH(QString, name);
    QFETCH(bool, secret);
    QCOMPARE(isSecretOptionName(name), secret);
}

void TestReportSourceTarget::values_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("shown");
    QTest::newRow("conninfo") << u"host=db user=app password=s3cr3t dbname=erp"_s
                              << u"host=db user=app dbname=erp"_s;
    QTest::newRow("conninfo quoted") << u"host=db password='s 3 c' user=x"_s << u"host=db user=x"_s;
    QTest::newRow("postgres uri") << u"postgresql://app:s3cr3t@db:5432/erp"_s
                                  << u"postgresql://app@db:5432/erp"_s;
    QTest::newRow("https user info") << u"https://scraper:s3cr3t@metrics.example/metrics"_s
                                     << u"https://scraper@metrics.example/metrics"_s;
    QTest::newRow("slash in password")
        << u"https://scraper:s3/cr3t@m.example/metrics"_s << u"https://scraper@m.example/metrics"_s;
    QTest::newRow("port, no user info")
        << u"https://m.example:8443/metrics"_s << u"https://m.example:8443/metrics"_s;
    QTest::newRow("query token") << u"https://m.example/metrics?token=s3cr3t&x=1"_s
                                 << u"https://m.example/metrics?token=***&x=1"_s;
    QTest::newRow("plain host") << u"ssh://admin@web1"_s << u"ssh://admin@web1"_s;
    QTest::newRow("empty") << QString() << QString();
}

void TestReportSourceTarget::values()
{
    QFETCH(QString, value);
    QFETCH(QString, shown);
    QCOMPARE(withoutSecrets(value), shown);
    QVERIFY(!withoutSecrets(value).contains(u"s3cr3t"_s));
}

void TestReportSourceTarget::configLines()
{
    const QJsonObject config { { u"conninfo"_s, u"host=db password=s3cr3t"_s },
                               { u"sslpassword"_s, u"s3cr3t"_s },
                               { u"topStatements"_s, 20 },
                               { u"includeLoopback"_s, true },
                               { u"queries"_s, QJsonArray { QJsonObject {}, QJsonObject {} } },
                               { u"probe"_s, QJsonObject { { u"sql"_s, u"SELECT 1"_s } } },
                               { u"gone"_s, QJsonValue::Null } };
    QCOMPARE(sourceTargetLines(config),
             QStringList({ u"conninfo=host=db"_s, u"includeLoopback=true"_s, u"probe=1 options"_s,
                           u"queries=2 items"_s, u"topStatements=20"_s }));
}

QTEST_GUILESS_MAIN(TestReportSourceTarget)
#include "tst_reportsourcetarget.moc"
