// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Table, partition and shard-set activity (pgtables.h) without a server: relative and
// capacity load, idle sets, resets, the table cap and warnings, fed synthetic rows.
// Against the test server: tst_pgtables.
#include "pgtables.h"
#include "pgtablestestutil.h"
#include "pgtestutil.h"

#include <QJsonArray>
#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

using Row = PgTableActivity::Row;
using Snapshot = PgTableActivity::Snapshot;

const QString Source = u"pg:test"_s;

// A table with cumulative counters: `read` all seq_tup_read, `written` all n_tup_ins.
Row table(quint32 relid, const QString &qualified, double read, double written,
          const QString &root = {}, double heapBlksRead = 0)
{
    Row row;
    row.relid = relid;
    row.schema = qualified.section(u'.', 0, 0);
    row.table = qualified.section(u'.', 1);
    if (!root.isEmpty()) {
        row.rootSchema = root.section(u'.', 0, 0);
        row.rootTable = root.section(u'.', 1);
    }
    row.counters[PgTableActivity::SeqTupRead] = read;
    row.counters[PgTableActivity::TupIns] = written;
    row.counters[PgTableActivity::HeapBlksRead] = heapBlksRead;
    return row;
}

Row partitionedRoot(quint32 relid, const QString &qualified)
{
    Row row = table(relid, qualified, 0, 0);
    row.partitioned = true;
    return row;
}

Snapshot snapshot(QList<Row> rows, const QString &statsReset = u"2024-01-01 00:00:00+00"_s)
{
    return { u"erp"_s, statsReset, std::move(rows) };
}

} // namespace

class TestPgTableActivity : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void load_data();
    void load();
    void reset_data();
    void reset();
    void tableCap_data();
    void tableCap();
    void shardCap();
    void declaredWarnings_data();
    void declaredWarnings();
    void tableSeries();
    void overloaded_data();
    void overloaded();
    void overloadedOption_data();
    void overloadedOption();
};

void TestPgTableActivity::load_data()
{
    QTest::addColumn<bool>("declared"); // a declared set, or a partitioned table's
    QTest::addColumn<double>("capacity");
    QTest::addColumn<QList<double>>("ops"); // per shard, tuples per second
    QTest::addColumn<QList<double>>("expected"); // pg.shard.load per shard

    // Relative: each shard's share of the set's work.
    QTest::newRow("partitioned, relative") << false << 0.0 << QList<double> { 400, 200, 0, 100 }
                                           << QList<double> { 400 / 7.0, 200 / 7.0, 0, 100 / 7.0 };
    QTest::newRow("declared, relative")
        << true << 0.0 << QList<double> { 30, 60, 15 }
        << QList<double> { 3000 / 105.0, 6000 / 105.0, 1500 / 105.0 };
    QTest::newRow("declared, capacity")
        << true << 200.0 << QList<double> { 100, 50, 0, 25 } << QList<double> { 50, 25, 0, 12.5 };
    QTest::newRow("declared, over capacity")
        << true << 200.0 << QList<double> { 300, 200 } << QList<double> { 150, 100 };
    QTest::newRow("partitioned, idle")
        << false << 0.0 << QList<double> { 0, 0, 0 } << QList<double> { 0, 0, 0 };
    QTest::newRow("declared, idle")
        << true << 0.0 << QList<double> { 0, 0 } << QList<double> { 0, 0 };
    QTest::newRow("declared, idle, capacity")
        << true << 1000.0 << QList<double> { 0, 0 } << QList<double> { 0, 0 };
    QTest::newRow("one shard") << false << 0.0 << QList<double> { 50 } << QList<double> { 100 };
    // Under MinRelativeOps (10/s) a set is idle: shares are of 10/s, so a lone stray
    // tuple is not a hot shard.
    QTest::newRow("one shard, nearly idle")
        << false << 0.0 << QList<double> { 7 } << QList<double> { 70 };
    QTest::newRow("two shards, nearly idle")
        << true << 0.0 << QList<double> { 2, 1 } << QList<double> { 20, 10 };
}

void TestPgTableActivity::load()
{
    QFETCH(bool, declared);
    QFETCH(double, capacity);
    QFETCH(QList<double>, ops);
    QFETCH(QList<double>, expected);

    const QString setName = declared ? u"tenants"_s : u"public.orders"_s;
    QList<PgShardSetOption> options;
    if (declared) {
        PgShardSetOption set { setName, {}, capacity };
        for (int i = 0; i < ops.size(); ++i)
            set.tables << (i % 2 ? u"public.t%1"_s.arg(i) : u"t%1"_s.arg(i)); // both spellings
        options << set;
    }
    PgTableActivity activity(options);
    const auto rows = [&](double seconds) {
        QList<Row> list;
        if (!declared)
            list << partitionedRoot(1, u"public.orders"_s);
        for (int i = 0; i < ops.size(); ++i) {
            // Half the work as reads and half as writes: the load counts both.
            const double tuples = ops[i] * seconds;
            list << table(quint32(100 + i),
                          declared ? u"public.t%1"_s.arg(i) : u"public.orders_p%1"_s.arg(i),
                          tuples / 2, tuples / 2, declared ? QString() : u"public.orders"_s);
        }
        return snapshot(list);
    };
    SampleBatch first;
    QCOMPARE(activity.update(rows(0), 10'000, Source, first), QStringList());
    // No rates yet, but the set and its size are known.
    QCOMPARE(countMetric(first, u"pg.shard.load"_s), 0);
    QCOMPARE(value(first, u"pg.shardset.shards"_s, { { u"set"_s, setName } }), double(ops.size()));

    SampleBatch second;
    QCOMPARE(activity.update(rows(2), 12'000, Source, second), QStringList());
    double maxLoad = 0;
    double total = 0;
    for (int i = 0; i < ops.size(); ++i) {
        const QString shard = declared ? u"public.t%1"_s.arg(i) : u"public.orders_p%1"_s.arg(i);
        const Labels labels = shardLabels(setName, shard);
        const auto load = value(second, u"pg.shard.load"_s, labels);
        QVERIFY2(load, qPrintable(shard));
        QVERIFY2(qFuzzyCompare(1 + *load, 1 + expected[i]),
                 qPrintable(u"%1: %2, expected %3"_s.arg(shard).arg(*load).arg(expected[i])));
        QVERIFY(qFuzzyCompare(1 + *value(second, u"pg.shard.ops.rate"_s, labels), 1 + ops[i]));
        maxLoad = std::max(maxLoad, expected[i]);
        total += ops[i];
        const auto meta = info(second, u"pg.shard.load"_s, labels);
        QCOMPARE(meta->unit, u"%"_s);
        QCOMPARE(meta->kind, UseKind::Utilization);
        QCOMPARE(meta->resource, u"shardset:"_s + setName);
        QCOMPARE(meta->key.source, Source);
    }
    const Labels set { { u"set"_s, setName } };
    QVERIFY(qFuzzyCompare(1 + *value(second, u"pg.shardset.load.max"_s, set), 1 + maxLoad));
    QVERIFY(qFuzzyCompare(1 + *value(second, u"pg.shardset.ops.rate"_s, set), 1 + total));
    QCOMPARE(value(second, u"pg.shardset.shards"_s, set), double(ops.size()));
    QCOMPARE(info(second, u"pg.shardset.load.max"_s, set)->resource, u"shardset:"_s + setName);
    // The partitioned table itself is no table series: it has no storage.
    QVERIFY(!value(second, u"pg.table.tup_read.rate"_s, tableLabels(u"public"_s, u"orders"_s)));
}

void TestPgTableActivity::reset_data()
{
    // Three polls one second apart; the counters of table B at each, and the stats_reset
    // of the database. A is busy throughout (100 tuples read per second).
    QTest::addColumn<QList<double>>("b"); // tuples read by B, cumulative
    QTest::addColumn<QStringList>("statsReset");
    QTest::addColumn<bool>("newSession"); // resetBaselines() before the third poll
    QTest::addColumn<bool>("bAt2"); // B has a rate at the second poll
    QTest::addColumn<bool>("aAt2");
    QTest::addColumn<bool>("bAt3");
    QTest::addColumn<bool>("aAt3");

    const QString t0 = u"2024-01-01 00:00:00+00"_s;
    const QString t1 = u"2024-01-01 00:00:01+00"_s;
    QTest::newRow("steady") << QList<double> { 1000, 1500, 2000 } << QStringList { t0, t0, t0 }
                            << false << true << true << true << true;
    // pg_stat_reset_single_table_counters when stats_reset is not seen to move (before
    // PostgreSQL 15 it moved too): B went down.
    QTest::newRow("counter down") << QList<double> { 1000, 40, 540 } << QStringList { t0, t0, t0 }
                                  << false << false << true << true << true;
    // pg_stat_reset(): every table, even one whose counter climbed past its old value.
    QTest::newRow("stats_reset moved")
        << QList<double> { 1000, 5000, 5500 } << QStringList { t0, t1, t1 } << false << false
        << false << true << true;
    QTest::newRow("new session") << QList<double> { 1000, 1500, 2000 } << QStringList { t0, t0, t0 }
                                 << true << true << true << false << false;
}

void TestPgTableActivity::reset()
{
    QFETCH(QList<double>, b);
    QFETCH(QStringList, statsReset);
    QFETCH(bool, newSession);
    QFETCH(bool, bAt2);
    QFETCH(bool, aAt2);
    QFETCH(bool, bAt3);
    QFETCH(bool, aAt3);

    PgShardSetOption set { u"pair"_s, { u"a"_s, u"b"_s }, 0 };
    PgTableActivity activity({ set });
    QList<SampleBatch> batches(3);
    for (int i = 0; i < 3; ++i) {
        if (i == 2 && newSession)
            activity.clear();
        const Snapshot s = snapshot(
            { table(1, u"public.a"_s, 100.0 * (i + 1), 0), table(2, u"public.b"_s, b[i], 0) },
            statsReset[i]);
        QCOMPARE(activity.update(s, 1000 * (i + 1), Source, batches[i]), QStringList());
        for (const SeriesValue &v : std::as_const(batches[i].values))
            QVERIFY2(v.value >= 0, qPrintable(v.info.key.toString()));
    }
    const Labels a = tableLabels(u"public"_s, u"a"_s);
    const Labels bLabels = tableLabels(u"public"_s, u"b"_s);
    const QString read = u"pg.table.tup_read.rate"_s;
    QVERIFY(!value(batches[0], read, a));
    QCOMPARE(value(batches[1], read, bLabels).has_value(), bAt2);
    QCOMPARE(value(batches[1], read, a).has_value(), aAt2);
    QCOMPARE(value(batches[2], read, bLabels).has_value(), bAt3);
    QCOMPARE(value(batches[2], read, a).has_value(), aAt3);
    // A shard without a rate has no load either, and does not count as the busiest.
    QCOMPARE(
        value(batches[1], u"pg.shard.load"_s, shardLabels(u"pair"_s, u"public.b"_s)).has_value(),
        bAt2);
    if (aAt2 && !bAt2)
        QCOMPARE(value(batches[1], u"pg.shard.load"_s, shardLabels(u"pair"_s, u"public.a"_s)),
                 100.0);
    // Whatever comes out is the work done: no spike after the reset.
    for (int i = 1; i < 3; ++i) {
        if (const auto rate = value(batches[i], read, bLabels)) {
            const double done = b[i] - b[i - 1];
            QVERIFY2(done >= 0 && qFuzzyCompare(*rate, done), qPrintable(QString::number(*rate)));
        }
        if (const auto rate = value(batches[i], read, a))
            QCOMPARE(*rate, 100.0);
    }
}

void TestPgTableActivity::tableCap_data()
{
    QTest::addColumn<int>("tables");
    QTest::addColumn<int>("reported");
    QTest::addColumn<QString>("warning");

    QTest::newRow("under") << 499 << 499 << QString();
    QTest::newRow("at the cap") << 500 << 500 << QString();
    QTest::newRow("over") << 501 << 500
                          << u"pg_stat_user_tables: 1 of 501 tables left out; only the 500 "
                             "busiest are reported"_s;
    QTest::newRow("thousands") << 3000 << 500
                               << u"pg_stat_user_tables: 2500 of 3000 tables left out; only the "
                                  "500 busiest are reported"_s;
}

void TestPgTableActivity::tableCap()
{
    QFETCH(int, tables);
    QFETCH(int, reported);
    QFETCH(QString, warning);

    PgTableActivity activity({});
    // Table i does i tuples per second, so the busiest are those with the highest numbers.
    const auto rows = [&](double seconds) {
        QList<Row> list;
        for (int i = 0; i < tables; ++i)
            list << table(quint32(1000 + i), u"s.t%1"_s.arg(i), i * seconds, 0);
        return snapshot(list);
    };
    SampleBatch first;
    QCOMPARE(activity.update(rows(1), 1000, Source, first), QStringList());
    SampleBatch second;
    const QStringList warnings = activity.update(rows(2), 2000, Source, second);
    QCOMPARE(warnings, warning.isEmpty() ? QStringList() : QStringList { warning });
    for (const char *metric :
         { "pg.table.tup_read.rate", "pg.table.tup_written.rate", "pg.table.heap_blks_read.rate" })
        QCOMPARE(countMetric(second, QString::fromLatin1(metric)), reported);
    // The busiest made it, the least busy did not.
    QCOMPARE(
        value(second, u"pg.table.tup_read.rate"_s, tableLabels(u"s"_s, u"t%1"_s.arg(tables - 1))),
        double(tables - 1));
    const bool quietestIn
        = value(second, u"pg.table.tup_read.rate"_s, tableLabels(u"s"_s, u"t0"_s)).has_value();
    QCOMPARE(quietestIn, reported == tables);
}

void TestPgTableActivity::shardCap()
{
    // 600 partitions of one table: the set's own series count them all, the shard series
    // stop at the busiest 500.
    constexpr int Shards = 600;
    PgTableActivity activity({});
    const auto rows = [&](double seconds) {
        QList<Row> list { partitionedRoot(1, u"public.big"_s) };
        for (int i = 0; i < Shards; ++i)
            list << table(quint32(10 + i), u"public.big_%1"_s.arg(i), 0, (i + 1) * seconds,
                          u"public.big"_s);
        return snapshot(list);
    };
    SampleBatch first;
    activity.update(rows(1), 1000, Source, first);
    SampleBatch second;
    const QStringList warnings = activity.update(rows(2), 2000, Source, second);
    QCOMPARE(warnings,
             (QStringList { u"pg_stat_user_tables: 100 of 600 tables left out; only the 500 "
                            "busiest are reported"_s,
                            u"shard sets: 100 of 600 shards left out; only the 500 busiest are "
                            "reported"_s }));
    QCOMPARE(countMetric(second, u"pg.shard.load"_s), 500);
    const Labels set { { u"set"_s, u"public.big"_s } };
    QCOMPARE(value(second, u"pg.shardset.shards"_s, set), double(Shards));
    QCOMPARE(value(second, u"pg.shardset.ops.rate"_s, set), Shards * (Shards + 1) / 2.0);
    // The busiest does 600 of the set's 180,300 tuples per second.
    QCOMPARE(value(second, u"pg.shard.load"_s, shardLabels(u"public.big"_s, u"public.big_599"_s)),
             100.0 * Shards / (Shards * (Shards + 1) / 2.0));
    QVERIFY(!value(second, u"pg.shard.load"_s, shardLabels(u"public.big"_s, u"public.big_0"_s)));
}

void TestPgTableActivity::declaredWarnings_data()
{
    QTest::addColumn<QStringList>("declared");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("all there") << QStringList { u"a"_s, u"sales.b"_s } << QStringList();
    QTest::newRow("missing, public")
        << QStringList { u"a"_s, u"nope"_s }
        << QStringList { u"shard set \"tenants\": no table \"public.nope\" in database \"erp\" "
                         "(only the connected database is visible)"_s };
    QTest::newRow("missing, schema")
        << QStringList { u"sales.a"_s, u"sales.b"_s }
        << QStringList { u"shard set \"tenants\": no table \"sales.a\" in database \"erp\" (only "
                         "the connected database is visible)"_s };
    QTest::newRow("partitioned")
        << QStringList { u"a"_s, u"orders"_s }
        << QStringList { u"shard set \"tenants\": \"public.orders\" is partitioned and has no "
                         "activity of its own; list its partitions, or use the shard set "
                         "\"public.orders\""_s };
}

void TestPgTableActivity::declaredWarnings()
{
    QFETCH(QStringList, declared);
    QFETCH(QStringList, expected);

    PgTableActivity activity({ PgShardSetOption { u"tenants"_s, declared, 100 } });
    const Snapshot s = snapshot({ table(1, u"public.a"_s, 0, 0), table(2, u"sales.b"_s, 0, 0),
                                  partitionedRoot(3, u"public.orders"_s),
                                  table(4, u"public.orders_1"_s, 0, 0, u"public.orders"_s) });
    SampleBatch batch;
    QCOMPARE(activity.update(s, 1000, Source, batch), expected);
    // The set still counts the shards it found.
    QCOMPARE(value(batch, u"pg.shardset.shards"_s, { { u"set"_s, u"tenants"_s } }),
             double(declared.size() - expected.size()));

    // No tables at all: the database's name is not known.
    PgTableActivity empty({ PgShardSetOption { u"tenants"_s, { u"x"_s }, 0 } });
    SampleBatch none;
    QCOMPARE(empty.update({}, 1000, Source, none),
             QStringList { u"shard set \"tenants\": no table \"public.x\" in the connected "
                           "database (only the connected database is visible)"_s });
}

void TestPgTableActivity::tableSeries()
{
    PgTableActivity activity({});
    const auto rows = [](double n) {
        return snapshot(
            { partitionedRoot(1, u"public.orders"_s),
              table(2, u"public.orders_2024"_s, 10 * n, 3 * n, u"public.orders"_s, 2 * n),
              table(3, u"audit.log"_s, 0, 5 * n) });
    };
    SampleBatch first;
    activity.update(rows(1), 1000, Source, first);
    QCOMPARE(countMetric(first, u"pg.table.tup_read.rate"_s), 0); // no interval yet
    SampleBatch second;
    activity.update(rows(3), 1500, Source, second); // 2 units in 0.5 s
    const Labels partition = tableLabels(u"public"_s, u"orders_2024"_s, u"public.orders"_s);
    QCOMPARE(value(second, u"pg.table.tup_read.rate"_s, partition), 40.0);
    QCOMPARE(value(second, u"pg.table.tup_written.rate"_s, partition), 12.0);
    QCOMPARE(value(second, u"pg.table.heap_blks_read.rate"_s, partition), 8.0);
    QCOMPARE(value(second, u"pg.table.tup_written.rate"_s, tableLabels(u"audit"_s, u"log"_s)),
             20.0);
    const auto meta = info(second, u"pg.table.tup_read.rate"_s, partition);
    QCOMPARE(meta->resource, u"db:erp"_s);
    QCOMPARE(meta->unit, u"1/s"_s);
    QCOMPARE(meta->kind, UseKind::Throughput);
    // The partitioned table's own set, with its one leaf.
    QCOMPARE(
        value(second, u"pg.shard.load"_s, shardLabels(u"public.orders"_s, u"public.orders_2024"_s)),
        100.0);
    QCOMPARE(countMetric(second, u"pg.shardset.shards"_s), 1);
}

void TestPgTableActivity::overloaded_data()
{
    QTest::addColumn<double>("capacity"); // 0: relative to the busiest shard
    QTest::addColumn<double>("threshold");
    QTest::addColumn<QList<double>>("ops"); // per shard, tuples per second
    QTest::addColumn<int>("expected"); // pg.shardset.overloaded

    // Loads 150, 80, 60, 59, 0 % of capacity 100: above 60 are 150 and 80 (60 is not above).
    const QList<double> spread { 150, 80, 60, 59, 0 };
    QTest::newRow("capacity, default 60") << 100.0 << 60.0 << spread << 2;
    QTest::newRow("capacity, 59.5") << 100.0 << 59.5 << spread << 3;
    QTest::newRow("capacity, 0") << 100.0 << 0.0 << spread << 4; // idle is never overloaded
    QTest::newRow("capacity, 200") << 100.0 << 200.0 << spread << 0;
    // Relative, shares of the set: 80, 10, 5, 5; then four even shards at 25 each.
    QTest::newRow("relative") << 0.0 << 60.0 << QList<double> { 80, 10, 5, 5 } << 1;
    QTest::newRow("relative, even") << 0.0 << 20.0 << QList<double> { 25, 25, 25, 25 } << 4;
    QTest::newRow("relative, even, 60") << 0.0 << 60.0 << QList<double> { 25, 25, 25, 25 } << 0;
    QTest::newRow("relative, idle") << 0.0 << 60.0 << QList<double> { 0, 0 } << 0;
}

void TestPgTableActivity::overloaded()
{
    QFETCH(double, capacity);
    QFETCH(double, threshold);
    QFETCH(QList<double>, ops);
    QFETCH(int, expected);

    PgShardSetOption set { u"tenants"_s, {}, capacity };
    for (int i = 0; i < ops.size(); ++i)
        set.tables << u"t%1"_s.arg(i);
    PgTableActivity activity({ set }, threshold);
    const auto rows = [&](double seconds) {
        QList<Row> list;
        for (int i = 0; i < ops.size(); ++i)
            list << table(quint32(100 + i), u"public.t%1"_s.arg(i), ops[i] * seconds, 0);
        return snapshot(list);
    };
    SampleBatch first;
    activity.update(rows(1), 1000, Source, first);
    // No rates, no count: a count of 0 would claim the set is fine.
    QCOMPARE(countMetric(first, u"pg.shardset.overloaded"_s), 0);
    SampleBatch second;
    activity.update(rows(2), 2000, Source, second);
    const Labels labels { { u"set"_s, u"tenants"_s } };
    QCOMPARE(value(second, u"pg.shardset.overloaded"_s, labels), double(expected));
    const auto meta = info(second, u"pg.shardset.overloaded"_s, labels);
    QCOMPARE(meta->kind, UseKind::Saturation);
    QCOMPARE(meta->unit, u"shards"_s);
    QCOMPARE(meta->resource, u"shardset:tenants"_s);
    // The count agrees with the loads published beside it.
    int above = 0;
    for (const auto entries = shardsByLoad(second, u"tenants"_s);
         const auto &[shard, load] : entries)
        above += load > threshold ? 1 : 0;
    QCOMPARE(above, expected);
}

void TestPgTableActivity::overloadedOption_data()
{
    QTest::addColumn<QJsonValue>("option");
    QTest::addColumn<double>("expected"); // NaN: refused
    QTest::addColumn<QString>("error");

    QTest::newRow("absent") << QJsonValue() << 60.0 << QString();
    QTest::newRow("number") << QJsonValue(75) << 75.0 << QString();
    QTest::newRow("string from a variable") << QJsonValue(u" 80.5 "_s) << 80.5 << QString();
    QTest::newRow("above 100 (capacity)") << QJsonValue(150) << 150.0 << QString();
    const QString range = u"shardOverloadedPercent: must be a number of at least 0, got "_s;
    QTest::newRow("negative") << QJsonValue(-1) << qQNaN() << QString(range + u"-1"_s);
    QTest::newRow("text") << QJsonValue(u"hot"_s) << qQNaN() << QString(range + u"\"hot\""_s);
    QTest::newRow("bool") << QJsonValue(true) << qQNaN() << QString(range + u"true"_s);
}

void TestPgTableActivity::overloadedOption()
{
    QFETCH(QJsonValue, option);
    QFETCH(double, expected);
    QFETCH(QString, error);

    QJsonObject options;
    if (!option.isNull())
        options.insert(u"shardOverloadedPercent"_s, option);
    QString message;
    const auto parsed = parsePostgresOptions(options, &message);
    QCOMPARE(parsed.has_value(), !qIsNaN(expected));
    QCOMPARE(message, error);
    if (parsed)
        QCOMPARE(parsed->shardOverloadedPercent, expected);
}

QTEST_GUILESS_MAIN(TestPgTableActivity)
#include "tst_pgtableactivity.moc"
