// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What carries a CPU saturation: the processes that rose with it (the process leads the
// CPU's finding), a database server's sessions in place of its processes, and process
// and session series that raise nothing alone.
#include "analysistestutil.h"
#include "hosttracks.h"
#include "query/analysis/findings.h"

#include <QRegularExpression>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

namespace {
constexpr int N = HostBins;
} // namespace

class TestCpuFindings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cpuSaturationNamesItsProcesses();
    void cpuSaturationNamesDatabaseSessions_data();
    void cpuSaturationNamesDatabaseSessions();
    void twoMariadbServersOnOneHost();
    void processesAloneAreNoFinding();
};

// The CPU saturation names the processes that carry it, the largest first, with the
// share each took in the finding's window; the processes of another host raise nothing,
// and the process series only the lead of the CPU's finding.
void TestCpuFindings::cpuSaturationNamesItsProcesses()
{
    QRandomGenerator random(1);
    std::vector<SeriesTrack> tracks = cpuSaturatedHost(random);
    tracks.push_back(
        processCpu(u"4242"_s, u"hrburn"_s, [](int i) { return i < 60 ? 0.0 : 190.0; }, 20));
    tracks.push_back(processCpu(u"77"_s, u"cc1plus"_s, [](int) { return 6.0; }, 21));
    tracks.push_back(
        processCpu(u"9"_s, u"other"_s, [](int i) { return i < 60 ? 0.0 : 300.0; }, 22, u"db"_s));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    // The process that rose with it leads (causechain.h), the CPU right under it.
    QCOMPARE(findings.front().resource, u"process hrburn (pid 4242)"_s);
    const Finding *cpu = findingFor(findings, u"host"_s, u"CPU"_s);
    QVERIFY(cpu);
    const Finding &top = *cpu;
    QCOMPARE(top.causedBy, 1);
    // As shares of the host's 2 CPUs, with what the named processes leave to the others.
    QVERIFY2(
        QRegularExpression(u"; of its 2 CPUs: 95 % from hrburn \\(pid 4242, user ops\\), 3 % "
                           "from cc1plus \\(pid 77, user ops\\), [0-2] % other processes(;|$)"_s)
            .match(top.summary)
            .hasMatch(),
        qPrintable(top.summary));
    QVERIFY(top.evidenceSeriesIds.contains(20));
    QVERIFY(top.evidenceSeriesIds.contains(21));
    QVERIFY(!top.evidenceSeriesIds.contains(22));
    QCOMPARE(top.evidenceSeriesIds.size(), top.evidenceKeys.size());
    // A process is a finding only as the cause of the CPU's.
    for (const Finding &f : findings)
        QVERIFY2(!f.signal.startsWith(u"host.process."_s) || f.consequences == QList<int> { 2 },
                 qPrintable(f.summary));
}

void TestCpuFindings::cpuSaturationNamesDatabaseSessions_data()
{
    QTest::addColumn<QString>("engine"); // the metrics' prefix: pg, mariadb
    QTest::addColumn<QStringList>("serverPids"); // the host's server processes
    QTest::addColumn<QString>("serverComm");
    QTest::addColumn<QStringList>("sessionIds"); // the busy sessions' pid or os_thread
    QTest::addColumn<QString>("carried"); // what the CPU's summary says carries it
    QTest::addColumn<QString>("lead"); // the finding ranked first
    QTest::addColumn<QString>("serverPid"); // MariaDB's sessions' server_pid; empty: none
    // Three backends of cpu-report take 65 % of one CPU each from bin 60; pid 104 (erp)
    // 2 % all along. The sessions take the backends' place: one entry for the three,
    // and nothing leads the CPU's finding.
    QTest::newRow("postgres on this host")
        << u"pg"_s << QStringList { u"101"_s, u"102"_s, u"103"_s, u"104"_s } << u"postgres"_s
        << QStringList { u"101"_s, u"102"_s, u"103"_s }
        << u"of its 2 CPUs: 98 % from 3 PostgreSQL sessions (cpu-report, user app: `SELECT "
           "count(*) FROM t`), 3 % from cc1plus (pid 77, user ops), 1 % from 1 PostgreSQL session "
           "(pid 104, erp, user erp: `INSERT INTO orders VALUES ($1)`)"_s
        << u"CPU"_s << QString();
    // The sessions are of a server elsewhere (no pid of theirs is a process here): the
    // host's own postgres processes are named, and the first of them leads.
    QTest::newRow("postgres elsewhere")
        << u"pg"_s << QStringList { u"101"_s, u"102"_s, u"103"_s, u"104"_s } << u"postgres"_s
        << QStringList { u"201"_s, u"202"_s, u"203"_s }
        << u"of its 2 CPUs: 33 % from postgres (pid 101, user ops), 33 % from postgres (pid 102, "
           "user ops), 33 % from postgres (pid 103, user ops)"_s
        << u"process postgres (pid 101)"_s << QString();
    // MariaDB's connections are threads of one mariadbd process, which they replace:
    // the one their server_pid names, or (recorded without it) any of the host's.
    const QString mariadbHere
        = u"of its 2 CPUs: 98 % from 3 MariaDB sessions (cpu-report, user app: `SELECT "
          "count(*) FROM t`), 3 % from cc1plus (pid 77, user ops), 1 % from 1 MariaDB session "
          "(erp, user erp: `INSERT INTO orders VALUES ($1)`)"_s;
    QTest::newRow("mariadb on this host")
        << u"mariadb"_s << QStringList { u"500"_s } << u"mariadbd"_s
        << QStringList { u"501"_s, u"502"_s, u"503"_s } << mariadbHere << u"CPU"_s << u"500"_s;
    QTest::newRow("mariadb recorded without server_pid")
        << u"mariadb"_s << QStringList { u"500"_s } << u"mariadbd"_s
        << QStringList { u"501"_s, u"502"_s, u"503"_s } << mariadbHere << u"CPU"_s << QString();
    // The sessions' server is process 700 of another host: this host's mariadbd is named.
    QTest::newRow("mariadb elsewhere")
        << u"mariadb"_s << QStringList { u"500"_s } << u"mariadbd"_s
        << QStringList { u"501"_s, u"502"_s, u"503"_s }
        << u"of its 2 CPUs: 99 % from mariadbd (pid 500, user ops), 3 % from cc1plus (pid 77, "
           "user ops)"_s
        << u"process mariadbd (pid 500)"_s << u"700"_s;
}

// A CPU saturation on a dashboard with a database server's sessions names the sessions
// that carry it (grouped by application, role and statement) instead of the server's
// processes, so the same CPU is not counted twice.
void TestCpuFindings::cpuSaturationNamesDatabaseSessions()
{
    QFETCH(QString, engine);
    QFETCH(QStringList, serverPids);
    QFETCH(QString, serverComm);
    QFETCH(QStringList, sessionIds);
    QFETCH(QString, carried);
    QFETCH(QString, lead);
    QFETCH(QString, serverPid);
    QRandomGenerator random(1);
    std::vector<SeriesTrack> tracks = cpuSaturatedHost(random);
    const auto busy = [](int i) { return i < 60 ? 0.0 : 65.0; };
    const auto steady = [](int) { return 2.0; };
    tracks.push_back(processCpu(u"77"_s, u"cc1plus"_s, [](int) { return 6.0; }, 20));
    QList<int> serverIds;
    for (qsizetype p = 0; p < serverPids.size(); ++p) {
        // One process (MariaDB) carries all; PostgreSQL's last backend is erp's.
        const bool erp = engine == "pg"_L1 && p == serverPids.size() - 1;
        const std::function<double(int)> value = engine == "mariadb"_L1
            ? std::function<double(int)>([](int i) { return i < 60 ? 2.0 : 197.0; })
            : erp ? std::function<double(int)>(steady)
                  : std::function<double(int)>(busy);
        serverIds.append(30 + int(p));
        tracks.push_back(processCpu(serverPids[p], serverComm, value, 30 + int(p)));
    }
    const QString idLabel = engine == "pg"_L1 ? u"pid"_s : u"os_thread"_s;
    const auto session = [&](const QString &id, const QString &application, const QString &query,
                             const std::function<double(int)> &value, int seriesId) {
        Labels labels { { idLabel, id },
                        { u"application"_s, application },
                        { u"user"_s, application == "erp"_L1 ? u"erp"_s : u"app"_s },
                        { u"query"_s, query } };
        if (!serverPid.isEmpty())
            labels.insert(u"server_pid"_s, serverPid);
        return track(
            info(engine + u".session.cpu"_s, UseKind::Info, u"%"_s, engine, u"db"_s, labels), N,
            value, seriesId);
    };
    QList<int> sessionSeries;
    for (qsizetype s = 0; s < sessionIds.size(); ++s) {
        sessionSeries.append(40 + int(s));
        tracks.push_back(session(sessionIds[s], u"cpu-report"_s, u"SELECT count(*) FROM t"_s, busy,
                                 40 + int(s)));
    }
    // The sessions are this host's when the CPU's finding leads. The erp session: pid
    // 104 of this host for PostgreSQL, or 204 elsewhere.
    const bool here = lead == "CPU"_L1;
    tracks.push_back(session(engine == "mariadb"_L1 ? u"504"_s
                                 : here             ? u"104"_s
                                                    : u"204"_s,
                             u"erp"_s, u"INSERT INTO orders VALUES ($1)"_s, steady, 49));
    // The application's sum raises nothing of its own either.
    tracks.push_back(track(
        info(engine + u".application.cpu"_s, UseKind::Info, u"%"_s, engine, u"db"_s,
             { { u"application"_s, u"cpu-report"_s } }),
        N, [](int i) { return i < 60 ? 0.0 : 195.0; }, 50));

    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    QCOMPARE(findings.front().resource, lead);
    const Finding *cpu = findingFor(findings, u"host"_s, u"CPU"_s);
    QVERIFY(cpu);
    QVERIFY2(cpu->summary.contains(u"; "_s + carried + u", "_s), qPrintable(cpu->summary));
    QVERIFY2(QRegularExpression(u", [0-2] % other processes(;|$)"_s).match(cpu->summary).hasMatch(),
             qPrintable(cpu->summary));
    QVERIFY2(cpu->summary.contains(serverComm + u" (pid"_s) == !here, qPrintable(cpu->summary));
    QCOMPARE(cpu->evidenceSeriesIds.size(), cpu->evidenceKeys.size());
    for (int id : sessionSeries)
        QCOMPARE(cpu->evidenceSeriesIds.contains(id), here);
    for (int id : serverIds)
        QCOMPARE(cpu->evidenceSeriesIds.contains(id), !here);
    // The sessions' own series raise nothing: no finding of the database source.
    for (const Finding &f : findings)
        QVERIFY2(f.source != "db"_L1, qPrintable(f.summary));
}

// Two MariaDB servers on one host, the dashboard watching one: its sessions stand for
// its process alone, and the other server's process is named as a process.
void TestCpuFindings::twoMariadbServersOnOneHost()
{
    QRandomGenerator random(1);
    std::vector<SeriesTrack> tracks = cpuSaturatedHost(random);
    tracks.push_back(
        processCpu(u"500"_s, u"mariadbd"_s, [](int i) { return i < 60 ? 2.0 : 130.0; }, 30));
    tracks.push_back(processCpu(u"600"_s, u"mariadbd"_s, [](int) { return 60.0; }, 31));
    for (int s = 0; s < 2; ++s)
        tracks.push_back(track(
            info(u"mariadb.session.cpu"_s, UseKind::Info, u"%"_s, u"mariadb"_s, u"db"_s,
                 { { u"os_thread"_s, QString::number(501 + s) },
                   { u"server_pid"_s, u"500"_s },
                   { u"application"_s, u"cpu-report"_s },
                   { u"user"_s, u"app"_s },
                   { u"query"_s, u"SELECT 1"_s } }),
            N, [](int i) { return i < 60 ? 0.0 : 64.0; }, 40 + s));
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *cpu = findingFor(findings, u"host"_s, u"CPU"_s);
    QVERIFY(cpu);
    QVERIFY2(cpu->summary.contains(u"of its 2 CPUs: 64 % from 2 MariaDB sessions (cpu-report, "
                                   "user app: `SELECT 1`), 30 % from mariadbd (pid 600, user "
                                   "ops), "_s),
             qPrintable(cpu->summary));
    QVERIFY2(!cpu->summary.contains(u"pid 500"_s), qPrintable(cpu->summary));
    QVERIFY(cpu->evidenceSeriesIds.contains(31));
    QVERIFY(!cpu->evidenceSeriesIds.contains(30));
}

void TestCpuFindings::processesAloneAreNoFinding()
{
    std::vector<SeriesTrack> tracks;
    tracks.push_back(
        processCpu(u"4242"_s, u"hrburn"_s, [](int i) { return i < 60 ? 0.0 : 190.0; }, 1));
    // Nor are a database's sessions and applications.
    tracks.push_back(track(
        info(u"pg.session.cpu"_s, UseKind::Info, u"%"_s, u"pg"_s, u"pg"_s,
             { { u"pid"_s, u"4242"_s }, { u"application"_s, u"x"_s } }),
        N, [](int i) { return i < 60 ? 0.0 : 190.0; }, 2));
    tracks.push_back(track(
        info(u"mariadb.application.cpu"_s, UseKind::Info, u"%"_s, u"mariadb"_s, u"m"_s,
             { { u"application"_s, u"x"_s } }),
        N, [](int i) { return i < 60 ? 0.0 : 190.0; }, 3));
    QVERIFY(findFindings(tracks).empty());
}

QTEST_GUILESS_MAIN(TestCpuFindings)
#include "tst_cpufindings.moc"
