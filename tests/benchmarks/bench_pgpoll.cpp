// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What a poll of the postgres collector costs at a busy server's sizes: pg_stat_statements
// full (4,800 workload statements beside Headroom's) and 500 sessions (490 idle, 10
// running short statements). Headroom's own statements start with /* headroom */, so
// pg_stat_statements itself says how much server time each part took per poll:
//  - pgpoll_wall_median_ms, _p90_ms: the whole poll as the collector's thread sees it;
//  - pgpoll_server_ms_<part>: server time per poll of each part's statements, and
//    pgpoll_server_ms_round1 (the base parts: databases, activity, statements,
//    tables, probe) beside pgpoll_server_ms_added (blocking, maintenance, waits);
//  - pgpoll_sampler_server_ms_per_s: the wait sampler's session, per second.
// And at a primary's replication sizes: 20 standbys streaming (pg_receivewal, each on a
// slot of its own) and 50 slots in all (30 of them inactive, retaining WAL):
//  - pgpoll_replication_wall_median_ms, _p90_ms: the whole poll;
//  - pgpoll_replication_server_ms: server time per poll of the standby and slot reads.
// Needs a test server: HEADROOM_TEST_PG* as ./dev bench sets them (tests/run-benchmarks
// starts one with max_connections = 600, max_wal_senders = 30 and
// max_replication_slots = 60), else it says so and prints nothing.
#include "../postgres/pgtestutil.h"
#include "benchutil.h"
#include "postgrescollector.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <memory>

using namespace Headroom;
using namespace Headroom::Bench;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

const QString Db = u"headroom_bench_poll"_s;
constexpr int Sessions = 500;
constexpr int Active = 10;
constexpr int Polls = 20;
constexpr int Standbys = 20;
constexpr int Slots = 50;

// Which part a statement of Headroom's belongs to, by what it reads.
QString partOf(const QString &query)
{
    static const QList<std::pair<QString, QString>> parts {
        { u"pg_blocking_pids"_s, u"blocking"_s },
        { u"pg_stat_progress"_s, u"maintenance"_s },
        { u"pg_prepared_xacts"_s, u"maintenance"_s },
        { u"pg_wait_sampling"_s, u"waits"_s },
        { u"coalesce(query_id"_s, u"sampler"_s },
        { u"e.extname = $"_s, u"lookups"_s },
        { u"pg_stat_statements"_s, u"statements"_s },
        { u"pg_stat_user_tables"_s, u"tables"_s },
        { u"pg_stat_database"_s, u"databases"_s },
        { u"pg_stat_replication"_s, u"replication"_s },
        { u"pg_replication_slots"_s, u"replication"_s },
        { u"pg_stat_activity"_s, u"activity"_s },
    };
    for (const auto &[needle, part] : parts)
        if (query.contains(needle))
            return part;
    return u"other"_s; // the probe's SELECT 1, session setup
}

// Server time so far of Headroom's statements, per part, in ms.
QMap<QString, double> ownServerTime(TestConnection &admin)
{
    QMap<QString, double> byPart;
    PGresult *result = PQexec(admin.raw(),
                              "SELECT query, total_exec_time FROM pg_stat_statements"
                              " WHERE query LIKE '/* headroom */%'");
    for (int r = 0; r < PQntuples(result); ++r)
        byPart[partOf(QString::fromUtf8(PQgetvalue(result, r, 0)))]
            += QByteArray(PQgetvalue(result, r, 1)).toDouble();
    PQclear(result);
    return byPart;
}

// The distinct values of label in the batch's series of metric.
QSet<QString> labelValues(const SampleBatch &batch, const QString &metric, const QString &label)
{
    QSet<QString> values;
    for (const SeriesValue &v : batch.values)
        if (v.info.key.metric == metric)
            values.insert(v.info.key.labels.value(label));
    return values;
}

std::optional<int> setting(TestConnection &admin, const QString &name)
{
    bool ok = false;
    const int value = admin.exec(u"SHOW "_s + name).value_or(QString()).toInt(&ok);
    return ok ? std::optional(value) : std::nullopt;
}

} // namespace

class BenchPgPoll : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pollAtIssueSizes();
    void pollWithStandbysAndSlots();
};

void BenchPgPoll::pollAtIssueSizes()
{
    if (!serverAvailable())
        QSKIP("no test PostgreSQL (./dev bench starts one)");
    {
        TestConnection admin(conninfo());
        QVERIFY2(admin.ok(), qPrintable(admin.error()));
        PG_EXEC(admin, u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Db));
        PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(Db));
    }
    TestConnection db(conninfo(Db));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    PG_EXEC(db, u"CREATE EXTENSION pg_stat_statements"_s);
    // 96 tables times IN lists of 1 to 50 constants: 4,800 distinct statements.
    QString error;
    QVERIFY2(fillStatements(db, 96, &error), qPrintable(error));
    const QString entries
        = db.exec(u"SELECT count(*) FROM pg_stat_statements"_s).value_or(QString());
    std::vector<std::unique_ptr<TestConnection>> sessions;
    for (int i = 0; i < Sessions; ++i) {
        sessions.push_back(std::make_unique<TestConnection>(conninfo(Db)));
        QVERIFY2(sessions.back()->ok(), qPrintable(sessions.back()->error()));
    }
    for (int i = 0; i < Active; ++i)
        QVERIFY(sessions[size_t(i)]->send(u"SELECT pg_sleep(30)"_s));
    qInfo("pg_stat_statements entries: %s; sessions: %d (%d running)", qPrintable(entries),
          Sessions, Active);

    auto collector = makeCollector({ { u"conninfo"_s, conninfo(Db) } });
    QVERIFY(collector);
    collector->poll(QDeadlineTimer(5000)); // connects, primes baselines, starts the sampler
    QThread::msleep(500);
    const QMap<QString, double> before = ownServerTime(db);
    QElapsedTimer sampling;
    sampling.start();
    std::vector<double> wall;
    for (int i = 0; i < Polls; ++i) {
        QElapsedTimer timer;
        timer.start();
        const PollResult poll = collector->poll(QDeadlineTimer(5000));
        wall.push_back(double(timer.nsecsElapsed()) / 1e6);
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        QThread::msleep(200);
    }
    const double seconds = double(sampling.elapsed()) / 1000;
    const QMap<QString, double> after = ownServerTime(db);
    std::sort(wall.begin(), wall.end());
    print("pgpoll_wall_median_ms", wall[wall.size() / 2]);
    print("pgpoll_wall_p90_ms", wall[wall.size() * 9 / 10]);
    double round1 = 0;
    double added = 0;
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        const double perPoll = (it.value() - before.value(it.key())) / Polls;
        if (it.key() == "sampler"_L1) {
            print("pgpoll_sampler_server_ms_per_s",
                  (it.value() - before.value(it.key())) / seconds);
            continue;
        }
        print(qPrintable(u"pgpoll_server_ms_"_s + it.key()), perPoll);
        if (it.key() == "blocking"_L1 || it.key() == "maintenance"_L1 || it.key() == "waits"_L1)
            added += perPoll;
        else
            round1 += perPoll;
    }
    print("pgpoll_server_ms_round1", round1);
    print("pgpoll_server_ms_added", added);
    collector.reset(); // its sampler session too, before the database goes
    for (int i = 0; i < Active; ++i)
        PQrequestCancel(sessions[size_t(i)]->raw());
    sessions.clear();
    TestConnection admin(conninfo());
    admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(Db));
}

void BenchPgPoll::pollWithStandbysAndSlots()
{
    if (!serverAvailable())
        QSKIP("no test PostgreSQL (./dev bench starts one)");
    const QString receiveWal = env("HEADROOM_TEST_PGBIN") + u"/pg_receivewal"_s;
    if (!QFileInfo(receiveWal).isExecutable())
        QSKIP("no pg_receivewal beside the test server's binaries (HEADROOM_TEST_PGBIN)");
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    if (setting(admin, u"max_wal_senders"_s).value_or(0) < Standbys
        || setting(admin, u"max_replication_slots"_s).value_or(0) < Slots)
        QSKIP("the test server has room for fewer than 20 WAL senders or 50 slots "
              "(tests/run-benchmarks starts one with enough)");
    const auto slotName
        = [](int i) { return u"headroom_bench_slot%1"_s.arg(i, 2, 10, QLatin1Char('0')); };
    const auto dropSlots = [&] {
        admin.exec(u"SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                   " WHERE slot_name LIKE 'headroom\\_bench\\_slot%'"_s);
    };
    dropSlots(); // a run that was killed leaves them
    PG_EXEC(admin, u"CREATE EXTENSION IF NOT EXISTS pg_stat_statements"_s);
    for (int i = 0; i < Slots; ++i) // reserved at once: each retains WAL from its start
        PG_EXEC(admin,
                u"SELECT pg_create_physical_replication_slot('%1', true)"_s.arg(slotName(i)));
    PG_EXEC(admin, u"DROP TABLE IF EXISTS headroom_bench_wal"_s);
    PG_EXEC(admin, u"CREATE TABLE headroom_bench_wal (n int, pad text)"_s);

    QTemporaryDir walDir;
    QVERIFY2(walDir.isValid(), qPrintable(walDir.errorString()));
    std::vector<std::unique_ptr<QProcess>> receivers;
    const auto stopReceivers = [&] {
        for (const auto &receiver : receivers)
            receiver->terminate();
        for (const auto &receiver : receivers)
            if (!receiver->waitForFinished(5000))
                receiver->kill();
        receivers.clear();
    };
    auto cleanup = qScopeGuard([&] {
        stopReceivers();
        dropSlots();
        admin.exec(u"DROP TABLE IF EXISTS headroom_bench_wal"_s);
    });
    for (int i = 0; i < Standbys; ++i) {
        const QString dir = walDir.filePath(slotName(i));
        QVERIFY(QDir().mkpath(dir));
        auto receiver = std::make_unique<QProcess>();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"PGAPPNAME"_s, u"bench_standby%1"_s.arg(i, 2, 10, QLatin1Char('0')));
        receiver->setProcessEnvironment(environment);
        receiver->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        receiver->start(receiveWal,
                        { u"-D"_s, dir, u"-S"_s, slotName(i), u"-h"_s, env("HEADROOM_TEST_PGHOST"),
                          u"-p"_s, env("HEADROOM_TEST_PGPORT"), u"-U"_s, u"postgres"_s,
                          u"--no-loop"_s, u"--no-password"_s });
        QVERIFY2(receiver->waitForStarted(5000), qPrintable(receiver->errorString()));
        receivers.push_back(std::move(receiver));
    }
    QDeadlineTimer streaming(30'000);
    QString count;
    while (!streaming.hasExpired()) {
        count = admin.exec(u"SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"_s)
                    .value_or(QString());
        if (count.toInt() == Standbys)
            break;
        QThread::msleep(100);
    }
    QVERIFY2(count.toInt() == Standbys,
             qPrintable(u"%1 of %2 standbys streaming after 30 s"_s.arg(count).arg(Standbys)));
    qInfo("standbys streaming: %d; replication slots: %d (%d inactive)", Standbys, Slots,
          Slots - Standbys);

    auto collector = makeCollector({ { u"conninfo"_s, conninfo() } });
    QVERIFY(collector);
    collector->poll(QDeadlineTimer(5000)); // connects, primes baselines, starts the sampler
    QThread::msleep(500);
    const QMap<QString, double> before = ownServerTime(admin);
    std::vector<double> wall;
    for (int i = 0; i < Polls; ++i) {
        // WAL for the standbys to stream and the slots to retain between polls.
        PG_EXEC(admin,
                u"INSERT INTO headroom_bench_wal"
                " SELECT n, repeat('x', 100) FROM generate_series(1, 2000) n"_s);
        QElapsedTimer timer;
        timer.start();
        const PollResult poll = collector->poll(QDeadlineTimer(5000));
        wall.push_back(double(timer.nsecsElapsed()) / 1e6);
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        if (i == Polls - 1) {
            // Every standby and every slot is in the poll, not a bounded share of them.
            QCOMPARE(
                labelValues(poll.batch, u"pg.replication.replay_lag_bytes"_s, u"standby"_s).size(),
                Standbys);
            QCOMPARE(labelValues(poll.batch, u"pg.replication.slot.active"_s, u"slot"_s).size(),
                     Slots);
        }
        QThread::msleep(200);
    }
    const QMap<QString, double> after = ownServerTime(admin);
    std::sort(wall.begin(), wall.end());
    print("pgpoll_replication_wall_median_ms", wall[wall.size() / 2]);
    print("pgpoll_replication_wall_p90_ms", wall[wall.size() * 9 / 10]);
    print("pgpoll_replication_server_ms",
          (after.value(u"replication"_s) - before.value(u"replication"_s)) / Polls);
    collector.reset();
}

QTEST_GUILESS_MAIN(BenchPgPoll)
#include "bench_pgpoll.moc"
