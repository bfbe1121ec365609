// The pg_stat_statements part. Without a server: the SQL of each extension version,
// deltas, top-N order, resets (never a negative value or a spike), the latency histogram
// and query labels, through PgStatementsTracker. Against the test server: a heavy
// statement ranks first, pg_stat_statements_reset() mid-run, every extension version
// the server has, the extension absent and added later, a role without pg_monitor, and
// the cost of a poll with pg_stat_statements full.
#include "pgstatements.h"
#include "pgstatementtext.h"
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

using Tracker = PgStatementsTracker;
using Snapshots = QList<Tracker::Snapshot>;

Q_DECLARE_METATYPE(Tracker::Snapshot)

namespace {

constexpr quint32 App = 1; // the dbid of database "app"
constexpr quint32 Other = 2; // of "other"
constexpr quint32 Dropped = 3; // of a database that is no more

// An entry whose calls each took `msPerCall` ms and returned one row.
Tracker::Entry entry(qint64 queryid, double calls, double msPerCall, quint32 userid = 10,
                     bool toplevel = true, quint32 dbid = App, double since = 0)
{
    Tracker::Entry e;
    e.dbid = dbid;
    e.userid = userid;
    e.queryid = queryid;
    e.toplevel = toplevel;
    e.values[Tracker::Calls] = calls;
    e.values[Tracker::ExecTimeMs] = calls * msPerCall;
    e.values[Tracker::Rows] = calls;
    e.values[Tracker::SharedBlksHit] = 2 * calls;
    e.values[Tracker::SharedBlksRead] = calls / 2;
    e.values[Tracker::BlkReadTimeMs] = calls / 10;
    e.statsSince = since;
    return e;
}

Tracker::Snapshot snapshot(QList<Tracker::Entry> entries, const QString &statsReset = u"r0"_s,
                           double dealloc = 0, int hidden = 0)
{
    Tracker::Snapshot s;
    s.entries = std::move(entries);
    s.databases = { { App, u"app"_s }, { Other, u"other"_s } };
    s.hidden = hidden;
    s.statsReset = statsReset;
    s.dealloc = dealloc;
    s.ioTiming = true;
    return s;
}

// The series a tracker gives for each snapshot, one second apart; every statement
// labelled by its queryid.
QList<SampleBatch> run(const Snapshots &snapshots, int top = 10)
{
    Tracker tracker;
    QList<SampleBatch> batches;
    qint64 ts = 1'000'000;
    for (const Tracker::Snapshot &s : snapshots) {
        const Tracker::Interval interval = tracker.update(s, ts, top);
        for (const Tracker::Entry &e : s.entries)
            tracker.setLabel(e.dbid, e.queryid, u"q%1"_s.arg(e.queryid));
        SampleBatch batch;
        batch.tsMs = ts;
        tracker.addSeries(interval, u"pg:test"_s, batch);
        batches << batch;
        ts += 1000;
    }
    return batches;
}

Labels statementLabels(qint64 queryid, const QString &datname = u"app"_s)
{
    return { { u"datname"_s, datname },
             { u"queryid"_s, QString::number(queryid) },
             { u"query"_s, u"q%1"_s.arg(queryid) } };
}

const SeriesHistogram *latencyHistogram(const SampleBatch &batch, const QString &datname)
{
    for (const SeriesHistogram &h : batch.histograms) {
        if (h.info.key.metric == "pg.latency.statements"_L1
            && h.info.key.labels == Labels { { u"datname"_s, datname } })
            return &h;
    }
    return nullptr;
}

// Statements listed by pg.statements.exec_time.rate, in the order emitted.
QList<SeriesValue> ranked(const SampleBatch &batch)
{
    QList<SeriesValue> list;
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric == "pg.statements.exec_time.rate"_L1)
            list << v;
    }
    return list;
}

const QString Heavy = u"SELECT pg_sleep(0.02)"_s;
const QString Light = u"SELECT count(*) FROM generate_series(1, 10)"_s;

QString repeated(const QString &statement, int times)
{
    QStringList list;
    for (int i = 0; i < times; ++i)
        list << statement;
    return list.join(u"; "_s);
}

} // namespace

class TestPgStatements : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    // No server.
    void sql_data();
    void sql();
    void deltas();
    void topOrder_data();
    void topOrder();
    void resets_data();
    void resets();
    void histogram_data();
    void histogram();
    void nestedStatements();
    void queryLabel_data();
    void queryLabel();
    void unlabelledLeftOut();
    void ownStatementsLeftOut();
    void planBaseline();
    void planChangeSeries();

    // Against the test server.
    void heavyStatementFirst();
    void ownStatementsNotListed();
    void resetMidRun();
    void extensionVersions_data();
    void extensionVersions();
    void extensionAbsent();
    void hiddenWithoutPgMonitor();
    void costWithFullTable();

private:
    PollResult pollOk(PostgresCollector &collector);
    std::unique_ptr<PostgresCollector> collectorFor(const QString &database, int top = 10,
                                                    const QString &user = u"postgres"_s);
};

namespace {
const QStringList Databases { u"headroom_stmt"_s,       u"headroom_stmt_absent"_s,
                              u"headroom_stmt_v1_8"_s,  u"headroom_stmt_v1_9"_s,
                              u"headroom_stmt_v1_10"_s, u"headroom_stmt_v1_11"_s,
                              u"headroom_stmt_cost"_s };
const QString PlainRole = u"headroom_stmt_plain"_s;

bool dropLeftovers(TestConnection &admin, QString *error)
{
    for (const QString &db : Databases) {
        if (!admin.exec(u"DROP DATABASE IF EXISTS %1 WITH (FORCE)"_s.arg(db), error))
            return false;
    }
    return admin.exec(u"DROP ROLE IF EXISTS %1"_s.arg(PlainRole), error).has_value();
}
} // namespace

void TestPgStatements::initTestCase()
{
    if (!serverAvailable())
        return; // the unit tests run anyway; the live ones skip
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    QString error;
    QVERIFY2(dropLeftovers(admin, &error), qPrintable(error)); // of an earlier failed run
    PG_EXEC(admin, u"CREATE DATABASE headroom_stmt"_s);
    PG_EXEC(admin, u"CREATE DATABASE headroom_stmt_absent"_s);
    PG_EXEC(admin, u"CREATE ROLE %1 LOGIN"_s.arg(PlainRole));
    TestConnection db(conninfo(u"headroom_stmt"_s));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    PG_EXEC(db, u"CREATE EXTENSION IF NOT EXISTS pg_stat_statements"_s);
}

void TestPgStatements::cleanupTestCase()
{
    if (!serverAvailable())
        return;
    TestConnection admin(conninfo());
    QString error;
    if (!admin.ok() || !dropLeftovers(admin, &error))
        qWarning("cleanup failed: %s %s", qPrintable(admin.error()), qPrintable(error));
}

// ---------------------------------------------------------------- no server

void TestPgStatements::sql_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<QStringList>("present");
    QTest::addColumn<QStringList>("absent");
    QTest::addColumn<bool>("hasInfo");

    const QStringList always { u"FROM \"public\".pg_stat_statements(false)"_s,
                               u"total_exec_time"_s,
                               u"shared_blks_hit"_s,
                               u"shared_blks_read"_s,
                               u"rows"_s,
                               u"queryid"_s };
    const QStringList never { u"(true)"_s, u"mean_exec_time"_s, u"query,"_s, u"total_time"_s };
    QTest::newRow("1.8 (PostgreSQL 13)")
        << u"1.8"_s
        << always + QStringList { u"queryid, 1, calls"_s, u", blk_read_time"_s, u"NULL::float8"_s }
        << never + QStringList { u"shared_blk_read_time"_s, u"stats_since"_s, u"toplevel"_s }
        << false;
    QTest::newRow("1.9 (PostgreSQL 14)")
        << u"1.9"_s << always + QStringList { u", blk_read_time"_s, u"toplevel::int"_s }
        << never + QStringList { u"shared_blk_read_time"_s, u"stats_since"_s } << true;
    QTest::newRow("1.10 (PostgreSQL 15, 16)")
        << u"1.10"_s << always + QStringList { u", blk_read_time"_s, u"toplevel::int"_s }
        << never + QStringList { u"shared_blk_read_time"_s, u"stats_since"_s } << true;
    QTest::newRow("1.11 (PostgreSQL 17)")
        << u"1.11"_s
        << always
            + QStringList { u"shared_blk_read_time"_s, u"toplevel::int"_s,
                            u"date_part('epoch', stats_since)"_s }
        << never + QStringList { u", blk_read_time"_s, u"minmax_stats_since"_s } << true;
    QTest::newRow("1.12 (PostgreSQL 18)")
        << u"1.12"_s
        << always + QStringList { u"shared_blk_read_time"_s, u"toplevel::int"_s, u"stats_since"_s }
        << never + QStringList { u", blk_read_time"_s } << true;
}

void TestPgStatements::sql()
{
    QFETCH(QString, version);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);
    QFETCH(bool, hasInfo);
    const QVersionNumber v = QVersionNumber::fromString(version);
    const QString counters = QString::fromUtf8(PgStatementsPart::countersQuery(v, u"public"_s));
    for (const QString &text : present)
        QVERIFY2(counters.contains(text), qPrintable(text + u" in "_s + counters));
    for (const QString &text : absent)
        QVERIFY2(!counters.contains(text), qPrintable(text + u" in "_s + counters));
    const QByteArray databases = PgStatementsPart::databasesQuery(v, u"public"_s);
    QVERIFY(databases.contains("pg_database"));
    QCOMPARE(databases.contains("\"public\".pg_stat_statements_info"), hasInfo);

    // Texts only through their own query; an odd schema name stays one identifier.
    QVERIFY(PgStatementsPart::textsQuery(u"my \"x\""_s)
                .contains("\"my \"\"x\"\"\".pg_stat_statements(true)"));
    QVERIFY(PgStatementsPart::countersQuery(QVersionNumber(1, 7), u"public"_s).isEmpty());
    QVERIFY(PgStatementsPart::extensionQuery().contains("pg_extension"));
}

void TestPgStatements::deltas()
{
    const Snapshots snapshots {
        snapshot({ entry(1, 100, 5), entry(2, 1000, 0.5) }),
        snapshot({ entry(1, 140, 5), entry(2, 1000, 0.5) }), // 40 calls of 1, none of 2
    };
    Tracker tracker;
    const Tracker::Interval first = tracker.update(snapshots[0], 10'000, 10);
    QVERIFY(!first.valid); // a first snapshot is only a baseline
    const Tracker::Interval second = tracker.update(snapshots[1], 12'000, 10);
    QVERIFY(second.valid);
    QCOMPARE(second.seconds, 2.0);
    QCOMPARE(second.top.size(), 1); // an idle statement is not listed
    QCOMPARE(second.top[0].queryid, 1);
    QCOMPARE(second.top[0].delta[Tracker::Calls], 40.0);
    QCOMPARE(second.top[0].delta[Tracker::ExecTimeMs], 200.0);

    const QList<SampleBatch> batches = run(snapshots);
    QVERIFY(batches[0].values.isEmpty() && batches[0].histograms.isEmpty());
    const SampleBatch &b = batches[1];
    const Labels one = statementLabels(1);
    QCOMPARE(value(b, u"pg.statements.calls.rate"_s, one), 40.0);
    QCOMPARE(value(b, u"pg.statements.exec_time.rate"_s, one), 200.0);
    QCOMPARE(value(b, u"pg.statements.mean_time_ms"_s, one), 5.0);
    QCOMPARE(value(b, u"pg.statements.rows.rate"_s, one), 40.0);
    QCOMPARE(value(b, u"pg.statements.shared_blks_hit.rate"_s, one), 80.0);
    QCOMPARE(value(b, u"pg.statements.shared_blks_read.rate"_s, one), 20.0);
    QCOMPARE(value(b, u"pg.statements.blk_read_time.rate"_s, one), 4.0);
    QVERIFY(!value(b, u"pg.statements.calls.rate"_s, statementLabels(2)));
    const Labels app { { u"datname"_s, u"app"_s } };
    QCOMPARE(value(b, u"pg.statements.total.calls.rate"_s, app), 40.0);
    QCOMPARE(value(b, u"pg.statements.total.exec_time.rate"_s, app), 200.0);
    QCOMPARE(value(b, u"pg.statements.deallocations.rate"_s), 0.0);

    const auto meta = info(b, u"pg.statements.exec_time.rate"_s, one);
    QVERIFY(meta);
    QCOMPARE(meta->key.source, u"pg:test"_s);
    QCOMPARE(meta->unit, u"ms/s"_s);
    QCOMPARE(meta->resource, u"db:app"_s);
    QCOMPARE(info(b, u"pg.statements.mean_time_ms"_s, one)->kind, UseKind::Latency);
    QCOMPARE(info(b, u"pg.statements.calls.rate"_s, one)->unit, u"1/s"_s);
    QCOMPARE(info(b, u"pg.statements.total.calls.rate"_s, app)->resource, u"db:app"_s);

    // Without track_io_timing the read time would be a misleading 0: left out.
    Snapshots noTiming = snapshots;
    for (Tracker::Snapshot &s : noTiming)
        s.ioTiming = false;
    QVERIFY(!value(run(noTiming)[1], u"pg.statements.blk_read_time.rate"_s, one));

    // Entries of a dropped database (they stay until evicted) are not reported.
    const SampleBatch dropped = run({ snapshot({ entry(7, 1, 1, 10, true, Dropped) }),
                                      snapshot({ entry(7, 9, 1, 10, true, Dropped) }) })[1];
    QVERIFY(ranked(dropped).isEmpty() && dropped.histograms.isEmpty());
    QCOMPARE(dropped.values.size(), 1); // pg.statements.deallocations.rate, server-wide
}

void TestPgStatements::topOrder_data()
{
    QTest::addColumn<int>("top");
    QTest::addColumn<QList<qint64>>("expected");
    // Exec time in the interval: 3: 300 ms, 1: 100 ms (10 calls), 4: 100 ms (20 calls),
    // 2: 50 ms, 5: idle.
    QTest::newRow("top 1") << 1 << QList<qint64> { 3 };
    QTest::newRow("top 2, tie by calls") << 2 << QList<qint64> { 3, 4 };
    QTest::newRow("top 3") << 3 << QList<qint64> { 3, 4, 1 };
    QTest::newRow("top 10, idle left out") << 10 << QList<qint64> { 3, 4, 1, 2 };
}

void TestPgStatements::topOrder()
{
    QFETCH(int, top);
    QFETCH(QList<qint64>, expected);
    const Snapshots snapshots {
        snapshot({ entry(1, 10, 10), entry(2, 10, 5), entry(3, 10, 30), entry(4, 10, 5),
                   entry(5, 10, 1) }),
        snapshot({ entry(1, 20, 10), entry(2, 20, 5), entry(3, 20, 30), entry(4, 30, 5),
                   entry(5, 10, 1) }),
    };
    const SampleBatch batch = run(snapshots, top)[1];
    QList<qint64> order;
    for (const SeriesValue &v : ranked(batch))
        order << v.info.key.labels.value(u"queryid"_s).toLongLong();
    QCOMPARE(order, expected);
    // Totals cover every statement, not only the listed ones.
    QCOMPARE(value(batch, u"pg.statements.total.calls.rate"_s, { { u"datname"_s, u"app"_s } }),
             50.0);
}

void TestPgStatements::resets_data()
{
    QTest::addColumn<Snapshots>("snapshots");
    QTest::addColumn<QList<QList<qint64>>>("listed"); // statements with values, polls 1 to 3
    QTest::addColumn<double>("totalAt2"); // total calls at poll 2; < 0: none

    // Statements 1 and 2, 10 calls of 1 to 4 ms each per interval; the interval ending
    // at poll 2 holds the reset, poll 3 is clean again.
    const auto steady = [](double n) { return entry(2, n, 4); };
    const QList<qint64> both { 1, 2 };
    const QList<qint64> two { 2 };
    QTest::newRow("counter went down") << Snapshots { snapshot({ entry(1, 500, 4), steady(100) }),
                                                      snapshot({ entry(1, 510, 4), steady(110) }),
                                                      snapshot({ entry(1, 5, 4), steady(120) }),
                                                      snapshot({ entry(1, 15, 4), steady(130) }) }
                                       << QList<QList<qint64>> { both, two, both } << 10.0;
    // Reset, then more calls than before: no counter goes down, but stats_since moved.
    // Naive deltas would say 10 calls took 10 ms; in truth 30 calls took 90 ms.
    QTest::newRow("stats_since changed, counters climbed past")
        << Snapshots { snapshot({ entry(1, 10, 4, 10, true, App, 1), steady(100) }),
                       snapshot({ entry(1, 20, 4, 10, true, App, 1), steady(110) }),
                       snapshot({ entry(1, 30, 3, 10, true, App, 2), steady(120) }),
                       snapshot({ entry(1, 40, 3, 10, true, App, 2), steady(130) }) }
        << QList<QList<qint64>> { both, two, both } << 10.0;
    QTest::newRow("stats_reset changed, counters climbed past")
        << Snapshots { snapshot({ entry(1, 10, 4), steady(10) }),
                       snapshot({ entry(1, 20, 4), steady(20) }),
                       snapshot({ entry(1, 30, 3), steady(30) }, u"r1"_s),
                       snapshot({ entry(1, 40, 3), steady(40) }, u"r1"_s) }
        << QList<QList<qint64>> { both, {}, both } << -1.0;
    QTest::newRow("dealloc went down (1.9+ global reset)")
        << Snapshots { snapshot({ entry(1, 10, 4), steady(10) }, u"r0"_s, 7),
                       snapshot({ entry(1, 20, 4), steady(20) }, u"r0"_s, 7),
                       snapshot({ entry(1, 30, 3), steady(30) }, u"r0"_s, 0),
                       snapshot({ entry(1, 40, 3), steady(40) }, u"r0"_s, 0) }
        << QList<QList<qint64>> { both, {}, both } << -1.0;
    // Evicted and added again between two polls, before 1.11 (no stats_since): the
    // counters went down.
    QTest::newRow("evicted and re-added within one interval")
        << Snapshots { snapshot({ entry(1, 500, 4), steady(100) }),
                       snapshot({ entry(1, 510, 4), steady(110) }),
                       snapshot({ entry(1, 8, 4), steady(120) }, u"r0"_s, 1),
                       snapshot({ entry(1, 18, 4), steady(130) }, u"r0"_s, 1) }
        << QList<QList<qint64>> { both, two, both } << 10.0;
    // Gone at one poll, back at the next: a new entry, whose counts are all new work.
    QTest::newRow("evicted, added again a poll later")
        << Snapshots { snapshot({ entry(1, 500, 4), steady(100) }),
                       snapshot({ entry(1, 510, 4), steady(110) }),
                       snapshot({ steady(120) }, u"r0"_s, 1),
                       snapshot({ entry(1, 10, 4), steady(130) }, u"r0"_s, 1) }
        << QList<QList<qint64>> { both, two, both } << 10.0;
    // A statement's second entry (another role's) appears: counted from zero.
    QTest::newRow("a second entry of a statement appears")
        << Snapshots { snapshot({ entry(1, 10, 4), steady(100) }),
                       snapshot({ entry(1, 20, 4), steady(110) }),
                       snapshot({ entry(1, 25, 4), entry(1, 5, 4, 11), steady(120) }),
                       snapshot({ entry(1, 30, 4), entry(1, 10, 4, 11), steady(130) }) }
        << QList<QList<qint64>> { both, both, both } << 20.0;
    // pg_stat_statements_reset(userid, ...) on one of a statement's two entries.
    QTest::newRow("one entry of two reset")
        << Snapshots { snapshot({ entry(1, 300, 4), entry(1, 300, 4, 11), steady(100) }),
                       snapshot({ entry(1, 305, 4), entry(1, 305, 4, 11), steady(110) }),
                       snapshot({ entry(1, 310, 4), entry(1, 5, 4, 11), steady(120) }),
                       snapshot({ entry(1, 315, 4), entry(1, 10, 4, 11), steady(130) }) }
        << QList<QList<qint64>> { both, two, both } << 10.0;
    // pg_monitor granted mid-run: another role's entry, with all its history, becomes
    // visible. Fewer hidden entries say so; the new entry must not count as new work.
    QTest::newRow("hidden entries became visible")
        << Snapshots { snapshot({ entry(1, 10, 4), steady(100) }, u"r0"_s, 0, 3),
                       snapshot({ entry(1, 20, 4), steady(110) }, u"r0"_s, 0, 3),
                       snapshot({ entry(1, 25, 4), entry(1, 900, 4, 11), steady(120) }),
                       snapshot({ entry(1, 30, 4), entry(1, 905, 4, 11), steady(130) }) }
        << QList<QList<qint64>> { both, two, both } << 10.0;
}

void TestPgStatements::resets()
{
    QFETCH(Snapshots, snapshots);
    QFETCH(QList<QList<qint64>>, listed);
    QFETCH(double, totalAt2);
    const QList<SampleBatch> batches = run(snapshots);
    QCOMPARE(batches.size(), 4);

    for (int i = 1; i < batches.size(); ++i) {
        for (const SeriesValue &v : batches[i].values) {
            const QString name = u"poll %1: %2"_s.arg(i).arg(v.info.key.toString());
            QVERIFY2(v.value >= 0, qPrintable(name));
            // No spike: no statement ran more than 10 times an interval, 20 for the
            // whole database; every call took 1 to 4 ms.
            if (v.info.key.metric == "pg.statements.calls.rate"_L1)
                QVERIFY2(v.value <= 10, qPrintable(name));
            if (v.info.key.metric == "pg.statements.total.calls.rate"_L1)
                QVERIFY2(v.value <= 20, qPrintable(name));
            if (v.info.key.metric == "pg.statements.mean_time_ms"_L1)
                QVERIFY2(v.value >= 1 && v.value <= 4, qPrintable(name));
        }
        for (const SeriesHistogram &h : batches[i].histograms)
            QVERIFY(h.histogram.count() <= 20 && h.histogram.max() <= 4);

        QList<qint64> ids;
        for (const SeriesValue &v : ranked(batches[i]))
            ids << v.info.key.labels.value(u"queryid"_s).toLongLong();
        std::sort(ids.begin(), ids.end());
        QCOMPARE(ids, listed[i - 1]);
    }
    const Labels app { { u"datname"_s, u"app"_s } };
    const auto total = value(batches[2], u"pg.statements.total.calls.rate"_s, app);
    // A reset statement is left out of the totals, not guessed at.
    QCOMPARE(total.value_or(-1), totalAt2);
    QCOMPARE(value(batches[3], u"pg.statements.calls.rate"_s, statementLabels(2)), 10.0);
}

void TestPgStatements::histogram_data()
{
    QTest::addColumn<QList<double>>("calls"); // per statement, in the interval
    QTest::addColumn<QList<double>>("meanMs");

    QTest::newRow("one statement") << QList<double> { 7 } << QList<double> { 2.5 };
    QTest::newRow("three buckets") << QList<double> { 100, 5, 1 } << QList<double> { 0.2, 30, 900 };
    QTest::newRow("two statements, one bucket")
        << QList<double> { 10, 20 } << QList<double> { 12.0, 12.01 };
    QTest::newRow("many calls, sub-microsecond mean")
        << QList<double> { 1'000'000, 3 } << QList<double> { 0.0000001, 1 };
}

void TestPgStatements::histogram()
{
    QFETCH(QList<double>, calls);
    QFETCH(QList<double>, meanMs);
    QList<Tracker::Entry> before;
    QList<Tracker::Entry> after;
    for (qsizetype i = 0; i < calls.size(); ++i) {
        // 1000 calls at a very different mean before the interval: only the interval's
        // deltas may count.
        Tracker::Entry base = entry(i + 1, 1000, 333);
        Tracker::Entry next = base;
        next.values[Tracker::Calls] += calls[i];
        next.values[Tracker::ExecTimeMs] += calls[i] * meanMs[i];
        before << base;
        after << next;
    }
    const QList<SampleBatch> batches = run({ snapshot(before), snapshot(after) });
    const SeriesHistogram *h = latencyHistogram(batches[1], u"app"_s);
    QVERIFY(h);
    QVERIFY(h->info.histogram);
    QCOMPARE(h->info.unit, u"ms"_s);
    QCOMPARE(h->info.kind, UseKind::Latency);
    QCOMPARE(h->info.key.source, u"pg:test"_s);

    double total = 0;
    QMap<int, quint64> expected;
    for (qsizetype i = 0; i < calls.size(); ++i) {
        total += calls[i];
        expected[LogHistogram::bucketIndex(meanMs[i])] += quint64(calls[i]);
    }
    QCOMPARE(h->histogram.count(), quint64(total));
    QCOMPARE(h->histogram.buckets(), expected);
    QCOMPARE(value(batches[1], u"pg.statements.total.calls.rate"_s, { { u"datname"_s, u"app"_s } }),
             total);
}

void TestPgStatements::nestedStatements()
{
    // A function (1) at top level whose inner statement (2) also runs nested, and runs at
    // top level too; another database has its own histogram.
    const Snapshots snapshots {
        snapshot({ entry(1, 0, 10), entry(2, 0, 4), entry(2, 0, 4, 10, false),
                   entry(3, 0, 1, 10, true, Other) }),
        snapshot({ entry(1, 5, 10), entry(2, 3, 4), entry(2, 5, 4, 10, false),
                   entry(3, 9, 1, 10, true, Other) }),
    };
    const SampleBatch batch = run(snapshots)[1];
    // Per statement: every execution, at any level.
    QCOMPARE(value(batch, u"pg.statements.calls.rate"_s, statementLabels(2)), 8.0);
    // Totals and the histogram: what clients sent, so the function's time counts once.
    const Labels app { { u"datname"_s, u"app"_s } };
    QCOMPARE(value(batch, u"pg.statements.total.calls.rate"_s, app), 8.0);
    QCOMPARE(value(batch, u"pg.statements.total.exec_time.rate"_s, app), 62.0);
    QCOMPARE(latencyHistogram(batch, u"app"_s)->histogram.count(), quint64(8));
    QCOMPARE(latencyHistogram(batch, u"other"_s)->histogram.count(), quint64(9));
    QCOMPARE(value(batch, u"pg.statements.total.calls.rate"_s, { { u"datname"_s, u"other"_s } }),
             9.0);
}

void TestPgStatements::queryLabel_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("null text") << QString() << QString();
    QTest::newRow("collapsed") << u"  SELECT *\n\tFROM   t\r\n WHERE a = $1  "_s
                               << u"SELECT * FROM t WHERE a = $1"_s;
    const QString longText = u"SELECT "_s + QString(100, u'x');
    QTest::newRow("cut to 80") << longText << longText.left(80);
    QTest::newRow("whitespace does not count")
        << u"SELECT\n\n\n\n        "_s + QString(100, u'y') << (u"SELECT "_s + QString(73, u'y'));
    // 79 characters, then a character outside the BMP: it is not cut in half.
    QTest::newRow("surrogate pair at the cut")
        << QString(79, u'a') + QString::fromUcs4(U"\U0001F600 tail") << QString(79, u'a');
}

void TestPgStatements::queryLabel()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(Tracker::queryLabel(text), expected);
}

void TestPgStatements::unlabelledLeftOut()
{
    // A statement whose text is not known yet is left out rather than given a label
    // that would change later; the totals count it.
    Tracker tracker;
    tracker.update(snapshot({ entry(1, 0, 1), entry(2, 0, 1) }), 1000, 10);
    const Tracker::Interval interval
        = tracker.update(snapshot({ entry(1, 5, 1), entry(2, 6, 1) }), 2000, 10);
    tracker.setLabel(App, 1, u"q1"_s);
    tracker.setLabel(App, 99, u"gone"_s); // no such statement: ignored
    QVERIFY(!tracker.label(App, 99));
    SampleBatch batch;
    tracker.addSeries(interval, u"pg:test"_s, batch);
    QCOMPARE(ranked(batch).size(), 1);
    QVERIFY(value(batch, u"pg.statements.calls.rate"_s, statementLabels(1)));
    QCOMPARE(value(batch, u"pg.statements.total.calls.rate"_s, { { u"datname"_s, u"app"_s } }),
             11.0);
    // A statement that leaves pg_stat_statements takes its label with it.
    tracker.update(snapshot({ entry(2, 7, 1) }), 3000, 10);
    QVERIFY(!tracker.label(App, 1));
}

void TestPgStatements::ownStatementsLeftOut()
{
    // Headroom's own statement (1) is the busiest: once its text is known it leaves the
    // top and the next one takes its place; the totals still count it.
    QVERIFY(isOwnStatement(QString::fromLatin1(OwnStatementMarker) + u"SELECT 1"_s));
    QVERIFY(!isOwnStatement(u"SELECT 1 /* headroom */"_s));
    Tracker tracker;
    tracker.update(snapshot({ entry(1, 0, 1), entry(2, 0, 1), entry(3, 0, 1) }), 1000, 1);
    Tracker::Interval interval
        = tracker.update(snapshot({ entry(1, 50, 2), entry(2, 10, 1), entry(3, 5, 1) }), 2000, 1);
    QCOMPARE(interval.top.size(), 1);
    QCOMPARE(interval.top[0].queryid, 1);
    tracker.setLabel(App, 1, u"SELECT x FROM pg_stat_statements"_s, true);
    SampleBatch batch;
    tracker.addSeries(interval, u"pg:test"_s, batch);
    QCOMPARE(ranked(batch).size(), 0); // known as own in the poll that fetched its text
    QCOMPARE(value(batch, u"pg.statements.total.calls.rate"_s, { { u"datname"_s, u"app"_s } }),
             65.0);

    interval
        = tracker.update(snapshot({ entry(1, 100, 2), entry(2, 20, 1), entry(3, 10, 1) }), 3000, 1);
    QCOMPARE(interval.top.size(), 1);
    QCOMPARE(interval.top[0].queryid, 2);
    tracker.setLabel(App, 2, u"q2"_s);
    batch = {};
    tracker.addSeries(interval, u"pg:test"_s, batch);
    QCOMPARE(ranked(batch).size(), 1);
    QVERIFY(value(batch, u"pg.statements.calls.rate"_s, statementLabels(2)));
    QCOMPARE(value(batch, u"pg.statements.total.calls.rate"_s, { { u"datname"_s, u"app"_s } }),
             65.0);
}

void TestPgStatements::planBaseline()
{
    PlanBaseline b;
    QCOMPARE(b.add(3, 1), std::nullopt); // three values before a ratio
    QCOMPARE(b.add(4, 1), std::nullopt);
    QCOMPARE(b.add(3, 1), std::nullopt);
    QCOMPARE(b.add(3, 1), 1.0);
    QCOMPARE(b.add(6, 1), 2.0); // within 3x: remembered
    QCOMPARE(b.add(0, 1), 0.0);
    // A plan change: 300 blocks a call keeps reading 100x until it has lasted 300
    // intervals, then it is the usual.
    for (int i = 0; i < PlanBaseline::AdoptAfter - 1; ++i)
        QCOMPARE(b.add(300, 1), 100.0);
    QCOMPARE(b.add(300, 1), 100.0);
    QCOMPARE(b.add(300, 1), std::nullopt);
    QCOMPARE(b.add(300, 1), std::nullopt);
    QCOMPARE(b.add(300, 1), 1.0);
    // The floor: a statement reading no blocks is not changed by reading one.
    PlanBaseline none;
    for (int i = 0; i < 3; ++i)
        none.add(0, 1);
    QCOMPARE(none.add(1, 1), 1.0);
    QCOMPARE(none.add(50, 1), 50.0);
    QCOMPARE(none.add(qQNaN(), 1), std::nullopt);
}

void TestPgStatements::planChangeSeries()
{
    // Statement 1 reads 3 blocks a call (2 hit + 1 read, entry()'s 2:1/2 scaled) for five
    // intervals, then 100x that; statement 2 stays as it was.
    const auto at = [](qint64 queryid, double calls, double blocksPerCall, double msPerCall) {
        Tracker::Entry e = entry(queryid, calls, msPerCall);
        e.values[Tracker::SharedBlksHit] = calls * blocksPerCall;
        e.values[Tracker::SharedBlksRead] = 0;
        return e;
    };
    Snapshots snapshots;
    double calls1 = 0;
    double blocks1 = 0;
    double time1 = 0;
    for (int i = 0; i <= 6; ++i) {
        const double perCall = i < 6 ? 3 : 300;
        calls1 += 10;
        blocks1 += 10 * perCall;
        time1 += 10 * (i < 6 ? 0.1 : 4.0);
        Tracker::Entry one = entry(1, calls1, 0);
        one.values[Tracker::ExecTimeMs] = time1;
        one.values[Tracker::SharedBlksHit] = blocks1;
        one.values[Tracker::SharedBlksRead] = 0;
        snapshots << snapshot({ one, at(2, 10.0 * (i + 1), 5, 1) });
    }
    const QList<SampleBatch> batches = run(snapshots);
    const Labels one = statementLabels(1);
    // Intervals 1-3 build the history; the fourth and fifth are usual.
    QCOMPARE(value(batches[3], u"pg.statements.blocks_per_call_change"_s, one), std::nullopt);
    QCOMPARE(value(batches[4], u"pg.statements.blocks_per_call_change"_s, one), 1.0);
    QCOMPARE(value(batches[5], u"pg.statements.blocks_per_call"_s, one), 3.0);
    QCOMPARE(value(batches[5], u"pg.statements.rows_per_call"_s, one), 1.0);
    QCOMPARE(value(batches[6], u"pg.statements.blocks_per_call"_s, one), 300.0);
    QCOMPARE(value(batches[6], u"pg.statements.blocks_per_call_change"_s, one), 100.0);
    QCOMPARE(value(batches[6], u"pg.statements.time_per_call_change"_s, one), 40.0);
    QCOMPARE(value(batches[6], u"pg.statements.blocks_per_call_change"_s, statementLabels(2)), 1.0);
}

// ---------------------------------------------------------------- against the server

PollResult TestPgStatements::pollOk(PostgresCollector &collector)
{
    return collector.poll(QDeadlineTimer(5000));
}

std::unique_ptr<PostgresCollector> TestPgStatements::collectorFor(const QString &database, int top,
                                                                  const QString &user)
{
    return makeCollector({ { u"conninfo"_s, conninfo(database, user) },
                           { u"topStatements"_s, top },
                           { u"tables"_s, false },
                           { u"probe"_s, false } });
}

void TestPgStatements::heavyStatementFirst()
{
    HEADROOM_REQUIRE_PG();
    const auto collector = collectorFor(u"headroom_stmt"_s, 10);
    QVERIFY(collector);
    const PollResult baseline = pollOk(*collector);
    QVERIFY2(baseline.error.isEmpty(), qPrintable(baseline.error));
    QCOMPARE(baseline.warnings, QStringList());

    TestConnection work(conninfo(u"headroom_stmt"_s));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    PG_EXEC(work, repeated(Heavy, 15)); // 15 statements of at least 20 ms
    PG_EXEC(work, repeated(Light, 60));
    const PollResult after = pollOk(*collector);
    QVERIFY2(after.error.isEmpty(), qPrintable(after.error));
    QCOMPARE(after.warnings, QStringList());
    const double interval = double(after.batch.tsMs - baseline.batch.tsMs) / 1000.0;

    const QList<SeriesValue> list = ranked(after.batch);
    QVERIFY(list.size() >= 2 && list.size() <= 10);
    const Labels heavy = list[0].info.key.labels;
    QCOMPARE(heavy.value(u"query"_s), u"SELECT pg_sleep($1)"_s);
    QCOMPARE(heavy.value(u"datname"_s), u"headroom_stmt"_s);
    Labels light;
    for (const SeriesValue &v : list) {
        if (v.info.key.labels.value(u"query"_s).contains("generate_series"_L1))
            light = v.info.key.labels;
    }
    QVERIFY2(!light.isEmpty(), "the light statement is listed too");
    QVERIFY(*value(after.batch, u"pg.statements.exec_time.rate"_s, heavy)
            > *value(after.batch, u"pg.statements.exec_time.rate"_s, light));
    QVERIFY(*value(after.batch, u"pg.statements.exec_time.rate"_s, heavy) * interval >= 300);
    QCOMPARE(qRound(*value(after.batch, u"pg.statements.calls.rate"_s, heavy) * interval), 15);
    QCOMPARE(qRound(*value(after.batch, u"pg.statements.calls.rate"_s, light) * interval), 60);
    QCOMPARE(qRound(*value(after.batch, u"pg.statements.rows.rate"_s, light) * interval), 60);
    const double heavyMean = *value(after.batch, u"pg.statements.mean_time_ms"_s, heavy);
    QVERIFY2(heavyMean >= 20 && heavyMean < 200, qPrintable(QString::number(heavyMean)));
    // The server's test config has track_io_timing on.
    QVERIFY(value(after.batch, u"pg.statements.blk_read_time.rate"_s, heavy));

    const Labels db { { u"datname"_s, u"headroom_stmt"_s } };
    QVERIFY(*value(after.batch, u"pg.statements.total.calls.rate"_s, db) * interval >= 74.5);
    QVERIFY(*value(after.batch, u"pg.statements.total.exec_time.rate"_s, db) * interval >= 300);
    const SeriesHistogram *h = latencyHistogram(after.batch, u"headroom_stmt"_s);
    QVERIFY(h);
    QVERIFY(h->histogram.count() >= 75);
    QVERIFY(h->histogram.buckets().value(LogHistogram::bucketIndex(heavyMean)) >= 15);
    QVERIFY(h->histogram.max() >= 20);
}

void TestPgStatements::ownStatementsNotListed()
{
    // With room for three statements, the collector's own (pg_stat_statements, its
    // texts, pg_stat_database, ...) run every poll and would take the top; a workload of
    // two statements must be what is listed.
    HEADROOM_REQUIRE_PG();
    const auto collector = collectorFor(u"headroom_stmt"_s, 3);
    QVERIFY(collector);
    TestConnection work(conninfo(u"headroom_stmt"_s));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    QSet<QString> listed;
    for (int i = 0; i < 6; ++i) {
        PG_EXEC(work, repeated(u"SELECT count(*) FROM generate_series(1, 20000)"_s, 3));
        PG_EXEC(work, repeated(u"SELECT pg_sleep(0.002)"_s, 2));
        const PollResult poll = pollOk(*collector);
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        for (const SeriesValue &v : ranked(poll.batch))
            listed.insert(v.info.key.labels.value(u"query"_s));
    }
    const QStringList list = listed.values();
    for (const QString &query : list) {
        QVERIFY2(!query.contains(u"headroom"_s) && !query.contains(u"pg_stat"_s)
                     && !query.contains(u"pg_catalog"_s),
                 qPrintable(list.join(u" | "_s)));
    }
    QVERIFY2(listed.contains(u"SELECT count(*) FROM generate_series($1, $2)"_s),
             qPrintable(list.join(u" | "_s)));
    QVERIFY2(listed.contains(u"SELECT pg_sleep($1)"_s), qPrintable(list.join(u" | "_s)));
    // The server saw them marked.
    const int own
        = work.exec(
                  u"SELECT count(*) FROM pg_stat_statements WHERE query LIKE '/* headroom */ %'"_s)
              .value_or(u"0"_s)
              .toInt();
    QVERIFY2(own >= 3, qPrintable(QString::number(own)));
}

void TestPgStatements::resetMidRun()
{
    HEADROOM_REQUIRE_PG();
    const auto collector = collectorFor(u"headroom_stmt"_s, 10);
    QVERIFY(collector);
    TestConnection work(conninfo(u"headroom_stmt"_s));
    QVERIFY2(work.ok(), qPrintable(work.error()));
    const QString statement = u"SELECT sum(g) FROM generate_series(1, 20000) g"_s;

    QList<PollResult> polls;
    QList<int> calls; // of the statement, in the interval ending at each poll
    const auto poll = [&](int n) {
        polls << pollOk(*collector);
        calls << n;
        return polls.last().error.isEmpty();
    };
    QVERIFY(poll(0));
    PG_EXEC(work, repeated(statement, 3));
    QVERIFY(poll(3));
    // Then more calls after the reset than there were before it: no counter goes down,
    // only stats_reset (and, in 1.11, stats_since) can tell.
    PG_EXEC(work, repeated(statement, 3));
    PG_EXEC(work, u"SELECT pg_stat_statements_reset()"_s);
    PG_EXEC(work, repeated(statement, 20));
    QVERIFY(poll(20));
    PG_EXEC(work, repeated(statement, 5));
    QVERIFY(poll(5));
    PG_EXEC(work, repeated(statement, 4));
    QVERIFY(poll(4));

    const auto statementCalls = [&](int i) -> std::optional<double> {
        for (const SeriesValue &v : polls[i].batch.values) {
            if (v.info.key.metric == "pg.statements.calls.rate"_L1
                && v.info.key.labels.value(u"query"_s).startsWith("SELECT sum(g)"_L1))
                return v.value * double(polls[i].batch.tsMs - polls[i - 1].batch.tsMs) / 1000.0;
        }
        return std::nullopt;
    };
    for (int i = 1; i < polls.size(); ++i) {
        for (const SeriesValue &v : polls[i].batch.values)
            QVERIFY2(v.value >= 0, qPrintable(v.info.key.toString()));
        const auto n = statementCalls(i);
        if (n) // never more than was run: no spike
            QVERIFY2(qRound(*n) <= calls[i], qPrintable(u"poll %1: %2"_s.arg(i).arg(*n)));
        const double interval = double(polls[i].batch.tsMs - polls[i - 1].batch.tsMs) / 1000.0;
        for (const SeriesValue &v : polls[i].batch.values) {
            if (v.info.key.metric == "pg.statements.total.calls.rate"_L1)
                QVERIFY2(v.value * interval < 100, qPrintable(QString::number(v.value)));
        }
    }
    QCOMPARE(qRound(statementCalls(1).value_or(-1)), 3);
    // The interval with the reset gives nothing at all from pg_stat_statements.
    for (const SeriesValue &v : polls[2].batch.values)
        QVERIFY2(!v.info.key.metric.startsWith("pg.statements."_L1),
                 qPrintable(v.info.key.toString()));
    QVERIFY(polls[2].batch.histograms.isEmpty());
    QCOMPARE(qRound(statementCalls(3).value_or(-1)), 5);
    QCOMPARE(qRound(statementCalls(4).value_or(-1)), 4);
}

void TestPgStatements::extensionVersions_data()
{
    QTest::addColumn<QString>("version");
    QTest::newRow("1.8") << u"1.8"_s;
    QTest::newRow("1.9") << u"1.9"_s;
    QTest::newRow("1.10") << u"1.10"_s;
    QTest::newRow("1.11") << u"1.11"_s;
}

void TestPgStatements::extensionVersions()
{
    // The server's library serves every older version of the SQL objects, so each
    // version's columns can be checked live in a database of its own.
    HEADROOM_REQUIRE_PG();
    QFETCH(QString, version);
    TestConnection admin(conninfo());
    QVERIFY2(admin.ok(), qPrintable(admin.error()));
    if (admin.exec(u"SELECT count(*) FROM pg_available_extension_versions"
                   " WHERE name = 'pg_stat_statements' AND version = '%1'"_s.arg(version))
        != u"1"_s)
        QSKIP("the server does not have this version");
    const QString database = u"headroom_stmt_v"_s + QString(version).replace(u'.', u'_');
    PG_EXEC(admin, u"CREATE DATABASE %1"_s.arg(database));
    {
        TestConnection db(conninfo(database));
        QVERIFY2(db.ok(), qPrintable(db.error()));
        PG_EXEC(db, u"CREATE EXTENSION pg_stat_statements VERSION '%1'"_s.arg(version));
        QCOMPARE(db.exec(u"SELECT extversion FROM pg_extension"
                         " WHERE extname = 'pg_stat_statements'"_s),
                 std::optional<QString>(version));
    }
    // The top is server-wide: the widest one, so that the other tests' statements on the
    // shared server cannot push this database's out of it.
    const auto collector = collectorFor(database, 100);
    QVERIFY(collector);
    const PollResult first = pollOk(*collector);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    QCOMPARE(first.warnings, QStringList());
    {
        TestConnection work(conninfo(database));
        PG_EXEC(work, repeated(Light, 12));
    }
    const PollResult second = pollOk(*collector);
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
    QCOMPARE(second.warnings, QStringList());
    const double interval = double(second.batch.tsMs - first.batch.tsMs) / 1000.0;
    bool found = false;
    for (const SeriesValue &v : second.batch.values) {
        if (v.info.key.metric == "pg.statements.calls.rate"_L1
            && v.info.key.labels.value(u"datname"_s) == database
            && v.info.key.labels.value(u"query"_s).contains("generate_series"_L1)) {
            QCOMPARE(qRound(v.value * interval), 12);
            found = true;
        }
    }
    QVERIFY2(found, "the statement run in that database is listed");
    QVERIFY(latencyHistogram(second.batch, database));
}

void TestPgStatements::extensionAbsent()
{
    HEADROOM_REQUIRE_PG();
    const QString database = u"headroom_stmt_absent"_s;
    TestConnection db(conninfo(database));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    PG_EXEC(db, u"CREATE EXTENSION IF NOT EXISTS pg_stat_statements"_s);
    PG_EXEC(db, u"DROP EXTENSION pg_stat_statements"_s);

    // A clock we move, to see the once-a-minute look-up without waiting a minute.
    qint64 now = 1'700'000'000'000;
    QString error;
    CollectorConfig config;
    config.sourceId = u"pg:test"_s;
    config.timeoutMs = 5000;
    auto options = PostgresCollector::parseOptions(
        { { u"conninfo"_s, conninfo(database) }, { u"tables"_s, false }, { u"probe"_s, false } },
        &error);
    QVERIFY2(options, qPrintable(error));
    PostgresCollector collector(config, *options, [&now] { return now; });

    const auto statementSeries = [](const PollResult &result) {
        return std::any_of(
            result.batch.values.cbegin(), result.batch.values.cend(),
            [](const SeriesValue &v) { return v.info.key.metric.startsWith("pg.statements."_L1); });
    };
    PollResult result = pollOk(collector);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(value(result.batch, u"pg.up"_s), 1.0); // the rest carries on
    QCOMPARE(result.warnings.size(), 1);
    const QString warning = result.warnings.first();
    QVERIFY2(warning.contains(u"not installed in database \"headroom_stmt_absent\""_s)
                 && warning.contains(u"CREATE EXTENSION pg_stat_statements"_s)
                 && warning.contains(u"shared_preload_libraries"_s),
             qPrintable(warning));

    // Installed meanwhile: seen at the next look-up, about a minute later.
    PG_EXEC(db, u"CREATE EXTENSION pg_stat_statements"_s);
    now += 1000;
    result = pollOk(collector);
    QCOMPARE(result.warnings, QStringList { warning });
    now += PgStatementsPart::RecheckMs;
    result = pollOk(collector);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.warnings, QStringList());
    PG_EXEC(db, repeated(Light, 5));
    now += 1000;
    result = pollOk(collector);
    QCOMPARE(result.warnings, QStringList());
    QVERIFY(statementSeries(result));

    // Dropped while in use: that poll says why it skipped, the next one looks again.
    PG_EXEC(db, u"DROP EXTENSION pg_stat_statements"_s);
    now += 1000;
    result = pollOk(collector);
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY2(anyWarningContains(result.warnings, u"pg_stat_statements"_s),
             qPrintable(result.warnings.join(u" | "_s)));
    QVERIFY(!statementSeries(result));
    now += 1000;
    result = pollOk(collector);
    QCOMPARE(result.warnings, QStringList { warning });
}

void TestPgStatements::hiddenWithoutPgMonitor()
{
    HEADROOM_REQUIRE_PG();
    // Work of another role (postgres) that the plain role may not look into.
    {
        TestConnection other(conninfo(u"headroom_stmt"_s));
        PG_EXEC(other, repeated(Light, 3));
    }
    const auto collector = collectorFor(u"headroom_stmt"_s, 10, PlainRole);
    QVERIFY(collector);
    const PollResult first = pollOk(*collector);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    TestConnection own(conninfo(u"headroom_stmt"_s, PlainRole));
    QVERIFY2(own.ok(), qPrintable(own.error()));
    PG_EXEC(own, repeated(u"SELECT count(*) FROM generate_series(1, 7)"_s, 4));
    const PollResult second = pollOk(*collector);
    QVERIFY2(second.error.isEmpty(), qPrintable(second.error));

    static const QRegularExpression hidden(
        u"^pg_stat_statements: (\\d+) entries of other roles are hidden .*grant pg_monitor$"_s);
    int count = 0;
    for (const QString &warning : second.warnings) {
        const auto match = hidden.match(warning);
        if (match.hasMatch())
            count = match.captured(1).toInt();
    }
    QVERIFY2(count > 0, qPrintable(second.warnings.join(u" | "_s)));
    // The role's own statements are still there, texts and all.
    bool ownListed = false;
    for (const SeriesValue &v : ranked(second.batch)) {
        QVERIFY(!v.info.key.labels.value(u"query"_s).contains("insufficient"_L1));
        ownListed = ownListed
            || v.info.key.labels.value(u"query"_s)
                == "SELECT count(*) FROM generate_series($1, $2)"_L1;
    }
    QVERIFY(ownListed);
    QVERIFY(value(second.batch, u"pg.statements.total.calls.rate"_s,
                  { { u"datname"_s, u"headroom_stmt"_s } }));
}

void TestPgStatements::costWithFullTable()
{
    // pg_stat_statements at its default max (5000): what a poll costs the server and us.
    HEADROOM_REQUIRE_PG();
    TestConnection admin(conninfo());
    const int max = admin.exec(u"SELECT current_setting('pg_stat_statements.max')"_s)
                        .value_or(u"0"_s)
                        .toInt();
    QVERIFY(max > 0);
    PG_EXEC(admin, u"CREATE DATABASE headroom_stmt_cost"_s);
    TestConnection db(conninfo(u"headroom_stmt_cost"_s));
    QVERIFY2(db.ok(), qPrintable(db.error()));
    PG_EXEC(db, u"CREATE EXTENSION pg_stat_statements"_s);
    // Tables times IN lists of 1 to 50 constants: as many distinct statements as fit.
    const int tables = max / 50;
    QString error;
    QVERIFY2(fillStatements(db, tables, &error), qPrintable(error));
    const int entries
        = db.exec(u"SELECT count(*) FROM pg_stat_statements"_s).value_or(u"0"_s).toInt();
    qInfo("pg_stat_statements holds %d entries (max %d)", entries, max);
    QVERIFY(entries >= max * 9 / 10);

    // The counters query as the part sends it, through a plain libpq session to count
    // the bytes.
    const QString version
        = *db.exec(u"SELECT extversion FROM pg_extension WHERE extname = 'pg_stat_statements'"_s);
    const QByteArray counters
        = PgStatementsPart::countersQuery(QVersionNumber::fromString(version), u"public"_s);
    TestConnection raw(conninfo(u"headroom_stmt_cost"_s));
    qint64 bytes = 0;
    int rows = 0;
    QElapsedTimer clock;
    clock.start();
    PGresult *result = PQexec(raw.raw(), counters.constData());
    const qint64 queryMs = clock.elapsed();
    QCOMPARE(PQresultStatus(result), PGRES_TUPLES_OK);
    rows = PQntuples(result);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < PQnfields(result); ++c)
            bytes += PQgetlength(result, r, c) + 4;
    }
    PQclear(result);
    clock.restart();
    const char *const ids[] = { "{1,2,3,4,5,6,7,8,9,10}" };
    result = PQexecParams(raw.raw(), PgStatementsPart::textsQuery(u"public"_s).constData(), 1,
                          nullptr, ids, nullptr, nullptr, 0);
    const qint64 textsMs = clock.elapsed();
    QCOMPARE(PQresultStatus(result), PGRES_TUPLES_OK);
    PQclear(result);
    qInfo("counters query: %d rows, %lld bytes of values, %lld ms; texts query %lld ms", rows,
          bytes, queryMs, textsMs);

    // The part's own steps over the collector's kind of session.
    PgSettings settings;
    settings.conninfo = conninfo(u"headroom_stmt_cost"_s);
    settings.statementTimeoutMs = 5000;
    PgConnection connection(settings);
    QVERIFY2(connection.ensureConnected(QDeadlineTimer(5000), &error), qPrintable(error));
    Tracker tracker;
    qint64 ts = 1'000'000;
    for (int i = 0; i < 3; ++i) {
        clock.restart();
        const PgResult answer = connection.exec(counters, {}, QDeadlineTimer(5000));
        const qint64 execMs = clock.elapsed();
        QVERIFY2(answer.ok(), qPrintable(answer.error()));
        clock.restart();
        Tracker::Snapshot next;
        PgStatementsPart::readCounters(answer, &next);
        const qint64 parseMs = clock.elapsed();
        clock.restart();
        tracker.update(next, ts += 1000, 10);
        qInfo("part steps: query %lld ms, parse %lld ms, deltas and top %lld ms", execMs, parseMs,
              clock.elapsed());
    }

    // Whole polls of the collector (statements besides pg_stat_database and
    // pg_stat_activity), steady state: texts known.
    const auto collector = collectorFor(u"headroom_stmt_cost"_s, 10);
    QVERIFY(collector);
    for (int i = 0; i < 3; ++i)
        QVERIFY(pollOk(*collector).error.isEmpty());
    QList<qint64> times;
    for (int i = 0; i < 5; ++i) {
        PG_EXEC(db, u"SELECT count(*) FROM t1 WHERE a IN (1)"_s);
        clock.restart();
        const PollResult polled = pollOk(*collector);
        times << clock.elapsed();
        QVERIFY2(polled.error.isEmpty(), qPrintable(polled.error));
        QVERIFY(!ranked(polled.batch).isEmpty());
    }
    std::sort(times.begin(), times.end());
    qInfo("a whole poll with %d entries: median %lld ms, max %lld ms", entries, times[2],
          times.last());
    // Generous: ASan, a debug build and a loaded machine; see the figures above.
    QVERIFY2(times[2] < 3000, qPrintable(QString::number(times[2])));
    // Leave the other tests an empty table.
    PG_EXEC(db, u"SELECT pg_stat_statements_reset()"_s);
}

QTEST_GUILESS_MAIN(TestPgStatements)
#include "tst_pgstatements.moc"
