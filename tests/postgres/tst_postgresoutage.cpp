// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The postgres collector never blocks past its poll deadline: a server that accepts but
// never answers, and the real server stopped and started mid-run (gap, backoff, recovery).
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

// Slack for scheduling after the deadline passed (sanitizer builds on busy machines);
// a blocking call would take seconds or forever, not milliseconds.
constexpr qint64 SlackMs = 100;

struct TimedPoll
{
    PollResult result;
    qint64 elapsedMs = 0;
};

TimedPoll timedPoll(PostgresCollector &collector, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    TimedPoll poll;
    poll.result = collector.poll(QDeadlineTimer(timeoutMs));
    poll.elapsedMs = clock.elapsed();
    return poll;
}

} // namespace

class TestPostgresOutage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void silentServer_data();
    void silentServer();
    void serverStoppedAndStarted();

private:
    void restartServer();
};

void TestPostgresOutage::silentServer_data()
{
    QTest::addColumn<int>("connectTimeoutMs");
    QTest::addColumn<int>("pollTimeoutMs");
    QTest::addColumn<qint64>("minElapsedMs"); // it really waited for the silent server

    QTest::newRow("connect timeout first") << 800 << 3000 << qint64(780);
    // The poll's own deadline is shorter than the connect timeout: the poll wins.
    QTest::newRow("poll deadline first") << 20'000 << 1500 << qint64(1000);
}

void TestPostgresOutage::silentServer()
{
    QFETCH(int, connectTimeoutMs);
    QFETCH(int, pollTimeoutMs);
    QFETCH(qint64, minElapsedMs);

    // Listens, lets the kernel complete the handshake, and never says a word; libpq
    // waits for its SSL or startup answer forever unless we stop it.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    const QString info
        = u"host=127.0.0.1 port=%1 user=x dbname=x sslmode=disable"_s.arg(silent.serverPort());
    const auto collector = makeCollector(
        { { u"conninfo"_s, info }, { u"connectTimeoutMs"_s, connectTimeoutMs } }, pollTimeoutMs);
    QVERIFY(collector);

    const TimedPoll first = timedPoll(*collector, pollTimeoutMs);
    QVERIFY2(first.elapsedMs <= pollTimeoutMs + SlackMs,
             qPrintable(QString::number(first.elapsedMs)));
    QVERIFY2(first.elapsedMs >= minElapsedMs, qPrintable(QString::number(first.elapsedMs)));
    QVERIFY2(first.result.error.startsWith("timed out after "_L1)
                 && first.result.error.contains(
                     u"connecting to 127.0.0.1:%1 (the server did not answer)"_s.arg(
                         silent.serverPort())),
             qPrintable(first.result.error));
    QVERIFY(first.result.batch.values.isEmpty());
    QVERIFY(silent.hasPendingConnections() || silent.waitForNewConnection(0));

    // Backing off: the next poll answers at once and says when it will retry.
    const TimedPoll second = timedPoll(*collector, pollTimeoutMs);
    QVERIFY2(second.elapsedMs < 50, qPrintable(QString::number(second.elapsedMs)));
    QVERIFY2(second.result.error.startsWith("reconnecting in 1 s: timed out after "_L1),
             qPrintable(second.result.error));
}

void TestPostgresOutage::restartServer()
{
    QString output;
    QVERIFY2(pgCtl({ u"-l"_s, env("HEADROOM_TEST_PGHOST") + u"/server.log"_s, u"-w"_s, u"-t"_s,
                     u"60"_s, u"start"_s },
                   &output),
             qPrintable(output));
}

void TestPostgresOutage::serverStoppedAndStarted()
{
    HEADROOM_REQUIRE_PG();
    constexpr int Timeout = 2000;
    const auto collector = makeCollector({ { u"conninfo"_s, conninfo() } }, Timeout);
    QVERIFY(collector);
    TimedPoll poll = timedPoll(*collector, Timeout);
    QVERIFY2(poll.result.error.isEmpty(), qPrintable(poll.result.error));
    QCOMPARE(value(poll.result.batch, u"pg.up"_s), 1.0);

    QString output;
    QVERIFY2(pgCtl({ u"-m"_s, u"fast"_s, u"-w"_s, u"stop"_s }, &output), qPrintable(output));
    // Whatever happens below, leave the server running for the other tests.
    auto restart = qScopeGuard([this] { restartServer(); });

    // Down: every poll returns within its deadline, with an error and nothing to publish.
    QElapsedTimer down;
    down.start();
    QStringList errors;
    qint64 slowest = 0;
    while (down.elapsed() < 3500) {
        poll = timedPoll(*collector, Timeout);
        slowest = std::max(slowest, poll.elapsedMs);
        QVERIFY2(!poll.result.error.isEmpty(), "a poll against a stopped server succeeded");
        errors << poll.result.error;
        QThread::msleep(100);
    }
    QVERIFY2(slowest <= Timeout + SlackMs, qPrintable(QString::number(slowest)));
    // The broken session is noticed, then the retries back off: 1 s, then 2 s.
    QVERIFY2(anyWarningContains(errors, u"reconnecting in 1 s: "_s),
             qPrintable(errors.join(u"\n"_s)));
    QVERIFY2(anyWarningContains(errors, u"reconnecting in 2 s: "_s),
             qPrintable(errors.join(u"\n"_s)));
    QVERIFY2(!anyWarningContains(errors, u"reconnecting in 0 s"_s),
             qPrintable(errors.join(u"\n"_s)));

    restart.dismiss();
    restartServer();

    // Up again: within the current backoff (at most 4 s here) the collector reconnects.
    QElapsedTimer up;
    up.start();
    bool recovered = false;
    while (up.elapsed() < 15'000 && !recovered) {
        poll = timedPoll(*collector, Timeout);
        QVERIFY2(poll.elapsedMs <= Timeout + SlackMs, qPrintable(QString::number(poll.elapsedMs)));
        recovered = poll.result.error.isEmpty() && value(poll.result.batch, u"pg.up"_s) == 1.0;
        if (!recovered)
            QThread::msleep(200);
    }
    QVERIFY2(recovered, qPrintable(poll.result.error));
    QVERIFY2(up.elapsed() < 6000, qPrintable(QString::number(up.elapsed())));
    // The reconnect resets the backoff.
    QCOMPARE(collector->connection().currentBackoffMs(), PgConnection::InitialBackoffMs);
}

QTEST_GUILESS_MAIN(TestPostgresOutage)
#include "tst_postgresoutage.moc"
