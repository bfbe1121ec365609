// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A MariaDB as it ships, performance_schema OFF, on a server of this test's own
// (tests/mariadb-server with HEADROOM_MARIADB_PERFORMANCE_SCHEMA=OFF): the source status
// says what is missing and how to get it, the server figures and the blocking tree carry
// on, and once user statistics are on (SET GLOBAL userstat=1, no restart) the tables
// and a hot shard come from information_schema.TABLE_STATISTICS.
#include "mariadbtestutil.h"

#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

bool hasMetric(const PollResult &result, QStringView prefix)
{
    for (const SeriesValue &v : result.batch.values) {
        if (v.info.key.metric.startsWith(prefix))
            return true;
    }
    return false;
}

} // namespace

class TestMariadbUserstat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (mariadbSocket().isEmpty())
            QSKIP("no MariaDB for the tests (tests/run-tests starts one where mariadbd is)");
        QProcess server;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HEADROOM_MARIADB_PERFORMANCE_SCHEMA"_s, u"OFF"_s);
        server.setProcessEnvironment(env);
        server.start(
            u"bash"_s,
            { QStringLiteral(HEADROOM_FIXTURES_DIR "/../mariadb-server"), u"start"_s, u"NOPS"_s });
        QVERIFY(server.waitForFinished(90000));
        QVERIFY2(server.exitCode() == 0, server.readAllStandardError().constData());
        // export NOPS_SOCKET=... NOPS_PORT=... NOPS_DIR=...
        for (const auto words = QString::fromUtf8(server.readAllStandardOutput()).split(u' ');
             const QString &word : words) {
            if (word.startsWith(u"NOPS_SOCKET="_s))
                m_socket = word.mid(12).trimmed();
            if (word.startsWith(u"NOPS_DIR="_s))
                m_dir = word.mid(9).trimmed();
        }
        QVERIFY(!m_socket.isEmpty() && !m_dir.isEmpty());
    }
    void cleanupTestCase()
    {
        if (m_dir.isEmpty())
            return;
        QProcess stop;
        stop.start(
            u"bash"_s,
            { QStringLiteral(HEADROOM_FIXTURES_DIR "/../mariadb-server"), u"stop"_s, m_dir });
        stop.waitForFinished(60000);
    }

    void withoutPerformanceSchema()
    {
        sql(u"CREATE TABLE ps_s0 (id INT PRIMARY KEY, v INT); CREATE TABLE ps_s1 LIKE ps_s0;"
            " CREATE TABLE ps_s2 LIKE ps_s0;"
            " INSERT INTO ps_s0 SELECT seq, 0 FROM seq_1_to_300;"
            " INSERT INTO ps_s1 SELECT * FROM ps_s0; INSERT INTO ps_s2 SELECT * FROM ps_s0;"_s);
        auto collector = makeMariadbCollector(
            { { u"url"_s,
                QString(u"mariadb://root@localhost/headroom_test?socket="_s + m_socket) } });
        QVERIFY(collector);
        const PollResult off = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(off.error.isEmpty(), qPrintable(off.error));
        QVERIFY2(off.notes.join(u' ').contains(u"performance_schema is OFF"_s)
                     && off.notes.join(u' ').contains(u"SET GLOBAL userstat=1"_s),
                 qPrintable(off.notes.join(u' ')));
        QVERIFY(hasMetric(off, u"mariadb.threads.connected"));
        QVERIFY(hasMetric(off, u"mariadb.locks.blocked"));
        QVERIFY(!hasMetric(off, u"mariadb.statements."));
        QVERIFY(!hasMetric(off, u"mariadb.table."));

        sql(u"SET GLOBAL userstat = 1"_s);
        collector->poll(QDeadlineTimer(5000)); // baselines of the tables seen so far
        QString scans;
        for (int i = 0; i < 20; ++i)
            scans += u"SELECT COUNT(*) FROM ps_s1 WHERE v >= 0;"_s;
        scans
            += u"SELECT COUNT(*) FROM ps_s0 WHERE v >= 0; SELECT COUNT(*) FROM ps_s2 WHERE v >= 0;"_s;
        sql(scans);
        QThread::msleep(200);
        const PollResult on = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(on.error.isEmpty(), qPrintable(on.error));
        QVERIFY2(on.notes.join(u' ').contains(u"from user statistics"_s),
                 qPrintable(on.notes.join(u' ')));
        QVERIFY(hasMetric(on, u"mariadb.table.reads.rate"));
        QVERIFY(!hasMetric(on, u"mariadb.table.io_wait.rate")); // userstat has no I/O time
        const SeriesValue *hottest = nullptr;
        for (const SeriesValue &v : on.batch.values) {
            if (v.info.key.metric == "mariadb.shard.load"_L1
                && (!hottest || v.value > hottest->value))
                hottest = &v;
        }
        QVERIFY(hottest);
        QCOMPARE(hottest->info.key.labels.value(u"set"_s), u"headroom_test.ps_s"_s);
        QCOMPARE(hottest->info.key.labels.value(u"shard"_s), u"ps_s1"_s);
        QVERIFY2(hottest->value > 80, qPrintable(QString::number(hottest->value)));
    }

private:
    void sql(const QString &statements)
    {
        QProcess client;
        client.start(u"mariadb"_s,
                     { u"--socket="_s + m_socket, u"--user=root"_s, u"headroom_test"_s, u"-e"_s,
                       statements });
        QVERIFY(client.waitForFinished(60000));
        QVERIFY2(client.exitCode() == 0, client.readAllStandardError().constData());
    }

    QString m_socket;
    QString m_dir;
};

QTEST_GUILESS_MAIN(TestMariadbUserstat)
#include "tst_mariadbuserstat.moc"
