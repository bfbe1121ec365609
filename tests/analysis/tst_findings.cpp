// Findings from tracks with known incidents: CPU saturation (utilization and run queue
// rise together), a NIC shelf witnessed by qdisc drops, a shelf with no witness, a fall
// in throughput (a change, never an alarm), two hosts kept apart, the ranking rules, a
// quiet fleet of noisy series (nothing at or above warning), and the CSV and text forms.
#include "analysistestutil.h"
#include "query/analysis/findings.h"
#include "query/analysis/findingsreport.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

namespace {
constexpr int N = 120;

std::vector<SeriesTrack> quietHost(QRandomGenerator &random, const QString &source, int firstId)
{
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"host.cpu.utilization"_s, UseKind::Utilization, u"%"_s, u"cpu"_s, source), N,
        [&](int) { return 12 + noise(random, 3); }, firstId));
    tracks.push_back(track(
        info(u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation, {}, u"cpu"_s, source), N,
        [&](int) { return std::max(0.0, std::round(0.6 + noise(random, 0.8))); }, firstId + 1));
    tracks.push_back(track(
        info(u"host.mem.utilization"_s, UseKind::Utilization, u"%"_s, u"memory"_s, source), N,
        [&](int) { return 41 + noise(random, 0.2); }, firstId + 2));
    tracks.push_back(track(
        info(u"host.disk.io_errors"_s, UseKind::Errors, u"1/s"_s, u"disk:vda"_s, source,
             { { u"device"_s, u"vda"_s } }),
        N, [](int) { return 0.0; }, firstId + 3));
    tracks.push_back(track(
        info(u"host.disk.read_bytes"_s, UseKind::Throughput, u"B/s"_s, u"disk:vda"_s, source,
             { { u"device"_s, u"vda"_s } }),
        N, [&](int i) { return i % 29 == 3 ? 4e6 : 2e4 * (1 + noise(random, 0.5)); }, firstId + 4));
    return tracks;
}

const Finding *findingFor(const std::vector<Finding> &findings, const QString &source,
                          const QString &resource)
{
    for (const Finding &f : findings)
        if (f.source == source && f.resource == resource)
            return &f;
    return nullptr;
}
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
    void shortRiseIsNoSaturationYet_data();
    void shortRiseIsNoSaturationYet();
    void stealTicksAreNoShelf();
    void statementLatency_data();
    void statementLatency();
    void twoHostsStayApart();
    void quietFleetHasNothingAboveWarning();
    void rankingPrefersSaturationThenEarlier();
    void csvAndText();
};

void TestFindings::cpuSaturation()
{
    QRandomGenerator random(1);
    std::vector<SeriesTrack> tracks = quietHost(random, u"host"_s, 1);
    tracks[0] = track(
        tracks[0].info, N,
        [&](int i) { return i < 60 ? 12 + noise(random, 3) : 99 - std::abs(noise(random, 1)); }, 1);
    tracks[1] = track(
        tracks[1].info, N,
        [&](int i) { return i < 61 ? std::max(0.0, std::round(0.6 + noise(random, 0.8))) : 9.0; },
        2);
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
    QCOMPARE(lines.first(), u"rank,source,resource,kind,signal,since,until,peak,score,summary"_s);
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

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
