// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The postgres collector's logic that needs no server: conninfo redaction, option
// validation, reset-safe pg_stat_database rates and pg_stat_activity aggregation.
#include "core/conninfo.h"
#include "pgactivity.h"
#include "pgstatdatabase.h"
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QJsonArray>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestPostgresUnit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void redact_data();
    void redact();
    void options_data();
    void options();
    void databaseRates_data();
    void databaseRates();
    void databaseRatesMetadata();
    void ownRollbacks_data();
    void ownRollbacks();
    void activityZeroFill();
    void sleepingSessionsQueueOnNothing();
};

void TestPostgresUnit::redact_data()
{
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("hasPassword");

    QTest::newRow("empty") << QString() << QString() << false;
    QTest::newRow("keyword, none") << u"host=db dbname=erp"_s << u"host=db dbname=erp"_s << false;
    QTest::newRow("keyword") << u"host=db password=secret user=x"_s
                             << u"host=db password=*** user=x"_s << true;
    QTest::newRow("keyword, spaces around =")
        << u"host = db password = secret"_s << u"host = db password = ***"_s << true;
    QTest::newRow("keyword, quoted with escapes")
        << u"password='s e\\'cret' host=db"_s << u"password='***' host=db"_s << true;
    QTest::newRow("keyword, backslash in unquoted value")
        << u"password=sec\\ ret host=db"_s << u"password=*** host=db"_s << true;
    QTest::newRow("keyword, sslpassword")
        << u"sslpassword=secret sslkey=/k"_s << u"sslpassword=*** sslkey=/k"_s << true;
    QTest::newRow("keyword, unterminated quote")
        << u"host=db password='secret"_s << u"host=db password='***"_s << true;
    QTest::newRow("keyword, missing =") << u"host=db password secret"_s << u"host=db ***"_s << true;
    QTest::newRow("uri, none") << u"postgresql://u@db/erp"_s << u"postgresql://u@db/erp"_s << false;
    QTest::newRow("uri, user info")
        << u"postgresql://u:secret@db:5432/erp"_s << u"postgresql://u:***@db:5432/erp"_s << true;
    QTest::newRow("uri, postgres scheme, multi-host")
        << u"postgres://u:secret@h1:5432,h2:5433/erp"_s << u"postgres://u:***@h1:5432,h2:5433/erp"_s
        << true;
    QTest::newRow("uri, query parameter")
        << u"postgresql://db/erp?user=u&password=secret&sslmode=require"_s
        << u"postgresql://db/erp?user=u&password=***&sslmode=require"_s << true;
    QTest::newRow("uri, percent-encoded key")
        << u"postgresql://db?pass%77ord=secret"_s << u"postgresql://db?pass%77ord=***"_s << true;
    QTest::newRow("uri, unescaped @ and / in password")
        << u"postgresql://u:sec@r/et@db/erp"_s << u"postgresql://u:***@db/erp"_s << true;
    QTest::newRow("uri, port but no password")
        << u"postgresql://db:5432/erp?user=u"_s << u"postgresql://db:5432/erp?user=u"_s << false;
}

void TestPostgresUnit::redact()
{
    QFETCH(QString, conninfo);
    QFETCH(QString, expected);
    QFETCH(bool, hasPassword);
    const QString redacted = redactConninfo(conninfo);
    QCOMPARE(redacted, expected);
    QVERIFY(!redacted.contains("secret"_L1));
    QVERIFY(!redacted.contains("cret"_L1));
    QCOMPARE(conninfoHasPassword(conninfo), hasPassword);
}

void TestPostgresUnit::options_data()
{
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("error"); // empty: valid
    QTest::addColumn<int>("connectTimeoutMs");
    QTest::addColumn<int>("statementTimeoutMs");
    QTest::addColumn<int>("lockTimeoutMs");

    QTest::newRow("defaults") << QJsonObject() << QString() << 3000 << 1000 << 100;
    QTest::newRow("numbers and numeric strings")
        << QJsonObject { { u"conninfo"_s, u"service=orders"_s },
                         { u"connectTimeoutMs"_s, 500 },
                         { u"statementTimeoutMs"_s, u"2000"_s },
                         { u"lockTimeoutMs"_s, u""_s },
                         { u"databases"_s, QJsonArray { u"erp"_s } } }
        << QString() << 500 << 2000 << 100;
    QTest::newRow("uri") << QJsonObject { { u"conninfo"_s, u"postgresql://u@db/erp"_s } }
                         << QString() << 3000 << 1000 << 100;
    QTest::newRow("password option")
        << QJsonObject { { u"password"_s, u"x"_s } }
        << u"password: is not an option: passwords come from ~/.pgpass, a service file or "
           "PGPASSWORD, so that none is written to a dashboard"_s
        << 0 << 0 << 0;
    QTest::newRow("unknown option")
        << QJsonObject { { u"conninf"_s, u"x"_s } }
        << u"conninf: unknown option (expected conninfo, connectTimeoutMs, "
           "statementTimeoutMs, lockTimeoutMs, databases, statements, "
           "topStatements, waitSamplesPerSecond, tables, shardSets, shardOverloadedPercent, "
           "probe, queries)"_s
        << 0 << 0 << 0;
    QTest::newRow("bad keyword") << QJsonObject { { u"conninfo"_s, u"host=db bogus=1"_s } }
                                 << u"conninfo: invalid connection option \"bogus\""_s << 0 << 0
                                 << 0;
    // libpq's own message would quote "Hunter%zz" and "secret part".
    QTest::newRow("bad URI escape, password not repeated")
        << QJsonObject { { u"conninfo"_s, u"postgresql://u:Hunter%zz@h/db"_s } }
        << u"conninfo: libpq cannot parse it (check the key=value pairs, their quoting and "
           "the URI's %-escapes; its text is not repeated here as it may hold a password)"_s
        << 0 << 0 << 0;
    QTest::newRow("unquoted space in password, not repeated")
        << QJsonObject { { u"conninfo"_s, u"host=db password=secret part"_s } }
        << u"conninfo: libpq cannot parse it (check the key=value pairs, their quoting and "
           "the URI's %-escapes; its text is not repeated here as it may hold a password)"_s
        << 0 << 0 << 0;
    QTest::newRow("conninfo not a string") << QJsonObject { { u"conninfo"_s, 5 } }
                                           << u"conninfo: must be a libpq connection string "
                                              "or URI, got 5"_s
                                           << 0 << 0 << 0;
    QTest::newRow("zero statement timeout")
        << QJsonObject { { u"statementTimeoutMs"_s, 0 } }
        << u"statementTimeoutMs: must be an integer from 1 to 3600000, got 0"_s << 0 << 0 << 0;
    QTest::newRow("fractional lock timeout")
        << QJsonObject { { u"lockTimeoutMs"_s, 1.5 } }
        << u"lockTimeoutMs: must be an integer from 1 to 3600000, got 1.5"_s << 0 << 0 << 0;
    QTest::newRow("tiny connect timeout")
        << QJsonObject { { u"connectTimeoutMs"_s, u"5"_s } }
        << u"connectTimeoutMs: must be an integer from 100 to 600000, got \"5\""_s << 0 << 0 << 0;
    QTest::newRow("databases not an array")
        << QJsonObject { { u"databases"_s, u"erp"_s } }
        << u"databases: must be an array of database names, got \"erp\""_s << 0 << 0 << 0;
}

void TestPostgresUnit::options()
{
    QFETCH(QJsonObject, options);
    QFETCH(QString, error);
    QString actual;
    const auto parsed = PostgresCollector::parseOptions(options, &actual);
    if (!error.isEmpty()) {
        QVERIFY(!parsed);
        QCOMPARE(actual, error);
        return;
    }
    QVERIFY2(parsed, qPrintable(actual));
    QFETCH(int, connectTimeoutMs);
    QFETCH(int, statementTimeoutMs);
    QFETCH(int, lockTimeoutMs);
    QCOMPARE(parsed->settings.connectTimeoutMs, connectTimeoutMs);
    QCOMPARE(parsed->settings.statementTimeoutMs, statementTimeoutMs);
    QCOMPARE(parsed->settings.lockTimeoutMs, lockTimeoutMs);
    QCOMPARE(parsed->settings.conninfo, options.value("conninfo"_L1).toString());
}

namespace {

constexpr int TupInserted = 6; // index in PgStatDatabaseRates::counters()

PgStatDatabaseRates::Row row(const QString &statsReset, double inserted, double others)
{
    PgStatDatabaseRates::Row r;
    r.datname = u"erp"_s;
    r.statsReset = statsReset;
    r.values.fill(others);
    r.values[TupInserted] = inserted;
    return r;
}

} // namespace

void TestPostgresUnit::databaseRates_data()
{
    // Three polls one second apart; the expected tup_inserted rate after polls 2 and 3
    // (-1: no rate in that interval).
    QTest::addColumn<QString>("reset1");
    QTest::addColumn<double>("inserted1");
    QTest::addColumn<double>("others1");
    QTest::addColumn<QString>("reset2");
    QTest::addColumn<double>("inserted2");
    QTest::addColumn<double>("others2");
    QTest::addColumn<QString>("reset3");
    QTest::addColumn<double>("inserted3");
    QTest::addColumn<double>("others3");
    QTest::addColumn<double>("rate2");
    QTest::addColumn<double>("rate3");

    const QString a = u"2025-01-01 00:00:00+00"_s;
    const QString b = u"2025-01-02 00:00:00+00"_s;
    QTest::newRow("steady") << a << 100.0 << 10.0 << a << 600.0 << 20.0 << a << 700.0 << 30.0
                            << 500.0 << 100.0;
    // pg_stat_reset() and then enough work that every counter climbed past its old value:
    // only stats_reset tells, and the interval must give no rate (not 900 - 100).
    QTest::newRow("stats_reset changed, counters up")
        << a << 100.0 << 10.0 << b << 1000.0 << 50.0 << b << 1200.0 << 60.0 << -1.0 << 200.0;
    QTest::newRow("one counter down, same stats_reset")
        << a << 100.0 << 10.0 << a << 600.0 << 5.0 << a << 700.0 << 6.0 << -1.0 << 100.0;
    QTest::newRow("stats_reset from NULL")
        << QString() << 100.0 << 10.0 << a << 150.0 << 11.0 << a << 170.0 << 12.0 << -1.0 << 20.0;
}

void TestPostgresUnit::databaseRates()
{
    QFETCH(QString, reset1);
    QFETCH(double, inserted1);
    QFETCH(double, others1);
    QFETCH(QString, reset2);
    QFETCH(double, inserted2);
    QFETCH(double, others2);
    QFETCH(QString, reset3);
    QFETCH(double, inserted3);
    QFETCH(double, others3);
    QFETCH(double, rate2);
    QFETCH(double, rate3);

    PgStatDatabaseRates rates;
    const Labels labels { { u"datname"_s, u"erp"_s } };
    const QString metric = u"pg.db.tup_inserted.rate"_s;
    SampleBatch first;
    rates.update({ row(reset1, inserted1, others1) }, 10'000, u"pg"_s, first);
    QVERIFY(first.values.isEmpty());

    const auto check = [&](const SampleBatch &batch, double expected) {
        const auto actual = value(batch, metric, labels);
        if (expected < 0) {
            QVERIFY(batch.values.isEmpty()); // no rate of any counter in a reset interval
        } else {
            QVERIFY(actual);
            QCOMPARE(*actual, expected);
            QCOMPARE(batch.values.size(), qsizetype(PgStatDatabaseRates::CounterCount));
        }
        for (const SeriesValue &v : batch.values)
            QVERIFY(v.value >= 0);
    };
    SampleBatch second;
    rates.update({ row(reset2, inserted2, others2) }, 11'000, u"pg"_s, second);
    check(second, rate2);
    if (QTest::currentTestFailed())
        return;
    SampleBatch third;
    rates.update({ row(reset3, inserted3, others3) }, 12'000, u"pg"_s, third);
    check(third, rate3);
}

void TestPostgresUnit::ownRollbacks_data()
{
    // Polls one second apart: xact_rollback as the server reports it, how many
    // rollbacks our own session had sent by then, and the rates expected from the
    // second poll on.
    QTest::addColumn<QString>("ownDatabase");
    QTest::addColumn<QList<double>>("server");
    QTest::addColumn<QList<qint64>>("ours");
    QTest::addColumn<QList<double>>("rates");
    QTest::newRow("counted at once") << u"erp"_s << QList<double> { 10, 11, 12, 13 }
                                     << QList<qint64> { 0, 1, 2, 3 } << QList<double> { 0, 0, 0 };
    // The server's statistics come a flush late: ours are paid off when they arrive.
    QTest::newRow("counted a poll late")
        << u"erp"_s << QList<double> { 10, 10, 12, 13, 13 } << QList<qint64> { 0, 1, 2, 3, 3 }
        << QList<double> { 0, 0, 0, 0 };
    QTest::newRow("others' rollbacks count")
        << u"erp"_s << QList<double> { 10, 16, 22, 22 } << QList<qint64> { 0, 1, 2, 2 }
        << QList<double> { 5, 5, 0 };
    QTest::newRow("ours are in another database")
        << u"postgres"_s << QList<double> { 10, 16, 22 } << QList<qint64> { 0, 1, 2 }
        << QList<double> { 6, 6 };
    // Ours the server never counted are given up after MaxPendingOwnRollbacks: they
    // cannot hide later rollbacks without end.
    QTest::newRow("at most 60 pending") << u"erp"_s << QList<double> { 10, 10, 110 }
                                        << QList<qint64> { 0, 100, 100 } << QList<double> { 0, 40 };
    QTest::newRow("a stats reset starts over")
        << u"erp"_s << QList<double> { 10, 11, 0, 2, 3 } << QList<qint64> { 0, 1, 2, 3, 4 }
        << QList<double> { 0, -1, 0, 0 };
}

void TestPostgresUnit::ownRollbacks()
{
    QFETCH(QString, ownDatabase);
    QFETCH(QList<double>, server);
    QFETCH(QList<qint64>, ours);
    QFETCH(QList<double>, rates);
    PgStatDatabaseRates dbRates;
    const Labels labels { { u"datname"_s, u"erp"_s } };
    for (qsizetype i = 0; i < server.size(); ++i) {
        PgStatDatabaseRates::Row r = row({}, 0, 0);
        r.values[PgStatDatabaseRates::RollbackIndex] = server[i];
        SampleBatch batch;
        dbRates.update({ r }, 1000 * (i + 1), u"pg"_s, batch, { ownDatabase, ours[i] });
        const auto rate = value(batch, u"pg.db.rollbacks.rate"_s, labels);
        if (i == 0 || rates[i - 1] < 0) {
            QVERIFY2(!rate, qPrintable(u"poll %1"_s.arg(i)));
            continue;
        }
        QVERIFY2(rate, qPrintable(u"poll %1"_s.arg(i)));
        QCOMPARE(*rate, rates[i - 1]);
    }
}

void TestPostgresUnit::databaseRatesMetadata()
{
    PgStatDatabaseRates rates;
    SampleBatch batch;
    rates.update({ row({}, 0, 0) }, 1000, u"pg:x"_s, batch);
    rates.update({ row({}, 10, 10) }, 2000, u"pg:x"_s, batch);
    const Labels labels { { u"datname"_s, u"erp"_s } };
    struct Expected
    {
        QString metric;
        QString unit;
        UseKind kind;
    };
    const QList<Expected> expected {
        { u"pg.db.commits.rate"_s, u"1/s"_s, UseKind::Throughput },
        { u"pg.db.rollbacks.rate"_s, u"1/s"_s, UseKind::Errors },
        { u"pg.db.blks_read.rate"_s, u"1/s"_s, UseKind::Throughput },
        { u"pg.db.tup_returned.rate"_s, u"1/s"_s, UseKind::Throughput },
        { u"pg.db.temp_bytes.rate"_s, u"B/s"_s, UseKind::Saturation },
        { u"pg.db.temp_files.rate"_s, u"1/s"_s, UseKind::Saturation },
        { u"pg.db.deadlocks.rate"_s, u"1/s"_s, UseKind::Errors },
        { u"pg.db.conflicts.rate"_s, u"1/s"_s, UseKind::Errors },
    };
    for (const Expected &e : expected) {
        const auto found = info(batch, e.metric, labels);
        QVERIFY2(found, qPrintable(e.metric));
        QCOMPARE(found->key.source, u"pg:x"_s);
        QCOMPARE(found->unit, e.unit);
        QCOMPARE(found->resource, u"db:erp"_s);
        QCOMPARE(found->kind, e.kind);
    }
}

void TestPostgresUnit::sleepingSessionsQueueOnNothing()
{
    // Twelve sessions holding their slots in pg_sleep() beside two reading from disk: the
    // sleepers wait on nothing, so the disk is the whole queue and Timeout none of it.
    using Row = PgActivitySampler::Row;
    const Row sleeper { u"active"_s, u"Timeout"_s, u"PgSleep"_s, u"client backend"_s,
                        false,       5.0,          5.0 };
    const Row reader {
        u"active"_s, u"IO"_s, u"DataFileRead"_s, u"client backend"_s, false, 1.0, 1.0
    };
    const Row spinning { u"active"_s, u"Timeout"_s, u"SpinDelay"_s, u"client backend"_s, false,
                         1.0,         1.0 };
    QList<Row> rows(12, sleeper);
    rows << reader << reader;
    PgActivitySampler sampler;
    SampleBatch batch;
    sampler.update(rows, u"pg"_s, batch);
    const auto share = [&](const SampleBatch &b, const QString &waitClass) {
        return value(b, u"pg.activity.wait_class_share"_s, { { u"class"_s, waitClass } });
    };
    QCOMPARE(share(batch, u"IO"_s), 100.0);
    QCOMPARE(share(batch, u"Timeout"_s), 0.0);
    // Still counted as waiting, and as active sessions.
    QCOMPARE(value(batch, u"pg.activity.waiting"_s, { { u"wait"_s, u"Timeout:PgSleep"_s } }), 12.0);
    QCOMPARE(value(batch, u"pg.activity.sessions"_s, { { u"state"_s, u"active"_s } }), 14.0);
    // A spin delay is contention: it keeps its share.
    rows << spinning << spinning;
    SampleBatch next;
    sampler.update(rows, u"pg"_s, next);
    QCOMPARE(share(next, u"Timeout"_s), 50.0);
    QCOMPARE(share(next, u"IO"_s), 50.0);
}

void TestPostgresUnit::activityZeroFill()
{
    using Row = PgActivitySampler::Row;
    PgActivitySampler sampler;
    const Row blocked { u"active"_s, u"Lock"_s, u"transactionid"_s, u"client backend"_s, false,
                        12.5,        3.0 };
    const Row holder { u"idle in transaction"_s,
                       u"Client"_s,
                       u"ClientRead"_s,
                       u"client backend"_s,
                       false,
                       20.0,
                       19.0 };
    const Row walsender { u"active"_s, u"Activity"_s, u"WalSenderMain"_s, u"walsender"_s, false,
                          -1,          100.0 };
    const Row hidden { QString(), QString(), QString(), u"client backend"_s, true, -1, -1 };

    // Before any session waits, the contention classes' shares are there, at 0.
    SampleBatch quiet;
    QCOMPARE(sampler.update({}, u"pg"_s, quiet), 0);
    for (const QString &waitClass : PgActivitySampler::contentionClasses())
        QCOMPARE(value(quiet, u"pg.activity.wait_class_share"_s, { { u"class"_s, waitClass } }),
                 0.0);
    QCOMPARE(PgActivitySampler::contentionClasses().size(), 5);
    QVERIFY(PgActivitySampler::contentionClasses().contains(u"Lock"_s));

    SampleBatch first;
    QCOMPARE(sampler.update({ blocked, holder, walsender, hidden }, u"pg"_s, first), 1);
    const Labels lock { { u"wait"_s, u"Lock:transactionid"_s } };
    QCOMPARE(value(first, u"pg.activity.waiting"_s, lock), 1.0);
    QVERIFY(
        !value(first, u"pg.activity.waiting"_s, { { u"wait"_s, u"Activity:WalSenderMain"_s } }));
    QVERIFY(!value(first, u"pg.activity.waiting"_s, { { u"wait"_s, u"Client:ClientRead"_s } }));
    QCOMPARE(value(first, u"pg.activity.sessions"_s, { { u"state"_s, u"active"_s } }), 1.0);
    QCOMPARE(value(first, u"pg.activity.sessions"_s, { { u"state"_s, u"idle in transaction"_s } }),
             1.0);
    QCOMPARE(value(first, u"pg.activity.oldest_xact_age_s"_s), 20.0);
    QCOMPARE(value(first, u"pg.activity.longest_query_age_s"_s), 3.0); // active ones only
    const auto meta = info(first, u"pg.activity.oldest_xact_age_s"_s);
    QVERIFY(meta);
    QCOMPARE(meta->unit, u"s"_s);
    QCOMPARE(meta->resource, u"pg"_s);
    QCOMPARE(meta->kind, UseKind::Saturation);

    // The lock is released: the wait class drops to 0 instead of vanishing.
    SampleBatch second;
    QCOMPARE(sampler.update({}, u"pg"_s, second), 0);
    QCOMPARE(value(second, u"pg.activity.waiting"_s, lock), 0.0);
    QCOMPARE(value(second, u"pg.activity.sessions"_s, { { u"state"_s, u"active"_s } }), 0.0);
    QCOMPARE(value(second, u"pg.activity.oldest_xact_age_s"_s), 0.0);
    QCOMPARE(value(second, u"pg.activity.longest_query_age_s"_s), 0.0);
}

QTEST_GUILESS_MAIN(TestPostgresUnit)
#include "tst_postgresunit.moc"
