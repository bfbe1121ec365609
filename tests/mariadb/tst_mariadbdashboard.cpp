// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The shipped "MariaDB / MySQL — USE" dashboard, exported headless by the real binary
// against the test MariaDB (--var server=...), while a maintenance DELETE blocks a
// writer and one table of a shard set is read hot: every panel with something to show
// has CSV rows (the replication panel has none: the server is no replica), the
// blocking tree names the DELETE's connection, and the hot table tops the shard table.
// The server is on its socket, so the host source reads this machine: its panels, and
// its rows in the USE matrix.
#include "mariadbtestutil.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>

using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestMariadbDashboard : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exportHasEveryPanel()
    {
        if (mariadbSocket().isEmpty())
            QSKIP("no test MariaDB (run through ./dev test)");
        QString setup
            = u"DROP TABLE IF EXISTS dash_lock; CREATE TABLE dash_lock (id INT PRIMARY KEY, v INT);"
              " INSERT INTO dash_lock SELECT seq, 0 FROM seq_1_to_600;"_s;
        for (int i = 0; i < 4; ++i)
            setup += u"DROP TABLE IF EXISTS dash_s%1; CREATE TABLE dash_s%1 (id INT PRIMARY KEY, v "
                     u"INT);"
                     " INSERT INTO dash_s%1 SELECT seq, 0 FROM seq_1_to_500;"_s.arg(i);
        mariadbSql(setup);
        // Housekeeping row by row for about 30 s (ended once the export is written), a
        // writer queued behind it, and shard
        // dash_s2 read ten times as often as the others, spread over the collection.
        auto deleter = mariadbSession(u"DELETE FROM dash_lock WHERE SLEEP(0.05) = 0"_s, u"app"_s,
                                      u"app-secret"_s);
        QVERIFY(waitForStatement(u"DELETE FROM dash_lock"_s));
        auto writer = mariadbSession(u"UPDATE dash_lock SET v = 1 WHERE id = 1"_s);
        QString scans;
        for (int round = 0; round < 40; ++round) {
            for (int hot = 0; hot < 10; ++hot)
                scans += u"SELECT COUNT(*) FROM dash_s2 WHERE v >= 0;"_s;
            scans += u"SELECT COUNT(*) FROM dash_s%1 WHERE v >= 0; SELECT SLEEP(0.2);"_s.arg(round
                                                                                             % 4);
        }
        auto scanner = mariadbSession(scans);

        QTemporaryDir dir;
        const QString csv = dir.filePath(u"mariadb.csv"_s);
        QProcess headroom;
        headroom.start(QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"),
                       { u"--no-cache"_s, u"--dashboard"_s, u"mariadb-use.json"_s, u"--var"_s,
                         u"server="_s + rootSocketUrl(), u"--collect-for"_s, u"6"_s, u"--range"_s,
                         u"1m"_s, u"--export-png"_s, dir.filePath(u"m.png"_s), u"--export-csv"_s,
                         csv });
        QVERIFY(headroom.waitForFinished(60000));
        QVERIFY2(headroom.exitCode() == 0, headroom.readAllStandardError().constData());
        mariadbSql(
            u"KILL QUERY "_s
            + mariadbSql(
                u"SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'DELETE FROM dash_lock%'"_s));
        QVERIFY(deleter->waitForFinished(30000)); // interrupted: its own exit status
        for (auto *p : { writer.get(), scanner.get() }) {
            QVERIFY(p->waitForFinished(60000));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }

        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QSet<QString> panels;
        QList<QByteArray> topShards;
        bool blockingNamesDelete = false;
        QByteArrayList blockingRows;
        QByteArrayList matrixHostRows; // the USE matrix's rows of the host source
        QByteArrayList matrixNicRows; // and of its network
        for (const auto lines = file.readAll().split('\n'); const QByteArray &line : lines) {
            const QList<QByteArray> fields = line.trimmed().split(',');
            if (fields.size() < 7 || fields[0] == "time")
                continue;
            panels.insert(QString::fromUtf8(fields[1]));
            if (fields[1] == "top-shards")
                topShards.append(line.trimmed());
            if (fields[1] == "blocking")
                blockingRows.append(line.trimmed());
            if (fields[1] == "use-matrix" && fields[2] == "host")
                matrixHostRows.append(line.trimmed());
            if (fields[1] == "use-matrix" && fields[2] == "nic")
                matrixNicRows.append(line.trimmed());
            // A root (depth 0) running the DELETE as app; '=' in a label is escaped.
            if (fields[1] == "blocking" && fields[3] == "mariadb.locks.session"
                && line.contains("depth=0") && line.contains("user=app")
                && line.contains("query=DELETE FROM dash_lock WHERE SLEEP(?) \\= ?"))
                blockingNamesDelete = true;
        }
        const QStringList expected {
            u"use-matrix"_s, u"connections"_s, u"threads"_s, u"row-locks"_s, u"row-lock-time"_s,
            u"queries"_s, u"buffer-pool"_s, u"errors"_s, u"full-scans"_s, u"statements-time"_s,
            u"statements-calls"_s, u"rows-examined"_s, u"shard-load"_s, u"shard-sets"_s,
            u"shard-histogram"_s, u"top-shards"_s, u"blocking"_s,
            // The server's host: this machine, as the server is on its socket.
            u"host-cpu"_s, u"host-processes"_s
        };
        for (const QString &panel : expected)
            QVERIFY2(panels.contains(panel), qPrintable(u"no rows for panel "_s + panel));
        QVERIFY2(blockingNamesDelete, blockingRows.join('\n').constData());
        // The USE matrix shows the host's CPU and memory beside the server's rows.
        const QByteArray matrixHost = matrixHostRows.join('\n');
        QVERIFY2(matrixHost.contains(",host.cpu.utilization,")
                     && matrixHost.contains(",host.mem.utilization,"),
                 matrixHost.constData());
        // And the host's network: its TCP row (listen queue drops, counted on any machine).
        const QByteArray matrixNic = matrixNicRows.join('\n');
        QVERIFY2(matrixNic.contains(",tcp.listen_drops,"), matrixNic.constData());
        QVERIFY(!topShards.isEmpty());
        QVERIFY2(topShards.constFirst().contains("dash_s2"), topShards.constFirst().constData());
    }

    // A dashboard file mailed by someone else names a server: a headless run refuses it
    // without --trust, and with --trust the user's ~/.my.cnf password still does not go
    // there (the file's host is not the one ~/.my.cnf names); the status says why.
    void untrustedFile()
    {
        if (mariadbSocket().isEmpty())
            QSKIP("no test MariaDB (run through ./dev test)");
        QTemporaryDir home;
        QFile cnf(home.filePath(u".my.cnf"_s));
        QVERIFY(cnf.open(QIODevice::WriteOnly));
        cnf.write("[client]\nuser=app\npassword=app-secret\n");
        cnf.close();
        const QString url = u"mariadb://app@127.0.0.1:%1/headroom_test"_s.arg(mariadbPort());
        QFile shipped(
            QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards/mariadb-use.json"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QByteArray text = shipped.readAll();
        text.replace("\"url\": \"${server}\"", QByteArray("\"url\": \"" + url.toUtf8() + '"'));
        const QString mailed = home.filePath(u"mailed.json"_s);
        QFile file(mailed);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
        file.close();

        const auto run = [&](const QStringList &extra) {
            QProcess headroom;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(u"HOME"_s, home.path());
            headroom.setProcessEnvironment(env);
            headroom.start(QStringLiteral(HEADROOM_BUILD_DIR "/bin/headroom"),
                           QStringList { u"--no-cache"_s, u"--dashboard"_s, mailed,
                                         u"--collect-for"_s, u"3"_s, u"--export-csv"_s,
                                         home.filePath(u"out.csv"_s) }
                               + extra);
            headroom.waitForFinished(60000);
            return std::pair { headroom.exitCode(),
                               QString::fromUtf8(headroom.readAllStandardError()) };
        };
        const auto [refusedCode, refused] = run({});
        QCOMPARE(refusedCode, 2);
        QVERIFY2(refused.contains(url), qPrintable(refused));
        const auto [trustedCode, trusted] = run({ u"--trust"_s });
        Q_UNUSED(trustedCode);
        QVERIFY2(trusted.contains(u"no password was sent"_s), qPrintable(trusted));
        QVERIFY(!trusted.contains(u"app-secret"_s));
    }
};

QTEST_GUILESS_MAIN(TestMariadbDashboard)
#include "tst_mariadbdashboard.moc"
