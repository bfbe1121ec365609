// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Replication on both sides, against the test primary and its streaming standby
// (tests/pg-replication-servers: application_name and slot "standby1"). Without a
// server: the replay delay's rules (no hour-long delay for a record received a moment
// ago on an idle primary; behind already at the first poll: the last replay's age) and
// the queries of older versions. With them: the primary names its standby (state, sync
// state, lags, its active slot), a slot nobody consumes retains WAL that grows with the
// writes, and with the standby's replay paused while the primary writes, the primary's
// replay lag and the standby's own delay and unreplayed WAL grow, the standby says it is
// paused; resumed, all of it falls back to 0.
#include "pgreplication.h"
#include "pgtestutil.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const Labels Standby1 { { u"standby"_s, u"standby1"_s }, { u"client_addr"_s, QString() } };
const QString Orphan = u"hr_orphan"_s;

const SeriesValue *find(const SampleBatch &batch, const QString &metric, const Labels &labels = {})
{
    for (const SeriesValue &v : batch.values)
        if (v.info.key.metric == metric && v.info.key.labels == labels)
            return &v;
    return nullptr;
}

std::unique_ptr<PostgresCollector> collectorOn(const char *server)
{
    QString error;
    auto collector = makeCollector(QJsonObject { { u"conninfo"_s, conninfoOf(server) },
                                                 { u"statements"_s, false },
                                                 { u"tables"_s, false },
                                                 { u"waitSamplesPerSecond"_s, 0 } },
                                   5000, &error);
    if (!collector)
        qWarning("%s", qPrintable(error));
    return collector;
}

PollResult pollOk(PostgresCollector &collector)
{
    PollResult result = collector.poll(QDeadlineTimer(5000));
    if (!result.error.isEmpty())
        qWarning("poll failed: %s", qPrintable(result.error));
    return result;
}

} // namespace

class TestPgReplication : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void replayDelayRules();
    void olderVersionsQueries();
    void primaryNamesItsStandby();
    void slotWithoutConsumerRetainsWal();
    void pausedReplayOnBothSides();
    void cleanupTestCase();
};

void TestPgReplication::replayDelayRules()
{
    PgReplicationPart part;
    PgReplicaStatus status;
    // The first poll finds replay behind: only the last replay's age can say how long.
    status.receivedLsn = 2000;
    status.replayedLsn = 1000;
    status.lastReplayAgeS = 40;
    QCOMPARE(part.replayDelay(status, 1'000'000), 40.0);
    // Caught up: 0, whatever the last replay's age (an idle primary makes it grow).
    status.replayedLsn = 2000;
    status.lastReplayAgeS = 3600;
    QCOMPARE(part.replayDelay(status, 1'001'000), 0.0);
    // A record received just now on that idle primary, not yet replayed: waiting since
    // it was first seen, not for an hour.
    status.receivedLsn = 2100;
    QCOMPARE(part.replayDelay(status, 1'002'000), 0.0);
    QCOMPARE(part.replayDelay(status, 1'002'500), 0.5);
    // Replay stands still while WAL keeps coming: the delay grows from the first WAL
    // beyond the replayed position, bounded by the last replay's age.
    status.receivedLsn = 2200;
    QCOMPARE(part.replayDelay(status, 1'005'000), 3.0);
    status.lastReplayAgeS = 1.5;
    QCOMPARE(part.replayDelay(status, 1'006'000), 1.5);
    status.lastReplayAgeS.reset();
    QCOMPARE(part.replayDelay(status, 1'006'000), 4.0);
    // Replayed up to the second position: the third has waited since 1'005'000.
    status.replayedLsn = 2100;
    QCOMPARE(part.replayDelay(status, 1'007'000), 2.0);

    SampleBatch batch;
    status.paused = true;
    status.receiverStatus = u"streaming"_s;
    status.receiving = true;
    status.sender = u"db1"_s;
    PgReplicationPart::publishReplica(status, 2, u"pg"_s, batch);
    QCOMPARE(find(batch, u"pg.replica.replay_paused"_s)->value, 1.0);
    QCOMPARE(find(batch, u"pg.replica.replay_paused"_s)->info.kind, UseKind::Errors);
    QCOMPARE(find(batch, u"pg.replica.replay_delay_s"_s)->info.resource, u"replica"_s);
    QCOMPARE(find(batch, u"pg.replica.unreplayed_bytes"_s)->value, 100.0);
    QVERIFY(find(batch, u"pg.replica.wal_receiver"_s,
                 { { u"status"_s, u"streaming"_s }, { u"sender"_s, u"db1"_s } }));
}

void TestPgReplication::olderVersionsQueries()
{
    QVERIFY(PgReplicationPart::slotsQuery(120000).contains("'', NULL::float8"));
    QVERIFY(PgReplicationPart::slotsQuery(130000).contains("wal_status"));
    QVERIFY(PgReplicationPart::replicaQuery(130000).contains("pg_is_wal_replay_paused()"));
    QVERIFY(PgReplicationPart::replicaQuery(140000).contains("pg_get_wal_replay_pause_state()"));
    QVERIFY(PgReplicationPart::standbysQuery().contains("LIMIT 64"));
    PgStandby standby;
    standby.name = u"s1"_s;
    QCOMPARE(PgReplicationPart::standbyResource(standby), u"standby:s1"_s);
    standby.clientAddr = u"10.0.0.7"_s;
    QCOMPARE(PgReplicationPart::standbyResource(standby), u"standby:s1 (10.0.0.7)"_s);
}

void TestPgReplication::primaryNamesItsStandby()
{
    HEADROOM_REQUIRE_PG_SERVER("STANDBY");
    auto primary = collectorOn("PRIMARY");
    QVERIFY(primary);
    // The standby may still be catching up right after the run's start.
    PollResult result;
    QElapsedTimer waited;
    waited.start();
    Labels streaming = Standby1;
    streaming.insert(u"state"_s, u"streaming"_s);
    streaming.insert(u"sync_state"_s, u"async"_s);
    do {
        result = pollOk(*primary);
    } while (!find(result.batch, u"pg.replication.standby"_s, streaming)
             && waited.elapsed() < 10'000 && (QThread::msleep(200), true));
    const SeriesValue *state = find(result.batch, u"pg.replication.standby"_s, streaming);
    QVERIFY2(state, "no streaming standby1 in pg_stat_replication");
    QCOMPARE(state->info.resource, u"standby:standby1"_s);
    for (const QString &metric :
         { u"pg.replication.write_lag_bytes"_s, u"pg.replication.flush_lag_bytes"_s,
           u"pg.replication.replay_lag_bytes"_s }) {
        const SeriesValue *v = find(result.batch, metric, Standby1);
        QVERIFY2(v, qPrintable(metric));
        QVERIFY(v->value >= 0);
        QCOMPARE(v->info.kind, UseKind::Saturation);
        QCOMPARE(v->info.unit, u"B"_s);
    }
    const Labels slot { { u"slot"_s, u"standby1"_s }, { u"type"_s, u"physical"_s } };
    QCOMPARE(find(result.batch, u"pg.replication.slot.active"_s, slot)->value, 1.0);
    QCOMPARE(find(result.batch, u"pg.replication.slot.wal_status"_s, slot)->value, 0.0);
    const SeriesValue *retained = find(result.batch, u"pg.replication.slot.retained_bytes"_s, slot);
    QVERIFY(retained);
    QCOMPARE(retained->info.resource, u"slot:standby1"_s);
    // A primary is no replica.
    QVERIFY(!find(result.batch, u"pg.replica.replay_paused"_s));

    // The standby: receiving from the primary, not paused, nothing waiting.
    auto standby = collectorOn("STANDBY");
    QVERIFY(standby);
    result = pollOk(*standby);
    QCOMPARE(find(result.batch, u"pg.replica.receiving"_s)->value, 1.0);
    QCOMPARE(find(result.batch, u"pg.replica.replay_paused"_s)->value, 0.0);
    QVERIFY(find(result.batch, u"pg.replica.replay_delay_s"_s));
    const SeriesValue *receiver = nullptr;
    for (const SeriesValue &v : std::as_const(result.batch.values))
        if (v.info.key.metric == "pg.replica.wal_receiver"_L1)
            receiver = &v;
    QVERIFY(receiver);
    QCOMPARE(receiver->info.key.labels.value(u"status"_s), u"streaming"_s);
    QCOMPARE(receiver->info.key.labels.value(u"sender"_s), otherServerEnv("PRIMARY", "HOST"));
}

void TestPgReplication::slotWithoutConsumerRetainsWal()
{
    HEADROOM_REQUIRE_PG_SERVER("PRIMARY");
    TestConnection admin(conninfoOf("PRIMARY"));
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    PG_EXEC(admin,
            u"SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
            " WHERE slot_name = '%1'"_s.arg(Orphan));
    // Reserved at once: it keeps WAL from now on, and nobody will ever read it.
    PG_EXEC(admin, u"SELECT pg_create_physical_replication_slot('%1', true)"_s.arg(Orphan));
    PG_EXEC(admin, u"CREATE TABLE IF NOT EXISTS hr_writes (v text)"_s);
    auto primary = collectorOn("PRIMARY");
    QVERIFY(primary);
    const Labels slot { { u"slot"_s, Orphan }, { u"type"_s, u"physical"_s } };
    PollResult result = pollOk(*primary);
    QCOMPARE(find(result.batch, u"pg.replication.slot.active"_s, slot)->value, 0.0);
    const double before = find(result.batch, u"pg.replication.slot.retained_bytes"_s, slot)->value;
    PG_EXEC(admin,
            u"INSERT INTO hr_writes SELECT repeat('x', 200) FROM generate_series(1, 20000)"_s);
    result = pollOk(*primary);
    const double after = find(result.batch, u"pg.replication.slot.retained_bytes"_s, slot)->value;
    QVERIFY2(after >= before + 4e6, qPrintable(u"%1 -> %2"_s.arg(before).arg(after)));
    PG_EXEC(admin, u"SELECT pg_drop_replication_slot('%1')"_s.arg(Orphan));
    result = pollOk(*primary);
    QVERIFY(!find(result.batch, u"pg.replication.slot.active"_s, slot));
}

void TestPgReplication::pausedReplayOnBothSides()
{
    HEADROOM_REQUIRE_PG_SERVER("STANDBY");
    TestConnection writer(conninfoOf("PRIMARY"));
    QVERIFY2(writer.ok(), qPrintable(writer.error()));
    TestConnection standbyAdmin(conninfoOf("STANDBY"));
    QVERIFY2(standbyAdmin.ok(), qPrintable(standbyAdmin.error()));
    PG_EXEC(writer, u"CREATE TABLE IF NOT EXISTS hr_writes (v text)"_s);
    auto primary = collectorOn("PRIMARY");
    auto standby = collectorOn("STANDBY");
    QVERIFY(primary && standby);
    pollOk(*primary);
    pollOk(*standby);

    PG_EXEC(standbyAdmin, u"SELECT pg_wal_replay_pause()"_s);
    // The primary writes, a commit every 100 ms, for 3 s.
    PollResult onPrimary, onStandby;
    for (int i = 0; i < 30; ++i) {
        PG_EXEC(writer,
                u"INSERT INTO hr_writes SELECT repeat('x', 100) FROM generate_series(1, 100)"_s);
        QThread::msleep(100);
        if (i % 5 == 4) {
            onPrimary = pollOk(*primary);
            onStandby = pollOk(*standby);
        }
    }
    QCOMPARE(find(onStandby.batch, u"pg.replica.replay_paused"_s)->value, 1.0);
    const double unreplayed = find(onStandby.batch, u"pg.replica.unreplayed_bytes"_s)->value;
    QVERIFY2(unreplayed > 100'000, qPrintable(QString::number(unreplayed)));
    const double delay = find(onStandby.batch, u"pg.replica.replay_delay_s"_s)->value;
    QVERIFY2(delay > 1.5 && delay < 10, qPrintable(QString::number(delay)));
    const double lagBytes
        = find(onPrimary.batch, u"pg.replication.replay_lag_bytes"_s, Standby1)->value;
    QVERIFY2(lagBytes > 100'000, qPrintable(QString::number(lagBytes)));
    const SeriesValue *lag = find(onPrimary.batch, u"pg.replication.replay_lag_s"_s, Standby1);
    QVERIFY(lag);
    QVERIFY2(lag->value > 1.5, qPrintable(QString::number(lag->value)));
    // Written and flushed there all the same: only replay stands still.
    QVERIFY(find(onPrimary.batch, u"pg.replication.flush_lag_bytes"_s, Standby1)->value < lagBytes);

    PG_EXEC(standbyAdmin, u"SELECT pg_wal_replay_resume()"_s);
    QElapsedTimer waited;
    waited.start();
    double after = -1;
    do {
        QThread::msleep(200);
        onStandby = pollOk(*standby);
        after = find(onStandby.batch, u"pg.replica.replay_delay_s"_s)->value;
    } while (after > 0 && waited.elapsed() < 10'000);
    QCOMPARE(after, 0.0);
    QCOMPARE(find(onStandby.batch, u"pg.replica.replay_paused"_s)->value, 0.0);
    QCOMPARE(find(onStandby.batch, u"pg.replica.unreplayed_bytes"_s)->value, 0.0);
    QTRY_VERIFY_WITH_TIMEOUT(
        find(pollOk(*primary).batch, u"pg.replication.replay_lag_bytes"_s, Standby1)->value == 0,
        10'000);
}

void TestPgReplication::cleanupTestCase()
{
    if (!otherServerAvailable("STANDBY"))
        return;
    // Whatever a failure left: replay running, no orphan slot, no test table.
    TestConnection standbyAdmin(conninfoOf("STANDBY"));
    standbyAdmin.exec(u"SELECT pg_wal_replay_resume() WHERE pg_is_wal_replay_paused()"_s);
    TestConnection admin(conninfoOf("PRIMARY"));
    admin.exec(u"SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
               " WHERE slot_name = '%1'"_s.arg(Orphan));
    admin.exec(u"DROP TABLE IF EXISTS hr_writes"_s);
}

QTEST_GUILESS_MAIN(TestPgReplication)
#include "tst_pgreplication.moc"
