// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Findings from tracks with known incidents: CPU saturation (utilization and run queue
// rise together), a NIC shelf witnessed by qdisc drops, a shelf with no witness, a fall
// in throughput (a change, never an alarm), two hosts kept apart, the ranking rules, a
// quiet fleet of noisy series (nothing at or above warning), a filesystem filling (its
// forecast of time to full), and the CSV and text forms (the processes and sessions that
// carry a CPU saturation: tst_cpufindings).
#include "analysistestutil.h"
#include "hostmetrics.h"
#include "hosttracks.h"
#include "query/analysis/contributors.h"
#include "query/analysis/findings.h"
#include "query/analysis/findingsreport.h"
#include "query/analysis/timeleft.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

namespace {
constexpr int N = 120;

} // namespace

class TestFindings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cpuSaturation();
    void nicShelfWitnessedByDrops();
    void shelfWithoutWitnessIsAChange();
    void witnessLongAfterTheShelfIsNone();
    void countsHaveNoRunQueueBounds_data();
    void countsHaveNoRunQueueBounds();
    void runQueueAtOnePerCpuIsNoSaturation();
    void runQueueOnIdleCpusIsNoSaturation_data();
    void runQueueOnIdleCpusIsNoSaturation();
    void shortRiseIsNoSaturationYet_data();
    void shortRiseIsNoSaturationYet();
    void stealTicksAreNoShelf();
    void statementLatency_data();
    void statementLatency();
    void twoHostsStayApart();
    void quietFleetHasNothingAboveWarning();
    void rankingPrefersSaturationThenEarlier();
    void csvAndText();
    void filesystemFilling();
    void filesystemForecast_data();
    void filesystemForecast();
    void filesystemNamesItsDatabase();
    void catalogueNamesAgree();
};

void TestFindings::cpuSaturation()
{
    QRandomGenerator random(1);
    std::vector<SeriesTrack> tracks = cpuSaturatedHost(random);
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    const Finding &top = findings.front();
    QCOMPARE(top.rank, 1);
    QCOMPARE(top.source, u"host"_s);
    QCOMPARE(top.resource, u"CPU"_s);
    QVERIFY2(top.kind == FindingKind::Saturation || top.kind == FindingKind::Utilization,
             qPrintable(findingKindName(top.kind)));
    QCOMPARE(top.sinceMs, T0 + 60'000); // the earlier of the two onsets
    QVERIFY2(top.score >= CriticalScore, qPrintable(QString::number(top.score)));
    QVERIFY(top.evidenceSeriesIds.contains(1));
    QVERIFY(top.evidenceSeriesIds.contains(2));
    QCOMPARE(top.evidenceSeriesIds.size(), top.evidenceKeys.size());
    QCOMPARE(top.evidenceSeriesIds.front(), top.signalSeriesId);
    QCOMPARE(top.untilMs, T0 + N * 1000LL);
    QVERIFY(top.summary.contains(u"rose"_s));
    for (const Finding &f : findings)
        QVERIFY2(f.rank == 1 || !f.aboveWarning(), qPrintable(f.summary));
}

void TestFindings::nicShelfWitnessedByDrops()
{
    QRandomGenerator random(2);
    std::vector<SeriesTrack> tracks = quietHost(random, u"host"_s, 1);
    const Labels veth { { u"interface"_s, u"veth0"_s } };
    tracks.push_back(track(
        info(u"nic.tx.bytes"_s, UseKind::Throughput, u"B/s"_s, u"nic:veth0"_s, u"nic"_s, veth), N,
        [&](int i) {
            return i < 30 ? 3e4 * (1 + noise(random, 0.3)) : 1e6 * (1 + noise(random, 0.01));
        },
        20));
    // The link reports 10,000 Mbit/s: utilization stays near 0.1 %, and low.
    tracks.push_back(track(
        info(u"nic.utilization"_s, UseKind::Utilization, u"%"_s, u"nic:veth0"_s, u"nic"_s, veth), N,
        [&](int i) { return i < 30 ? 0.002 : 0.08 + noise(random, 0.001); }, 21));
    tracks.push_back(track(
        info(u"nic.qdisc.drops"_s, UseKind::Errors, u"1/s"_s, u"nic:veth0"_s, u"nic"_s, veth), N,
        [&](int i) { return i < 31 ? 0.0 : 40 + noise(random, 5); }, 22));
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *nic = findingFor(findings, u"nic"_s, u"NIC veth0"_s);
    QVERIFY(nic);
    QCOMPARE(nic->rank, 1);
    QCOMPARE(nic->kind, FindingKind::Saturation);
    QCOMPARE(nic->signalSeriesId, 20);
    QVERIFY2(std::abs(nic->sinceMs - (T0 + 30'000)) <= 2000, qPrintable(isoUtc(nic->sinceMs)));
    QVERIFY(nic->evidenceSeriesIds.contains(22));
    QVERIFY2(nic->summary.contains(u"flat at"_s) && nic->summary.contains(u"nic.qdisc.drops"_s),
             qPrintable(nic->summary));
    QVERIFY(nic->score >= CriticalScore);
}

void TestFindings::shelfWithoutWitnessIsAChange()
{
    QRandomGenerator random(3);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"nic.tx.bytes"_s, UseKind::Throughput, u"B/s"_s, u"nic:eth0"_s, u"nic"_s), N,
        [&](int i) { return i < 30 ? 3e4 : 1e6 * (1 + noise(random, 0.01)); }, 1));
    const std::vector<Finding> findings = findFindings(tracks);
    QCOMPARE(findings.size(), size_t(1)); // the shelf and the onset of one series merge
    QCOMPARE(findings[0].kind, FindingKind::Change);
    QVERIFY(!findings[0].aboveWarning());
}

// scenario_healthy in CI: a steady load's row rate moved and stayed flat, and 12 s
// later one more session was active. The shelf is a change, not a limit.
void TestFindings::witnessLongAfterTheShelfIsNone()
{
    QRandomGenerator random(6);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"pg.table.tup_written.rate"_s, UseKind::Throughput, u"1/s"_s, u"db:app"_s, u"pg"_s),
        N, [&](int i) { return i < 30 ? 8 + noise(random, 0.5) : 13.0; }, 1));
    tracks.push_back(track(
        info(u"pg.activity.wait_class_share"_s, UseKind::Saturation, u"%"_s, u"pg"_s, u"pg"_s,
             { { u"class"_s, u"Lock"_s } }),
        N, [&](int i) { return i < 45 ? 0.0 : 40.0; }, 2));
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *db = findingFor(findings, u"pg"_s, u"database app"_s);
    QVERIFY(db);
    QCOMPARE(db->kind, FindingKind::Change);
    QVERIFY2(!db->aboveWarning(), qPrintable(db->summary));
    // The same witness as the flat run starts: a limit.
    tracks[1] = track(tracks[1].info, N, [&](int i) { return i < 31 ? 0.0 : 40.0; }, 2);
    const std::vector<Finding> limited = findFindings(tracks);
    const Finding *shelved = findingFor(limited, u"pg"_s, u"database app"_s);
    QVERIFY(shelved);
    QCOMPARE(shelved->kind, FindingKind::Saturation);
    QVERIFY2(shelved->summary.contains(u"flat at"_s), qPrintable(shelved->summary));
}

// scenario_healthy in CI: pg.activity.sessions{state=active} 0 -> 1 was a warning by a
// run queue's per-CPU bounds. Sessions are counted in "sessions", which has none.
// Counts of sessions or of a host's runnable tasks are not per CPU: a run queue going
// from 2 to 3 on a two-CPU host is no saturation (scenario_healthy in CI read it as one).
void TestFindings::countsHaveNoRunQueueBounds_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("before");
    QTest::addColumn<double>("after");
    QTest::newRow("active sessions") << u"pg.activity.sessions"_s << u"sessions"_s << 0.0 << 2.0;
    QTest::newRow("runnable tasks") << u"host.cpu.runnable"_s << u"tasks"_s << 2.0 << 3.0;
    QTest::newRow("load average") << u"host.load.1"_s << u"tasks"_s << 0.5 << 3.0;
}

void TestFindings::countsHaveNoRunQueueBounds()
{
    QFETCH(QString, metric);
    QFETCH(QString, unit);
    QFETCH(double, before);
    QFETCH(double, after);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(metric, UseKind::Saturation, unit, u"cpu"_s, u"src"_s), N,
        [&](int i) { return i < 60 ? before : after; }, 1));
    const std::vector<Finding> findings = findFindings(tracks);
    QCOMPARE(findings.size(), size_t(1));
    QCOMPARE(findings[0].kind, FindingKind::Change);
    QVERIFY2(!findings[0].aboveWarning(), qPrintable(findings[0].summary));
    // The same step per CPU is a saturation.
    tracks[0] = track(
        info(u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation, {}, u"cpu"_s, u"src"_s), N,
        [&](int i) { return i < 60 ? before : after; }, 1);
    QVERIFY(findFindings(tracks).front().aboveWarning());
    // An imported series (its resource named by a label) without bounds is judged
    // against its own past: the same step is raised there.
    tracks[0] = track(
        info(metric, UseKind::Saturation, unit, u"service:cart"_s, u"import"_s), N,
        [&](int i) { return i < 60 ? before : after; }, 1);
    const std::vector<Finding> imported = findFindings(tracks);
    QCOMPARE(imported.front().resource, u"service cart"_s);
    // Doubled or more: raised; a smaller step (2 to 3 tasks) stays a change.
    QCOMPARE(imported.front().kind,
             after >= 2 * before ? FindingKind::Saturation : FindingKind::Change);
}

// scenario_healthy in CI on 2 CPUs: the run queue went from 1 to 1.5 per CPU, the
// reader of /proc/stat among them. Without it, 0.5 to 1: every CPU busy, none waiting.
void TestFindings::runQueueAtOnePerCpuIsNoSaturation()
{
    std::vector<SeriesTrack> tracks;
    const SeriesInfo perCpu
        = info(u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation, {}, u"cpu"_s, u"host"_s);
    tracks.push_back(track(perCpu, N, [](int i) { return i < 60 ? 0.5 : 1.0; }, 1));
    std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    QVERIFY2(!findings.front().aboveWarning(), qPrintable(findings.front().summary));
    tracks[0] = track(perCpu, N, [](int i) { return i < 60 ? 0.5 : 1.5; }, 1);
    findings = findFindings(tracks);
    QVERIFY2(findings.front().aboveWarning(), qPrintable(findings.front().summary));
}

// scenario_replay_stopped in CI on 2 CPUs: the run queue per CPU rose from 1 to 2 (peak 3)
// 13 s before the standby stopped replaying, while the CPUs were 4 to 10 % busy, and
// ranked first as a CPU saturation. Read against the CPUs' busy share, such a queue is a
// change; the same queue with the CPUs busy is a saturation. The load average goes
// the same way.
void TestFindings::runQueueOnIdleCpusIsNoSaturation_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<double>("busyAfter");
    QTest::addColumn<bool>("withUtilization");
    QTest::addColumn<bool>("raised");
    const QString queue = u"host.cpu.runqueue_per_cpu"_s, load = u"host.load.per_cpu"_s;
    QTest::newRow("queue, CPUs 6 % busy") << queue << 6.0 << true << false;
    QTest::newRow("queue, CPUs 45 % busy") << queue << 45.0 << true << false;
    QTest::newRow("queue, CPUs 70 % busy") << queue << 70.0 << true << true;
    QTest::newRow("queue, no utilization") << queue << 6.0 << false << true;
    QTest::newRow("load, CPUs 6 % busy") << load << 6.0 << true << false;
    QTest::newRow("load, CPUs 70 % busy") << load << 70.0 << true << true;
}

void TestFindings::runQueueOnIdleCpusIsNoSaturation()
{
    QFETCH(QString, metric);
    QFETCH(double, busyAfter);
    QFETCH(bool, withUtilization);
    QFETCH(bool, raised);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(metric, UseKind::Saturation, {}, u"cpu"_s, u"host"_s), N,
        [](int i) { return i < 60    ? 0.5
                        : i % 7 == 0 ? 3.0
                                     : 2.0; }, 1));
    if (withUtilization)
        tracks.push_back(track(
            info(u"host.cpu.utilization"_s, UseKind::Utilization, u"%"_s, u"cpu"_s, u"host"_s,
                 { { u"cpu"_s, u"all"_s } }),
            N, [&](int) { return busyAfter; }, 2));
    const std::vector<Finding> findings = findFindings(tracks);
    const auto queueFinding
        = std::find_if(findings.cbegin(), findings.cend(),
                       [](const Finding &f) { return f.evidenceSeriesIds.contains(1); });
    QVERIFY(queueFinding != findings.cend());
    QVERIFY2(queueFinding->aboveWarning() == raised, qPrintable(queueFinding->summary));
    QCOMPARE(queueFinding->kind, raised ? FindingKind::Saturation : FindingKind::Change);
    QCOMPARE(queueFinding->sinceMs, T0 + 60'000);
    if (!raised)
        QVERIFY2(queueFinding->summary.contains(
                     u"(with the CPUs %1 % busy: none waited long)"_s.arg(qRound(busyAfter))),
                 qPrintable(queueFinding->summary));
    for (const Finding &f : findings) // no stretch of the queue raised in its place
        QVERIFY2(!f.evidenceSeriesIds.contains(1) || f.aboveWarning() == raised,
                 qPrintable(f.summary));
}

// scenario_healthy in CI on 2 CPUs: the run queue per CPU (a count over 2 CPUs, so in
// halves), noisy around 1 all along (the scenario's loads, its PostgreSQL and headroom
// itself), ran at 1.5 (peak 2) over the last 5 s of the 40 s range, and that burst was
// a warning. A rise is raised only once it has lasted FindingsOptions::minRaisedMs
// (15 s); until then it is a change that says how long it has lasted so far.
void TestFindings::shortRiseIsNoSaturationYet_data()
{
    QTest::addColumn<int>("burstSeconds");
    QTest::addColumn<bool>("raised");
    QTest::newRow("5 s at the end") << 5 << false;
    QTest::newRow("12 s at the end") << 12 << false;
    // The onset lands where the smoothed values cross the midpoint, up to 2 s late.
    QTest::newRow("18 s at the end") << 18 << true;
    QTest::newRow("30 s at the end") << 30 << true;
}

void TestFindings::shortRiseIsNoSaturationYet()
{
    QFETCH(int, burstSeconds);
    QFETCH(bool, raised);
    constexpr int lead = 35;
    QRandomGenerator random(11);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation, {}, u"cpu"_s, u"host"_s),
        lead + burstSeconds,
        [&](int i) {
            const double level = i < lead ? 1.0 : 1.5;
            return std::clamp(std::round(2 * (level + noise(random, 0.3))) / 2, 0.0, 2.0);
        },
        1));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    const Finding &top = findings.front();
    QVERIFY2(std::abs(top.sinceMs - (T0 + lead * 1000LL)) <= 2000, qPrintable(isoUtc(top.sinceMs)));
    QVERIFY2(top.aboveWarning() == raised, qPrintable(top.summary));
    QCOMPARE(top.kind, raised ? FindingKind::Saturation : FindingKind::Change);
    if (!raised)
        QVERIFY2(top.summary.contains(u"past its warning bound for only"_s),
                 qPrintable(top.summary));
}

// scenario_cpu_saturation in CI: CPU steal went from 0 to one tick a second (0.5 % of
// two CPUs) 11 s before the load, "flat" until the run queue rose, and carried the CPU
// finding with its own, earlier, onset.
void TestFindings::stealTicksAreNoShelf()
{
    QRandomGenerator random(7);
    std::vector<SeriesTrack> tracks = quietHost(random, u"host"_s, 1);
    tracks[1] = track(
        tracks[1].info, N,
        [&](int i) { return i < 60 ? std::max(0.0, std::round(0.6 + noise(random, 0.8))) : 9.0; },
        2);
    tracks.push_back(track(
        info(u"host.cpu.mode"_s, UseKind::Utilization, u"%"_s, u"cpu"_s, u"host"_s,
             { { u"mode"_s, u"steal"_s } }),
        N, [](int i) { return i < 49 ? 0.0 : 0.5; }, 9));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    const Finding &top = findings.front();
    QCOMPARE(top.resource, u"CPU"_s);
    QCOMPARE(top.kind, FindingKind::Saturation);
    QCOMPARE(top.signalSeriesId, 2);
    QVERIFY2(std::abs(top.sinceMs - (T0 + 60'000)) <= 2000, qPrintable(isoUtc(top.sinceMs)));
}

void TestFindings::statementLatency_data()
{
    QTest::addColumn<double>("before");
    QTest::addColumn<double>("after");
    QTest::addColumn<int>("kind"); // FindingKind
    QTest::addColumn<bool>("critical");
    // scenario_plan_flip in CI: the lookup without its index, 0.03 ms to 4.5 ms.
    QTest::newRow("x150 to 4.5 ms") << 0.03 << 4.5 << int(FindingKind::Saturation) << true;
    QTest::newRow("x25 to 1.2 ms") << 0.048 << 1.2 << int(FindingKind::Saturation) << false;
    QTest::newRow("x6 to 6 ms") << 1.0 << 6.0 << int(FindingKind::Saturation) << false;
    QTest::newRow("x16 to 0.8 ms: under a millisecond")
        << 0.05 << 0.8 << int(FindingKind::Change) << false;
    QTest::newRow("x4 to 40 ms") << 10.0 << 40.0 << int(FindingKind::Change) << false;
    QTest::newRow("x2 of our own 0.03 ms") << 0.03 << 0.06 << int(FindingKind::Change) << false;
}

void TestFindings::statementLatency()
{
    QFETCH(double, before);
    QFETCH(double, after);
    QFETCH(int, kind);
    QFETCH(bool, critical);
    QRandomGenerator random(8);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"pg.statements.mean_time_ms"_s, UseKind::Latency, u"ms"_s, u"statement:1"_s, u"pg"_s),
        N,
        [&](int i) {
            const double level = i < 60 ? before : after;
            return level * (1 + noise(random, 0.05));
        },
        1));
    const std::vector<Finding> findings = findFindings(tracks);
    QCOMPARE(findings.size(), size_t(1));
    QCOMPARE(int(findings[0].kind), kind);
    QCOMPARE(findings[0].score >= CriticalScore, critical);
    QCOMPARE(findings[0].aboveWarning(), kind != int(FindingKind::Change));
    QVERIFY2(std::abs(findings[0].sinceMs - (T0 + 60'000)) <= 2000,
             qPrintable(isoUtc(findings[0].sinceMs)));
}

void TestFindings::twoHostsStayApart()
{
    QRandomGenerator random(4);
    std::vector<SeriesTrack> tracks = quietHost(random, u"host:web1"_s, 1);
    std::vector<SeriesTrack> other = quietHost(random, u"host:web2"_s, 11);
    for (int k : { 0, 1 })
        tracks[size_t(k)]
            = track(tracks[size_t(k)].info, N, [&](int i) { return i < 50 ? 10.0 : 97.0; }, 1 + k);
    other[0] = track(other[0].info, N, [&](int i) { return i < 80 ? 10.0 : 95.0; }, 11);
    tracks.insert(tracks.end(), other.begin(), other.end());
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *web1 = findingFor(findings, u"host:web1"_s, u"CPU"_s);
    const Finding *web2 = findingFor(findings, u"host:web2"_s, u"CPU"_s);
    QVERIFY(web1 && web2);
    QCOMPARE(web1->sinceMs, T0 + 50'000);
    QCOMPARE(web2->sinceMs, T0 + 80'000);
    QVERIFY(!web2->evidenceSeriesIds.contains(1));
    QVERIFY(web1->rank < web2->rank); // both raised: the first domino first
}

void TestFindings::quietFleetHasNothingAboveWarning()
{
    QRandomGenerator random(5);
    std::vector<SeriesTrack> tracks;
    for (int h = 0; h < 8; ++h) {
        std::vector<SeriesTrack> host = quietHost(random, u"host:h%1"_s.arg(h), 10 * h + 1);
        tracks.insert(tracks.end(), host.begin(), host.end());
    }
    const std::vector<Finding> findings = findFindings(tracks);
    for (const Finding &f : findings)
        QVERIFY2(!f.aboveWarning(), qPrintable(f.summary));
}

void TestFindings::rankingPrefersSaturationThenEarlier()
{
    std::vector<SeriesTrack> tracks;
    // Utilization raised first, saturation elsewhere later, errors later still, and a
    // change (a throughput fall) earliest of all.
    tracks.push_back(track(
        info(u"u"_s, UseKind::Utilization, u"%"_s, u"cpu"_s), N,
        [](int i) { return i < 20 ? 10.0 : 95.0; }, 1));
    tracks.push_back(track(
        info(u"s"_s, UseKind::Saturation, u"%"_s, u"memory"_s), N,
        [](int i) { return i < 40 ? 1.0 : 30.0; }, 2));
    tracks.push_back(track(
        info(u"e"_s, UseKind::Errors, u"1/s"_s, u"disk:vda"_s), N,
        [](int i) { return i < 60 ? 0.0 : 5.0; }, 3));
    tracks.push_back(track(
        info(u"t"_s, UseKind::Throughput, u"1/s"_s, u"db:orders"_s), N,
        [](int i) { return i < 10 ? 20000.0 : 10.0; }, 4));
    const std::vector<Finding> findings = findFindings(tracks);
    QCOMPARE(findings.size(), size_t(4));
    QCOMPARE(findings[0].resource, u"memory"_s); // saturation, earlier than the errors
    QCOMPARE(findings[1].resource, u"disk vda"_s);
    QCOMPARE(findings[1].kind, FindingKind::Errors);
    QCOMPARE(findings[2].resource, u"CPU"_s);
    QCOMPARE(findings[2].kind, FindingKind::Utilization);
    QCOMPARE(findings[3].resource, u"database orders"_s);
    QCOMPARE(findings[3].kind, FindingKind::Change);
    QVERIFY(findings[3].summary.contains(u"fell"_s));
    QVERIFY(!findings[3].aboveWarning());
    for (int i = 0; i < 4; ++i)
        QCOMPARE(findings[size_t(i)].rank, i + 1);
}

void TestFindings::csvAndText()
{
    std::vector<SeriesTrack> tracks;
    const Labels hostile { { u"query"_s, u"=HYPERLINK(\"x\"),\n%1"_s }, { u"queryid"_s, u"42"_s } };
    tracks.push_back(track(
        info(u"pg.statements.mean_time_ms"_s, UseKind::Latency, u"ms"_s, u"db:app"_s, u"pg"_s,
             hostile),
        N, [](int i) { return i < 60 ? 0.4 : 80.0; }, 1));
    FindingsReport report;
    report.fromMs = T0;
    report.toMs = T0 + N * 1000LL;
    report.binMs = 1000;
    report.seriesAnalysed = 1;
    report.findings = findFindings(tracks);
    QCOMPARE(report.findings.size(), size_t(1));
    const Finding &f = report.findings.front();
    QCOMPARE(f.kind, FindingKind::Saturation); // 200x to 80 ms
    QVERIFY(f.aboveWarning());
    const QString csv = findingsCsv(report.findings);
    const QStringList lines = csv.split(u'\n');
    QCOMPARE(lines.first(),
             u"rank,source,resource,kind,signal,since,until,peak,score,summary,caused_by"_s);
    QVERIFY2(lines.at(1).startsWith(u"1,pg,'statement =HYPERLINK(\"\"x\"\"),"_s)
                 || lines.at(1).startsWith(u"1,pg,\"statement =HYPERLINK"_s),
             qPrintable(lines.at(1)));
    QVERIFY(csv.contains(u",saturation,"_s));
    QVERIFY(csv.contains(u"2026-05-28T20:27:40.000Z"_s) || csv.contains(isoUtc(T0 + 60'000)));
    QVERIFY(csv.contains(u"," + isoUtc(f.sinceMs) + u"," + isoUtc(f.untilMs) + u",80,"_s));
    const QString text = explainText(report);
    QVERIFY(text.contains(u"1. [critical] pg statement"_s)
            || text.contains(u"1. [warning] pg statement"_s));
    QVERIFY(text.contains(isoUtc(f.sinceMs)));
    report.findings.clear();
    QVERIFY(explainText(report).contains(u"No finding"_s));
}

namespace {

const Labels DataFs { { u"mountpoint"_s, u"/data"_s },
                      { u"device"_s, u"/dev/loop0"_s },
                      { u"fstype"_s, u"ext4"_s } };

// A filesystem of 1 GB, 500 MB free, filling at `rate` B/s from bin `from` (-1: never);
// its forecast, as the collector gives it, from 4 bins later and only while it grows.
std::vector<SeriesTrack> filesystem(double rate, int from, int firstId, int binSeconds = 1)
{
    const auto free = [=](int i) {
        return from < 0 || i <= from ? 500e6 : 500e6 - rate * (i - from) * binSeconds;
    };
    const QString resource = u"fs:/data"_s;
    std::vector<SeriesTrack> tracks;
    tracks.push_back(
        track(info(u"host.fs.free"_s, UseKind::Info, u"B"_s, resource, u"host"_s, DataFs), N, free,
              firstId));
    tracks.push_back(track(
        info(u"host.fs.used"_s, UseKind::Utilization, u"%"_s, resource, u"host"_s, DataFs), N,
        [&](int i) { return (1e9 - free(i)) / 1e9 * 100; }, firstId + 1));
    tracks.push_back(track(
        info(u"host.fs.growth"_s, UseKind::Throughput, u"B/s"_s, resource, u"host"_s, DataFs), N,
        [=](int i) { return from >= 0 && i >= from + 4 ? rate : 0.0; }, firstId + 2));
    SeriesTrack left = track(
        info(u"host.fs.time_to_full"_s, UseKind::Saturation, u"h"_s, resource, u"host"_s, DataFs),
        N, [&](int i) { return free(i) / rate / 3600; }, firstId + 3);
    // No forecast before the growth showed in 4 polls.
    SeriesTrack kept = left;
    kept.times.clear();
    kept.values.clear();
    for (size_t i = 0; i < left.times.size(); ++i) {
        if (from >= 0 && int(i) >= from + 4) {
            kept.times.push_back(left.times[i]);
            kept.values.push_back(left.values[i]);
        }
    }
    if (!kept.isEmpty())
        tracks.push_back(kept);
    for (SeriesTrack &t : tracks) {
        t.binMs = binSeconds * 1000LL;
        t.toMs = T0 + qint64(N) * t.binMs - 1;
        for (qint64 &time : t.times)
            time = T0 + (time - T0) * binSeconds;
    }
    return tracks;
}

} // namespace

// A filesystem filling at 2 MB/s from bin 60: its forecast (3 min to full at the end)
// is critical,
// since the first bin that had less free space, and names the mount point and device.
void TestFindings::filesystemFilling()
{
    QRandomGenerator random(3);
    std::vector<SeriesTrack> tracks = quietHost(random, u"host"_s, 1);
    for (SeriesTrack &t : filesystem(2e6, 60, 10))
        tracks.push_back(std::move(t));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    const Finding &top = findings.front();
    QCOMPARE(top.resource, u"filesystem /data (/dev/loop0)"_s);
    QCOMPARE(top.kind, FindingKind::Saturation);
    QCOMPARE(top.sinceMs, T0 + 61'000);
    QVERIFY2(top.score >= CriticalScore, qPrintable(QString::number(top.score)));
    QCOMPARE(top.signalSeriesId, 13);
    QVERIFY2(top.summary.contains(u"full in 3 min at 1.9 MiB/s"_s), qPrintable(top.summary));
    QVERIFY2(top.summary.endsWith(u"(critical)"_s) || top.summary.contains(u"(critical)"_s),
             qPrintable(top.summary));
    for (int id : { 10, 11, 12, 13 })
        QVERIFY2(top.evidenceSeriesIds.contains(id), qPrintable(QString::number(id)));
    for (const Finding &f : findings)
        QVERIFY2(f.rank == 1 || !f.aboveWarning(), qPrintable(f.summary));
}

// The filling filesystem holds PostgreSQL's data directory: the finding says so; the
// MariaDB whose data lies on another filesystem of the host is not named.
void TestFindings::filesystemNamesItsDatabase()
{
    std::vector<SeriesTrack> tracks = filesystem(2e6, 60, 1);
    const Labels root { { u"mountpoint"_s, u"/"_s }, { u"device"_s, u"/dev/sda1"_s } };
    tracks.push_back(track(
        info(u"host.fs.used"_s, UseKind::Utilization, u"%"_s, u"fs:/"_s, u"host"_s, root), N,
        [](int) { return 40.0; }, 20));
    const auto directory
        = [&](const QString &source, const QString &metric, const QString &path, int id) {
              return track(
                  info(metric, UseKind::Info, {}, source == "pg"_L1 ? u"pg"_s : u"mariadb"_s,
                       source, { { u"kind"_s, u"data"_s }, { u"path"_s, path } }),
                  N, [](int) { return 1.0; }, id);
          };
    tracks.push_back(directory(u"pg"_s, u"pg.server.directory"_s, u"/data/pg/17/main"_s, 21));
    tracks.push_back(
        directory(u"maria"_s, u"mariadb.server.directory"_s, u"/var/lib/mysql/"_s, 22));
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *f = findingFor(findings, u"host"_s, u"filesystem /data (/dev/loop0)"_s);
    QVERIFY(f);
    QVERIFY(f->aboveWarning());
    QVERIFY2(f->summary.contains(u"; holds the data directory of pg (/data/pg/17/main)"_s),
             qPrintable(f->summary));
    QVERIFY2(!f->summary.contains(u"maria"_s), qPrintable(f->summary));
    QCOMPARE(databasesOn(u"host"_s, u"/"_s, tracks),
             u"holds the data directory of maria (/var/lib/mysql/)"_s);
}

void TestFindings::filesystemForecast_data()
{
    QTest::addColumn<double>("rate"); // B/s into 500 MB free
    QTest::addColumn<int>("from"); // the bin it starts filling; -1: never
    QTest::addColumn<int>("binSeconds");
    QTest::addColumn<int>("kind"); // -1: no finding of the filesystem at all
    QTest::addColumn<bool>("raised");
    // 500 MB at 20 kB/s: 7 hours, beyond the warning bound of 6 h: nothing.
    QTest::newRow("full in 7 h") << 20e3 << 10 << 1 << int(FindingKind::Change) << false;
    // 500 MB at 30 kB/s over two hours (minute bins): 4.6 h left at first, a warning.
    QTest::newRow("full in 4.6 h") << 30e3 << 10 << 60 << int(FindingKind::Saturation) << true;
    // The same growth seen for 110 s only: a forecast 150 times longer than the growth
    // behind it is no warning yet.
    QTest::newRow("4.6 h after 110 s") << 30e3 << 10 << 1 << int(FindingKind::Change) << false;
    // Filling for the last 10 s of the range only: too short to be raised yet.
    QTest::newRow("too short") << 2e6 << 108 << 1 << int(FindingKind::Change) << false;
    QTest::newRow("not filling") << 2e6 << -1 << 1 << -1 << false;
}

void TestFindings::filesystemForecast()
{
    QFETCH(double, rate);
    QFETCH(int, from);
    QFETCH(int, binSeconds);
    QFETCH(int, kind);
    QFETCH(bool, raised);
    const std::vector<SeriesTrack> tracks = filesystem(rate, from, 1, binSeconds);
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *f = findingFor(findings, u"host"_s, u"filesystem /data (/dev/loop0)"_s);
    if (kind < 0) {
        QVERIFY(!f || !f->aboveWarning());
        return;
    }
    QVERIFY(f);
    QCOMPARE(f->aboveWarning(), raised);
    if (raised) {
        QCOMPARE(int(f->kind), kind);
        QVERIFY2(f->score < CriticalScore, qPrintable(f->summary)); // a warning
        QVERIFY2(f->summary.contains(u"(warning)"_s), qPrintable(f->summary));
    }
}

// The analysis names the host collector's series without including the catalogue: the
// names must agree.
void TestFindings::catalogueNamesAgree()
{
    const Labels process { { u"pid"_s, u"1"_s }, { u"comm"_s, u"x"_s } };
    for (const MetricSpec *spec :
         { &HostMetrics::ProcessCpu, &HostMetrics::ProcessRss, &HostMetrics::ProcessReadBytes,
           &HostMetrics::ProcessWriteBytes, &HostMetrics::ProcessOpenFiles }) {
        const SeriesInfo series { { u"h"_s, spec->name, process },
                                  spec->unit,
                                  spec->resourceFor(process),
                                  spec->kind,
                                  false };
        QVERIFY2(isContributorSeries(series), qPrintable(spec->name));
        Contributors named = contributorsOf(
            u"h"_s, spec->resource == "disk"_L1 ? u"disk:sda"_s : spec->resource,
            std::vector<SeriesTrack> { track(series, 5, [](int) { return 1.0; }) }, T0, T0 + 5000);
        QVERIFY2(named.text.startsWith(u"carried by x (pid 1)"_s), qPrintable(named.text));
    }
    // The host's CPUs turn a process's share of one CPU into a share of them all.
    const auto series = [](const MetricSpec &spec, const Labels &labels) {
        return SeriesInfo {
            { u"h"_s, spec.name, labels }, spec.unit, spec.resourceFor(labels), spec.kind, false
        };
    };
    const std::vector<SeriesTrack> cpus {
        track(
            series(HostMetrics::ProcessCpu, process), 5, [](int) { return 150.0; }, 1),
        track(
            series(HostMetrics::CpuCount, {}), 5, [](int) { return 2.0; }, 2),
        track(
            series(HostMetrics::CpuUtilization, { { u"cpu"_s, u"all"_s } }), 5,
            [](int) { return 80.0; }, 3),
        track(
            series(HostMetrics::CpuUtilization, { { u"cpu"_s, u"cpu0"_s } }), 5,
            [](int) { return 100.0; }, 4),
    };
    QCOMPARE(contributorsOf(u"h"_s, u"cpu"_s, cpus, T0, T0 + 5000).text,
             u"of its 2 CPUs: 75 % from x (pid 1), 5 % other processes"_s);
    const SeriesInfo left { { u"h"_s, HostMetrics::FsTimeToFull.name, DataFs },
                            HostMetrics::FsTimeToFull.unit,
                            HostMetrics::FsTimeToFull.resourceFor(DataFs),
                            HostMetrics::FsTimeToFull.kind,
                            false };
    QVERIFY(isTimeLeft(left));
    QVERIFY(!isTimeLeft(SeriesInfo { { u"h"_s, HostMetrics::CpuRunnable.name, {} },
                                     HostMetrics::CpuRunnable.unit,
                                     u"cpu"_s,
                                     HostMetrics::CpuRunnable.kind,
                                     false }));
}

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
