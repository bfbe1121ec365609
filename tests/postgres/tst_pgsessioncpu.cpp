// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The CPU of each session, from its process, against the test server on this machine,
// reached through its Unix socket and through loopback: a session counting through a
// billion numbers (application cpu-report) reads above 50 % of one CPU in pg.session.cpu
// and pg.application.cpu, named by its pid, user and normalized statement, while an idle
// session reads below 5 %; once it is cancelled its series falls to 0 and then ends. A
// server whose sessions' processes are not ours (a /proc without them, or with another
// program at the pid) is skipped with a note and no series.
#include "pgsessioncpu.h"
#include "pgtestutil.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

// The pg.session.cpu series of a pid, nullptr when there is none.
const SeriesValue *sessionCpu(const SampleBatch &batch, int pid)
{
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric == PgSessionCpuPart::CpuMetric
            && v.info.key.labels.value(u"pid"_s) == QString::number(pid))
            return &v;
    }
    return nullptr;
}

int backendPid(TestConnection &connection)
{
    return connection.exec(u"SELECT pg_backend_pid()"_s).value_or(QString()).toInt();
}

// Stops the statement a connection runs (closing it would leave the backend counting).
void cancel(TestConnection &connection)
{
    if (PGcancel *handle = PQgetCancel(connection.raw())) {
        char error[256] = {};
        PQcancel(handle, error, sizeof error);
        PQfreeCancel(handle);
    }
    connection.finish();
}

QString loopbackConninfo(const QString &extra)
{
    return u"host=127.0.0.1 port=%1 dbname=postgres user=postgres %2"_s.arg(
        env("HEADROOM_TEST_PGPORT"), extra);
}

} // namespace

class TestPgSessionCpu : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void burningSessionNamed_data();
    void burningSessionNamed();
    void notOurProcessesSkipped_data();
    void notOurProcessesSkipped();
};

void TestPgSessionCpu::burningSessionNamed_data()
{
    QTest::addColumn<bool>("loopback");
    QTest::newRow("unix socket") << false;
    QTest::newRow("loopback") << true;
}

void TestPgSessionCpu::burningSessionNamed()
{
    QFETCH(bool, loopback);
    HEADROOM_REQUIRE_PG();
    const auto info = [&](const QString &extra) {
        return loopback ? loopbackConninfo(extra) : conninfo() + u' ' + extra;
    };
    TestConnection burner(info(u"application_name=cpu-report"_s));
    TestConnection idle(info(u"application_name=idle-report"_s));
    QVERIFY2(burner.ok(), qPrintable(burner.error()));
    QVERIFY2(idle.ok(), qPrintable(idle.error()));
    PG_EXEC(burner, u"SET statement_timeout = '60s'"_s); // should the test die before cancel()
    const int burnerPid = backendPid(burner);
    const int idlePid = backendPid(idle);
    QVERIFY(burnerPid > 0 && idlePid > 0);
    const int serverVersion = burner.exec(u"SHOW server_version_num"_s).value_or(u"0"_s).toInt();

    const auto collector = makeCollector({ { u"conninfo"_s, info(QString()) },
                                           { u"statements"_s, false },
                                           { u"tables"_s, false },
                                           { u"probe"_s, false } });
    QVERIFY(collector);
    PollResult poll = collector->poll(QDeadlineTimer(5000)); // baselines
    QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
    QVERIFY2(!poll.notes.join(u' ').contains(u"session CPU"_s), qPrintable(poll.notes.join(u' ')));

    QVERIFY(burner.send(u"SELECT count(*) FROM generate_series(1, 1e9)"_s));
    QThread::msleep(200);
    poll = collector->poll(QDeadlineTimer(5000)); // the burner's baseline while it runs
    QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
    double burnerMax = 0;
    double idleMax = 0;
    double applicationMax = 0;
    std::optional<SeriesInfo> burnerSeries;
    // A loaded machine may give the burner less than a CPU now and then: the best of 5.
    for (int i = 0; i < 5; ++i) {
        QThread::msleep(1000);
        poll = collector->poll(QDeadlineTimer(5000));
        QVERIFY2(poll.error.isEmpty(), qPrintable(poll.error));
        if (const SeriesValue *v = sessionCpu(poll.batch, burnerPid)) {
            burnerMax = std::max(burnerMax, v->value);
            burnerSeries = v->info;
        }
        if (const SeriesValue *v = sessionCpu(poll.batch, idlePid))
            idleMax = std::max(idleMax, v->value);
        applicationMax = std::max(applicationMax,
                                  value(poll.batch, PgSessionCpuPart::ApplicationMetric,
                                        { { u"application"_s, u"cpu-report"_s } })
                                      .value_or(0));
    }
    qInfo("cpu-report session %d: %.1f %% of one CPU at most; idle session %d: %.1f %%; "
          "application cpu-report: %.1f %%",
          burnerPid, burnerMax, idlePid, idleMax, applicationMax);
    QVERIFY2(burnerMax > 50, qPrintable(QString::number(burnerMax)));
    QVERIFY2(applicationMax > 50, qPrintable(QString::number(applicationMax)));
    QVERIFY2(idleMax < 5, qPrintable(QString::number(idleMax)));
    QVERIFY(burnerSeries);
    QCOMPARE(burnerSeries->unit, u"%"_s);
    const Labels &labels = burnerSeries->key.labels;
    QCOMPARE(labels.value(u"application"_s), u"cpu-report"_s);
    QCOMPARE(labels.value(u"user"_s), u"postgres"_s);
    // The statement without its constants, as pg_stat_statements would show it.
    QCOMPARE(labels.value(u"query"_s), u"SELECT count(*) FROM generate_series($1, $2)"_s);
    if (serverVersion >= 140000) // query_id, computed as pg_stat_statements is loaded
        QVERIFY2(labels.value(u"queryid"_s).toLongLong() != 0,
                 qPrintable(labels.value(u"queryid"_s)));

    // Cancelled, it falls to 0 once and its series ends.
    cancel(burner);
    QThread::msleep(300);
    poll = collector->poll(QDeadlineTimer(5000)); // still part of the count
    QThread::msleep(500);
    poll = collector->poll(QDeadlineTimer(5000));
    const SeriesValue *fallen = sessionCpu(poll.batch, burnerPid);
    QVERIFY2(!fallen || fallen->value < 5,
             qPrintable(QString::number(fallen ? fallen->value : -1)));
    QThread::msleep(500);
    poll = collector->poll(QDeadlineTimer(5000));
    QVERIFY(!sessionCpu(poll.batch, burnerPid));
}

void TestPgSessionCpu::notOurProcessesSkipped_data()
{
    QTest::addColumn<bool>("otherProgram");
    QTest::addColumn<QString>("why");
    QTest::newRow("no such process") << false << u"cannot be read"_s;
    QTest::newRow("another program at the pid") << true << u"is not the server's (bash)"_s;
}

void TestPgSessionCpu::notOurProcessesSkipped()
{
    QFETCH(bool, otherProgram);
    QFETCH(QString, why);
    HEADROOM_REQUIRE_PG();
    PgConnection connection(PgSettings { conninfo(), false });
    QString error;
    QVERIFY2(connection.ensureConnected(QDeadlineTimer(5000), &error), qPrintable(error));

    QTemporaryDir proc;
    QVERIFY(proc.isValid());
    if (otherProgram) {
        // This test's own stat, named bash, where the server's process would be.
        QFile self(u"/proc/self/stat"_s);
        QVERIFY(self.open(QIODevice::ReadOnly));
        QByteArray stat = self.readAll();
        const qsizetype open = stat.indexOf('(');
        const qsizetype close = stat.lastIndexOf(')');
        QVERIFY(open > 0 && close > open);
        stat.replace(open + 1, close - open - 1, "bash");
        const QString dir = proc.path() + u'/' + QString::number(connection.backendPid());
        QVERIFY(QDir().mkpath(dir));
        QFile fake(dir + u"/stat"_s);
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write(stat);
    }

    CollectorConfig config;
    config.sourceId = u"pg:test"_s;
    PgSessionCpuPart part([] { return 0; }, proc.path());
    for (int i = 0; i < 2; ++i) {
        PgPoll poll(config, connection, 0, QDeadlineTimer(5000));
        part.collect(poll);
        QVERIFY2(!poll.failed(), qPrintable(poll.result.error));
        QVERIFY(poll.result.warnings.isEmpty());
        const QString notes = poll.result.notes.join(u' ');
        QVERIFY2(notes.contains(u"session CPU: not read"_s) && notes.contains(why),
                 qPrintable(notes));
        for (const SeriesValue &v : std::as_const(poll.result.batch.values))
            QVERIFY2(!v.info.key.metric.startsWith(u"pg.session."_s)
                         && !v.info.key.metric.startsWith(u"pg.application."_s),
                     qPrintable(v.info.key.metric));
    }
    QVERIFY(part.whyNotLocal());
}

QTEST_GUILESS_MAIN(TestPgSessionCpu)
#include "tst_pgsessioncpu.moc"
