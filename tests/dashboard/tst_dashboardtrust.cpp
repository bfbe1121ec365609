// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a dashboard asks to be trusted with, and the store of the answers: targets and
// SQL are listed from the plugins' schemas (local values, the user's own variable
// values and unmarked options are not); the fingerprint changes with a target or a
// query and not with a panel; shipped files are trusted; the store is 0600 and a file
// it cannot read is never overwritten.
#include "document/dashboardtrust.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

QList<CollectorPluginInfo> plugins()
{
    const auto schema
        = [](const char *json) { return QJsonDocument::fromJson(QByteArray(json)).object(); };
    return {
        { u"postgres"_s,
          u"PostgreSQL"_s,
          {},
          schema(R"({"properties": {"conninfo": {"trust": "target"}, "queries": {"trust": "sql"},
                     "probe": {"trust": "sql"}, "statements": {}}})"),
          {} },
        { u"host"_s,
          u"Host"_s,
          {},
          schema(R"({"properties": {"host": {"trust": "target"}}})"),
          {} },
    };
}

Dashboard dashboard()
{
    Dashboard d;
    d.variables.append({ u"pg"_s, u"Server"_s, u"host=db1"_s, {} });
    d.variables.append({ u"host"_s, u"Host"_s, u"local"_s, {} });
    d.sources.append(
        { u"pg"_s, u"postgres"_s, 1000, 3000,
          QJsonObject {
              { u"conninfo"_s, u"${pg}"_s },
              { u"statements"_s, true },
              { u"queries"_s,
                QJsonArray { QJsonObject { { u"name"_s, u"q"_s }, { u"sql"_s, u"SELECT 1"_s } } } },
              { u"probe"_s, QJsonObject { { u"sql"_s, u"SELECT 2"_s } } } } });
    d.sources.append(
        { u"host"_s, u"host"_s, 1000, 3000, QJsonObject { { u"host"_s, u"${host}"_s } } });
    d.panels.append(DashboardPanel {});
    return d;
}

} // namespace

class TestDashboardTrust : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void request();
    void userValuesAreTheUsers();
    void fingerprint();
    void shippedAndEmpty();
    void store();
    void unreadableStoreIsKept();
    void describeMasksPasswords();
};

void TestDashboardTrust::request()
{
    const Dashboard d = dashboard();
    const TrustRequest request = trustRequest(d, plugins(), d.resolveVariables({}));
    QCOMPARE(request.sources(), QStringList { u"pg"_s }); // host is "local"
    QCOMPARE(request.describe(),
             (QStringList { u"source \"pg\" connects to host=db1"_s,
                            u"source \"pg\" runs SQL (probe.sql): SELECT 2"_s,
                            u"source \"pg\" runs SQL (queries[0].sql): SELECT 1"_s }));
    // A remote host typed by the user (a value other than the file's default) is the
    // user's own, so it asks for nothing.
    const TrustRequest typed
        = trustRequest(d, plugins(), d.resolveVariables({ { u"host"_s, u"ssh://x"_s } }));
    QCOMPARE(typed.sources(), QStringList { u"pg"_s });
}

void TestDashboardTrust::userValuesAreTheUsers()
{
    Dashboard d = dashboard();
    d.sources[1].config.insert(u"host"_s, u"ssh://server"_s); // written in the file
    const TrustRequest fromFile = trustRequest(d, plugins(), d.resolveVariables({}));
    QCOMPARE(fromFile.sources(), (QStringList { u"pg"_s, u"host"_s }));
    // The user types another server for ${pg}: the conninfo is theirs, the SQL is not.
    const QMap<QString, QString> typed = d.resolveVariables({ { u"pg"_s, u"host=mine"_s } });
    QCOMPARE(userSuppliedOptions(d, d.sources.at(0), typed), QStringList { u"conninfo"_s });
    const TrustRequest withTyped = trustRequest(d, plugins(), typed);
    QVERIFY(!withTyped.describe().join(u'\n').contains(u"connects to host=mine"_s));
    QVERIFY(withTyped.describe().join(u'\n').contains(u"runs SQL (queries[0].sql)"_s));
    QCOMPARE(userSuppliedOptions(d, d.sources.at(0), d.resolveVariables({})), QStringList());
    // A value picked from the file's own list of options is still the file's.
    d.variables[0].options = QStringList { u"host=db1"_s, u"host=prod hostaddr=203.0.113.9"_s };
    const QMap<QString, QString> picked
        = d.resolveVariables({ { u"pg"_s, u"host=prod hostaddr=203.0.113.9"_s } });
    QCOMPARE(userSuppliedOptions(d, d.sources.at(0), picked), QStringList());
    QVERIFY(trustRequest(d, plugins(), picked)
                .describe()
                .contains(u"source \"pg\" connects to host=prod hostaddr=203.0.113.9"_s));
}

void TestDashboardTrust::fingerprint()
{
    const Dashboard d = dashboard();
    const QString base = trustRequest(d, plugins(), d.resolveVariables({})).fingerprint();
    QCOMPARE(base.size(), 64);
    Dashboard moved = d;
    moved.panels[0].layout.x = 6;
    moved.title = u"renamed"_s;
    QCOMPARE(trustRequest(moved, plugins(), moved.resolveVariables({})).fingerprint(), base);
    Dashboard otherSql = d;
    otherSql.sources[0].config.insert(
        u"queries"_s,
        QJsonArray { QJsonObject { { u"name"_s, u"q"_s }, { u"sql"_s, u"SELECT 3"_s } } });
    QVERIFY(trustRequest(otherSql, plugins(), otherSql.resolveVariables({})).fingerprint() != base);
    Dashboard otherTarget = d;
    otherTarget.variables[0].defaultValue = u"host=db2"_s;
    QVERIFY(trustRequest(otherTarget, plugins(), otherTarget.resolveVariables({})).fingerprint()
            != base);
}

void TestDashboardTrust::shippedAndEmpty()
{
    QTemporaryDir dir;
    const DashboardTrustStore store(dir.filePath(u"trust.json"_s));
    const Dashboard d = dashboard();
    QVERIFY(!checkDashboardTrust(d, u"/tmp/mailed.json"_s, plugins(), d.resolveVariables({}), store)
                 .trusted);
    QCOMPARE(checkDashboardTrust(d, u"/tmp/mailed.json"_s, plugins(), d.resolveVariables({}), store)
                 .held(),
             QStringList { u"pg"_s });
    QVERIFY(checkDashboardTrust(d, u":/dashboards/postgres-use.json"_s, plugins(),
                                d.resolveVariables({}), store)
                .trusted);
    Dashboard local;
    local.sources.append(
        { u"host"_s, u"host"_s, 1000, 3000, QJsonObject { { u"host"_s, u"local"_s } } });
    QVERIFY(checkDashboardTrust(local, u"/tmp/mailed.json"_s, plugins(), {}, store).trusted);
}

void TestDashboardTrust::store()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"state/headroom/trust.json"_s);
    DashboardTrustStore store(path);
    QVERIFY(!store.isTrusted(u"abc"_s));
    QString error;
    QVERIFY2(store.trust(u"abc"_s, u"/tmp/a.json"_s, &error), qPrintable(error));
    QVERIFY2(store.trust(u"def"_s, u"/tmp/b.json"_s, &error), qPrintable(error));
    QVERIFY(store.isTrusted(u"abc"_s));
    QVERIFY(DashboardTrustStore(path).isTrusted(u"def"_s));
    QVERIFY(!store.isTrusted(u"xyz"_s));
    struct stat info {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, 0600u);
    QCOMPARE(::stat(QFile::encodeName(dir.filePath(u"state/headroom"_s)).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, 0700u);
}

void TestDashboardTrust::unreadableStoreIsKept()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"trust.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{ not json");
    file.close();
    DashboardTrustStore store(path);
    QVERIFY(!store.isTrusted(u"abc"_s));
    QString error;
    QVERIFY(!store.trust(u"abc"_s, u"/tmp/a.json"_s, &error));
    QVERIFY2(error.contains(u"not a list of trusted dashboards Headroom can read"_s),
             qPrintable(error));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("{ not json"));
}

void TestDashboardTrust::describeMasksPasswords()
{
    Dashboard d;
    d.sources.append({ u"pg"_s, u"postgres"_s, 1000, 3000,
                       QJsonObject { { u"conninfo"_s, u"host=db1 password=s3cret user=x"_s } } });
    d.sources.append({ u"host"_s, u"host"_s, 1000, 3000,
                       QJsonObject { { u"host"_s, u"http://ops:s3cret@server:9100/metrics"_s } } });
    const TrustRequest request = trustRequest(d, plugins(), {});
    const QString text = request.describe().join(u'\n');
    QVERIFY2(!text.contains(u"s3cret"_s), qPrintable(text));
    QVERIFY2(text.contains(u"host=db1 password=*** user=x"_s), qPrintable(text));
    QVERIFY2(text.contains(u"http://ops:***@server:9100/metrics"_s), qPrintable(text));
    // The fingerprint still covers the real values: a changed password asks again.
    Dashboard changed = d;
    changed.sources[0].config.insert(u"conninfo"_s, u"host=db1 password=other user=x"_s);
    QVERIFY(trustRequest(changed, plugins(), {}).fingerprint() != request.fingerprint());
}

QTEST_GUILESS_MAIN(TestDashboardTrust)
#include "tst_dashboardtrust.moc"
