// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The mariadb collector's logic without a server: URLs and options (a password in a
// dashboard's URL is refused), ~/.my.cnf and the rule for where its password may go,
// reset-safe status rates, the statement top (own statements left out, untrusted
// digests never reach SQL), table load and shard sets by name, and masking literals out
// of running statements.
#include "mariadblocks.h"
#include "mariadbmycnf.h"
#include "mariadboptions.h"
#include "mariadbstatements.h"
#include "mariadbstatus.h"
#include "mariadbtables.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

const QString Source = u"db"_s;

std::optional<double> valueOf(const SampleBatch &batch, const QString &metric,
                              const Labels &labels = {})
{
    for (const auto &v : batch.values) {
        if (v.info.key.metric == metric && v.info.key.labels == labels)
            return v.value;
    }
    return std::nullopt;
}

QList<const SeriesValue *> valuesOf(const SampleBatch &batch, const QString &metric)
{
    QList<const SeriesValue *> out;
    for (const auto &v : batch.values) {
        if (v.info.key.metric == metric)
            out.append(&v);
    }
    return out;
}

} // namespace

class TestMariadbUnit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void urls_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("display"); // empty: refused
        QTest::addColumn<QString>("why");
        QTest::newRow("tcp") << u"mariadb://monitor@db1:3307/shop"_s << u"monitor@db1:3307/shop"_s
                             << QString();
        QTest::newRow("default port")
            << u"mysql://monitor@db1/shop"_s << u"monitor@db1:3306/shop"_s << QString();
        QTest::newRow("socket") << u"mariadb:///shop?socket=/run/mysqld/mysqld.sock"_s
                                << u"socket /run/mysqld/mysqld.sock/shop"_s << QString();
        QTest::newRow("socket with user") << u"mariadb://root@localhost/shop?socket=/tmp/m.sock"_s
                                          << u"root@socket /tmp/m.sock/shop"_s << QString();
        QTest::newRow("nothing") << u"mariadb://"_s << u"socket /run/mysqld/mysqld.sock"_s
                                 << QString();
        QTest::newRow("password") << u"mariadb://monitor:hunter2@db1/shop"_s << QString()
                                  << u"holds a password"_s;
        QTest::newRow("password, bad port")
            << u"mariadb://monitor:hunter2@db1:99999/shop"_s << QString() << u"holds a password"_s;
        QTest::newRow("bad port") << u"mariadb://monitor@db1:99999/shop"_s << QString()
                                  << u"is not a URL"_s;
        QTest::newRow("scheme") << u"postgresql://db1/shop"_s << QString()
                                << u"must start with mariadb://"_s;
        QTest::newRow("relative socket")
            << u"mariadb:///shop?socket=mysqld.sock"_s << QString() << u"absolute path"_s;
        QTest::newRow("unknown parameter") << u"mariadb://db1/shop?sslkey=/tmp/k"_s << QString()
                                           << u"unknown parameter \"sslkey\""_s;
        QTest::newRow("host and socket")
            << u"mariadb://db1/shop?socket=/tmp/s"_s << QString() << u"both a host and a socket"_s;
        QTest::newRow("path") << u"mariadb://db1/shop/more"_s << QString()
                              << u"more than a database"_s;
    }
    void urls()
    {
        QFETCH(QString, url);
        QFETCH(QString, display);
        QFETCH(QString, why);
        QString error;
        const auto target = parseMariadbUrl(url, &error);
        if (display.isEmpty()) {
            QVERIFY(!target);
            QVERIFY2(error.contains(why), qPrintable(error));
            QVERIFY(!error.contains(u"hunter2"_s));
        } else {
            QVERIFY2(target, qPrintable(error));
            QCOMPARE(target->display(), display);
        }
    }

    void options()
    {
        QString error;
        auto parsed = parseMariadbOptions({ { u"url"_s, u"mariadb://m@db1/x"_s },
                                            { u"topStatements"_s, u"25"_s },
                                            { u"locks"_s, u"off"_s } },
                                          &error);
        QVERIFY2(parsed, qPrintable(error));
        QCOMPARE(parsed->topStatements, 25);
        QVERIFY(!parsed->locks);
        QCOMPARE(parsed->target.host, u"db1"_s);

        QVERIFY(!parseMariadbOptions({ { u"topStatements"_s, 500 } }, &error));
        QVERIFY2(error.startsWith(u"topStatements: "_s), qPrintable(error));
        QVERIFY(!parseMariadbOptions({ { u"conninfo"_s, u"x"_s } }, &error));
        QVERIFY2(error.contains(u"conninfo"_s), qPrintable(error));
        QVERIFY(!parseMariadbOptions({ { u"url"_s, u"mariadb://a:b@h/"_s } }, &error));
        QVERIFY2(error.startsWith(u"url: "_s) && !error.contains(u":b@"_s), qPrintable(error));
    }

    void myCnf()
    {
        const MyCnfClient cnf
            = parseMyCnf("# mine\n[mysqld]\npassword=server-side\n"
                         "[client]\nuser = monitor\npassword=\"s3cr#t\"\n"
                         "host=db1.example\nport=3307 # comment\n"
                         "!includedir /etc/mysql/conf.d\n"
                         "[client-mariadb]\nsocket=/tmp/m.sock\n[other]\nuser=x\n");
        QCOMPARE(cnf.user, u"monitor"_s);
        QVERIFY(cnf.hasPassword);
        QCOMPARE(cnf.password, u"s3cr#t"_s);
        QCOMPARE(cnf.host, u"db1.example"_s);
        QCOMPARE(cnf.port, 3307);
        QCOMPARE(cnf.socket, u"/tmp/m.sock"_s);
        QVERIFY(!parseMyCnf("[mysqld]\npassword=x\n").hasPassword);
        QVERIFY(!parseMyCnf(QByteArray(100000, '\x01')).hasPassword); // garbage: nothing
    }

    void passwordRule_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("fromDashboard");
        QTest::addColumn<bool>("sent");
        QTest::newRow("typed by the user") << u"mariadb://m@evil.example/"_s << false << true;
        QTest::newRow("file: other host") << u"mariadb://m@evil.example/"_s << true << false;
        QTest::newRow("file: loopback port") << u"mariadb://m@127.0.0.1:4444/"_s << true << false;
        QTest::newRow("file: the cnf's host") << u"mariadb://m@DB1.example:3307/"_s << true << true;
        QTest::newRow("file: the cnf's host, other port")
            << u"mariadb://m@db1.example:3306/"_s << true << false;
        QTest::newRow("file: the default socket")
            << u"mariadb:///x?socket=/run/mysqld/mysqld.sock"_s << true << true;
        QTest::newRow("file: another socket")
            << u"mariadb:///x?socket=/tmp/anyone.sock"_s << true << false;
        QTest::newRow("typed: another socket")
            << u"mariadb:///x?socket=/tmp/anyone.sock"_s << false << true;
        QTest::newRow("file: loopback 3306") << u"mariadb://m@127.0.0.1/"_s << true << false;
    }
    void passwordRule()
    {
        QFETCH(QString, url);
        QFETCH(bool, fromDashboard);
        QFETCH(bool, sent);
        const MyCnfClient cnf = parseMyCnf("[client]\npassword=pw\nhost=db1.example\nport=3307\n");
        QString error;
        const auto target = parseMariadbUrl(url, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(mayUsePassword(cnf, *target, fromDashboard), sent);
        QVERIFY(!mayUsePassword(MyCnfClient {}, *target, false)); // no password, none sent
        // [client] names a host and no port: that host's port 3306 only.
        const MyCnfClient noPort = parseMyCnf("[client]\npassword=pw\nhost=127.0.0.1\n");
        if (fromDashboard && target->socket.isEmpty())
            QCOMPARE(mayUsePassword(noPort, *target, true),
                     target->host == "127.0.0.1"_L1 && target->port == 3306);
    }

    void statusRates()
    {
        MariadbServerStatus status;
        const QHash<QString, QString> vars { { u"max_connections"_s, u"200"_s } };
        QHash<QString, QString> s { { u"Threads_connected"_s, u"50"_s },
                                    { u"Threads_running"_s, u"4"_s },
                                    { u"Innodb_row_lock_waits"_s, u"100"_s },
                                    { u"Innodb_row_lock_time"_s, u"1000"_s },
                                    { u"Innodb_buffer_pool_reads"_s, u"10"_s },
                                    { u"Innodb_buffer_pool_read_requests"_s, u"1000"_s },
                                    { u"Handler_read_rnd_next"_s, u"0"_s },
                                    { u"Rows_sent"_s, u"0"_s },
                                    { u"Aborted_clients"_s, u"garbage"_s } };
        SampleBatch first;
        status.update(s, vars, Source, 1000, first);
        QCOMPARE(valueOf(first, u"mariadb.connections.utilization"_s), 25.0);
        QCOMPARE(valueOf(first, u"mariadb.threads.running"_s), 4.0);
        QVERIFY(!valueOf(first, u"mariadb.row_lock.waits.rate"_s)); // a baseline only

        s[u"Innodb_row_lock_waits"_s] = u"120"_s;
        s[u"Innodb_row_lock_time"_s] = u"5000"_s;
        s[u"Innodb_buffer_pool_reads"_s] = u"20"_s;
        s[u"Innodb_buffer_pool_read_requests"_s] = u"2000"_s;
        s[u"Handler_read_rnd_next"_s] = u"50000"_s;
        s[u"Rows_sent"_s] = u"10"_s;
        SampleBatch second;
        status.update(s, vars, Source, 3000, second);
        QCOMPARE(valueOf(second, u"mariadb.row_lock.waits.rate"_s), 10.0);
        QCOMPARE(valueOf(second, u"mariadb.row_lock.time.rate"_s), 2000.0);
        QCOMPARE(valueOf(second, u"mariadb.buffer_pool.hit_ratio"_s), 99.0);
        QCOMPARE(valueOf(second, u"mariadb.full_scan.rows_per_row_sent"_s), 5000.0);
        QVERIFY(!valueOf(second, u"mariadb.aborted_clients.rate"_s)); // not a number

        // FLUSH STATUS: counters start again from 0. A gap, never a negative rate.
        s[u"Innodb_row_lock_waits"_s] = u"3"_s;
        s[u"Handler_read_rnd_next"_s] = u"5"_s;
        SampleBatch reset;
        status.update(s, vars, Source, 5000, reset);
        QVERIFY(!valueOf(reset, u"mariadb.row_lock.waits.rate"_s));
        QVERIFY(!valueOf(reset, u"mariadb.full_scan.rows_per_row_sent"_s));
        for (const auto &v : std::as_const(reset.values))
            QVERIFY2(v.value >= 0, qPrintable(v.info.key.metric));
    }

    void statements()
    {
        MariadbStatements top(2);
        using Row = MariadbStatements::Row;
        QList<Row> rows { { u"shop"_s, u"aa01"_s, 10, 1e9, 10, 10, 0 },
                          { u"shop"_s, u"bb02"_s, 10, 1e9, 10, 10, 0 },
                          { QString(), u"cc03"_s, 10, 1e9, 0, 0, 0 },
                          { u"shop"_s, u"dd04"_s, 10, 1e9, 0, 0, 0 } };
        QVERIFY(top.update(rows, 1000).isEmpty()); // baselines: no rates, nothing to name
        rows[0] = { u"shop"_s, u"aa01"_s, 110, 1e9 + 2e12, 1000010, 110, 100 }; // 2 s over 100
        rows[1] = { u"shop"_s, u"bb02"_s, 20, 1e9 + 1e11, 20, 20, 0 };
        rows[2] = { QString(), u"cc03"_s, 1010, 1e9 + 5e12, 0, 0, 0 }; // ours, the busiest
        rows.append({ u"shop"_s, u"ee05"_s, 5, 5e10, 5, 5, 0 }); // first run since the last poll
        QStringList unknown = top.update(rows, 2000);
        QCOMPARE(unknown, (QStringList { u"cc03"_s, u"aa01"_s, u"bb02"_s, u"ee05"_s }));
        top.setText(u"ee05"_s, u"SELECT ?"_s);
        top.setText(u"cc03"_s,
                    u"SELECT * FROM performance_schema . events_statements_summary_by_digest"_s);
        top.setText(u"aa01"_s, u"SELECT * FROM `orders` WHERE `k` = ?"_s);
        top.setText(u"bb02"_s, u"UPDATE `orders` SET `v` = ? WHERE `id` = ?"_s);
        SampleBatch batch;
        top.publish(Source, batch);
        const auto exec = valuesOf(batch, u"mariadb.statements.exec_time.rate"_s);
        QCOMPARE(exec.size(), 2); // the top two: ee05 (50 ms/s) ranks third
        // aa01 100 + bb02 10 + ee05 5 + cc03 1000, ours, not known to be ours yet.
        QCOMPARE(valueOf(batch, u"mariadb.statements.total.calls.rate"_s), 1115.0);
        QCOMPARE(exec.at(0)->info.key.labels.value(u"queryid"_s), u"aa01"_s);
        QCOMPARE(exec.at(0)->value, 2000.0); // ms per second
        const Labels aa = exec.at(0)->info.key.labels;
        QCOMPARE(valueOf(batch, u"mariadb.statements.rows_examined_per_row_sent"_s, aa), 10000.0);
        QCOMPARE(valueOf(batch, u"mariadb.statements.mean_time_ms"_s, aa), 20.0);
        QCOMPARE(valueOf(batch, u"mariadb.statements.no_index_used.rate"_s, aa), 100.0);
        // The total leaves our own statement out once it is known.
        rows[0].calls += 100;
        rows[2].calls += 1000;
        QVERIFY(top.update(rows, 3000).isEmpty()); // every text known now
        SampleBatch later;
        top.publish(Source, later);
        QCOMPARE(valueOf(later, u"mariadb.statements.total.calls.rate"_s), 100.0);

        // The server's answer is untrusted: a digest that is not hex never reaches SQL.
        QVERIFY(MariadbStatements::textsQuery({ u"x') OR 1=1 -- "_s }).isEmpty());
        QVERIFY(MariadbStatements::textsQuery({ u"ABCDEF01"_s }).contains("'ABCDEF01'"));
    }

    void shardSets()
    {
        QCOMPARE(MariadbTables::shardSetStem(u"t_s12"_s), u"t_s"_s);
        QCOMPARE(MariadbTables::shardSetStem(u"orders"_s), QString());
        QCOMPARE(MariadbTables::shardSetStem(u"2024"_s), QString());

        MariadbTables tables;
        QList<MariadbTables::Row> rows;
        for (int i = 0; i < 8; ++i)
            rows.append({ u"ads"_s, u"t_s%1"_s.arg(i), 0, 0, 0, 0 });
        rows.append({ u"ads"_s, u"settings"_s, 0, 0, 0, 0 });
        rows.append({ u"ads"_s, u"lonely7"_s, 0, 0, 0, 0 }); // a set of one is no set
        SampleBatch first;
        tables.update(rows, 1000, Source, first);
        // A table created after that poll: all its rows were read in the interval.
        rows.append({ u"ads"_s, u"fresh"_s, 300, 0, 0, 0 });
        QCOMPARE(valueOf(first, u"mariadb.shardset.shards"_s, { { u"set"_s, u"ads.t_s"_s } }), 8.0);
        QVERIFY(valuesOf(first, u"mariadb.shard.load"_s).isEmpty());
        for (int i = 0; i < 8; ++i) {
            rows[i].reads = i == 5 ? 7000 : 1000; // t_s5 is hot
            rows[i].writes = 0;
        }
        rows[8].reads = 100000;
        rows[9].reads = 5;
        SampleBatch second;
        tables.update(rows, 2000, Source, second);
        const auto loads = valuesOf(second, u"mariadb.shard.load"_s);
        QCOMPARE(loads.size(), 8);
        const auto hottest = *std::max_element(
            loads.cbegin(), loads.cend(), [](auto *a, auto *b) { return a->value < b->value; });
        QCOMPARE(hottest->info.key.labels.value(u"shard"_s), u"t_s5"_s);
        QCOMPARE(hottest->value, 50.0); // 7000 of 14000 rows/s
        QCOMPARE(valueOf(second, u"mariadb.shardset.overloaded"_s, { { u"set"_s, u"ads.t_s"_s } }),
                 0.0);
        QCOMPARE(valueOf(second, u"mariadb.table.reads.rate"_s,
                         { { u"schema"_s, u"ads"_s }, { u"table"_s, u"settings"_s } }),
                 100000.0);
        QCOMPARE(valueOf(second, u"mariadb.table.reads.rate"_s,
                         { { u"schema"_s, u"ads"_s }, { u"table"_s, u"fresh"_s } }),
                 300.0);
        // A truncated summary: a gap for every table, no negative rate.
        for (auto &row : rows)
            row.reads = 0;
        SampleBatch reset;
        tables.update(rows, 3000, Source, reset);
        QVERIFY(valuesOf(reset, u"mariadb.shard.load"_s).isEmpty());
        QVERIFY(valuesOf(reset, u"mariadb.table.reads.rate"_s).isEmpty());
    }

    void maskLiterals_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("masked");
        QTest::newRow("delete") << u"DELETE FROM t_s1 WHERE id < 1000 AND SLEEP(0.05) = 0"_s
                                << u"DELETE FROM t_s1 WHERE id < ? AND SLEEP(?) = ?"_s;
        QTest::newRow("strings")
            << u"UPDATE users SET pw = 'it\\'s s''ecret', n = \"x\" WHERE id=7"_s
            << u"UPDATE users SET pw = ?, n = ? WHERE id=?"_s;
        QTest::newRow("backticks kept")
            << u"SELECT `col'1` FROM `t 2`"_s << u"SELECT `col'1` FROM `t 2`"_s;
        QTest::newRow("comments") << u"SELECT /* secret 'x' */ 1 # trailing 'y'\nFROM dual"_s
                                  << u"SELECT ? FROM dual"_s;
        QTest::newRow("unterminated") << u"SET PASSWORD = 'abc"_s << u"SET PASSWORD = ?…"_s;
        QTest::newRow("hex") << u"SELECT 0xDEADBEEF, 1.5e3"_s << u"SELECT ?, ?"_s;
        QTest::newRow("white space") << u"  SELECT\n\t a  FROM b  "_s << u"SELECT a FROM b"_s;
    }
    void maskLiterals()
    {
        QFETCH(QString, text);
        QFETCH(QString, masked);
        QCOMPARE(maskStatementLiterals(text), masked);
        QVERIFY(maskStatementLiterals(QString(5000, u'x')).endsWith(u"…"_s));
        QVERIFY(maskStatementLiterals(QString(5000, u'x')).size() <= 201);
    }
};

QTEST_GUILESS_MAIN(TestMariadbUnit)
#include "tst_mariadbunit.moc"
