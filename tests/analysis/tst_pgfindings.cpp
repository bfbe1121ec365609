// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Findings of a database server's commonest pages, from tracks with known incidents:
// connections exhausted (named by the application and role that grew), a standby whose
// replay stopped (a lag that ramps, raised since it began to rise), a replication slot
// retaining WAL, checkpoints forced by WAL volume ("max_wal_size too small"), a MariaDB
// replica behind, and the quiet versions of each, which raise nothing. The resources'
// own USE bounds (connections 80 / 95 %, lag 10 / 60 s, ...) are checked too.
#include "analysistestutil.h"
#include "document/panels/usematrixoptions.h"
#include "query/analysis/contributors.h"
#include "query/analysis/findings.h"
#include "query/analysis/timeleft.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Headroom::AnalysisTest;
using namespace Qt::StringLiterals;

namespace {

constexpr int N = 120;

SeriesTrack pgTrack(const QString &metric, UseKind kind, const QString &unit,
                    const QString &resource, const Labels &labels,
                    const std::function<double(int)> &value, int id)
{
    return track(info(metric, kind, unit, resource, u"pg"_s, labels), N, value, id);
}

// A server whose slots an application fills from bin `from` on (8 sessions of 10), and
// whose refusal of Headroom's own connection starts `refusedAt` bins later (-1: never).
std::vector<SeriesTrack> connections(int from, int refusedAt, QRandomGenerator &random)
{
    std::vector<SeriesTrack> tracks;
    const auto leak = [from](int i) { return i < from ? 0.0 : 8.0; };
    tracks.push_back(pgTrack(
        u"pg.connections.utilization"_s, UseKind::Utilization, u"%"_s, u"connections"_s, {},
        [&](int i) { return from >= 0 && i >= from ? 100.0 : 20.0 + noise(random, 2); }, 1));
    if (refusedAt >= 0)
        tracks.push_back(pgTrack(
            u"pg.connections.refused"_s, UseKind::Errors, {}, u"connections"_s, {},
            [&](int i) { return i >= refusedAt ? 1.0 : 0.0; }, 2));
    tracks.push_back(pgTrack(
        u"pg.connections.by_application"_s, UseKind::Info, u"sessions"_s, u"connections"_s,
        { { u"application"_s, u"erp"_s } }, [](int) { return 2.0; }, 3));
    if (from >= 0) {
        tracks.push_back(pgTrack(u"pg.connections.by_application"_s, UseKind::Info, u"sessions"_s,
                                 u"connections"_s, { { u"application"_s, u"hrleak"_s } }, leak, 4));
        tracks.push_back(pgTrack(u"pg.connections.by_user"_s, UseKind::Info, u"sessions"_s,
                                 u"connections"_s, { { u"user"_s, u"leaky"_s } }, leak, 5));
    }
    tracks.push_back(pgTrack(
        u"pg.connections.by_user"_s, UseKind::Info, u"sessions"_s, u"connections"_s,
        { { u"user"_s, u"app"_s } }, [](int) { return 2.0; }, 6));
    return tracks;
}

// A standby whose replay stops at bin `from` (-1: never) while the primary writes: its
// replay lag ramps a second per second from there; write and flush stay healthy.
std::vector<SeriesTrack> standby(int from, QRandomGenerator &random, int firstId = 10)
{
    const Labels labels { { u"standby"_s, u"standby1"_s }, { u"client_addr"_s, QString() } };
    const QString resource = u"standby:standby1"_s;
    std::vector<SeriesTrack> tracks;
    const auto healthy = [&](int i) {
        // A healthy stream: a few ms, now and then a second behind for a poll.
        return i % 37 == 5 ? 1.0 : std::abs(noise(random, 0.01));
    };
    tracks.push_back(pgTrack(
        u"pg.replication.replay_lag_s"_s, UseKind::Saturation, u"s"_s, resource, labels,
        [&](int i) { return from >= 0 && i >= from ? double(i - from) + 0.5 : healthy(i); },
        firstId));
    tracks.push_back(pgTrack(u"pg.replication.flush_lag_s"_s, UseKind::Saturation, u"s"_s, resource,
                             labels, healthy, firstId + 1));
    tracks.push_back(pgTrack(
        u"pg.replication.replay_lag_bytes"_s, UseKind::Saturation, u"B"_s, resource, labels,
        [&](int i) { return from >= 0 && i >= from ? 2e5 * (i - from) : 0.0; }, firstId + 2));
    return tracks;
}

} // namespace

class TestPgFindings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resourcesHaveTheirOwnBounds();
    void connectionsExhaustedNameTheLeak();
    void connectionHoldersAloneAreNoFinding();
    void quietServerHasNothingAboveWarning();
    void replayStoppedIsRaisedSinceItBegan();
    void shortLagIsAChange();
    void slotRetainingWal();
    void checkpointsForcedByWal();
    void mariadbReplicaBehind();
};

void TestPgFindings::resourcesHaveTheirOwnBounds()
{
    const auto bounds = [](UseColumn column, const QString &unit, const QString &resource) {
        const PanelThresholds t = defaultUseThresholds(column, unit, resource);
        return std::pair { t.warning, t.critical };
    };
    QCOMPARE(bounds(UseColumn::Utilization, u"%"_s, u"connections"_s), std::pair(80.0, 95.0));
    QCOMPARE(bounds(UseColumn::Utilization, u"%"_s, u"cpu"_s), std::pair(70.0, 90.0));
    QCOMPARE(bounds(UseColumn::Saturation, u"s"_s, u"standby:s1 (10.0.0.7)"_s),
             std::pair(10.0, 60.0));
    QCOMPARE(bounds(UseColumn::Saturation, u"s"_s, u"replica"_s), std::pair(10.0, 60.0));
    QCOMPARE(bounds(UseColumn::Saturation, u"s"_s, u"replica:east"_s), std::pair(10.0, 60.0));
    QCOMPARE(bounds(UseColumn::Saturation, u"B"_s, u"slot:s1"_s),
             std::pair(1024.0 * 1024 * 1024, 10.0 * 1024 * 1024 * 1024));
    QCOMPARE(bounds(UseColumn::Saturation, u"x"_s, u"wal"_s), std::pair(2.0, 10.0));
    // The age of a transaction (server-wide "pg") keeps having no bounds.
    QVERIFY(defaultUseThresholds(UseColumn::Saturation, u"s"_s, u"pg"_s).isEmpty());
    QVERIFY(defaultUseThresholds(UseColumn::Saturation, u"s"_s).isEmpty());
    // Errors of the connections are any / 1 as everywhere.
    QCOMPARE(bounds(UseColumn::Errors, QString(), u"connections"_s).second, 1.0);
    // Lags are backlogs; a time without resource bounds and the other units are not.
    const auto backlog = [](const QString &unit, const QString &resource) {
        return isBacklog(
            SeriesInfo { { u"pg"_s, u"m"_s, {} }, unit, resource, UseKind::Saturation, false });
    };
    QVERIFY(backlog(u"s"_s, u"standby:s1"_s));
    QVERIFY(backlog(u"s"_s, u"replica"_s));
    QVERIFY(backlog(u"B"_s, u"slot:s1"_s));
    QVERIFY(!backlog(u"s"_s, u"pg"_s));
    QVERIFY(!backlog(u"B"_s, u"standby:s1"_s));
    QVERIFY(!backlog(u"x"_s, u"wal"_s));
}

// The slots fill at bin 60 and Headroom's own reconnect is refused from bin 64: one
// finding of the connections since bin 60, naming the application and the role that
// grew, not the one that held its two sessions all along.
void TestPgFindings::connectionsExhaustedNameTheLeak()
{
    QRandomGenerator random(1);
    const std::vector<SeriesTrack> tracks = connections(60, 64, random);
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    const Finding &top = findings.front();
    QCOMPARE(top.resource, u"connections"_s);
    QVERIFY(top.kind == FindingKind::Utilization || top.kind == FindingKind::Errors);
    QVERIFY2(top.score >= CriticalScore, qPrintable(QString::number(top.score)));
    QCOMPARE(top.sinceMs, T0 + 60'000);
    QVERIFY2(top.summary.contains(u"grown: application hrleak: 8 sessions (0 before), "
                                  "user leaky: 8 sessions (0 before)"_s),
             qPrintable(top.summary));
    QVERIFY2(!top.summary.contains(u"erp"_s), qPrintable(top.summary));
    QVERIFY(top.evidenceSeriesIds.contains(1));
    QVERIFY(top.evidenceSeriesIds.contains(2));
    QVERIFY(top.evidenceSeriesIds.contains(4));
    QVERIFY(top.evidenceSeriesIds.contains(5));
    QCOMPARE(top.evidenceSeriesIds.size(), top.evidenceKeys.size());
    for (const Finding &f : findings)
        QVERIFY2(!f.signal.contains(u"by_application"_s) && !f.signal.contains(u"by_user"_s),
                 qPrintable(f.summary));
    QCOMPARE(findings.size(), size_t(1));
}

void TestPgFindings::connectionHoldersAloneAreNoFinding()
{
    QRandomGenerator random(2);
    std::vector<SeriesTrack> tracks = connections(60, -1, random);
    tracks.erase(tracks.begin()); // no utilization: only who holds the sessions
    QVERIFY(findFindings(tracks).empty());
}

// A server with healthy connections, a streaming standby (a poll a second behind now and
// then) and quiet checkpoints: nothing at or above warning.
void TestPgFindings::quietServerHasNothingAboveWarning()
{
    QRandomGenerator random(3);
    std::vector<SeriesTrack> tracks = connections(-1, -1, random);
    for (SeriesTrack &t : standby(-1, random))
        tracks.push_back(std::move(t));
    tracks.push_back(pgTrack(
        u"pg.checkpoints.wal_forced"_s, UseKind::Saturation, u"x"_s, u"wal"_s, {},
        [&](int) { return 0.2 + noise(random, 0.05); }, 30));
    tracks.push_back(pgTrack(
        u"pg.replica.replay_paused"_s, UseKind::Errors, {}, u"replica"_s, {},
        [](int) { return 0.0; }, 31));
    for (const Finding &f : findFindings(tracks))
        QVERIFY2(!f.aboveWarning(), qPrintable(f.summary));
}

// Replay stops at bin 60: the lag ramps 1 s per s, past the warning bound (10 s) at bin
// 70. Raised since the ramp began, not since it crossed the bound nor in its middle.
void TestPgFindings::replayStoppedIsRaisedSinceItBegan()
{
    QRandomGenerator random(4);
    const std::vector<SeriesTrack> tracks = standby(60, random);
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *f = findingFor(findings, u"standby standby1"_s);
    QVERIFY(f);
    QCOMPARE(f->kind, FindingKind::Saturation);
    QVERIFY(f->aboveWarning());
    QVERIFY2(f->sinceMs == T0 + 60'000, qPrintable(QString::number((f->sinceMs - T0) / 1000.0)));
    QCOMPARE(f->signal, u"pg.replication.replay_lag_s{client_addr=,standby=standby1}"_s);
    QVERIFY2(f->summary.contains(u"60 s behind at worst, past 10 s from "_s),
             qPrintable(f->summary));
    QVERIFY2(f->summary.endsWith(u"(warning)"_s), qPrintable(f->summary)); // 59.5 s < 60
    QCOMPARE(f->rank, 1);
}

// The lag ramps only for the last 12 s of the range: past the bound for 2 s, a change.
void TestPgFindings::shortLagIsAChange()
{
    QRandomGenerator random(5);
    const std::vector<SeriesTrack> tracks = standby(N - 12, random);
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *f = findingFor(findings, u"standby standby1"_s);
    QVERIFY(f);
    QVERIFY2(!f->aboveWarning(), qPrintable(f->summary));
}

// A slot nobody consumes retains WAL written at 20 MB/s from bin 20: past 1 GiB at bin
// 74; named by the slot, since the WAL began to pile up.
void TestPgFindings::slotRetainingWal()
{
    const Labels labels { { u"slot"_s, u"s1"_s }, { u"type"_s, u"physical"_s } };
    std::vector<SeriesTrack> tracks;
    tracks.push_back(pgTrack(
        u"pg.replication.slot.retained_bytes"_s, UseKind::Saturation, u"B"_s, u"slot:s1"_s, labels,
        [](int i) { return i < 20 ? 16e6 : 16e6 + 20e6 * (i - 20); }, 1));
    tracks.push_back(pgTrack(
        u"pg.replication.slot.active"_s, UseKind::Info, {}, u"slot:s1"_s, labels,
        [](int) { return 0.0; }, 2));
    const std::vector<Finding> findings = findFindings(tracks);
    const Finding *f = findingFor(findings, u"replication slot s1"_s);
    QVERIFY(f);
    QVERIFY2(f->aboveWarning(), qPrintable(f->summary));
    QCOMPARE(f->kind, FindingKind::Saturation);
    QVERIFY2(f->sinceMs <= T0 + 22'000, qPrintable(QString::number((f->sinceMs - T0) / 1000.0)));
    QVERIFY2(f->summary.contains(u"GiB retained at worst"_s), qPrintable(f->summary));
}

// The write rate steps up at bin 60: at 30 MB/s the WAL forces a checkpoint every 19 s
// against checkpoint_timeout 300 s, 16 a timeout.
void TestPgFindings::checkpointsForcedByWal()
{
    QRandomGenerator random(6);
    std::vector<SeriesTrack> tracks;
    tracks.push_back(pgTrack(
        u"pg.checkpoints.wal_forced"_s, UseKind::Saturation, u"x"_s, u"wal"_s, {},
        [&](int i) { return i < 60 ? 0.2 + noise(random, 0.02) : 16.0; }, 1));
    tracks.push_back(pgTrack(
        u"pg.wal.bytes.rate"_s, UseKind::Throughput, u"B/s"_s, u"wal"_s, {},
        [&](int i) { return i < 60 ? 4e5 : 30e6; }, 2));
    tracks.push_back(pgTrack(
        u"pg.checkpoints.timeout_s"_s, UseKind::Info, u"s"_s, u"wal"_s, {},
        [](int) { return 300.0; }, 3));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    const Finding &top = findings.front();
    QCOMPARE(top.resource, u"WAL and checkpoints"_s);
    QCOMPARE(top.kind, FindingKind::Saturation);
    QVERIFY2(top.score >= CriticalScore, qPrintable(top.summary));
    QCOMPARE(top.sinceMs, T0 + 60'000);
    QVERIFY2(top.summary.contains(u"max_wal_size too small for this write rate: WAL at "_s),
             qPrintable(top.summary));
    QVERIFY2(top.summary.contains(u"forces a checkpoint every 19 s against checkpoint_timeout "
                                  "5 min"_s),
             qPrintable(top.summary));
}

// MariaDB's replica (resource "replica") falls behind as PostgreSQL's standby does.
void TestPgFindings::mariadbReplicaBehind()
{
    std::vector<SeriesTrack> tracks;
    tracks.push_back(track(
        info(u"mariadb.replication.lag_s"_s, UseKind::Saturation, u"s"_s, u"replica"_s, u"maria"_s,
             { { u"connection"_s, QString() } }),
        N, [](int i) { return i < 50 ? 0.0 : double(i - 50); }, 1));
    tracks.push_back(track(
        info(u"mariadb.replication.stopped"_s, UseKind::Errors, {}, u"replica"_s, u"maria"_s,
             { { u"connection"_s, QString() } }),
        N, [](int) { return 0.0; }, 2));
    const std::vector<Finding> findings = findFindings(tracks);
    QVERIFY(!findings.empty());
    QCOMPARE(findings.front().resource, u"replication"_s);
    QVERIFY(findings.front().aboveWarning());
    QVERIFY(findings.front().sinceMs <= T0 + 51'000);
}

QTEST_GUILESS_MAIN(TestPgFindings)
#include "tst_pgfindings.moc"
