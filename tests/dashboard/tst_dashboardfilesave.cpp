// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Saving dashboard files: no password is ever written (config keys, URLs, conninfo
// strings and the variables that feed them), and a save that fails leaves the old file
// as it was (atomic writes).
#include "dashboardfiletestutil.h"
#include "document/dashboardfile.h"

#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <sys/resource.h>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestDashboardFileSave : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void passwordsNeverWritten();
    void conninfoPasswordsNeverWritten_data();
    void conninfoPasswordsNeverWritten();
    void hostServerPasswordsNeverWritten_data();
    void hostServerPasswordsNeverWritten();
    void saveOverExistingInUnwritableDirectory();
    void failedWriteKeepsOldFile();
    void saveIntoMissingDirectory();
};

void TestDashboardFileSave::passwordsNeverWritten()
{
    Dashboard d;
    d.title = u"t"_s;
    DashboardSource source;
    source.id = u"pg"_s;
    source.plugin = u"postgres"_s;
    source.config = object(R"({"host": "db", "password": "hunter2",
                               "auth": {"Password": "x", "user": "u"},
                               "list": [{"PASSWORD": "y", "keep": 1}, "password"]})");
    DashboardSource exporter;
    exporter.id = u"node"_s;
    exporter.plugin = u"prometheus"_s;
    exporter.config = { { u"url"_s, u"https://scrape:hunter3@node1:9100/metrics"_s } };
    d.sources = { source, exporter };
    // A host variable typed with a password: the value in use becomes the default.
    DashboardVariable host;
    host.name = u"host"_s;
    host.defaultValue = u"ssh://ops:hunter4@db1:2222"_s;
    host.options = { u"local"_s, u"ssh://ops:hunter5@db2"_s };
    d.variables = { host };

    const QByteArray json = dashboardToJson(d);
    QVERIFY2(!json.toLower().contains("\"password\":"), json.constData());
    QVERIFY(!json.contains("hunter"));
    const DashboardLoadResult result = parseDashboard(json, u"x"_s);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->sources.at(0).config, object(R"({"host": "db", "auth": {"user": "u"},
                        "list": [{"keep": 1}, "password"]})"));
    QCOMPARE(result.dashboard->sources.at(1).config,
             (QJsonObject { { u"url"_s, u"https://scrape@node1:9100/metrics"_s } }));
    QCOMPARE(result.dashboard->variables.at(0).defaultValue, u"ssh://ops@db1:2222"_s);
    QCOMPARE(result.dashboard->variables.at(0).options,
             (QStringList { u"local"_s, u"ssh://ops@db2"_s }));

    QTemporaryDir dir;
    const QString path = dir.filePath(u"pg.json"_s);
    QString error;
    QVERIFY(saveDashboard(d, path, &error));
    QVERIFY(!readAll(path).contains("hunter"));
}

// A libpq connection string with a password, typed into the source's conninfo or into
// the variable that feeds it (the value in use becomes the default on Save), in
// keyword/value or URI form: the saved file holds the rest of it and no password.
void TestDashboardFileSave::conninfoPasswordsNeverWritten_data()
{
    QTest::addColumn<QString>("conninfo"); // the source's option
    QTest::addColumn<QString>("value"); // the pg variable's default and second option
    QTest::addColumn<QString>("savedConninfo");
    QTest::addColumn<QString>("savedValue");

    QTest::newRow("keyword in the option") << u"host=db password=hunter2 dbname=erp"_s << u"local"_s
                                           << u"host=db dbname=erp"_s << u"local"_s;
    QTest::newRow("quoted keyword in the option")
        << u"host=db password='hun ter2'"_s << u"local"_s << u"host=db"_s << u"local"_s;
    QTest::newRow("uri query in the option")
        << u"postgresql://db/erp?password=hunter2&sslmode=require"_s << u"local"_s
        << u"postgresql://db/erp?sslmode=require"_s << u"local"_s;
    QTest::newRow("uri user info in the option")
        << u"postgresql://app:hunter2@db/erp"_s << u"local"_s << u"postgresql://app@db/erp"_s
        << u"local"_s;
    QTest::newRow("keyword in the variable") << u"${pg}"_s << u"host=db user=app password=hunter2"_s
                                             << u"${pg}"_s << u"host=db user=app"_s;
    QTest::newRow("variable inside a longer conninfo")
        << u"${pg} application_name=x"_s << u"sslpassword=hunter2 host=db"_s
        << u"${pg} application_name=x"_s << u"host=db"_s;
    QTest::newRow("uri in the variable")
        << u"${pg}"_s << u"postgres://app:hunter2@db/erp?sslpassword=hunter2"_s << u"${pg}"_s
        << u"postgres://app@db/erp"_s;
    // A variable that feeds no conninfo keeps "password=" in its text: it may be anything,
    // a SQL filter say, and is not read as a connection string.
    QTest::newRow("no conninfo, kept")
        << u"host=db"_s << u"password=abc"_s << u"host=db"_s << u"password=abc"_s;
}

void TestDashboardFileSave::conninfoPasswordsNeverWritten()
{
    QFETCH(QString, conninfo);
    QFETCH(QString, value);
    QFETCH(QString, savedConninfo);
    QFETCH(QString, savedValue);
    Dashboard d;
    d.title = u"t"_s;
    DashboardVariable pg { u"pg"_s, u"Server"_s, value, { u""_s, value } };
    d.variables = { pg };
    DashboardSource source;
    source.id = u"pg"_s;
    source.plugin = u"postgres"_s;
    source.config = { { u"conninfo"_s, conninfo } };
    d.sources = { source };

    QTemporaryDir dir;
    const QString path = dir.filePath(u"pg.json"_s);
    QString error;
    QVERIFY2(saveDashboard(d, path, &error), qPrintable(error));
    const QByteArray written = readAll(path);
    QVERIFY2(!written.contains("hunter"), written.constData());
    const DashboardLoadResult result = loadDashboard(path);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->sources.at(0).config.value(u"conninfo"_s).toString(), savedConninfo);
    QCOMPARE(result.dashboard->variables.at(0).defaultValue, savedValue);
    QCOMPARE(result.dashboard->variables.at(0).options, (QStringList { u""_s, savedValue }));
}

// A database dashboard's host source names the server it runs (postgresServer, a
// conninfo): a password there, or in a variable feeding it alone, is not written either.
void TestDashboardFileSave::hostServerPasswordsNeverWritten_data()
{
    QTest::addColumn<QString>("server"); // the host source's postgresServer
    QTest::addColumn<QString>("value"); // the srv variable's default
    QTest::addColumn<QString>("savedServer");
    QTest::addColumn<QString>("savedValue");
    QTest::newRow("in the option")
        << u"host=db password=hunter2"_s << u"local"_s << u"host=db"_s << u"local"_s;
    QTest::newRow("in the variable")
        << u"${srv}"_s << u"host=db password=hunter2"_s << u"${srv}"_s << u"host=db"_s;
}

void TestDashboardFileSave::hostServerPasswordsNeverWritten()
{
    QFETCH(QString, server);
    QFETCH(QString, value);
    QFETCH(QString, savedServer);
    QFETCH(QString, savedValue);
    Dashboard d;
    d.title = u"t"_s;
    d.variables = { DashboardVariable { u"srv"_s, u"Server"_s, value, { value } } };
    DashboardSource source;
    source.id = u"host"_s;
    source.plugin = u"host"_s;
    source.config = { { u"host"_s, u""_s }, { u"postgresServer"_s, server } };
    d.sources = { source };

    QTemporaryDir dir;
    const QString path = dir.filePath(u"db.json"_s);
    QString error;
    QVERIFY2(saveDashboard(d, path, &error), qPrintable(error));
    const QByteArray written = readAll(path);
    QVERIFY2(!written.contains("hunter"), written.constData());
    const DashboardLoadResult result = loadDashboard(path);
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.dashboard->sources.at(0).config.value(u"postgresServer"_s).toString(),
             savedServer);
    QCOMPARE(result.dashboard->variables.at(0).defaultValue, savedValue);
}

void TestDashboardFileSave::saveOverExistingInUnwritableDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString sub = dir.filePath(u"locked"_s);
    QVERIFY(QDir().mkdir(sub));
    const QString path = sub + u"/dash.json"_s;
    Dashboard old = fullDashboard();
    old.title = u"old"_s;
    QString error;
    QVERIFY2(saveDashboard(old, path, &error), qPrintable(error));
    const QByteArray before = readAll(path);

    QVERIFY(QFile::setPermissions(sub, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    const auto restore = qScopeGuard([&] {
        QFile::setPermissions(
            sub, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    });
    {
        QFile probe(sub + u"/probe"_s);
        if (probe.open(QIODevice::WriteOnly)) {
            probe.close();
            probe.remove();
            QSKIP("directory permissions do not apply to this user (root); "
                  "failedWriteKeepsOldFile covers the failed save");
        }
    }

    Dashboard changed = fullDashboard();
    changed.title = u"new"_s;
    QVERIFY(!saveDashboard(changed, path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(sub).entryList(QDir::Files | QDir::Hidden), QStringList { u"dash.json"_s });
    QCOMPARE(loadDashboard(path).dashboard->title, u"old"_s);
}

void TestDashboardFileSave::failedWriteKeepsOldFile()
{
    // A write that fails half way (here: the file size limit, which applies to
    // root as well) must leave the old file exactly as it was.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"dash.json"_s);
    Dashboard old;
    old.title = u"old"_s;
    QString error;
    QVERIFY2(saveDashboard(old, path, &error), qPrintable(error));
    const QByteArray before = readAll(path);

    Dashboard changed = fullDashboard();
    QVERIFY(dashboardToJson(changed).size() > 1024);

    rlimit saved {};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = saved;
    limited.rlim_cur = 512;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &limited), 0);
    const bool saved_ok = saveDashboard(changed, path, &error);
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previousHandler);

    QVERIFY(!saved_ok);
    QVERIFY2(error.startsWith(path + u": cannot save: "_s), qPrintable(error));
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList { u"dash.json"_s });
}

void TestDashboardFileSave::saveIntoMissingDirectory()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"missing/dash.json"_s);
    QString error;
    QVERIFY(!saveDashboard(fullDashboard(), path, &error));
    QVERIFY2(error.startsWith(path + u": cannot save: "_s), qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

QTEST_GUILESS_MAIN(TestDashboardFileSave)
#include "tst_dashboardfilesave.moc"
