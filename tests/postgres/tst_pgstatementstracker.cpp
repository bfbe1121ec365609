// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The pg_stat_statements part without a server: the SQL of each extension version,
// deltas, top-N order, resets (never a negative value or a spike), the latency histogram,
// query labels and plan changes, through PgStatementsTracker. Against the test server:
// tst_pgstatements.
#include "pgstatements.h"
#include "pgstatementstestutil.h"
#include "pgstatementtext.h"
#include "pgtestutil.h"

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

} // namespace

class TestPgStatementsTracker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
    void ownStatementsReplacedByRunnersUp();
    void planBaseline();
    void planChangeSeries();
};

void TestPgStatementsTracker::sql_data()
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
                               u"temp_blks_written"_s,
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

void TestPgStatementsTracker::sql()
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

void TestPgStatementsTracker::deltas()
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
    QVERIFY(!value(run(noTiming).at(1), u"pg.statements.blk_read_time.rate"_s, one));

    // Entries of a dropped database (they stay until evicted) are not reported.
    const SampleBatch dropped = run({ snapshot({ entry(7, 1, 1, 10, true, Dropped) }),
                                      snapshot({ entry(7, 9, 1, 10, true, Dropped) }) })
                                    .at(1);
    QVERIFY(ranked(dropped).isEmpty() && dropped.histograms.isEmpty());
    QCOMPARE(dropped.values.size(), 1); // pg.statements.deallocations.rate, server-wide
}

void TestPgStatementsTracker::topOrder_data()
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

void TestPgStatementsTracker::topOrder()
{
    QFETCH(int, top);
    QFETCH(QList<qint64>, expected);
    const Snapshots snapshots {
        snapshot({ entry(1, 10, 10), entry(2, 10, 5), entry(3, 10, 30), entry(4, 10, 5),
                   entry(5, 10, 1) }),
        snapshot({ entry(1, 20, 10), entry(2, 20, 5), entry(3, 20, 30), entry(4, 30, 5),
                   entry(5, 10, 1) }),
    };
    const SampleBatch batch = run(snapshots, top).at(1);
    QList<qint64> order;
    for (const auto rankedValues = ranked(batch); const SeriesValue &v : rankedValues)
        order << v.info.key.labels.value(u"queryid"_s).toLongLong();
    QCOMPARE(order, expected);
    // Totals cover every statement, not only the listed ones.
    QCOMPARE(value(batch, u"pg.statements.total.calls.rate"_s, { { u"datname"_s, u"app"_s } }),
             50.0);
}

void TestPgStatementsTracker::resets_data()
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

void TestPgStatementsTracker::resets()
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
        for (const auto rankedValues = ranked(batches[i]); const SeriesValue &v : rankedValues)
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

void TestPgStatementsTracker::histogram_data()
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

void TestPgStatementsTracker::histogram()
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

void TestPgStatementsTracker::nestedStatements()
{
    // A function (1) at top level whose inner statement (2) also runs nested, and runs at
    // top level too; another database has its own histogram.
    const Snapshots snapshots {
        snapshot({ entry(1, 0, 10), entry(2, 0, 4), entry(2, 0, 4, 10, false),
                   entry(3, 0, 1, 10, true, Other) }),
        snapshot({ entry(1, 5, 10), entry(2, 3, 4), entry(2, 5, 4, 10, false),
                   entry(3, 9, 1, 10, true, Other) }),
    };
    const SampleBatch batch = run(snapshots).at(1);
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

void TestPgStatementsTracker::queryLabel_data()
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

void TestPgStatementsTracker::queryLabel()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(Tracker::queryLabel(text), expected);
}

void TestPgStatementsTracker::unlabelledLeftOut()
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

// Right after connecting none of Headroom's own statements is known: once their texts
// show them as its own, the next statements by time take their places in that very
// interval (the part reads those texts too), and a statement in the top for its temp
// files stays.
void TestPgStatementsTracker::ownStatementsReplacedByRunnersUp()
{
    Tracker tracker;
    tracker.update(snapshot({ entry(1, 0, 1), entry(2, 0, 1), entry(3, 0, 1), entry(4, 0, 1) }),
                   1000, 2);
    Tracker::Interval interval = tracker.update(
        snapshot({ entry(1, 50, 2), entry(2, 40, 2), entry(3, 10, 1), entry(4, 5, 1) }), 2000, 2);
    QCOMPARE(interval.top.size(), 2);
    QCOMPARE(interval.timeRanked, 2);
    QCOMPARE(interval.runnersUp.size(), 2);
    QCOMPARE(interval.runnersUp[0].queryid, 3);
    tracker.setLabel(App, 1, u"/* headroom */ SELECT 1"_s, true);
    tracker.setLabel(App, 2, u"/* headroom */ SELECT 2"_s, true);
    QVERIFY(tracker.replaceOwn(&interval));
    QCOMPARE(interval.timeRanked, 2);
    QCOMPARE(interval.top.size(), 2);
    QCOMPARE(interval.top[0].queryid, 3);
    QCOMPARE(interval.top[1].queryid, 4);
    tracker.setLabel(App, 3, u"q3"_s);
    tracker.setLabel(App, 4, u"q4"_s);
    QVERIFY(!tracker.replaceOwn(&interval)); // nothing of its own left
    SampleBatch batch;
    tracker.addSeries(interval, u"pg:test"_s, batch);
    QCOMPARE(ranked(batch).size(), 2);
    QVERIFY(value(batch, u"pg.statements.calls.rate"_s, statementLabels(3)));
    QVERIFY(value(batch, u"pg.statements.calls.rate"_s, statementLabels(4)));
}

void TestPgStatementsTracker::ownStatementsLeftOut()
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

void TestPgStatementsTracker::planBaseline()
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

void TestPgStatementsTracker::planChangeSeries()
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

QTEST_GUILESS_MAIN(TestPgStatementsTracker)
#include "tst_pgstatementstracker.moc"
