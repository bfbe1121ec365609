// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The mariadb collector against tests/run-tests' private MariaDB 11.8 (performance_schema
// on): the server's USE figures; a hot table among eight shards, named first; a
// maintenance DELETE blocking writers, its connection named as the root blocker; a
// full-scan flip after an index drop; the CPU of a busy connection from its thread; a
// server that goes away and comes back; and the
// rules for a dashboard file's URL (where ~/.my.cnf's password may go, a read-only
// session). Skipped without the server (HEADROOM_TEST_MARIADB_SOCKET).
#include "mariadbtestutil.h"
#include "tcpproxy.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <algorithm>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

QList<SeriesValue> valuesOf(const PollResult &result, const QString &metric)
{
    QList<SeriesValue> out;
    for (const SeriesValue &v : result.batch.values) {
        if (v.info.key.metric == metric)
            out.append(v);
    }
    return out;
}

std::optional<double> valueOf(const PollResult &result, const QString &metric)
{
    const auto values = valuesOf(result, metric);
    return values.isEmpty() ? std::nullopt : std::optional<double>(values.constFirst().value);
}

PollResult pollOk(MariadbCollector &collector)
{
    PollResult result = collector.poll(QDeadlineTimer(5000));
    if (!result.error.isEmpty())
        qWarning().noquote() << "poll failed:" << result.error;
    return result;
}

} // namespace

class TestMariadbCollector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (mariadbSocket().isEmpty())
            QSKIP("no test MariaDB (HEADROOM_TEST_MARIADB_SOCKET); tests/run-tests starts one");
        // ~/.my.cnf is the user's: every test here brings its own.
        QVERIFY(m_home.isValid());
        qputenv("HOME", m_home.path().toUtf8());
    }

    void serverUseFigures()
    {
        const auto abortedClients = [] {
            return mariadbSql(u"SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                              " WHERE VARIABLE_NAME = 'ABORTED_CLIENTS'"_s);
        };
        const QString abortedBefore = abortedClients();
        auto collector = makeMariadbCollector({ { u"url"_s, rootSocketUrl() } });
        QVERIFY(collector);
        const PollResult first = pollOk(*collector);
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(valueOf(first, u"mariadb.up"_s), 1.0);
        QVERIFY(valueOf(first, u"mariadb.threads.connected"_s).value_or(0) >= 1);
        const double max = valueOf(first, u"mariadb.connections.max"_s).value_or(0);
        QVERIFY(max > 0);
        QVERIFY(valueOf(first, u"mariadb.connections.utilization"_s).value_or(-1) > 0);
        QVERIFY2(!first.notes.join(u' ').contains(u"performance_schema is OFF"_s),
                 qPrintable(first.notes.join(u' ')));
        // Some work for the buffer pool to serve.
        mariadbSql(u"CREATE TABLE IF NOT EXISTS use_figures (id INT PRIMARY KEY);"
                   " INSERT IGNORE INTO use_figures SELECT seq FROM seq_1_to_100;"
                   " SELECT COUNT(*) FROM use_figures;"_s);
        QThread::msleep(1100);
        const PollResult second = pollOk(*collector);
        QVERIFY(valueOf(second, u"mariadb.queries.rate"_s).value_or(0) > 0);
        QVERIFY(valueOf(second, u"mariadb.buffer_pool.hit_ratio"_s));
        QVERIFY(valueOf(second, u"mariadb.statements.total.calls.rate"_s));
        QVERIFY(valueOf(second, u"mariadb.aborted_connects.rate"_s));
        // Closing says goodbye: the server counts no aborted client for Headroom.
        collector.reset();
        QCOMPARE(abortedClients(), abortedBefore);
    }

    // The CPU of each connection from its thread: one running BENCHMARK reads above 50 %
    // of one CPU, named by its connection id, user and masked statement, while a
    // sleeping one reads below 5 %.
    void busyConnectionNamed()
    {
        // The statements stop by themselves should the test die before its KILLs.
        const QString busySql
            = u"SET STATEMENT max_statement_time=60 FOR SELECT BENCHMARK(2000000000, MD5('hr'))"_s;
        const QString idleSql = u"SET STATEMENT max_statement_time=60 FOR SELECT SLEEP(30)"_s;
        const auto killAll = [] {
            const QString ids = mariadbSql(
                u"SELECT GROUP_CONCAT(ID) FROM information_schema.PROCESSLIST"
                " WHERE INFO LIKE 'SET STATEMENT max_statement_time=60 FOR SELECT %'"_s);
            for (const auto allIds = ids.split(u',', Qt::SkipEmptyParts);
                 const QString &id : allIds)
                if (id != "NULL"_L1)
                    mariadbSql(u"KILL "_s + id);
        };
        auto collector = makeMariadbCollector(
            { { u"url"_s, rootSocketUrl() }, { u"statements"_s, false }, { u"tables"_s, false } });
        QVERIFY(collector);
        PollResult poll = pollOk(*collector);
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        QVERIFY2(!poll.notes.join(u' ').contains(u"session CPU"_s),
                 qPrintable(poll.notes.join(u' ')));
        auto busy = mariadbSession(busySql);
        auto idle = mariadbSession(idleSql);
        QVERIFY(waitForStatement(u"SET STATEMENT max_statement_time=60 FOR SELECT BENCHMARK"_s));
        QVERIFY(waitForStatement(u"SET STATEMENT max_statement_time=60 FOR SELECT SLEEP"_s));
        pollOk(*collector); // their threads' baselines
        double busyMax = 0;
        double idleMax = 0;
        double applicationMax = 0;
        Labels busyLabels;
        for (int i = 0; i < 5; ++i) {
            QThread::msleep(1000);
            poll = pollOk(*collector);
            QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
            for (const auto cpuValues = valuesOf(poll, MariadbSessionCpu::CpuMetric);
                 const SeriesValue &v : cpuValues) {
                const QString query = v.info.key.labels.value(u"query"_s);
                if (query.contains(u"BENCHMARK"_s) && v.value >= busyMax) {
                    busyMax = v.value;
                    busyLabels = v.info.key.labels;
                }
                if (query.contains(u"SLEEP"_s))
                    idleMax = std::max(idleMax, v.value);
            }
            for (const auto applicationValues
                 = valuesOf(poll, MariadbSessionCpu::ApplicationMetric);
                 const SeriesValue &v : applicationValues) {
                if (v.info.key.labels.value(u"application"_s) == busyLabels.value(u"application"_s))
                    applicationMax = std::max(applicationMax, v.value);
            }
        }
        killAll();
        busy->waitForFinished(10000);
        idle->waitForFinished(10000);
        qInfo("busy connection %s: %.1f %% of one CPU at most; sleeping one: %.1f %%; "
              "application %s: %.1f %%",
              qPrintable(busyLabels.value(u"thread"_s)), busyMax, idleMax,
              qPrintable(busyLabels.value(u"application"_s)), applicationMax);
        QVERIFY2(busyMax > 50, qPrintable(QString::number(busyMax)));
        QVERIFY2(idleMax < 5, qPrintable(QString::number(idleMax)));
        QVERIFY2(applicationMax > 50, qPrintable(QString::number(applicationMax)));
        QCOMPARE(busyLabels.value(u"user"_s), u"root"_s);
        QVERIFY(busyLabels.value(u"thread"_s).toLongLong() > 0);
        QVERIFY(busyLabels.value(u"os_thread"_s).toLongLong() > 0);
        // The server's process: the one the connection's thread belongs to, a mariadbd.
        const QString serverPid = busyLabels.value(u"server_pid"_s);
        QFile status(u"/proc/"_s + busyLabels.value(u"os_thread"_s) + u"/status"_s);
        QVERIFY(status.open(QIODevice::ReadOnly));
        const QByteArray threadStatus = status.readAll();
        const QByteArray tgid = "\nTgid:\t" + serverPid.toLatin1() + '\n';
        QVERIFY2(threadStatus.contains(tgid), qPrintable(serverPid));
        QFile comm(u"/proc/"_s + serverPid + u"/comm"_s);
        QVERIFY(comm.open(QIODevice::ReadOnly));
        QCOMPARE(comm.readAll().trimmed(), QByteArray("mariadbd"));
        QVERIFY(!busyLabels.value(u"application"_s).isEmpty());
        // The statement's shape, its literals masked.
        QVERIFY2(busyLabels.value(u"query"_s).contains(u"BENCHMARK(?, MD5(?))"_s),
                 qPrintable(busyLabels.value(u"query"_s)));
    }

    void hotTableAmongEightShards()
    {
        QString setup = u"DROP TABLE IF EXISTS "_s;
        for (int i = 0; i < 8; ++i)
            setup += u"hot_s%1%2"_s.arg(i).arg(i < 7 ? u", "_s : u"; "_s);
        for (int i = 0; i < 8; ++i)
            setup += u"CREATE TABLE hot_s%1 (id INT PRIMARY KEY, v INT);"
                     " INSERT INTO hot_s%1 SELECT seq, 0 FROM seq_1_to_200;"_s.arg(i);
        mariadbSql(setup);
        auto collector
            = makeMariadbCollector({ { u"url"_s, rootSocketUrl() }, { u"statements"_s, false } });
        pollOk(*collector); // baselines
        QString load;
        for (int i = 0; i < 8; ++i)
            load += u"SELECT COUNT(*) FROM hot_s%1 WHERE v >= 0;"_s.arg(i);
        for (int i = 0; i < 40; ++i)
            load += u"SELECT COUNT(*) FROM hot_s3 WHERE v >= 0;"_s;
        mariadbSql(load);
        QThread::msleep(200);
        const PollResult result = pollOk(*collector);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        auto loads = valuesOf(result, u"mariadb.shard.load"_s);
        loads.removeIf([](const SeriesValue &v) {
            return v.info.key.labels.value(u"set"_s) != "headroom_test.hot_s"_L1;
        });
        QCOMPARE(loads.size(), 8);
        std::sort(loads.begin(), loads.end(),
                  [](const SeriesValue &a, const SeriesValue &b) { return a.value > b.value; });
        QCOMPARE(loads.constFirst().info.key.labels.value(u"shard"_s), u"hot_s3"_s);
        // 41 of 48 scans: about 85 % of the set's rows read.
        QVERIFY2(loads.constFirst().value > 70,
                 qPrintable(QString::number(loads.constFirst().value)));
        QVERIFY(loads.at(1).value < 10);
        std::optional<double> shards;
        for (const SeriesValue &v : std::as_const(result.batch.values)) {
            if (v.info.key.metric == "mariadb.shardset.shards"_L1
                && v.info.key.labels.value(u"set"_s) == "headroom_test.hot_s"_L1)
                shards = v.value;
        }
        QCOMPARE(shards, 8.0);
    }

    void maintenanceDeleteBlocksWriters()
    {
        mariadbSql(u"DROP TABLE IF EXISTS maint; CREATE TABLE maint (id INT PRIMARY KEY, v INT);"
                   " INSERT INTO maint SELECT seq, 0 FROM seq_1_to_400;"_s);
        auto collector = makeMariadbCollector(
            { { u"url"_s, rootSocketUrl() }, { u"statements"_s, false }, { u"tables"_s, false } });
        // Housekeeping row by row, as user app: 400 rows at 50 ms each.
        auto deleter = mariadbSession(u"DELETE FROM maint WHERE id <= 400 AND SLEEP(0.05) = 0"_s,
                                      u"app"_s, u"app-secret"_s);
        // The DELETE first holds row 1, then the writers queue for it.
        QVERIFY(waitForStatement(u"DELETE FROM maint"_s));
        auto writer1 = mariadbSession(u"UPDATE maint SET v = v + 1 WHERE id = 1"_s);
        auto writer2 = mariadbSession(u"UPDATE maint SET v = v + 2 WHERE id = 1"_s);

        PollResult result;
        QElapsedTimer waited;
        waited.start();
        do {
            QThread::msleep(300);
            result = pollOk(*collector);
        } while (valueOf(result, u"mariadb.locks.blocked"_s).value_or(0) < 2
                 && waited.elapsed() < 15000);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(valueOf(result, u"mariadb.locks.blocked"_s), 2.0);
        QCOMPARE(valueOf(result, u"mariadb.locks.root_blockers"_s), 1.0);
        const auto roots = valuesOf(result, u"mariadb.locks.root_blocked"_s);
        QCOMPARE(roots.size(), 1);
        const Labels root = roots.constFirst().info.key.labels;
        QCOMPARE(roots.constFirst().value, 2.0);
        QCOMPARE(root.value(u"user"_s), u"app"_s);
        QCOMPARE(root.value(u"query"_s), u"DELETE FROM maint WHERE id <= ? AND SLEEP(?) = ?"_s);
        const QString deleterId = mariadbSql(
            u"SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'app' AND INFO LIKE 'DELETE%'"_s);
        QCOMPARE(root.value(u"pid"_s), deleterId);
        // The tree's nodes: both writers hang off the DELETE's connection.
        const auto nodes = valuesOf(result, u"mariadb.locks.session_xact_age_s"_s);
        int waiting = 0;
        for (const SeriesValue &v : nodes)
            waiting += v.info.key.labels.value(u"blocked_by"_s) == deleterId ? 1 : 0;
        QCOMPARE(waiting, 2);

        mariadbSql(u"KILL "_s + deleterId);
        for (auto *p : { deleter.get(), writer1.get(), writer2.get() })
            QVERIFY(p->waitForFinished(30000));
        // InnoDB serves INNODB_TRX and INNODB_LOCK_WAITS from a snapshot it refreshes at
        // most every 100 ms, so a poll right after the previous one may still see the waits.
        PollResult after;
        waited.restart();
        do {
            QThread::msleep(150);
            after = pollOk(*collector);
        } while (valueOf(after, u"mariadb.locks.blocked"_s).value_or(0) > 0
                 && waited.elapsed() < 5000);
        QCOMPARE(valueOf(after, u"mariadb.locks.blocked"_s), 0.0);
        QVERIFY(valuesOf(after, u"mariadb.locks.root_blocked"_s).isEmpty());
    }

    void fullScanFlipAfterIndexDrop()
    {
        mariadbSql(
            u"DROP TABLE IF EXISTS flip; CREATE TABLE flip (id INT AUTO_INCREMENT PRIMARY KEY,"
            " k INT, pad CHAR(50), INDEX flip_k (k));"
            " INSERT INTO flip (k, pad) SELECT seq % 1000, 'x' FROM seq_1_to_5000;"
            " ANALYZE TABLE flip;"_s);
        auto collector = makeMariadbCollector(
            { { u"url"_s, rootSocketUrl() }, { u"tables"_s, false }, { u"topStatements"_s, 100 } });
        const QString statement = u"SELECT pad FROM flip WHERE k = 7;"_s;
        const auto ratioAfterRuns = [&]() -> double {
            pollOk(*collector);
            mariadbSql(statement.repeated(30));
            const PollResult result = pollOk(*collector);
            for (const auto vs
                 = valuesOf(result, u"mariadb.statements.rows_examined_per_row_sent"_s);
                 const SeriesValue &v : vs) {
                if (v.info.key.labels.value(u"query"_s).contains(u"FROM `flip` WHERE `k` ="_s))
                    return v.value;
            }
            QStringList metrics;
            for (const SeriesValue &v : result.batch.values)
                metrics << v.info.key.metric + u' ' + v.info.key.labels.value(u"query"_s);
            qWarning().noquote() << "no flip statement in" << metrics
                                 << "; warnings:" << result.warnings;
            return -1;
        };
        const double indexed = ratioAfterRuns();
        QVERIFY2(indexed > 0 && indexed < 3, qPrintable(QString::number(indexed)));
        mariadbSql(u"ALTER TABLE flip DROP INDEX flip_k"_s);
        const double scanning = ratioAfterRuns();
        qInfo("rows examined per row sent: %.1f with the index, %.1f without", indexed, scanning);
        // 5,000 rows read for every 5 sent.
        QVERIFY2(scanning > 100 * indexed, qPrintable(u"%1 -> %2"_s.arg(indexed).arg(scanning)));
    }

    void serverAwayAndBack()
    {
        TcpProxy proxy { quint16(mariadbPort()) };
        QVERIFY(proxy.start());
        // The monitoring user's password in ~/.my.cnf, for the host and port it names.
        writeMyCnf(
            u"[client]\nuser=monitor\npassword=monitor-secret\nhost=127.0.0.1\nport=%1\n"_s.arg(
                proxy.port()));
        auto collector = makeMariadbCollector(
            { { u"url"_s, u"mariadb://monitor@127.0.0.1:%1/"_s.arg(proxy.port()) },
              { u"connectTimeoutMs"_s, 1000 } });
        QVERIFY(collector);
        PollResult up = pollOk(*collector);
        QVERIFY2(up.error.isEmpty(), qPrintable(up.error));
        QCOMPARE(valueOf(up, u"mariadb.up"_s), 1.0);

        proxy.stop();
        const PollResult lost = collector->poll(QDeadlineTimer(3000));
        QVERIFY(!lost.error.isEmpty());
        QVERIFY(!valueOf(lost, u"mariadb.up"_s));
        const PollResult backingOff = collector->poll(QDeadlineTimer(3000));
        QVERIFY2(backingOff.error.startsWith(u"reconnecting in"_s), qPrintable(backingOff.error));

        QVERIFY(proxy.start(proxy.port()));
        PollResult back;
        QElapsedTimer waited;
        waited.start();
        do {
            QThread::msleep(250);
            back = collector->poll(QDeadlineTimer(3000));
        } while (!back.error.isEmpty() && waited.elapsed() < 10000);
        QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
        QCOMPARE(valueOf(back, u"mariadb.up"_s), 1.0);
        // A new session starts its rates afresh: a gap, then rates again.
        QVERIFY(!valueOf(back, u"mariadb.queries.rate"_s));
        QThread::msleep(1100);
        QVERIFY(valueOf(pollOk(*collector), u"mariadb.queries.rate"_s));
    }

    void dashboardUrlRules()
    {
        writeMyCnf(u"[client]\npassword=monitor-secret\n"_s); // no host: the user's own server
        const QString url = u"mariadb://monitor@127.0.0.1:%1/"_s.arg(mariadbPort());
        // Written in a dashboard file: the password stays home, and the error says why.
        auto fromFile = makeMariadbCollector({ { u"url"_s, url } });
        QVERIFY(fromFile);
        const PollResult refused = fromFile->poll(QDeadlineTimer(5000));
        QVERIFY2(refused.error.contains(u"Access denied"_s)
                     && refused.error.contains(u"no password was sent"_s),
                 qPrintable(refused.error));
        QVERIFY(!refused.error.contains(u"monitor-secret"_s));
        // Typed by the user (--var): sent.
        auto typed = makeMariadbCollector({ { u"url"_s, url } }, { u"url"_s });
        const PollResult ok = typed->poll(QDeadlineTimer(5000));
        QVERIFY2(ok.error.isEmpty(), qPrintable(ok.error));
        QCOMPARE(valueOf(ok, u"mariadb.up"_s), 1.0);
        // The session cannot write, even as root, who may.
        mariadbSql(u"CREATE TABLE IF NOT EXISTS readonly_probe (id INT PRIMARY KEY)"_s);
        auto root = makeMariadbCollector({ { u"url"_s, rootSocketUrl() } });
        QVERIFY(root->poll(QDeadlineTimer(5000)).error.isEmpty());
        const MariadbResult write = root->connection().exec(
            "INSERT INTO headroom_test.readonly_probe VALUES (1)", QDeadlineTimer(5000));
        QVERIFY(!write.ok());
        QVERIFY2(write.error().contains(u"READ ONLY"_s, Qt::CaseInsensitive),
                 qPrintable(write.error()));
        // A password in the URL never opens.
        QString error;
        QVERIFY(!makeMariadbCollector(
            { { u"url"_s, u"mariadb://monitor:monitor-secret@127.0.0.1/"_s } }, {}, &error));
        QVERIFY2(error.contains(u"holds a password"_s) && !error.contains(u"monitor-secret"_s),
                 qPrintable(error));
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

QTEST_GUILESS_MAIN(TestMariadbCollector)
#include "tst_mariadbcollector.moc"
