// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cause before its symptoms (causechain.h) and conditions the data starts in
// (boundstretch.h), from tracks shaped like the incidents they stand for: a plan flip (a
// statement's figure per call steps while the server's IPC waits rise: the statement
// leads, the waits are its consequence), a lock storm (the root blocker leads and is
// named by pid, application, user and statement), a NIC held at a hidden limit (the shelf
// leads the retransmits), a process behind a CPU saturation, onsets minutes apart (no
// chain), and a saturation present from the first sample ("since before", the same as
// the USE matrix's critical cell).
#include "analysistestutil.h"
#include "document/panels/usematrixoptions.h"
#include "query/analysis/causechain.h"
#include "query/analysis/findings.h"
#include "query/analysis/findingsreport.h"
#include "query/use/usematrix.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

namespace {

constexpr int N = 120;

QString listed(const std::vector<Finding> &findings)
{
    QString out;
    for (const Finding &f : findings)
        out += u"\n#%1 %2 (%3, %4, caused by %5): %6"_s.arg(
            QString::number(f.rank), f.resource, findingKindName(f.kind),
            QString::number(f.score, 'f', 2), QString::number(f.causedBy), f.summary);
    return out;
}

const Labels Lookup { { u"datname"_s, u"app"_s },
                      { u"queryid"_s, u"-612"_s },
                      { u"query"_s, u"SELECT v FROM lookup WHERE k = $1"_s } };

SeriesTrack pgTrack(const QString &metric, UseKind kind, const QString &unit,
                    const QString &resource, const Labels &labels,
                    const std::function<double(int)> &value, int id)
{
    return track(info(metric, kind, unit, resource, u"pg"_s, labels), N, value, id);
}

// A plan flip: the lookup's figure per call steps at `statementAt`, the server's IPC
// wait share rises from 0 to 67 % at `waitAt`, its database's rows per block jump with
// the statement. Noise on each so that the steps are what an onset finds.
std::vector<SeriesTrack> planFlip(const QString &perCall, double before, double after,
                                  int statementAt, int waitAt, QRandomGenerator &random)
{
    const UseKind kind
        = perCall == "pg.statements.mean_time_ms"_L1 ? UseKind::Latency : UseKind::Info;
    const QString unit = perCall == "pg.statements.mean_time_ms"_L1 ? u"ms"_s
        : perCall == "pg.statements.rows_per_call"_L1               ? u"rows"_s
                                                                    : u"blocks"_s;
    std::vector<SeriesTrack> tracks;
    tracks.push_back(pgTrack(
        perCall, kind, unit, u"db:app"_s, Lookup,
        [&, before, after](int i) {
            return (i < statementAt ? before : after) * (1 + noise(random, 0.03));
        },
        1));
    tracks.push_back(pgTrack(
        u"pg.statements.calls.rate"_s, UseKind::Throughput, u"1/s"_s, u"db:app"_s, Lookup,
        [&](int) { return 150 + noise(random, 3); }, 2));
    tracks.push_back(pgTrack(
        u"pg.activity.wait_class_share"_s, UseKind::Saturation, u"%"_s, u"pg"_s,
        { { u"class"_s, u"IPC"_s } }, [&](int i) { return i < waitAt ? 0.0 : 67.0; }, 3));
    tracks.push_back(pgTrack(
        u"pg.db.rows_per_block"_s, UseKind::Saturation, u"rows/block"_s, u"db:app"_s,
        { { u"datname"_s, u"app"_s } },
        [&](int i) { return (i < statementAt ? 2.0 : 60.0) * (1 + noise(random, 0.02)); }, 4));
    tracks.push_back(pgTrack(
        u"pg.activity.sessions"_s, UseKind::Saturation, u"sessions"_s, u"pg"_s,
        { { u"state"_s, u"active"_s } }, [&](int) { return 3 + noise(random, 0.5); }, 5));
    return tracks;
}

} // namespace

class TestCauseChain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void planFlipStatementLeads_data();
    void planFlipStatementLeads();
    void lockStormNamesRootBlocker_data();
    void lockStormNamesRootBlocker();
    void nicShelfLeadsRetransmits();
    void processLeadsCpuSaturation();
    void onsetsApartStayApart_data();
    void onsetsApartStayApart();
    void sinceBeforeTheData_data();
    void sinceBeforeTheData();
    void standingConditionsRankBySeverity();
    void csvAndTextShowTheChain();
    void ruleTable();
};

void TestCauseChain::planFlipStatementLeads_data()
{
    QTest::addColumn<QString>("perCall");
    QTest::addColumn<double>("before");
    QTest::addColumn<double>("after");
    QTest::addColumn<int>("waitAt"); // the statement steps at bin 60
    // scenario_plan_flip: the index dropped, every lookup scans the table.
    QTest::newRow("blocks per call, same poll")
        << u"pg.statements.blocks_per_call"_s << 4.0 << 900.0 << 60;
    QTest::newRow("time per call, same poll")
        << u"pg.statements.mean_time_ms"_s << 0.03 << 4.5 << 60;
    QTest::newRow("rows per call, wait a poll earlier")
        << u"pg.statements.rows_per_call"_s << 1.0 << 1000.0 << 59;
    QTest::newRow("blocks per call, wait two polls later")
        << u"pg.statements.blocks_per_call"_s << 4.0 << 900.0 << 62;
}

// Today's ranking put the IPC waits first (the earlier or stronger raised onset) and the
// statement third; the statement explains them.
void TestCauseChain::planFlipStatementLeads()
{
    QFETCH(QString, perCall);
    QFETCH(double, before);
    QFETCH(double, after);
    QFETCH(int, waitAt);
    QRandomGenerator random(21);
    const std::vector<Finding> findings
        = findFindings(planFlip(perCall, before, after, 60, waitAt, random));
    QVERIFY2(!findings.empty(), "no finding");
    const Finding &lead = findings.front();
    QVERIFY2(lead.resource.startsWith(u"statement SELECT v FROM lookup"_s),
             qPrintable(listed(findings)));
    QCOMPARE(lead.causedBy, 0);
    QVERIFY2(lead.aboveWarning(), qPrintable(listed(findings)));
    QVERIFY2(lead.score >= CriticalScore, qPrintable(listed(findings))); // the waits' 67 %
    QCOMPARE(lead.kind, FindingKind::Saturation);
    const Finding *waits = findingFor(findings, u"PostgreSQL server"_s);
    QVERIFY2(waits, qPrintable(listed(findings)));
    QCOMPARE(waits->causedBy, lead.rank);
    QCOMPARE(waits->rank, lead.rank + 1); // right under its lead
    QVERIFY2(waits->summary.contains(u"wait_class_share{class=IPC} rose from 0 % to 67 %"_s),
             qPrintable(waits->summary));
    QVERIFY2(waits->summary.endsWith(u"; a consequence of #1"_s), qPrintable(waits->summary));
    const Finding *ratio = findingFor(findings, u"database app"_s);
    QVERIFY2(ratio, qPrintable(listed(findings)));
    QCOMPARE(ratio->causedBy, lead.rank);
    QVERIFY(lead.consequences.contains(waits->rank));
    QVERIFY(lead.consequences.contains(ratio->rank));
    QVERIFY2(lead.summary.contains(u"; explains #"_s)
                 && lead.summary.contains(u"PostgreSQL server (critical)"_s),
             qPrintable(lead.summary));
    // With their evidence.
    QVERIFY(lead.evidenceSeriesIds.contains(1));
    QVERIFY(lead.evidenceSeriesIds.contains(3));
    QCOMPARE(lead.evidenceSeriesIds.size(), lead.evidenceKeys.size());
    // Only the chain is at or above warning.
    for (const Finding &f : findings)
        QVERIFY2(!f.aboveWarning() || f.rank == lead.rank || f.causedBy == lead.rank,
                 qPrintable(listed(findings)));
}

void TestCauseChain::lockStormNamesRootBlocker_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<int>("from"); // the bin the storm begins; 0: before the data
    QTest::newRow("over a socket") << QString() << 60;
    QTest::newRow("over TCP") << u"10.0.0.9"_s << 60;
    QTest::newRow("since before the data") << QString() << 0;
}

// Today the finding was "wait_class_share{class=Lock} rose from 0 % to 83 % (critical)",
// without the session the 23 others wait for.
void TestCauseChain::lockStormNamesRootBlocker()
{
    QFETCH(QString, client);
    QFETCH(int, from);
    QRandomGenerator random(22);
    Labels root { { u"pid"_s, u"4242"_s },
                  { u"application"_s, u"nightly-maintenance"_s },
                  { u"user"_s, u"maint"_s },
                  { u"query"_s, u"DELETE FROM accounts WHERE id BETWEEN $1 AND $2"_s } };
    if (!client.isEmpty())
        root.insert(u"client"_s, client);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(pgTrack(
        u"pg.activity.wait_class_share"_s, UseKind::Saturation, u"%"_s, u"pg"_s,
        { { u"class"_s, u"Lock"_s } },
        [&](int i) { return i < from ? 0.0 : 83 + noise(random, 2); }, 1));
    tracks.push_back(pgTrack(
        u"pg.locks.blocked"_s, UseKind::Saturation, u"sessions"_s, u"pg"_s, {},
        [&](int i) { return i < from ? 0.0 : 23.0; }, 2));
    tracks.push_back(pgTrack(
        u"pg.db.commits.rate"_s, UseKind::Throughput, u"1/s"_s, u"db:app"_s,
        { { u"datname"_s, u"app"_s } },
        [&](int i) { return (i < from ? 400.0 : 3.0) * (1 + noise(random, 0.03)); }, 3));
    // The root's series exist while it blocks.
    const auto whileBlocking = [&](SeriesTrack t) {
        SeriesTrack kept = t;
        kept.times.clear();
        kept.values.clear();
        for (size_t i = 0; i < t.times.size(); ++i)
            if (int(i) >= from) {
                kept.times.push_back(t.times[i]);
                kept.values.push_back(t.values[i]);
            }
        return kept;
    };
    tracks.push_back(whileBlocking(pgTrack(
        u"pg.locks.root_blocked"_s, UseKind::Saturation, u"sessions"_s, u"pg"_s, root,
        [](int i) { return i < 62 ? 5.0 : 23.0; }, 10)));
    tracks.push_back(whileBlocking(pgTrack(
        u"pg.locks.root_blocked_direct"_s, UseKind::Saturation, u"sessions"_s, u"pg"_s, root,
        [](int) { return 5.0; }, 11)));
    tracks.push_back(whileBlocking(pgTrack(
        u"pg.locks.root_xact_age_s"_s, UseKind::Saturation, u"s"_s, u"pg"_s, root,
        [&](int i) { return 300.0 + i - from; }, 12)));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY2(!findings.empty(), "no finding");
    const Finding &lead = findings.front();
    QCOMPARE(lead.resource, u"PostgreSQL session pid 4242"_s);
    QCOMPARE(lead.kind, FindingKind::Saturation);
    QVERIFY2(lead.score >= CriticalScore, qPrintable(listed(findings)));
    const QString who = client.isEmpty() ? u"nightly-maintenance, user maint"_s
                                         : u"nightly-maintenance, user maint, from "_s + client;
    const QString since = from == 0 ? u"since before %1 (start of the data)"_s.arg(clockText(T0))
                                    : u"since "_s + clockText(T0 + from * 1000LL);
    QVERIFY2(lead.summary.startsWith(
                 u"23 sessions wait behind pid 4242 (%1) %2, which runs: DELETE FROM accounts "
                 "WHERE id BETWEEN $1 AND $2"_s.arg(who, since)),
             qPrintable(lead.summary));
    QCOMPARE(lead.sinceMs, T0 + from * 1000LL);
    QCOMPARE(lead.sinceBefore, from == 0);
    for (int id : { 10, 11, 12, 1 })
        QVERIFY2(lead.evidenceSeriesIds.contains(id), qPrintable(QString::number(id)));
    // The lock waits are its consequence; the root's own series raise nothing else.
    const Finding *server = findingFor(findings, u"PostgreSQL server"_s);
    QVERIFY2(server, qPrintable(listed(findings)));
    QCOMPARE(server->causedBy, 1);
    for (const Finding &f : findings)
        QVERIFY2(!f.signal.contains(u".locks.root_"_s) || f.rank == 1,
                 qPrintable(listed(findings)));
    if (from > 0) { // the commits fell with it (a change)
        const Finding *db = findingFor(findings, u"database app"_s);
        QVERIFY2(db && db->causedBy == 1, qPrintable(listed(findings)));
    }
}

// scenario_nic_cap: the veth is held at 1 MB/s while its link says 10,000 Mbit/s; TCP
// retransmits rise as the sender runs into it. The shelf explains them.
void TestCauseChain::nicShelfLeadsRetransmits()
{
    QRandomGenerator random(23);
    const Labels veth { { u"interface"_s, u"veth0"_s } };
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"nic.tx.bytes"_s, UseKind::Throughput, u"B/s"_s, u"nic:veth0"_s, u"nic"_s, veth), N,
        [&](int i) {
            return i < 30 ? 3e4 * (1 + noise(random, 0.3)) : 1e6 * (1 + noise(random, 0.01));
        },
        1));
    tracks.push_back(track(
        info(u"tcp.retransmits"_s, UseKind::Errors, u"1/s"_s, u"tcp"_s, u"nic"_s), N,
        [&](int i) { return i < 31 ? 0.0 : 40 + noise(random, 5); }, 2));
    tracks.push_back(track(
        info(u"tcp.retransmit_ratio"_s, UseKind::Errors, u"%"_s, u"tcp"_s, u"nic"_s), N,
        [&](int i) { return i < 31 ? 0.0 : 6 + noise(random, 0.5); }, 3));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY2(!findings.empty(), "no finding");
    const Finding &lead = findings.front();
    QCOMPARE(lead.resource, u"NIC veth0"_s);
    QCOMPARE(lead.kind, FindingKind::Saturation);
    QVERIFY2(lead.summary.contains(u"flat at"_s), qPrintable(lead.summary));
    const Finding *tcp = findingFor(findings, u"tcp"_s);
    QVERIFY2(tcp, qPrintable(listed(findings)));
    QCOMPARE(tcp->kind, FindingKind::Errors);
    QCOMPARE(tcp->causedBy, 1);
    QCOMPARE(tcp->rank, 2);
    QCOMPARE(lead.consequences, QList<int> { 2 });
}

// scenario_process_hog: a process takes 190 % of one CPU and the run queue rises with
// it; the process leads, the CPU (still naming who carries it) follows.
void TestCauseChain::processLeadsCpuSaturation()
{
    QRandomGenerator random(24);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"host.cpu.utilization"_s, UseKind::Utilization, u"%"_s), N,
        [&](int i) { return i < 60 ? 12 + noise(random, 3) : 99 - std::abs(noise(random, 1)); },
        1));
    tracks.push_back(track(
        info(u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation), N,
        [&](int i) { return i < 61 ? 0.5 : 3.0; }, 2));
    const auto process = [&](const QString &pid, const QString &comm,
                             const std::function<double(int)> &value, int id) {
        return track(info(u"host.process.cpu"_s, UseKind::Info, u"%"_s, u"cpu"_s, u"host"_s,
                          { { u"pid"_s, pid }, { u"comm"_s, comm }, { u"user"_s, u"ops"_s } }),
                     N, value, id);
    };
    tracks.push_back(
        process(u"4242"_s, u"hrhog"_s, [](int i) { return i < 60 ? 0.0 : 190.0; }, 20));
    tracks.push_back(process(u"77"_s, u"postgres"_s, [](int) { return 20.0; }, 21));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY2(findings.size() >= 2, qPrintable(listed(findings)));
    const Finding &lead = findings.front();
    QCOMPARE(lead.resource, u"process hrhog (pid 4242)"_s);
    QVERIFY2(lead.summary.startsWith(u"hrhog (pid 4242, user ops) rose from 0 % to 190 % of one "
                                     "CPU at "_s),
             qPrintable(lead.summary));
    QVERIFY(lead.aboveWarning());
    const Finding &cpu = findings[1];
    QCOMPARE(cpu.resource, u"CPU"_s);
    QCOMPARE(cpu.causedBy, 1);
    QVERIFY2(cpu.summary.contains(u"carried by hrhog (pid 4242, user ops)"_s),
             qPrintable(cpu.summary));
    // A process that was as busy before the CPU rose caused nothing, nor one that rose
    // 20 s after it (scenario_healthy: a compiler started while the CPU was busy).
    for (const int from : { 0, 80 }) {
        tracks[2]
            = process(u"4242"_s, u"hrhog"_s, [from](int i) { return i < from ? 0.0 : 190.0; }, 20);
        for (const Finding &f : findFindings(tracks))
            QVERIFY2(!f.resource.startsWith(u"process"_s), qPrintable(f.summary));
    }
}

void TestCauseChain::onsetsApartStayApart_data()
{
    QTest::addColumn<int>("waitAt"); // the statement steps at bin 30
    QTest::addColumn<bool>("linked");
    QTest::newRow("the same poll") << 30 << true;
    QTest::newRow("2 polls later") << 32 << true;
    QTest::newRow("10 polls later") << 40 << false;
    QTest::newRow("a minute later") << 90 << false;
    QTest::newRow("a minute before") << 0 << false;
}

void TestCauseChain::onsetsApartStayApart()
{
    QFETCH(int, waitAt);
    QFETCH(bool, linked);
    QRandomGenerator random(25);
    std::vector<SeriesTrack> tracks = planFlip(u"pg.statements.blocks_per_call"_s, 4, 900, 30,
                                               waitAt == 0 ? 10 : waitAt, random);
    tracks.erase(tracks.begin() + 3); // without the database's ratio
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *waits = findingFor(findings, u"PostgreSQL server"_s);
    QVERIFY2(waits, qPrintable(listed(findings)));
    QCOMPARE(waits->causedBy > 0, linked);
    for (const Finding &f : findings) {
        if (f.resource.startsWith(u"statement"_s)) {
            QCOMPARE(f.consequences.isEmpty(), !linked);
            // Alone, a figure per call that moved is a change, not an alarm.
            QCOMPARE(f.aboveWarning(), linked);
        }
    }
}

void TestCauseChain::sinceBeforeTheData_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<int>("kind"); // UseKind
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<double>("level");
    QTest::addColumn<int>("lastsBins"); // from the first bin; then a quarter of it
    // 0 nothing since before the data at or above warning; 1 a note since before the
    // data (past the warning bound only: maybe the usual level); 2 critical since before.
    QTest::addColumn<int>("expected");
    QTest::addColumn<double>("jitter"); // relative, upwards
    QTest::newRow("run queue 6 per CPU throughout")
        << u"host.cpu.runqueue_per_cpu"_s << int(UseKind::Saturation) << QString() << u"cpu"_s
        << 6.0 << N << 2 << 0.01;
    QTest::newRow("CPU 85 % throughout") << u"host.cpu.utilization"_s << int(UseKind::Utilization)
                                         << u"%"_s << u"cpu"_s << 85.0 << N << 1 << 0.01;
    QTest::newRow("connections 97 % for the first minute")
        << u"pg.connections.utilization"_s << int(UseKind::Utilization) << u"%"_s
        << u"connections"_s << 97.0 << 60 << 2 << 0.01;
    QTest::newRow("memory stall 30 % for the first 5 s")
        << u"host.psi.memory.some"_s << int(UseKind::Saturation) << u"%"_s << u"memory"_s << 30.0
        << 5 << 0 << 0.01;
    QTest::newRow("CPU 72 % for the first 10 s")
        << u"host.cpu.utilization"_s << int(UseKind::Utilization) << u"%"_s << u"cpu"_s << 72.0
        << 10 << 0 << 0.01;
    // tst_idlefindings' MariaDB: temporary tables on disk at 1/s all along, from the
    // monitoring's own queries. "Any" is a warning bound for what begins, not a level.
    QTest::newRow("temporary files at 1/s all along")
        << u"pg.db.temp_files.rate"_s << int(UseKind::Saturation) << u"1/s"_s << u"db:app"_s << 1.0
        << N << 0 << 0.01;
    QTest::newRow("temporary files at 150/s all along")
        << u"pg.db.temp_files.rate"_s << int(UseKind::Saturation) << u"1/s"_s << u"db:app"_s
        << 150.0 << N << 2 << 0.01;
    QTest::newRow("run queue exactly at its bound")
        << u"host.cpu.runqueue_per_cpu"_s << int(UseKind::Saturation) << QString() << u"cpu"_s
        << 1.0 << N << 0 << 0.0;
}

// No onset (nothing before to step from), yet the USE matrix shows the cell raised from
// the first sample: a finding since before the data, as severe as the cell.
void TestCauseChain::sinceBeforeTheData()
{
    QFETCH(QString, metric);
    QFETCH(int, kind);
    QFETCH(QString, unit);
    QFETCH(QString, resource);
    QFETCH(double, level);
    QFETCH(int, lastsBins);
    QFETCH(int, expected);
    QFETCH(double, jitter);
    QRandomGenerator random(26);
    const SeriesInfo series = info(metric, UseKind(kind), unit, resource);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(series, N, [&](int i) {
        return i < lastsBins ? level * (1 + std::abs(noise(random, jitter))) : level / 4;
    }));
    // Another series of the same source, quiet all along.
    tracks.push_back(track(
        info(u"host.mem.utilization"_s, UseKind::Utilization, u"%"_s, u"memory"_s), N,
        [&](int) { return 40 + noise(random, 1); }, 2));
    const std::vector<Finding> findings = findFindings(tracks);
    const PanelThresholds bounds
        = defaultUseThresholds(*useColumnOf(series.kind), series.unit, series.resource);
    const Finding *f = nullptr;
    for (const Finding &candidate : findings)
        if (candidate.signalSeriesId == 1 || candidate.evidenceSeriesIds.contains(1))
            f = &candidate;
    // The USE matrix's judgement of the same samples: a critical cell has a finding.
    std::vector<Sample> samples;
    samples.reserve(tracks[0].times.size());
    for (size_t i = 0; i < tracks[0].times.size(); ++i)
        samples.push_back({ tracks[0].times[i], tracks[0].values[i] });
    const std::optional<UseWorst> cell = useWorstInRange(samples, bounds);
    QVERIFY(cell);
    if (cell->level >= 2)
        QVERIFY2(f, "a critical cell of the USE matrix without a finding");
    if (expected == 0) {
        QVERIFY2(!f || !f->aboveWarning(), qPrintable(listed(findings)));
        return;
    }
    QVERIFY2(f, qPrintable(listed(findings)));
    QCOMPARE(f->aboveWarning(), expected == 2);
    QCOMPARE(f->score >= CriticalScore, expected == 2);
    QCOMPARE(f->sinceMs, T0);
    QVERIFY(f->sinceBefore);
    QVERIFY2(f->summary.contains(u"since before %1 (start of the data)"_s.arg(clockText(T0))),
             qPrintable(f->summary));
    QVERIFY2(f->summary.endsWith(
                 expected == 2 ? u"(critical)"_s
                               : u"(maybe its usual level: raised past its critical bound)"_s),
             qPrintable(f->summary));
    QCOMPARE(f->rank, 1);
}

// A CPU that saturates at bin 60, a memory stall past its critical bound all along and
// file handles past their warning bound all along: the incident with an onset first, the
// standing critical condition after it, the standing warning (a note) last.
void TestCauseChain::standingConditionsRankBySeverity()
{
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"host.fd.utilization"_s, UseKind::Utilization, u"%"_s, u"fd"_s), N,
        [](int i) { return 80.0 + (i % 3); }, 1));
    tracks.push_back(track(
        info(u"host.psi.memory.some"_s, UseKind::Saturation, u"%"_s, u"memory"_s), N,
        [](int i) { return 40.0 + (i % 3); }, 2));
    tracks.push_back(track(
        info(u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation), N,
        [](int i) { return i < 60 ? 0.5 : 6.0; }, 3));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY2(findings.size() == 3, qPrintable(listed(findings)));
    QCOMPARE(findings[0].resource, u"CPU"_s);
    QVERIFY(!findings[0].sinceBefore);
    QCOMPARE(findings[1].resource, u"memory"_s);
    QVERIFY(findings[1].sinceBefore);
    QVERIFY(findings[1].score >= CriticalScore);
    QCOMPARE(findings[2].resource, u"file handles"_s);
    QVERIFY(findings[2].sinceBefore);
    QVERIFY2(!findings[2].aboveWarning(), qPrintable(findings[2].summary));
    for (const Finding &f : findings)
        QCOMPARE(f.causedBy, 0);
}

void TestCauseChain::csvAndTextShowTheChain()
{
    QRandomGenerator random(27);
    FindingsReport report;
    report.fromMs = T0;
    report.toMs = T0 + N * 1000LL;
    report.binMs = 1000;
    report.findings
        = findFindings(planFlip(u"pg.statements.blocks_per_call"_s, 4, 900, 60, 60, random));
    QVERIFY(report.findings.size() >= 2);
    const QStringList lines = findingsCsv(report.findings).split(u'\n');
    QCOMPARE(lines.first(),
             u"rank,source,resource,kind,signal,since,until,peak,score,summary,caused_by"_s);
    QVERIFY2(lines.at(1).startsWith(u"1,pg,statement SELECT"_s) && lines.at(1).endsWith(u","_s),
             qPrintable(lines.at(1))); // a lead: caused_by empty
    QVERIFY2(lines.at(2).startsWith(u"2,"_s) && lines.at(2).endsWith(u",1"_s),
             qPrintable(lines.at(2)));
    const QString text = explainText(report);
    QVERIFY2(text.contains(u"\n1. [critical] pg statement SELECT"_s), qPrintable(text));
    QVERIFY2(text.contains(u"\n    2. [critical] pg "_s) && text.contains(u", caused by #1\n"_s),
             qPrintable(text));
}

void TestCauseChain::ruleTable()
{
    QVERIFY(explains(CauseFamily::RootBlocker, CauseFamily::Statement));
    QVERIFY(explains(CauseFamily::RootBlocker, CauseFamily::Server));
    QVERIFY(explains(CauseFamily::Statement, CauseFamily::Server));
    QVERIFY(explains(CauseFamily::Statement, CauseFamily::Database));
    QVERIFY(explains(CauseFamily::Nic, CauseFamily::Network));
    QVERIFY(explains(CauseFamily::Process, CauseFamily::Cpu));
    // Never the other way round, and a symptom explains nothing.
    QVERIFY(!explains(CauseFamily::Server, CauseFamily::Statement));
    QVERIFY(!explains(CauseFamily::Statement, CauseFamily::RootBlocker));
    QVERIFY(!explains(CauseFamily::Network, CauseFamily::Nic));
    QVERIFY(!explains(CauseFamily::Cpu, CauseFamily::Process));
    QVERIFY(!explains(CauseFamily::Nic, CauseFamily::Cpu));
}

QTEST_GUILESS_MAIN(TestCauseChain)
#include "tst_causechain.moc"
