// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The CPU of a database's sessions from their tasks (collector/sessioncpu.h), over a
// /proc tree the test writes and a clock it steps: % of one CPU from the ticks of each
// interval, the top 10 sessions of 12 and every session in its application's sum, reads
// where io is readable, a session gone idle falling to 0 once and then ending, one that
// ended forgotten, and a reused pid starting from a baseline.
#include "collector/sessioncpu.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

const SessionCpuMetrics Metrics { u"db.session.cpu"_s, u"db.session.read_bytes"_s,
                                  u"db.application.cpu"_s, u"db"_s };

// A process of the fake /proc: its stat (CPU ticks, start time) and, unless left out,
// its io (bytes read).
class FakeProc
{
public:
    bool isValid() const { return m_dir.isValid(); }
    QString taskDir(int pid) const { return m_dir.path() + u'/' + QString::number(pid); }

    void set(int pid, quint64 ticks, quint64 start = 1000, std::optional<quint64> readBytes = 0)
    {
        QDir().mkpath(taskDir(pid));
        // utime carries the ticks; 22 fields after the name, as the kernel writes them.
        write(taskDir(pid) + u"/stat"_s,
              QByteArray::number(pid) + " (postgres) S 1 1 1 0 -1 4194304 0 0 0 0 "
                  + QByteArray::number(ticks) + " 0 0 0 20 0 1 0 " + QByteArray::number(start)
                  + " 0 100\n");
        QFile::remove(taskDir(pid) + u"/io"_s);
        if (readBytes)
            write(taskDir(pid) + u"/io"_s,
                  "rchar: 0\nwchar: 0\nread_bytes: " + QByteArray::number(*readBytes)
                      + "\nwrite_bytes: 0\n");
    }
    void remove(int pid) { QDir(taskDir(pid)).removeRecursively(); }

private:
    static void write(const QString &path, const QByteArray &content)
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        file.write(content);
    }

    QTemporaryDir m_dir;
};

SessionTask task(const FakeProc &proc, int pid, const QString &application)
{
    return { proc.taskDir(pid),
             { { u"pid"_s, QString::number(pid) }, { u"application"_s, application } },
             application };
}

// metric -> pid (or application) -> value
QMap<QString, double> valuesOf(const SampleBatch &batch, const QString &metric,
                               const QString &label = u"pid"_s)
{
    QMap<QString, double> out;
    for (const SeriesValue &v : batch.values) {
        if (v.info.key.metric == metric)
            out.insert(v.info.key.labels.value(label), v.value);
    }
    return out;
}

} // namespace

class TestSessionCpu : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void topSessionsAndApplications();
    void idleFallsToZeroOnceThenEnds();
    void endedForgottenReusedPidFromBaseline();
    void commOf();
};

void TestSessionCpu::topSessionsAndApplications()
{
    FakeProc proc;
    QVERIFY(proc.isValid());
    qint64 now = 0;
    SessionCpuTracker tracker([&] { return now; });
    const double hz = tracker.ticksPerSecond();
    QList<SessionTask> tasks;
    for (int pid = 101; pid <= 112; ++pid) {
        proc.set(pid, 0);
        tasks << task(proc, pid, pid % 2 ? u"odd"_s : u"even"_s);
    }
    SampleBatch first;
    const auto baseline = tracker.update(tasks, Metrics, u"db"_s, first);
    QCOMPARE(baseline.read, 12);
    QVERIFY(first.values.isEmpty()); // baselines only

    // Over 2 s, pid 101 + k used k + 1 ticks; pid 112 has no io to read.
    now = 2000;
    for (int pid = 101; pid <= 112; ++pid)
        proc.set(pid, quint64(pid - 100), 1000,
                 pid == 112 ? std::nullopt : std::optional<quint64>(4096 * quint64(pid - 100)));
    SampleBatch second;
    const auto outcome = tracker.update(tasks, Metrics, u"db"_s, second);
    QCOMPARE(outcome.read, 12);
    QCOMPARE(outcome.unreadable, 0);
    QCOMPARE(outcome.ioDenied, 1);
    const auto cpu = valuesOf(second, Metrics.session);
    QCOMPARE(cpu.size(), SessionCpuTracker::TopSessions); // 103 to 112, not 101 and 102
    QVERIFY(!cpu.contains(u"101"_s) && !cpu.contains(u"102"_s));
    QCOMPARE(cpu.value(u"112"_s), 12 / hz / 2 * 100);
    QCOMPARE(cpu.value(u"103"_s), 3 / hz / 2 * 100);
    const auto reads = valuesOf(second, Metrics.readBytes);
    QCOMPARE(reads.size(), SessionCpuTracker::TopSessions - 1); // not 112
    QCOMPARE(reads.value(u"111"_s), 4096.0 * 11 / 2);
    for (const SeriesValue &v : std::as_const(second.values)) {
        QCOMPARE(v.info.resource, u"db"_s);
        QCOMPARE(v.info.kind, UseKind::Info);
        QCOMPARE(v.info.unit, v.info.key.metric == Metrics.readBytes ? u"B/s"_s : u"%"_s);
    }
    // Applications count every session, the two not shown among them.
    const auto applications = valuesOf(second, Metrics.application, u"application"_s);
    QCOMPARE(applications.size(), 2);
    QCOMPARE(applications.value(u"odd"_s), (1 + 3 + 5 + 7 + 9 + 11) / hz / 2 * 100);
    QCOMPARE(applications.value(u"even"_s), (2 + 4 + 6 + 8 + 10 + 12) / hz / 2 * 100);
}

void TestSessionCpu::idleFallsToZeroOnceThenEnds()
{
    FakeProc proc;
    qint64 now = 0;
    SessionCpuTracker tracker([&] { return now; });
    proc.set(7, 100);
    const QList<SessionTask> tasks { task(proc, 7, u"app"_s) };
    SampleBatch batch;
    tracker.update(tasks, Metrics, u"db"_s, batch);
    now = 1000;
    proc.set(7, 100 + quint64(tracker.ticksPerSecond())); // a whole CPU
    batch = {};
    tracker.update(tasks, Metrics, u"db"_s, batch);
    QCOMPARE(valuesOf(batch, Metrics.session).value(u"7"_s), 100.0);
    QCOMPARE(valuesOf(batch, Metrics.application, u"application"_s).value(u"app"_s), 100.0);
    // More ticks than the interval holds (ticks and clock read a moment apart): one
    // thread uses one CPU at most.
    now = 1500;
    proc.set(7, 100 + quint64(tracker.ticksPerSecond()) * 2);
    batch = {};
    tracker.update(tasks, Metrics, u"db"_s, batch);
    QCOMPARE(valuesOf(batch, Metrics.session).value(u"7"_s), 100.0);
    // Idle: 0 once, so a chart falls instead of keeping its last value; then nothing.
    now = 2000;
    batch = {};
    tracker.update(tasks, Metrics, u"db"_s, batch);
    QCOMPARE(valuesOf(batch, Metrics.session), (QMap<QString, double> { { u"7"_s, 0.0 } }));
    QCOMPARE(valuesOf(batch, Metrics.application, u"application"_s),
             (QMap<QString, double> { { u"app"_s, 0.0 } }));
    now = 3000;
    batch = {};
    tracker.update(tasks, Metrics, u"db"_s, batch);
    QVERIFY(batch.values.isEmpty());
}

void TestSessionCpu::endedForgottenReusedPidFromBaseline()
{
    FakeProc proc;
    qint64 now = 0;
    SessionCpuTracker tracker([&] { return now; });
    proc.set(9, 0, 500);
    SampleBatch batch;
    tracker.update({ task(proc, 9, u"a"_s) }, Metrics, u"db"_s, batch);
    // It ended: listed no more (the query no longer shows it), or gone from /proc.
    now = 1000;
    proc.remove(9);
    batch = {};
    const auto gone = tracker.update({ task(proc, 9, u"a"_s) }, Metrics, u"db"_s, batch);
    QCOMPARE(gone.unreadable, 1);
    QVERIFY(batch.values.isEmpty());
    // Pid 9 again, another process (its own start time), with much CPU time behind it:
    // a baseline, not that time as this interval's.
    now = 2000;
    proc.set(9, 5000, 900);
    batch = {};
    tracker.update({ task(proc, 9, u"b"_s) }, Metrics, u"db"_s, batch);
    QVERIFY(batch.values.isEmpty());
    now = 3000;
    proc.set(9, 5000 + quint64(tracker.ticksPerSecond() / 2), 900);
    batch = {};
    tracker.update({ task(proc, 9, u"b"_s) }, Metrics, u"db"_s, batch);
    QCOMPARE(valuesOf(batch, Metrics.session).value(u"9"_s), 50.0);
    // The same pid with a new start time between two updates: a baseline again.
    now = 4000;
    proc.set(9, 9000, 1200);
    batch = {};
    tracker.update({ task(proc, 9, u"b"_s) }, Metrics, u"db"_s, batch);
    QVERIFY(batch.values.isEmpty());
}

void TestSessionCpu::commOf()
{
    FakeProc proc;
    proc.set(3, 0);
    QCOMPARE(SessionCpuTracker::commOf(proc.taskDir(3)).value_or(QString()), u"postgres"_s);
    QVERIFY(!SessionCpuTracker::commOf(proc.taskDir(4)));
}

QTEST_GUILESS_MAIN(TestSessionCpu)
#include "tst_sessioncpu.moc"
