// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Checkpoints, WAL and sizes. Without a server: the rates and the windowed checkpoint
// counts of known readings (a reset gives a gap), the WAL-forced checkpoints per
// checkpoint_timeout, the growth of sizes per hour and what is forgotten. Against the
// test primary (tests/pg-replication-servers): a CHECKPOINT counts as requested, WAL
// written shows as bytes per second, pg_stat_io by backend type from 16 on; with
// max_wal_size lowered to 32 MB a burst of writes forces checkpoints and
// pg.checkpoints.wal_forced passes 2 ("max_wal_size too small"); a table and its index
// are among the largest with their sizes, and a sort spilling past work_mem is named by
// its statement with the bytes it wrote to temp files.
#include "pgcheckpoints.h"
#include "pgsizes.h"
#include "pgtestutil.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const SeriesValue *find(const SampleBatch &batch, const QString &metric, const Labels &labels = {})
{
    for (const SeriesValue &v : batch.values)
        if (v.info.key.metric == metric && v.info.key.labels == labels)
            return &v;
    return nullptr;
}

std::unique_ptr<PostgresCollector> collectorOn(const char *server, const QString &database,
                                               bool statements)
{
    QString error;
    auto collector = makeCollector(QJsonObject { { u"conninfo"_s, conninfoOf(server, database) },
                                                 { u"statements"_s, statements },
                                                 { u"tables"_s, false },
                                                 { u"waitSamplesPerSecond"_s, 0 } },
                                   5000, &error);
    if (!collector)
        qWarning("%s", qPrintable(error));
    return collector;
}

const QString Db = u"headroom_sizes"_s;

} // namespace

class TestPgCheckpoints : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ratesAndWindows();
    void walForcedPerTimeout();
    void sizesGrowth();
    void queriesByVersion();
    void checkpointsAndWalOnTheServer();
    void walVolumeForcesCheckpoints();
    void largestRelationsAndSpillingSort();
    void cleanupTestCase();
};

void TestPgCheckpoints::ratesAndWindows()
{
    PgCheckpointsPart part;
    PgCheckpointStats s;
    s.walPosition = 1e9;
    s.walBytes = 5e8;
    s.backendBuffers = 100;
    SampleBatch batch;
    part.update(s, {}, 1'000'000, u"pg"_s, batch);
    // The first reading is a baseline: settings only.
    QVERIFY(!find(batch, u"pg.wal.bytes.rate"_s));
    QCOMPARE(find(batch, u"pg.checkpoints.timeout_s"_s)->value, 300.0);
    QCOMPARE(find(batch, u"pg.wal.max_wal_size"_s)->value, 1024.0 * 1024 * 1024);
    // Ten seconds on: 10 MB of WAL by its position (pg_stat_wal's count lags), 50 buffers.
    s.walBytes = 5e8 + 3e7;
    s.walPosition = 1e9 + 1e7;
    s.backendBuffers = 150;
    s.requested = 1;
    batch = {};
    part.update(s, { { u"client backend"_s, 8192, 16384, 0, 2 } }, 1'010'000, u"pg"_s, batch);
    QCOMPARE(find(batch, u"pg.wal.bytes.rate"_s)->value, 1e6);
    QCOMPARE(find(batch, u"pg.wal.bytes.rate"_s)->info.resource, u"wal"_s);
    QCOMPARE(find(batch, u"pg.buffers.backend_written.rate"_s)->value, 5.0);
    // Checkpoints per hour only once a minute of polls is behind them.
    QVERIFY(!find(batch, u"pg.checkpoints.requested.rate"_s));
    // 1e6 B/s x 300 s / (1 GiB / 1.9): 0.53 checkpoints per checkpoint_timeout.
    const SeriesValue *forced = find(batch, u"pg.checkpoints.wal_forced"_s);
    QVERIFY(forced);
    QCOMPARE(qRound(forced->value * 100), 53);
    QCOMPARE(forced->info.kind, UseKind::Saturation);
    QCOMPARE(forced->info.unit, u"x"_s);
    batch = {};
    s.requested = 3;
    s.timed = 1;
    part.update(s, { { u"client backend"_s, 8192 * 11, 16384, 0, 2 } }, 1'070'000, u"pg"_s, batch);
    // 3 requested and 1 timed in 70 s: per hour.
    QCOMPARE(qRound(find(batch, u"pg.checkpoints.requested.rate"_s)->value),
             qRound(3 * 3600 / 70.0));
    QCOMPARE(qRound(find(batch, u"pg.checkpoints.timed.rate"_s)->value), qRound(3600 / 70.0));
    QCOMPARE(find(batch, u"pg.io.read_bytes.rate"_s, { { u"backend_type"_s, u"client backend"_s } })
                 ->value,
             8192.0 * 10 / 60);
    QCOMPARE(find(batch, u"pg.io.read_bytes.rate"_s, { { u"backend_type"_s, u"client backend"_s } })
                 ->info.resource,
             u"pg"_s);
    // pg_stat_reset_shared: counters went down, a gap and a new baseline.
    s.requested = 0;
    s.timed = 0;
    s.walPosition = 1000;
    batch = {};
    part.update(s, {}, 1'080'000, u"pg"_s, batch);
    QVERIFY(!find(batch, u"pg.wal.bytes.rate"_s));
    QVERIFY(!find(batch, u"pg.checkpoints.requested.rate"_s));
    // A standby: no WAL-forced checkpoints of its own, its WAL rate is what it replayed.
    PgCheckpointsPart onStandby;
    s.inRecovery = true;
    batch = {};
    onStandby.update(s, {}, 1'000'000, u"pg"_s, batch);
    s.walPosition += 2e6;
    batch = {};
    onStandby.update(s, {}, 1'002'000, u"pg"_s, batch);
    QCOMPARE(find(batch, u"pg.wal.bytes.rate"_s)->value, 1e6);
    QVERIFY(!find(batch, u"pg.checkpoints.wal_forced"_s));
}

void TestPgCheckpoints::walForcedPerTimeout()
{
    // 32 MB max_wal_size, completion target 0.9: a checkpoint every 16.8 MB of WAL; at
    // 1 MB/s over checkpoint_timeout 300 s that is 17.8 per timeout.
    PgCheckpointsPart part;
    PgCheckpointStats s;
    s.maxWalSizeBytes = 32.0 * 1024 * 1024;
    s.walPosition = 0;
    SampleBatch batch;
    part.update(s, {}, 0 + 1'000'000, u"pg"_s, batch);
    for (int i = 1; i <= 40; ++i) {
        s.walPosition = 1e6 * i;
        batch = {};
        part.update(s, {}, 1'000'000 + 1000 * i, u"pg"_s, batch);
    }
    QCOMPARE(qRound(find(batch, u"pg.checkpoints.wal_forced"_s)->value * 10), 170);
}

void TestPgCheckpoints::sizesGrowth()
{
    // Growth once readings span 5 minutes (here: 2 of them), per hour, over the last hour.
    PgSizesPart part(60'000, 120'000);
    const auto reading = [](PgRelationSize::Kind kind, const QString &name, double bytes) {
        PgRelationSize r;
        r.kind = kind;
        r.schema = u"public"_s;
        r.name = name;
        r.table = kind == PgRelationSize::Index ? u"orders"_s : QString();
        r.bytes = bytes;
        return r;
    };
    SampleBatch batch;
    for (int minute = 0; minute <= 3; ++minute) {
        batch = {};
        part.update({ reading(PgRelationSize::Database, u"shop"_s, 1e9 + 1e6 * minute),
                      reading(PgRelationSize::Table, u"orders"_s, 5e8 + 2e6 * minute),
                      reading(PgRelationSize::Index, u"orders_pkey"_s, 1e8) },
                    u"shop"_s, 1'000'000 + 60'000 * minute, u"pg"_s, batch);
        if (minute < 2) {
            QVERIFY(!find(batch, u"pg.db.size_growth"_s, { { u"datname"_s, u"shop"_s } }));
        }
    }
    QCOMPARE(find(batch, u"pg.db.size"_s, { { u"datname"_s, u"shop"_s } })->value, 1.003e9);
    QCOMPARE(find(batch, u"pg.db.size"_s, { { u"datname"_s, u"shop"_s } })->info.resource,
             u"db:shop"_s);
    QCOMPARE(find(batch, u"pg.db.size_growth"_s, { { u"datname"_s, u"shop"_s } })->value, 60e6);
    const Labels table { { u"schema"_s, u"public"_s }, { u"table"_s, u"orders"_s } };
    QCOMPARE(find(batch, u"pg.table.size_growth"_s, table)->value, 120e6);
    QCOMPARE(find(batch, u"pg.table.size_growth"_s, table)->info.unit, u"B/h"_s);
    QCOMPARE(find(batch, u"pg.table.size"_s, table)->info.resource, u"db:shop"_s);
    const Labels index { { u"schema"_s, u"public"_s },
                         { u"table"_s, u"orders"_s },
                         { u"index"_s, u"orders_pkey"_s } };
    QCOMPARE(find(batch, u"pg.index.size_growth"_s, index)->value, 0.0);
    // A table gone from the top is forgotten: back later, it starts again.
    batch = {};
    part.update({ reading(PgRelationSize::Database, u"shop"_s, 1e9) }, u"shop"_s, 1'240'000,
                u"pg"_s, batch);
    batch = {};
    part.update({ reading(PgRelationSize::Table, u"orders"_s, 6e8) }, u"shop"_s, 1'300'000, u"pg"_s,
                batch);
    QVERIFY(!find(batch, u"pg.table.size_growth"_s, table));
}

void TestPgCheckpoints::queriesByVersion()
{
    QVERIFY(PgCheckpointsPart::statsQuery(170000).contains("pg_stat_checkpointer"));
    QVERIFY(PgCheckpointsPart::statsQuery(170000).contains("pg_stat_wal"));
    QVERIFY(PgCheckpointsPart::statsQuery(160000).contains("buffers_backend"));
    QVERIFY(!PgCheckpointsPart::statsQuery(160000).contains("pg_stat_checkpointer"));
    QVERIFY(!PgCheckpointsPart::statsQuery(130000).contains("pg_stat_wal"));
    QVERIFY(PgCheckpointsPart::ioQuery(150000).isEmpty());
    QVERIFY(PgCheckpointsPart::ioQuery(160000).contains("op_bytes"));
    QVERIFY(PgCheckpointsPart::ioQuery(180000).contains("read_bytes"));
    QVERIFY(PgSizesPart::relationsQuery().contains("relpages"));
}

void TestPgCheckpoints::checkpointsAndWalOnTheServer()
{
    HEADROOM_REQUIRE_PG_SERVER("PRIMARY");
    TestConnection admin(conninfoOf("PRIMARY"));
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    const int version = admin.exec(u"SHOW server_version_num"_s).value_or(u"0"_s).toInt();
    PG_EXEC(admin, u"CREATE TABLE IF NOT EXISTS hr_wal (v text)"_s);
    auto collector = collectorOn("PRIMARY", u"postgres"_s, false);
    QVERIFY(collector);
    PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    PG_EXEC(admin, u"INSERT INTO hr_wal SELECT repeat('x', 100) FROM generate_series(1, 10000)"_s);
    PG_EXEC(admin, u"CHECKPOINT"_s);
    QThread::msleep(200);
    result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(result.warnings.isEmpty());
    const SeriesValue *wal = find(result.batch, u"pg.wal.bytes.rate"_s);
    QVERIFY(wal);
    QVERIFY2(wal->value > 1e6, qPrintable(QString::number(wal->value)));
    QVERIFY(find(result.batch, u"pg.wal.fpi.rate"_s)); // 14+
    QVERIFY(find(result.batch, u"pg.checkpoints.buffers.rate"_s)->value > 0);
    QVERIFY(find(result.batch, u"pg.buffers.backend_written.rate"_s));
    QVERIFY(find(result.batch, u"pg.checkpoints.wal_forced"_s));
    const bool io = version >= 160000;
    QCOMPARE(bool(find(result.batch, u"pg.io.write_bytes.rate"_s,
                       { { u"backend_type"_s, u"checkpointer"_s } })),
             io);
    if (io)
        QVERIFY(find(result.batch, u"pg.io.write_bytes.rate"_s,
                     { { u"backend_type"_s, u"checkpointer"_s } })
                    ->value
                > 0);
}

void TestPgCheckpoints::walVolumeForcesCheckpoints()
{
    HEADROOM_REQUIRE_PG_SERVER("PRIMARY");
    TestConnection admin(conninfoOf("PRIMARY"));
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    PG_EXEC(admin, u"ALTER SYSTEM SET max_wal_size = '32MB'"_s);
    PG_EXEC(admin, u"ALTER SYSTEM SET min_wal_size = '32MB'"_s);
    PG_EXEC(admin, u"SELECT pg_reload_conf()"_s);
    PG_EXEC(admin, u"CREATE TABLE IF NOT EXISTS hr_wal (v text)"_s);
    auto collector = collectorOn("PRIMARY", u"postgres"_s, false);
    QVERIFY(collector);
    PollResult result = collector->poll(QDeadlineTimer(5000));
    const bool v17 = admin.exec(u"SHOW server_version_num"_s).value_or(u"0"_s).toInt() >= 170000;
    const QString requestedSql = v17 ? u"SELECT num_requested FROM pg_stat_checkpointer"_s
                                     : u"SELECT checkpoints_req FROM pg_stat_bgwriter"_s;
    const auto requested = [&] { return admin.exec(requestedSql).value_or(u"0"_s).toDouble(); };
    const double requestedBefore = requested();
    // About 40 MB of WAL a second for 2 s: more than two checkpoints' worth.
    double forced = 0;
    for (int i = 0; i < 8; ++i) {
        PG_EXEC(
            admin,
            u"INSERT INTO hr_wal SELECT repeat(md5(g::text), 8) FROM generate_series(1, 30000) g"_s);
        QThread::msleep(50);
        result = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        forced = find(result.batch, u"pg.checkpoints.wal_forced"_s)->value;
    }
    PG_EXEC(admin, u"ALTER SYSTEM RESET max_wal_size"_s);
    PG_EXEC(admin, u"ALTER SYSTEM RESET min_wal_size"_s);
    PG_EXEC(admin, u"SELECT pg_reload_conf()"_s);
    PG_EXEC(admin, u"TRUNCATE hr_wal"_s);
    QVERIFY2(forced > 2, qPrintable(QString::number(forced)));
    const double requestedAfter = requested();
    // The server agrees: it requested checkpoints for the WAL volume.
    QVERIFY2(requestedAfter > requestedBefore,
             qPrintable(u"%1 -> %2"_s.arg(requestedBefore).arg(requestedAfter)));
}

void TestPgCheckpoints::largestRelationsAndSpillingSort()
{
    HEADROOM_REQUIRE_PG_SERVER("PRIMARY");
    TestConnection admin(conninfoOf("PRIMARY"));
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Db));
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(Db));
    TestConnection db(conninfoOf("PRIMARY", Db));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    PG_EXEC(db, u"CREATE EXTENSION pg_stat_statements"_s);
    PG_EXEC(db, u"CREATE TABLE big (id int PRIMARY KEY, pad text)"_s);
    PG_EXEC(db, u"INSERT INTO big SELECT i, md5(i::text) FROM generate_series(1, 100000) i"_s);
    PG_EXEC(db, u"ANALYZE big"_s); // relpages, by which the largest are found
    auto collector = collectorOn("PRIMARY", Db, true);
    QVERIFY(collector);
    PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const SeriesValue *size = find(result.batch, u"pg.db.size"_s, { { u"datname"_s, Db } });
    QVERIFY(size);
    QVERIFY(size->value > 5e6);
    QCOMPARE(size->info.resource, u"db:"_s + Db);
    const SeriesValue *table = find(result.batch, u"pg.table.size"_s,
                                    { { u"schema"_s, u"public"_s }, { u"table"_s, u"big"_s } });
    QVERIFY(table);
    QVERIFY2(table->value > 6e6, qPrintable(QString::number(table->value))); // heap + index
    const SeriesValue *index = find(
        result.batch, u"pg.index.size"_s,
        { { u"schema"_s, u"public"_s }, { u"table"_s, u"big"_s }, { u"index"_s, u"big_pkey"_s } });
    QVERIFY(index);
    QVERIFY(index->value > 1e6 && index->value < table->value);
    // Once a minute: the next poll measures nothing.
    result = collector->poll(QDeadlineTimer(5000));
    QVERIFY(!find(result.batch, u"pg.db.size"_s, { { u"datname"_s, Db } }));

    // A sort spilling past a small work_mem, named by its statement.
    PG_EXEC(db, u"SET work_mem = '64kB'"_s);
    PG_EXEC(db, u"SELECT * FROM big ORDER BY pad DESC LIMIT 90000 OFFSET 89999"_s);
    QThread::msleep(100);
    result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const SeriesValue *spill = nullptr;
    for (const SeriesValue &v : std::as_const(result.batch.values))
        if (v.info.key.metric == "pg.statements.temp_bytes.rate"_L1
            && v.info.key.labels.value(u"query"_s).contains(u"ORDER BY pad"_s))
            spill = &v;
    QVERIFY(spill);
    QVERIFY2(spill->value > 1e5, qPrintable(QString::number(spill->value)));
    QCOMPARE(spill->info.kind, UseKind::Saturation);
    QCOMPARE(spill->info.unit, u"B/s"_s);
}

void TestPgCheckpoints::cleanupTestCase()
{
    if (!otherServerAvailable("PRIMARY"))
        return;
    TestConnection admin(conninfoOf("PRIMARY"));
    admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Db));
    admin.exec(u"DROP TABLE IF EXISTS hr_wal"_s);
    admin.exec(u"ALTER SYSTEM RESET max_wal_size"_s);
    admin.exec(u"ALTER SYSTEM RESET min_wal_size"_s);
    admin.exec(u"SELECT pg_reload_conf()"_s);
}

QTEST_GUILESS_MAIN(TestPgCheckpoints)
#include "tst_pgcheckpoints.moc"
