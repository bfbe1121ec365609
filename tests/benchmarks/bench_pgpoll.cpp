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
// Needs a test server: HEADROOM_TEST_PG* as ./dev bench sets them (tests/run-benchmarks
// starts one with max_connections = 600), else it says so and prints nothing.
#include "../postgres/pgtestutil.h"
#include "benchutil.h"
#include "postgrescollector.h"

#include <QElapsedTimer>
#include <QMap>
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

// Which part a statement of Headroom's belongs to, by what it reads.
QString partOf(const QString &query)
{
    static const QList<std::pair<QString, QString>> parts {
        { u"pg_blocking_pids"_s, u"blocking"_s },     { u"pg_stat_progress"_s, u"maintenance"_s },
        { u"pg_prepared_xacts"_s, u"maintenance"_s }, { u"pg_wait_sampling"_s, u"waits"_s },
        { u"coalesce(query_id"_s, u"sampler"_s },     { u"e.extname = $"_s, u"lookups"_s },
        { u"pg_stat_statements"_s, u"statements"_s }, { u"pg_stat_user_tables"_s, u"tables"_s },
        { u"pg_stat_database"_s, u"databases"_s },    { u"pg_stat_activity"_s, u"activity"_s },
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

} // namespace

class BenchPgPoll : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pollAtIssueSizes();
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

QTEST_GUILESS_MAIN(BenchPgPoll)
#include "bench_pgpoll.moc"
