// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Table, partition and shard-set activity (pgtables.h) against the test server: a table
// list-partitioned 8 ways with one hot partition, pg_stat_reset() between polls,
// per-table rates of known work, and many tables. Without a server:
// tst_pgtableactivity.
#include "pgtables.h"
#include "pgtablestestutil.h"
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString ShardDb = u"headroom_shards"_s;
const QString ManyDb = u"headroom_many_tables"_s;
const QString ForceFlush = u"SELECT pg_stat_force_next_flush()"_s;
constexpr int Partitions = 8;
constexpr int RowsPerPartition = 1000;

// The i-th partition of public.orders in the shard database.
QString partition(int i)
{
    return u"public.orders_p%1"_s.arg(i);
}

// Options for a collector of the shard database with only the tables part at work.
QJsonObject shardOptions(const QJsonObject &more = {})
{
    QJsonObject options { { u"conninfo"_s, conninfo(ShardDb) },
                          { u"statements"_s, false },
                          { u"probe"_s, false } };
    for (auto it = more.constBegin(); it != more.constEnd(); ++it)
        options.insert(it.key(), it.value());
    return options;
}

} // namespace

class TestPgTables : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void skewedPartitions_data();
    void skewedPartitions();
    void statsResetBetweenPolls();
    void tableRates();
    void manyTables();
    void cleanupTestCase();

private:
    bool createShardDatabase();
    bool m_shardDbReady = false;
};

bool TestPgTables::createShardDatabase()
{
    if (m_shardDbReady)
        return true;
    TestConnection admin(conninfo());
    if (!admin.ok()) {
        qWarning("%s", qPrintable(admin.error()));
        return false;
    }
    QString error;
    // A failed earlier run may have left it behind.
    bool ok
        = admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(ShardDb), &error).has_value()
        && admin.exec(u"CREATE DATABASE %1"_s.arg(ShardDb), &error).has_value();
    if (ok) {
        TestConnection setup(conninfo(ShardDb));
        QStringList statements {
            u"CREATE TABLE orders (shard int, id int, v int) PARTITION BY LIST (shard)"_s,
            // No index: every query below scans its partitions, so the counts are exact.
            u"CREATE TABLE plain (id int, v int) WITH (autovacuum_enabled = off)"_s,
        };
        // Autovacuum off on every partition (a partitioned table takes no storage
        // parameters): its ANALYZE would add reads we did not do.
        for (int i = 0; i < Partitions; ++i)
            statements << u"CREATE TABLE orders_p%1 PARTITION OF orders FOR VALUES IN (%1)"
                          " WITH (autovacuum_enabled = off)"_s.arg(i);
        statements << u"INSERT INTO orders SELECT g % %1, g, 0 FROM generate_series(0, %2) g"_s
                          .arg(Partitions)
                          .arg(Partitions * RowsPerPartition - 1)
                   << ForceFlush;
        for (const QString &sql : std::as_const(statements)) {
            ok = ok && setup.exec(sql, &error).has_value();
        }
    }
    if (!ok)
        qWarning("%s", qPrintable(error));
    m_shardDbReady = ok;
    return ok;
}

void TestPgTables::skewedPartitions_data()
{
    QTest::addColumn<int>("hot");
    QTest::addColumn<bool>("writes"); // hot by UPDATEs, else by SELECTs

    QTest::newRow("p0 hot by reads") << 0 << false;
    QTest::newRow("p5 hot by writes") << 5 << true;
}

void TestPgTables::skewedPartitions()
{
    HEADROOM_REQUIRE_PG();
    QFETCH(int, hot);
    QFETCH(bool, writes);
    QVERIFY(createShardDatabase());

    constexpr double Capacity = 20'000;
    QJsonArray tables;
    for (int i = 0; i < Partitions; ++i)
        tables << u"orders_p%1"_s.arg(i);
    const auto collector = makeCollector(
        shardOptions({ { u"shardSets"_s,
                         QJsonArray { QJsonObject { { u"name"_s, u"orders_cap"_s },
                                                    { u"tables"_s, tables },
                                                    { u"capacity"_s, Capacity } } } } }));
    QVERIFY(collector);
    // A second collector counting shards above 1 % (a string, as a dashboard variable
    // would give it).
    const auto lowThreshold
        = makeCollector(shardOptions({ { u"shardOverloadedPercent"_s, u"1"_s } }));
    QVERIFY(lowThreshold);
    QVERIFY(lowThreshold->poll(QDeadlineTimer(5000)).error.isEmpty());
    const PollResult before = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));
    QCOMPARE(before.warnings, QStringList());
    QCOMPARE(value(before.batch, u"pg.shardset.shards"_s, { { u"set"_s, u"public.orders"_s } }),
             double(Partitions));

    // Every partition: one full scan. The hot one: 20 scans of its own, or 5 UPDATEs of
    // all its rows (each reads and writes every row).
    TestConnection work(conninfo(ShardDb));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    QElapsedTimer interval;
    interval.start();
    PG_EXEC(work, u"SELECT count(*) FROM orders"_s);
    for (int i = 0; i < (writes ? 5 : 20); ++i) {
        if (writes)
            PG_EXEC(work, u"UPDATE orders SET v = v + 1 WHERE shard = %1"_s.arg(hot));
        else
            PG_EXEC(work, u"SELECT count(*) FROM orders WHERE shard = %1"_s.arg(hot));
    }
    PG_EXEC(work, ForceFlush);
    const double hotTuples = RowsPerPartition * (1 + (writes ? 5 * 2 : 20));
    QThread::msleep(std::max<qint64>(0, 1100 - interval.elapsed()));
    const PollResult after = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    QCOMPARE(after.warnings, QStringList());
    const PollResult afterLow = lowThreshold->poll(QDeadlineTimer(5000));
    QVERIFY2(afterLow.error.isEmpty(), qPrintable(afterLow.error));
    const double seconds = double(after.batch.tsMs - before.batch.tsMs) / 1000.0;
    QVERIFY(seconds >= 1.0);

    for (const SeriesValue &v : after.batch.values)
        QVERIFY2(v.value >= 0, qPrintable(v.info.key.toString()));

    // Relative: the hot partition has most of the set's work and is first; the others
    // far below.
    const QString set = u"public.orders"_s;
    const auto ranked = shardsByLoad(after.batch, set);
    const double setTuples = hotTuples + (Partitions - 1) * double(RowsPerPartition);
    QCOMPARE(ranked.size(), Partitions);
    QCOMPARE(ranked.first().first, partition(hot));
    QVERIFY2(std::abs(ranked.first().second - 100.0 * hotTuples / setTuples) < 1.0,
             qPrintable(u"hot: %1, expected %2"_s.arg(ranked.first().second)
                            .arg(100.0 * hotTuples / setTuples)));
    QStringList loads;
    for (const auto &[shard, load] : ranked)
        loads << u"%1=%2"_s.arg(shard.section(u'_', -1)).arg(load, 0, 'f', 1);
    qInfo("relative loads: %s", qPrintable(loads.join(u' ')));
    for (int i = 1; i < ranked.size(); ++i) {
        const double expected = 100.0 * RowsPerPartition / setTuples;
        QVERIFY2(
            ranked[i].second < 50 && std::abs(ranked[i].second - expected) < 1.0,
            qPrintable(
                u"%1: %2, expected %3"_s.arg(ranked[i].first).arg(ranked[i].second).arg(expected)));
    }
    QCOMPARE(value(after.batch, u"pg.shardset.load.max"_s, { { u"set"_s, set } }),
             ranked.first().second);
    // Above 60 % of the set's work: the hot partition alone (75 % by reads, 61 % by
    // writes). Above 1 %: every partition (the others do 3.6 and 5.6 %).
    QCOMPARE(value(after.batch, u"pg.shardset.overloaded"_s, { { u"set"_s, set } }), 1.0);
    QCOMPARE(value(afterLow.batch, u"pg.shardset.overloaded"_s, { { u"set"_s, set } }),
             double(Partitions));

    // Against the declared capacity: 100 × ops / capacity, and ops are the work done.
    for (int i = 0; i < Partitions; ++i) {
        const Labels labels = shardLabels(u"orders_cap"_s, partition(i));
        const auto ops = value(after.batch, u"pg.shard.ops.rate"_s, labels);
        const auto load = value(after.batch, u"pg.shard.load"_s, labels);
        QVERIFY2(ops && load, qPrintable(partition(i)));
        const double tuples = i == hot ? hotTuples : RowsPerPartition;
        QVERIFY2(
            std::abs(*ops * seconds - tuples) <= tuples * 0.01 + 5,
            qPrintable(
                u"%1: %2 tuples, expected %3"_s.arg(partition(i)).arg(*ops * seconds).arg(tuples)));
        QVERIFY(std::abs(*load - 100.0 * *ops / Capacity) < 1e-9);
        QVERIFY(std::abs(*load - 100.0 * tuples / seconds / Capacity) < 0.01 * *load + 0.05);
        if (i == hot)
            qInfo("capacity load of the hot partition: %.1f%% (%.0f tuples/s)", *load, *ops);
    }
    QCOMPARE(shardsByLoad(after.batch, u"orders_cap"_s).constFirst().first, partition(hot));
    // Against the capacity: whichever loads are above 60 %, counted by the collector.
    int aboveCapacity = 0;
    for (const auto entries = shardsByLoad(after.batch, u"orders_cap"_s);
         const auto &[shard, load] : entries)
        aboveCapacity += load > 60 ? 1 : 0;
    QCOMPARE(value(after.batch, u"pg.shardset.overloaded"_s, { { u"set"_s, u"orders_cap"_s } }),
             double(aboveCapacity));
    // Each partition is a table too, with its parent.
    QVERIFY(value(after.batch, u"pg.table.tup_read.rate"_s,
                  tableLabels(u"public"_s, u"orders_p%1"_s.arg(hot), set)));
}

void TestPgTables::statsResetBetweenPolls()
{
    HEADROOM_REQUIRE_PG();
    QVERIFY(createShardDatabase());
    const auto collector = makeCollector(shardOptions());
    QVERIFY(collector);
    TestConnection work(conninfo(ShardDb));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    const QString set = u"public.orders"_s;
    const Labels hotShard = shardLabels(set, partition(2));
    const Labels hotTable = tableLabels(u"public"_s, u"orders_p2"_s, set);
    const auto hotWork = [&] {
        QString error;
        for (int i = 0; i < 10; ++i) {
            if (!work.exec(u"SELECT count(*) FROM orders WHERE shard = 2"_s, &error)) {
                qWarning("%s", qPrintable(error));
                return false;
            }
        }
        return work.exec(ForceFlush, &error).has_value();
    };
    QList<PollResult> polls;
    const auto poll = [&] {
        QThread::msleep(200);
        polls << collector->poll(QDeadlineTimer(5000));
        for (const auto lastValues = polls.last().batch.values; const SeriesValue &v : lastValues) {
            if (v.value < 0)
                qWarning("negative: %s", qPrintable(v.info.key.toString()));
        }
        return polls.last().error.isEmpty();
    };
    const auto tuples = [&](int i, const QString &metric, const Labels &labels) {
        const auto rate = value(polls[i].batch, metric, labels);
        const double seconds = double(polls[i].batch.tsMs - polls[i - 1].batch.tsMs) / 1000.0;
        return rate ? std::optional<double>(*rate * seconds) : std::nullopt;
    };

    QVERIFY(poll());
    QVERIFY(hotWork());
    QVERIFY(poll()); // 1: the rate before the reset
    const auto before = tuples(1, u"pg.shard.ops.rate"_s, hotShard);
    QVERIFY(before);
    QVERIFY2(std::abs(*before - 10 * RowsPerPartition) < 100, qPrintable(QString::number(*before)));
    // pg_stat_reset() with work on both sides of it.
    QVERIFY(hotWork());
    PG_EXEC(work, u"SELECT pg_stat_reset()"_s);
    QVERIFY(hotWork());
    QVERIFY(hotWork());
    QVERIFY(poll()); // 2: no value, not the difference of unrelated counters
    // A single table's reset: its counters go down.
    QVERIFY(hotWork());
    PG_EXEC(work, u"SELECT pg_stat_reset_single_table_counters('orders_p2'::regclass)"_s);
    QVERIFY(poll()); // 3
    QVERIFY(hotWork());
    QVERIFY(poll()); // 4: back

    for (const PollResult &p : std::as_const(polls)) {
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        for (const SeriesValue &v : p.batch.values)
            QVERIFY2(v.value >= 0, qPrintable(v.info.key.toString()));
    }
    for (int i = 2; i < polls.size(); ++i) {
        // Never more than the work done since the last poll: no spike.
        for (const QString &metric : { u"pg.shard.ops.rate"_s, u"pg.table.tup_read.rate"_s }) {
            const auto done
                = tuples(i, metric, metric.startsWith("pg.shard"_L1) ? hotShard : hotTable);
            if (done)
                QVERIFY2(*done <= *before * 2 + 100,
                         qPrintable(u"poll %1 %2: %3 tuples"_s.arg(i).arg(metric).arg(*done)));
        }
    }
    QVERIFY(!value(polls[2].batch, u"pg.shard.ops.rate"_s, hotShard));
    QVERIFY(!value(polls[2].batch, u"pg.table.tup_read.rate"_s, hotTable));
    QCOMPARE(countMetric(polls[2].batch, u"pg.shard.load"_s), 0);
    QVERIFY(!value(polls[3].batch, u"pg.table.tup_read.rate"_s, hotTable));
    // The set is still there while its rates pause.
    QCOMPARE(value(polls[2].batch, u"pg.shardset.shards"_s, { { u"set"_s, set } }),
             double(Partitions));
    const auto back = tuples(4, u"pg.shard.ops.rate"_s, hotShard);
    QVERIFY(back);
    QVERIFY2(std::abs(*back - *before) < 100, qPrintable(QString::number(*back)));
    QCOMPARE(value(polls[4].batch, u"pg.shard.load"_s, hotShard), 100.0);
}

void TestPgTables::tableRates()
{
    HEADROOM_REQUIRE_PG();
    QVERIFY(createShardDatabase());
    const auto collector = makeCollector(shardOptions());
    QVERIFY(collector);
    const PollResult before = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(before.error.isEmpty(), qPrintable(before.error));

    // 5000 inserted; two full scans (10000 read); an UPDATE that scans all 5000 and
    // changes 1000; a DELETE that scans 5000 and removes 500.
    constexpr double N = 5000;
    TestConnection work(conninfo(ShardDb));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    PG_EXEC(work, u"INSERT INTO plain SELECT g, 0 FROM generate_series(1, 5000) g"_s);
    PG_EXEC(work, u"SELECT count(*) FROM plain"_s);
    PG_EXEC(work, u"SELECT sum(v) FROM plain"_s);
    PG_EXEC(work, u"UPDATE plain SET v = 1 WHERE id <= 1000"_s);
    PG_EXEC(work, u"DELETE FROM plain WHERE id > 4500"_s);
    PG_EXEC(work, ForceFlush);
    constexpr double Read = 2 * N + N + N;
    constexpr double Written = N + 1000 + 500;
    QThread::msleep(300);
    const PollResult after = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    const double seconds = double(after.batch.tsMs - before.batch.tsMs) / 1000.0;
    const Labels plain = tableLabels(u"public"_s, u"plain"_s);
    const auto read = value(after.batch, u"pg.table.tup_read.rate"_s, plain);
    const auto written = value(after.batch, u"pg.table.tup_written.rate"_s, plain);
    const auto blocks = value(after.batch, u"pg.table.heap_blks_read.rate"_s, plain);
    QVERIFY(read && written && blocks);
    qInfo("plain: %.0f read, %.0f written, %.1f heap blocks read in %.2f s", *read * seconds,
          *written * seconds, *blocks * seconds, seconds);
    QVERIFY2(std::abs(*read * seconds - Read) <= Read * 0.01,
             qPrintable(QString::number(*read * seconds)));
    QVERIFY2(std::abs(*written * seconds - Written) <= Written * 0.01,
             qPrintable(QString::number(*written * seconds)));
    QVERIFY(*blocks >= 0);
    const auto meta = info(after.batch, u"pg.table.tup_read.rate"_s, plain);
    QCOMPARE(meta->resource, u"db:"_s + ShardDb);
    QCOMPARE(meta->kind, UseKind::Throughput);
    // A table that is no partition has no parent label and is in no set.
    QVERIFY(!value(after.batch, u"pg.shard.ops.rate"_s,
                   shardLabels(u"public.plain"_s, u"public.plain"_s)));
}

void TestPgTables::manyTables()
{
    HEADROOM_REQUIRE_PG();
    constexpr int Tables = 2000;
    {
        TestConnection admin(conninfo());
        QVERIFY2(admin.ok(), qPrintable(admin.error()));
        PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(ManyDb));
        PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(ManyDb));
        TestConnection setup(conninfo(ManyDb));
        QVERIFY2(setup.ok(), qPrintable(setup.error()));
        PG_EXEC(setup,
                u"DO $$ BEGIN FOR i IN 1..%1 LOOP"
                " EXECUTE format('CREATE TABLE t%2 (id int PRIMARY KEY)', i);"
                " END LOOP; END $$"_s.arg(Tables)
                    .arg(u"%s"_s));
    }
    const auto collector = makeCollector(
        { { u"conninfo"_s, conninfo(ManyDb) }, { u"statements"_s, false }, { u"probe"_s, false } });
    QVERIFY(collector);
    QVERIFY(collector->poll(QDeadlineTimer(10'000)).error.isEmpty());
    {
        // One table busier than the rest (which are idle), so it must be reported.
        TestConnection work(conninfo(ManyDb));
        PG_EXEC(work, u"INSERT INTO t1234 SELECT generate_series(1, 100)"_s);
        PG_EXEC(work, ForceFlush);
    }
    QThread::msleep(100);
    const PollResult second = collector->poll(QDeadlineTimer(10'000));
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    QCOMPARE(second.warnings,
             QStringList { u"pg_stat_user_tables: %1 of %2 tables left out; only the 500 busiest "
                           "are reported"_s.arg(Tables - 500)
                               .arg(Tables) });
    QCOMPARE(countMetric(second.batch, u"pg.table.tup_written.rate"_s), 500);
    QVERIFY(
        value(second.batch, u"pg.table.tup_written.rate"_s, tableLabels(u"public"_s, u"t1234"_s)));

    // What the query costs the server with this many tables.
    QElapsedTimer clock;
    QList<qint64> times;
    for (int i = 0; i < 5; ++i) {
        clock.start();
        const PgResult result
            = collector->connection().exec(PgTablesPart::query(), {}, QDeadlineTimer(10'000));
        times << clock.elapsed();
        QVERIFY2(result.ok(), qPrintable(result.error()));
        QCOMPARE(result.rows(), Tables);
    }
    std::sort(times.begin(), times.end());
    qInfo("query over %d tables: median %lld ms (min %lld, max %lld)", Tables, times[2],
          times.first(), times.last());
}

void TestPgTables::cleanupTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    if (!admin.ok())
        return;
    for (const QString &db : { ShardDb, ManyDb })
        admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(db));
}

QTEST_GUILESS_MAIN(TestPgTables)
#include "tst_pgtables.moc"
