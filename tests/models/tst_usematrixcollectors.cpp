// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The USE matrix of the shipped dashboards over what real collectors publish: the host
// and nic collectors over fixture trees with known values, and PostgreSQL-shaped series
// (databases, shard sets), through SampleBus -> LiveBuffers -> SeriesStore; resources and
// cells, stale values, an options override, CSV rows, the chart of a cell and the table
// model (QAbstractItemModelTester). The database dashboards show their server's host:
// its rows in their matrix, from a host source that reads this machine for a server on
// a local socket or loopback and asks for the host of one elsewhere.
#include "../collectors/collectortestutil.h"
#include "collector/hosttransport.h"
#include "core/jsonreader.h"
#include "document/dashboardfile.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "hostcollector.h"
#include "itemmodels/usematrixmodel.h"
#include "niccollector.h"
#include "query/csvexport.h"
#include "query/panelquery.h"
#include "query/use/usematrix.h"
#include "query/use/usematrixquery.h"
#include "usematrixtestutil.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

class TestUseMatrixCollectors : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void collectorResources();
    void collectorCells_data();
    void collectorCells();
    void staleByOwnSpacing();
    void postgresResources();
    void databaseDashboardsHostRows_data();
    void databaseDashboardsHostRows();
    void databaseDashboardsHostSource_data();
    void databaseDashboardsHostSource();
    void optionsOverride();
    void csvRowsPerCell();
    void chartOfCell();
    void model();

private:
    void publishPostgres(qint64 ts, double ordersLoad);

    SeriesRegistry m_registry;
    LiveBuffers m_live { 1000 };
    SampleBus m_bus { &m_registry };
    UseMatrix m_host; // from the host and nic collectors at At, shipped panel
};

void TestUseMatrixCollectors::initTestCase()
{
    m_bus.addSink(&m_live);
    // The real collectors over fixture trees with known numbers, under the source ids
    // of the shipped host dashboard.
    FixtureHarness host(
        u"host/known/t0"_s, [](std::unique_ptr<FileSource> source, const FakeClock &clock) {
            CollectorConfig config;
            config.sourceId = u"host"_s;
            return std::make_unique<HostCollector>(config, std::move(source), clock);
        });
    FixtureHarness nic(
        u"nic/known/t0"_s, [](std::unique_ptr<FileSource> source, const FakeClock &clock) {
            CollectorConfig config;
            config.sourceId = u"nic"_s;
            QString error;
            const auto options = NicCollector::parseOptions(
                QJsonObject { { u"speedMbps"_s, QJsonObject { { u"virt1"_s, 100 } } } }, &error);
            if (!options)
                qFatal("%s", qPrintable(error));
            return std::make_unique<NicCollector>(config, *options, std::move(source), clock);
        });
    m_bus.publish(host.poll(u"host/known/t0"_s, T0).batch);
    m_bus.publish(nic.poll(u"nic/known/t0"_s, T0).batch);
    m_bus.publish(host.poll(u"host/known/t1"_s, At).batch);
    m_bus.publish(nic.poll(u"nic/known/t1"_s, At).batch);

    const SeriesStore store(&m_live, nullptr);
    const DashboardPanel panel = shippedMatrixPanel(u"host-use.json"_s);
    QCOMPARE(panel.type, PanelType::UseMatrix);
    QCOMPARE(panel.layout, (PanelLayout { 0, 0, 12, 5 })); // first, full width
    const PanelData data = queryPanel(panel, m_registry, store, At - 15 * 60'000, At, 800);
    QCOMPARE(data.panelId, u"use-matrix"_s);
    QVERIFY(data.series.isEmpty());
    m_host = data.as<UseMatrix>();
    QCOMPARE(m_host.atMs, At);
}

void TestUseMatrixCollectors::collectorResources()
{
    // lo is left out by the nic collector; "disk" is host.io.psi (the whole host's
    // I/O pressure); tcp comes last with the other resources outside the groups.
    QCOMPARE(resources(m_host),
             (QStringList { u"cpu"_s, u"memory"_s, u"disk"_s, u"disk:nvme0n1"_s, u"disk:sda"_s,
                            u"fd"_s, u"nic:eth0"_s, u"nic:veth0"_s, u"nic:virt1"_s, u"tcp"_s }));
    QStringList labels;
    for (const UseMatrixRow &row : std::as_const(m_host.rows))
        labels << row.label;
    QCOMPARE(labels,
             (QStringList { u"CPU"_s, u"Memory"_s, u"Disks (all)"_s, u"Disk nvme0n1"_s,
                            u"Disk sda"_s, u"File handles"_s, u"NIC eth0"_s, u"NIC veth0"_s,
                            u"NIC virt1"_s, u"TCP"_s }));
}

void TestUseMatrixCollectors::collectorCells_data()
{
    QTest::addColumn<QString>("resource");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("level");
    QTest::addColumn<QString>("headline");
    QTest::addColumn<int>("seriesCount");
    const int U = int(UseColumn::Utilization), S = int(UseColumn::Saturation),
              E = int(UseColumn::Errors);
    const int ok = int(UseLevel::Ok), warn = int(UseLevel::Warning), crit = int(UseLevel::Critical),
              none = int(UseLevel::NotMeasured);
    // Known values: see tst_hostcollector and tst_niccollector.
    QTest::newRow("cpu U: all CPUs, not the idle mode")
        << u"cpu"_s << U << u"30 %"_s << ok << u"host.cpu.utilization{cpu=all}"_s << 1;
    // Run queue 2.5 per CPU (warning, 1/4) loses to PSI some 25 % (critical, 10/25).
    QTest::newRow("cpu S: worst level wins")
        << u"cpu"_s << S << u"25 %"_s << crit << u"host.cpu.psi{kind=some}"_s << 3;
    QTest::newRow("cpu E: none") << u"cpu"_s << E << QString() << none << QString() << 0;
    QTest::newRow("memory U 75 %")
        << u"memory"_s << U << u"75 %"_s << warn << u"host.mem.utilization"_s << 1;
    // swap in 100, out 200, scan 500 pages/s are all critical: the largest shows.
    QTest::newRow("memory S: equal level, largest value")
        << u"memory"_s << S << u"500 pages/s"_s << crit << u"host.mem.page_scan"_s << 4;
    QTest::newRow("memory E: an OOM kill per second")
        << u"memory"_s << E << u"1 /s"_s << crit << u"host.mem.oom_kills"_s << 1;
    QTest::newRow("io pressure") << u"disk"_s << S << u"20 %"_s << warn
                                 << u"host.io.psi{kind=some}"_s << 1;
    QTest::newRow("nvme U clamped") << u"disk:nvme0n1"_s << U << u"100 %"_s << crit
                                    << u"host.disk.utilization{device=nvme0n1}"_s << 1;
    QTest::newRow("nvme S") << u"disk:nvme0n1"_s << S << u"0.1"_s << ok
                            << u"host.disk.queue{device=nvme0n1}"_s << 1;
    QTest::newRow("nvme E: no ioerr_cnt")
        << u"disk:nvme0n1"_s << E << QString() << none << QString() << 0;
    QTest::newRow("sda U") << u"disk:sda"_s << U << u"50 %"_s << ok
                           << u"host.disk.utilization{device=sda}"_s << 1;
    QTest::newRow("sda S") << u"disk:sda"_s << S << u"1.5"_s << warn
                           << u"host.disk.queue{device=sda}"_s << 1;
    QTest::newRow("sda E") << u"disk:sda"_s << E << u"2 /s"_s << crit
                           << u"host.disk.errors{device=sda}"_s << 1;
    QTest::newRow("eth0 U: rx of rx and tx")
        << u"nic:eth0"_s << U << u"20 %"_s << ok
        << u"nic.utilization{direction=rx,interface=eth0}"_s << 2;
    QTest::newRow("eth0 S: drops")
        << u"nic:eth0"_s << S << u"10 /s"_s << warn << u"nic.rx.drops{interface=eth0}"_s << 2;
    QTest::newRow("eth0 E") << u"nic:eth0"_s << E << u"2 /s"_s << crit
                            << u"nic.rx.errors{interface=eth0}"_s << 2;
    QTest::newRow("veth0 U: no link speed")
        << u"nic:veth0"_s << U << QString() << none << QString() << 0;
    QTest::newRow("virt1 U") << u"nic:virt1"_s << U << u"10 %"_s << ok
                             << u"nic.utilization{direction=rx,interface=virt1}"_s << 2;
    QTest::newRow("virt1 S") << u"nic:virt1"_s << S << u"2 /s"_s << warn
                             << u"nic.rx.drops{interface=virt1}"_s << 2;
    // Retransmits 2.5 % (warning, 1/5 %) lose to listen drops of 14 /s (critical, any/1).
    QTest::newRow("tcp E: listen drops, critical")
        << u"tcp"_s << E << u"14 /s"_s << crit << u"tcp.listen_drops"_s << 2;
    QTest::newRow("tcp S: listen overflows")
        << u"tcp"_s << S << u"10 /s"_s << warn << u"tcp.listen_overflows"_s << 1;
    QTest::newRow("file handles U: 2,000 of 100,000")
        << u"fd"_s << U << u"2 %"_s << ok << u"host.fd.utilization"_s << 1;
}

void TestUseMatrixCollectors::collectorCells()
{
    QFETCH(QString, resource);
    QFETCH(int, column);
    QFETCH(QString, text);
    QFETCH(int, level);
    QFETCH(QString, headline);
    QFETCH(int, seriesCount);
    const UseCell &cell = cellOf(m_host, resource, UseColumn(column));
    QCOMPARE(figure(cell), text);
    QCOMPARE(int(cell.level), level);
    QCOMPARE(headlineName(cell), headline);
    QCOMPARE(cell.series.size(), seriesCount);
    QVERIFY(!cell.stale);
    if (const UseCellSeries *s = cell.headlineSeries()) {
        QCOMPARE(s->latest->tsMs, At);
        QCOMPARE(s->ageMs, 0);
        // Raised cells tell since when; the fixtures' values hold to the second poll.
        if (cell.raised()) {
            QVERIFY(cell.ongoing);
            QVERIFY(cell.sinceMs == T0 || cell.sinceMs == At);
            QCOMPARE(UseMatrixModel::cellText(cell, At),
                     text + u" since "_s + localHm(cell.sinceMs));
        } else {
            QCOMPARE(cell.sinceMs, -1);
            QCOMPARE(UseMatrixModel::cellText(cell, At), text);
        }
    }
}

void TestUseMatrixCollectors::staleByOwnSpacing()
{
    // 7 s after the second poll: the gauges (two samples 2 s apart: stale after 6 s)
    // are stale, the rates (one sample: spacing unknown, stale after 10 s) are not.
    const SeriesStore store(&m_live, nullptr);
    const DashboardPanel panel = shippedMatrixPanel(u"host-use.json"_s);
    const UseMatrix later
        = queryPanel(panel, m_registry, store, T0 - 60'000, At + 7000, 0).as<UseMatrix>();
    // Stale, but the worst of the range still shows, at its level: memory was at 75 %
    // from the first poll to the second, and nothing has come since.
    const UseCell &memory = cellOf(later, u"memory"_s, UseColumn::Utilization);
    QCOMPARE(memory.level, UseLevel::Warning);
    QVERIFY(memory.stale);
    QVERIFY(!memory.ongoing);
    QCOMPARE(memory.sinceMs, T0);
    QCOMPARE(memory.untilMs, At);
    QCOMPARE(UseMatrixModel::cellText(memory, At + 7000),
             localHm(T0) == localHm(At) ? QString(u"75 % at "_s + localHm(At))
                                        : u"75 % "_s + localHm(T0) + u'–' + localHm(At));
    QCOMPARE(memory.series.constFirst().ageMs, 7000);
    const UseCell &cpu = cellOf(later, u"cpu"_s, UseColumn::Utilization);
    QCOMPARE(cpu.level, UseLevel::Ok);
    QVERIFY(!cpu.stale);
    QCOMPARE(UseMatrixModel::cellText(cpu, At + 7000), u"30 %"_s);
    // The saturation gauges are stale, the PSI rate is not; PSI is still the worst.
    const UseCell &cpuSat = cellOf(later, u"cpu"_s, UseColumn::Saturation);
    QCOMPARE(headlineName(cpuSat), u"host.cpu.psi{kind=some}"_s);
    QVERIFY(!cpuSat.stale);
    int stale = 0;
    for (const UseCellSeries &s : cpuSat.series)
        stale += s.stale;
    QCOMPARE(stale, 2); // runqueue_per_cpu and load.per_cpu

    // 11 s later everything is stale; the rows and their worst figures stay.
    const UseMatrix gone
        = queryPanel(panel, m_registry, store, T0 - 60'000, At + 11'000, 0).as<UseMatrix>();
    QCOMPARE(resources(gone), resources(m_host));
    for (const UseMatrixRow &row : gone.rows) {
        for (const UseCell &cell : row.cells) {
            QVERIFY(cell.level == UseLevel::NotMeasured || cell.stale);
            QVERIFY(!cell.ongoing);
        }
    }
    QCOMPARE(cellOf(gone, u"cpu"_s, UseColumn::Saturation).level, UseLevel::Critical);
    // Far beyond the look-back window, a range that still holds the polls keeps them.
    QCOMPARE(resources(queryPanel(panel, m_registry, store, T0 - 60'000, At + UseLookbackMs + 1, 0)
                           .as<UseMatrix>()),
             resources(m_host));
    // A range after the polls has nothing to show.
    QVERIFY(queryPanel(panel, m_registry, store, At + 1, At + 60'000, 0)
                .as<UseMatrix>()
                .rows.isEmpty());
}

void TestUseMatrixCollectors::publishPostgres(qint64 ts, double ordersLoad)
{
    // Shaped as the postgres collector publishes them (pgstatdatabase.cpp, pgtables.cpp,
    // pgactivity.cpp).
    SampleBatch batch;
    batch.source = u"pg"_s;
    batch.tsMs = ts;
    for (const QString &db : { u"app"_s, u"postgres"_s }) {
        const Labels labels { { u"datname"_s, db } };
        const QString resource = u"db:"_s + db;
        batch.add({ u"pg"_s, u"pg.db.commits.rate"_s, labels }, u"1/s"_s, resource,
                  UseKind::Throughput, 100);
        batch.add({ u"pg"_s, u"pg.db.rollbacks.rate"_s, labels }, u"1/s"_s, resource,
                  UseKind::Errors, db == "app"_L1 ? 0.5 : 0);
        batch.add({ u"pg"_s, u"pg.db.deadlocks.rate"_s, labels }, u"1/s"_s, resource,
                  UseKind::Errors, 0);
        batch.add({ u"pg"_s, u"pg.db.temp_files.rate"_s, labels }, u"1/s"_s, resource,
                  UseKind::Saturation, 0);
        batch.add({ u"pg"_s, u"pg.db.temp_bytes.rate"_s, labels }, u"B/s"_s, resource,
                  UseKind::Saturation, db == "app"_L1 ? 2e6 : 0);
    }
    for (const QString &set : { u"public.orders"_s, u"public.events"_s }) {
        const QString resource = u"shardset:"_s + set;
        const double load = set == "public.orders"_L1 ? ordersLoad : 40;
        batch.add({ u"pg"_s, u"pg.shardset.load.max"_s, { { u"set"_s, set } } }, u"%"_s, resource,
                  UseKind::Utilization, load);
        batch.add(
            { u"pg"_s, u"pg.shard.load"_s, { { u"set"_s, set }, { u"shard"_s, set + u"_1"_s } } },
            u"%"_s, resource, UseKind::Utilization, load);
        batch.add(
            { u"pg"_s, u"pg.shard.load"_s, { { u"set"_s, set }, { u"shard"_s, set + u"_2"_s } } },
            u"%"_s, resource, UseKind::Utilization, load / 2);
    }
    batch.add({ u"pg"_s, u"pg.activity.waiting"_s, { { u"wait"_s, u"Lock:tuple"_s } } }, QString(),
              u"pg"_s, UseKind::Saturation, 3);
    // The pages of a primary: its connection slots, a standby behind, a slot, the WAL.
    batch.add({ u"pg"_s, u"pg.connections.utilization"_s, {} }, u"%"_s, u"connections"_s,
              UseKind::Utilization, 85);
    batch.add({ u"pg"_s, u"pg.connections.refused"_s, {} }, QString(), u"connections"_s,
              UseKind::Errors, 0);
    batch.add({ u"pg"_s,
                u"pg.replication.replay_lag_s"_s,
                { { u"standby"_s, u"standby1"_s }, { u"client_addr"_s, u"10.0.0.7"_s } } },
              u"s"_s, u"standby:standby1 (10.0.0.7)"_s, UseKind::Saturation, 12);
    batch.add({ u"pg"_s,
                u"pg.replication.slot.retained_bytes"_s,
                { { u"slot"_s, u"standby1"_s }, { u"type"_s, u"physical"_s } } },
              u"B"_s, u"slot:standby1"_s, UseKind::Saturation, 1e6);
    batch.add({ u"pg"_s, u"pg.checkpoints.wal_forced"_s, {} }, u"x"_s, u"wal"_s,
              UseKind::Saturation, 0.2);
    m_bus.publish(batch);
}

void TestUseMatrixCollectors::postgresResources()
{
    for (int i = 0; i < 5; ++i)
        publishPostgres(T0 + i * 1000, 95);
    const SeriesStore store(&m_live, nullptr);
    const DashboardPanel panel = shippedMatrixPanel(u"postgres-use.json"_s);
    QCOMPARE(panel.layout, (PanelLayout { 0, 0, 12, 4 })); // first, full width
    const UseMatrix m = queryPanel(panel, m_registry, store, T0, T0 + 4000, 0).as<UseMatrix>();
    // The server's host and its network (the host and nic collectors' polls of
    // initTestCase), then connections, databases, shard sets, WAL, standbys, slots; the
    // server-wide "pg" series are not selected.
    QCOMPARE(resources(m).join(u", "_s),
             (QStringList { u"cpu"_s, u"memory"_s, u"disk"_s, u"disk:nvme0n1"_s, u"disk:sda"_s,
                            u"nic:eth0"_s, u"nic:veth0"_s, u"nic:virt1"_s, u"tcp"_s,
                            u"connections"_s, u"db:app"_s, u"db:postgres"_s,
                            u"shardset:public.events"_s, u"shardset:public.orders"_s, u"wal"_s,
                            u"standby:standby1 (10.0.0.7)"_s, u"slot:standby1"_s })
                 .join(u", "_s));
    QCOMPARE(m.rows.at(0).label, u"CPU"_s);
    QCOMPARE(m.rows.at(5).label, u"NIC eth0"_s);
    QCOMPARE(m.rows.at(8).label, u"TCP"_s);
    QCOMPARE(m.rows.at(9).label, u"Connections"_s);
    QCOMPARE(m.rows.at(10).label, u"Database app"_s);
    QCOMPARE(m.rows.at(13).label, u"Shard set public.orders"_s);
    QCOMPARE(m.rows.at(15).label, u"Standby standby1 (10.0.0.7)"_s);
    // By their own bounds: 85 % of the slots a warning (80 / 95), 12 s behind a warning
    // (10 / 60), 1 MB retained and 0.2 forced checkpoints fine.
    QCOMPARE(cellOf(m, u"connections"_s, UseColumn::Utilization).level, UseLevel::Warning);
    QCOMPARE(cellOf(m, u"connections"_s, UseColumn::Errors).level, UseLevel::Ok);
    QCOMPARE(cellOf(m, u"standby:standby1 (10.0.0.7)"_s, UseColumn::Saturation).level,
             UseLevel::Warning);
    QCOMPARE(cellOf(m, u"slot:standby1"_s, UseColumn::Saturation).level, UseLevel::Ok);
    QCOMPARE(cellOf(m, u"wal"_s, UseColumn::Saturation).level, UseLevel::Ok);
    const UseCell &orders = cellOf(m, u"shardset:public.orders"_s, UseColumn::Utilization);
    QCOMPARE(orders.level, UseLevel::Critical);
    QCOMPARE(figure(orders), u"95 %"_s);
    // 95 % from the first poll on and still: since the first poll.
    QCOMPARE(orders.sinceMs, T0);
    QVERIFY(orders.ongoing);
    QCOMPARE(UseMatrixModel::cellText(orders, T0 + 4000), u"95 % since "_s + localHm(T0));
    QCOMPARE(orders.series.size(), 3); // the set's max and both shards, for the chart
    QCOMPARE(cellOf(m, u"shardset:public.events"_s, UseColumn::Utilization).level, UseLevel::Ok);
    QCOMPARE(cellOf(m, u"db:app"_s, UseColumn::Utilization).level, UseLevel::NotMeasured);
    // Rollbacks 0.5/s: an error, not yet one per second.
    const UseCell &appErrors = cellOf(m, u"db:app"_s, UseColumn::Errors);
    QCOMPARE(appErrors.level, UseLevel::Warning);
    QCOMPARE(headlineName(appErrors), u"pg.db.rollbacks.rate{datname=app}"_s);
    QCOMPARE(cellOf(m, u"db:postgres"_s, UseColumn::Errors).level, UseLevel::Ok);
    const UseCell &appSat = cellOf(m, u"db:app"_s, UseColumn::Saturation);
    QCOMPARE(figure(appSat), u"1.9 MiB/s"_s); // 2,000,000 B/s
    QCOMPARE(appSat.level, UseLevel::Warning);
}

void TestUseMatrixCollectors::databaseDashboardsHostRows_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("postgres-use") << u"postgres-use.json"_s;
    QTest::newRow("mariadb-use") << u"mariadb-use.json"_s;
}

void TestUseMatrixCollectors::databaseDashboardsHostRows()
{
    QFETCH(QString, file);
    // The host collector's polls of initTestCase, under the source id these dashboards
    // give their host source too.
    const SeriesStore store(&m_live, nullptr);
    const DashboardPanel panel = shippedMatrixPanel(file);
    const UseMatrix m = queryPanel(panel, m_registry, store, T0, At, 0).as<UseMatrix>();
    const QStringList shown = resources(m);
    for (const QString &resource : { u"cpu"_s, u"memory"_s, u"disk"_s, u"disk:nvme0n1"_s,
                                     u"disk:sda"_s, u"nic:eth0"_s, u"tcp"_s })
        QVERIFY2(shown.contains(resource),
                 qPrintable(resource + u" not in "_s + shown.join(u", ")));
    // The same cells as on the host dashboard.
    for (const UseColumn column : { UseColumn::Utilization, UseColumn::Saturation }) {
        QCOMPARE(figure(cellOf(m, u"cpu"_s, column)), figure(cellOf(m_host, u"cpu"_s, column)));
        QCOMPARE(figure(cellOf(m, u"memory"_s, column)),
                 figure(cellOf(m_host, u"memory"_s, column)));
    }
    QCOMPARE(figure(cellOf(m, u"cpu"_s, UseColumn::Utilization)), u"30 %"_s);
    // And its network: the nic collector's polls, under the source id "nic" of both.
    for (const UseColumn column : { UseColumn::Utilization, UseColumn::Errors })
        QCOMPARE(figure(cellOf(m, u"nic:eth0"_s, column)),
                 figure(cellOf(m_host, u"nic:eth0"_s, column)));
    QCOMPARE(figure(cellOf(m, u"tcp"_s, UseColumn::Errors)),
             figure(cellOf(m_host, u"tcp"_s, UseColumn::Errors)));
}

void TestUseMatrixCollectors::databaseDashboardsHostSource_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("variable"); // the server's
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("host"); // the host variable, empty: its default
    QTest::addColumn<QString>("refused"); // a word of the refusal; empty: this machine
    QTest::newRow("pg socket") << u"postgres-use.json"_s << u"pg"_s
                               << u"host=/run/postgresql dbname=shop"_s << QString() << QString();
    QTest::newRow("pg loopback") << u"postgres-use.json"_s << u"pg"_s
                                 << u"host=127.0.0.1 port=5432 dbname=shop"_s << QString()
                                 << QString();
    QTest::newRow("pg localhost uri")
        << u"postgres-use.json"_s << u"pg"_s << u"postgresql://monitor@localhost/shop"_s
        << QString() << QString();
    QTest::newRow("pg remote") << u"postgres-use.json"_s << u"pg"_s << u"host=db1 dbname=shop"_s
                               << QString() << u"on db1, not on this machine"_s;
    QTest::newRow("pg remote, its host given")
        << u"postgres-use.json"_s << u"pg"_s << u"host=db1 dbname=shop"_s << u"ssh://ops@db1"_s
        << QString();
    QTest::newRow("mariadb socket")
        << u"mariadb-use.json"_s << u"server"_s
        << u"mariadb:///shop?socket=/run/mysqld/mysqld.sock"_s << QString() << QString();
    QTest::newRow("mariadb loopback")
        << u"mariadb-use.json"_s << u"server"_s << u"mariadb://monitor@127.0.0.1:3306/shop"_s
        << QString() << QString();
    QTest::newRow("mariadb remote")
        << u"mariadb-use.json"_s << u"server"_s << u"mariadb://monitor@db2/shop"_s << QString()
        << u"on db2, not on this machine"_s;
}

void TestUseMatrixCollectors::databaseDashboardsHostSource()
{
    QFETCH(QString, file);
    QFETCH(QString, variable);
    QFETCH(QString, server);
    QFETCH(QString, host);
    QFETCH(QString, refused);
    const DashboardLoadResult loaded = loadDashboard(shipped(file));
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    QMap<QString, QString> typed { { variable, server } };
    if (!host.isEmpty())
        typed.insert(u"host"_s, host);
    const QMap<QString, QString> values = loaded.dashboard->resolveVariables(typed);
    QCOMPARE(values.value(u"host"_s), host); // empty by default: it follows the server
    // The host and its network follow the server alike, under the ids the matrix selects.
    for (const QString &plugin : { u"host"_s, u"nic"_s }) {
        const auto source
            = std::find_if(loaded.dashboard->sources.cbegin(), loaded.dashboard->sources.cend(),
                           [&plugin](const DashboardSource &s) { return s.plugin == plugin; });
        QVERIFY2(source != loaded.dashboard->sources.cend(), qPrintable(plugin));
        QCOMPARE(source->id, plugin);
        QString unknown;
        const QJsonObject config = substituteVariables(source->config, values, &unknown);
        QVERIFY2(unknown.isEmpty(), qPrintable(unknown));
        QString error;
        const auto transport = parseHostTransport(config, &error);
        if (refused.isEmpty()) {
            QVERIFY2(transport, qPrintable(error));
            QCOMPARE(transport->kind,
                     host.isEmpty() ? HostTransport::Kind::Local : HostTransport::Kind::Ssh);
        } else {
            QVERIFY(!transport);
            QVERIFY2(error.contains(refused) && error.contains(u"host variable"_s),
                     qPrintable(error));
        }
    }
}

void TestUseMatrixCollectors::optionsOverride()
{
    const QJsonObject options {
        { u"thresholds"_s,
          QJsonObject {
              { u"utilization"_s, QJsonObject { { u"warning"_s, 50 }, { u"critical"_s, 60 } } },
              { u"errors"_s, QJsonObject { { u"critical"_s, 10 } } },
          } }
    };
    JsonReader reader;
    const auto parsed = readUseMatrixOptions(reader, options, u"options"_s);
    QVERIFY2(parsed, qPrintable(reader.error().toString()));
    // Overridden columns use exactly the given bounds, for every unit.
    QCOMPARE(parsed->thresholdsFor(UseColumn::Utilization, u"%"_s).level(55), 1);
    QCOMPARE(parsed->thresholdsFor(UseColumn::Utilization, u"%"_s).level(65), 2);
    QCOMPARE(parsed->thresholdsFor(UseColumn::Utilization, u"1/s"_s).level(65), 2);
    QCOMPARE(parsed->thresholdsFor(UseColumn::Errors, u"1/s"_s).level(5), 0); // no warning
    QCOMPARE(parsed->thresholdsFor(UseColumn::Errors, u"1/s"_s).level(10), 2);
    // Saturation keeps its defaults.
    QCOMPARE(parsed->thresholdsFor(UseColumn::Saturation, u"%"_s),
             defaultUseThresholds(UseColumn::Saturation, u"%"_s));

    // Through the query: the host matrix with the override.
    DashboardPanel panel = shippedMatrixPanel(u"host-use.json"_s);
    panel.options = options;
    const SeriesStore store(&m_live, nullptr);
    const UseMatrix m = queryPanel(panel, m_registry, store, T0, At, 0).as<UseMatrix>();
    QCOMPARE(cellOf(m, u"disk:sda"_s, UseColumn::Utilization).level, UseLevel::Warning); // 50 %
    QCOMPARE(cellOf(m, u"cpu"_s, UseColumn::Utilization).level, UseLevel::Ok); // 30 %
    QCOMPARE(cellOf(m, u"disk:sda"_s, UseColumn::Errors).level, UseLevel::Ok); // 2/s < 10
    QCOMPARE(cellOf(m, u"memory"_s, UseColumn::Utilization).level, UseLevel::Critical); // 75
    QCOMPARE(cellOf(m, u"memory"_s, UseColumn::Utilization).series.constFirst().thresholds.warning,
             50.0);
}

void TestUseMatrixCollectors::csvRowsPerCell()
{
    PanelData data;
    data.panelId = u"use-matrix"_s;
    data.payload = m_host;
    const QStringList lines = QString::fromUtf8(csvRows(data)).split(u"\r\n"_s, Qt::SkipEmptyParts);
    int withValue = 0;
    for (const UseMatrixRow &row : std::as_const(m_host.rows)) {
        for (const UseCell &cell : row.cells)
            withValue += cell.hasValue();
    }
    QCOMPARE(lines.size(), withValue);
    QVERIFY(withValue >= 20);
    // Raised cells carry their level and since when (one sample, at the second poll).
    QVERIFY2(lines.contains(u"2023-11-14T22:13:22.000Z,use-matrix,host,host.disk.queue,"
                            "\"{device=sda,level=warning,resource=disk:sda,"
                            "since=2023-11-14T22:13:22.000Z,use=saturation}\",1.5,"_s),
             qPrintable(lines.join(u'\n')));
    QVERIFY2(lines.contains(u"2023-11-14T22:13:22.000Z,use-matrix,host,host.cpu.psi,"
                            "\"{kind=some,level=critical,resource=cpu,"
                            "since=2023-11-14T22:13:22.000Z,use=saturation}\",25,%"_s),
             qPrintable(lines.join(u'\n')));
    // An ok cell only gains use= and resource=.
    QVERIFY2(lines.contains(u"2023-11-14T22:13:22.000Z,use-matrix,host,host.cpu.utilization,"
                            "\"{cpu=all,resource=cpu,use=utilization}\",30,%"_s),
             qPrintable(lines.join(u'\n')));
    // Unmeasured (cpu errors) cells and those without a sample in range give no row.
    for (const QString &line : lines)
        QVERIFY(!line.contains(u"resource=cpu,use=errors"_s));
    std::get<UseMatrix>(data.payload).rows.first().cells[0].level = UseLevel::Stale;
    QCOMPARE(QString::fromUtf8(csvRows(data)).split(u"\r\n"_s, Qt::SkipEmptyParts).size(),
             withValue - 1);
}

void TestUseMatrixCollectors::chartOfCell()
{
    DashboardPanel matrixPanel = shippedMatrixPanel(u"host-use.json"_s);
    const UseMatrixRow &eth0 = m_host.rows.at(m_host.rowOf(u"nic:eth0"_s));
    const DashboardPanel chart = useCellChart(matrixPanel, eth0, UseColumn::Saturation);
    QCOMPARE(chart.type, PanelType::TimeSeries);
    QCOMPARE(chart.title, u"NIC eth0 — Saturation"_s);
    QCOMPARE(chart.unit, u"1/s"_s);
    QCOMPARE(chart.series,
             (QList<SeriesSelector> {
                 { u"nic"_s, u"nic.rx.drops"_s, { { u"interface"_s, u"eth0"_s } } },
                 { u"nic"_s, u"nic.tx.drops"_s, { { u"interface"_s, u"eth0"_s } } } }));
    QCOMPARE(chart.thresholds, defaultUseThresholds(UseColumn::Saturation, u"1/s"_s));
    // The selectors chart exactly the cell's series.
    QList<int> expected;
    for (const UseCellSeries &s : eth0.cell(UseColumn::Saturation).series)
        expected << s.seriesId;
    std::sort(expected.begin(), expected.end());
    QList<int> matched = matchSeries(chart.series, m_registry);
    std::sort(matched.begin(), matched.end());
    QCOMPARE(matched, expected);

    // Mixed units: no common axis unit; the headline's bounds.
    const UseMatrixRow &cpu = m_host.rows.at(m_host.rowOf(u"cpu"_s));
    const DashboardPanel cpuChart = useCellChart(matrixPanel, cpu, UseColumn::Saturation);
    QCOMPARE(cpuChart.series.size(), 3);
    QVERIFY(cpuChart.unit.isEmpty());
    QCOMPARE(cpuChart.thresholds, defaultUseThresholds(UseColumn::Saturation, u"%"_s));
    QCOMPARE(cpuChart.title, u"CPU — Saturation"_s);
}

void TestUseMatrixCollectors::model()
{
    UseMatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy levels(&model, &UseMatrixModel::levelChanged);
    QCOMPARE(model.rowCount(), 0);

    model.setMatrix(m_host);
    QCOMPARE(resets.size(), 1);
    QCOMPARE(model.rowCount(), m_host.rows.size());
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), u"Utilization"_s);
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), u"Errors"_s);
    QCOMPARE(model.headerData(4, Qt::Vertical).toString(), u"Disk sda"_s);
    QCOMPARE(model.headerData(4, Qt::Vertical, Qt::ToolTipRole).toString(),
             u"disk:sda on source host"_s);
    QCOMPARE(model.headerData(4, Qt::Vertical, UseMatrixModel::SourceRole).toString(), u"host"_s);
    QCOMPARE(model.headerData(5, Qt::Vertical, UseMatrixModel::SourceRole).toString(), u"host"_s);
    QCOMPARE(model.headerData(6, Qt::Vertical, UseMatrixModel::SourceRole).toString(), u"nic"_s);
    // Every measured cell of a new matrix changes level from NotMeasured.
    int measured = 0;
    for (const UseMatrixRow &row : std::as_const(m_host.rows)) {
        for (const UseCell &cell : row.cells)
            measured += cell.level != UseLevel::NotMeasured;
    }
    QCOMPARE(levels.size(), measured);

    const QModelIndex sdaSat = model.index(4, int(UseColumn::Saturation));
    QCOMPARE(sdaSat.data().toString(), u"1.5 since "_s + localHm(At));
    QCOMPARE(sdaSat.data(UseMatrixModel::SinceRole).toLongLong(), At);
    QVERIFY(!sdaSat.data(UseMatrixModel::UntilRole).isValid());
    QCOMPARE(sdaSat.data(UseMatrixModel::WorstTimeRole).toLongLong(), At);
    QCOMPARE(sdaSat.data(UseMatrixModel::StaleRole).toBool(), false);
    QCOMPARE(sdaSat.data(UseMatrixModel::SourceRole).toString(), u"host"_s);
    QCOMPARE(sdaSat.data(UseMatrixModel::LevelRole).toInt(), int(UseLevel::Warning));
    QCOMPARE(sdaSat.data(UseMatrixModel::ResourceRole).toString(), u"disk:sda"_s);
    QCOMPARE(sdaSat.data(UseMatrixModel::ValueRole).toDouble(), 1.5);
    QCOMPARE(
        sdaSat.data(UseMatrixModel::SeriesKeysRole).value<QList<SeriesKey>>(),
        (QList<SeriesKey> { { u"host"_s, u"host.disk.queue"_s, { { u"device"_s, u"sda"_s } } } }));
    const QString tip = sdaSat.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(u"Disk sda — Saturation: warning"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"host.disk.queue {device=sda}: worst 1.5, last sample now"_s),
             qPrintable(tip));
    QVERIFY2(tip.contains(u"worst in range: 1.5 at "_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"warning since "_s), qPrintable(tip));
    const QString memTip
        = model.index(1, int(UseColumn::Saturation)).data(Qt::ToolTipRole).toString();
    QVERIFY2(memTip.contains(u"host.mem.page_scan [pages/s]: worst 500 pages/s, last sample now"_s),
             qPrintable(memTip));
    QVERIFY(model.flags(sdaSat) & Qt::ItemIsEnabled);
    QVERIFY(!(model.flags(sdaSat) & Qt::ItemIsSelectable));
    const QModelIndex cpuErrors = model.index(0, int(UseColumn::Errors));
    QCOMPARE(cpuErrors.data().toString(), QString());
    QCOMPARE(cpuErrors.data(UseMatrixModel::LevelRole).toInt(), int(UseLevel::NotMeasured));
    QVERIFY(!cpuErrors.data(UseMatrixModel::ValueRole).isValid());
    QVERIFY(cpuErrors.data(Qt::ToolTipRole).toString().contains(u"no errors series on cpu"_s));

    // Same resources, new values: dataChanged over the table, no reset.
    levels.clear();
    UseMatrix hotter = m_host;
    UseCell &cpuU = hotter.rows[0].cells[0];
    cpuU.series[0].worst->sample.value = 95;
    cpuU.series[0].level = UseLevel::Critical;
    cpuU.level = UseLevel::Critical;
    model.setMatrix(hotter);
    QCOMPARE(resets.size(), 1);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.constFirst().at(0).value<QModelIndex>(), model.index(0, 0));
    QCOMPARE(changed.constFirst().at(1).value<QModelIndex>(), model.index(model.rowCount() - 1, 2));
    QCOMPARE(model.index(0, 0).data().toString(), u"95 %"_s);
    QCOMPARE(levels.size(), 1);
    const auto change = levels.constFirst().at(0).value<UseLevelChange>();
    QCOMPARE(change,
             (UseLevelChange { u"host"_s, u"cpu"_s, UseColumn::Utilization, UseLevel::Ok,
                               UseLevel::Critical }));

    // A resource goes away: reset.
    UseMatrix fewer = hotter;
    fewer.rows.removeAt(2);
    model.setMatrix(fewer);
    QCOMPARE(resets.size(), 2);
    QCOMPARE(model.rowCount(), m_host.rows.size() - 1);
    model.setMatrix({});
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestUseMatrixCollectors)
#include "tst_usematrixcollectors.moc"
