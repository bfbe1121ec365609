// The USE matrix: resources found in series the real host and nic collectors publish
// (fixture trees with known values, through SampleBus -> LiveBuffers -> SeriesStore),
// PostgreSQL-shaped series (databases, shard sets), row order and labels, the
// headline rule, default and overridden thresholds, stale values, CSV rows, the chart
// of a cell, the dashboard file checks and the table model (QAbstractItemModelTester).
#include "../collectors/collectortestutil.h"
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

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 T0 = 1'700'000'000'000;
constexpr qint64 Interval = 2000; // the fixtures' two polls are 2 s apart
constexpr qint64 At = T0 + Interval; // "now" for the matrix: the second poll

QString shipped(const QString &name)
{
    return QStringLiteral(HEADROOM_FIXTURES_DIR "/../../resources/dashboards/") + name;
}

// The "use-matrix" panel of a shipped dashboard.
DashboardPanel shippedMatrixPanel(const QString &file)
{
    const DashboardLoadResult loaded = loadDashboard(shipped(file));
    if (!loaded.ok())
        qFatal("%s", qPrintable(loaded.error.toString()));
    const DashboardPanel *panel = loaded.dashboard->panel(u"use-matrix"_s);
    if (!panel)
        qFatal("%s has no use-matrix panel", qPrintable(file));
    return *panel;
}

SeriesInfo series(const QString &metric, const Labels &labels, const QString &unit,
                  const QString &resource, UseKind kind, const QString &source = u"pg"_s)
{
    return SeriesInfo { { source, metric, labels }, unit, resource, kind, false };
}

UseSeriesReading reading(const SeriesInfo &info, std::optional<double> value, qint64 ageMs = 0,
                         qint64 spacingMs = 1000)
{
    UseSeriesReading r;
    r.info = info;
    r.seriesId = int(qHash(info.key) & 0xffff);
    if (value)
        r.latest = Sample { At - ageMs, *value };
    r.spacingMs = spacingMs;
    return r;
}

UseCell cellOf(const UseMatrix &matrix, const QString &resource, UseColumn column)
{
    const int row = matrix.rowOf(resource);
    if (row < 0)
        qFatal("no row %s", qPrintable(resource));
    return matrix.rows.at(row).cell(column);
}

QString headlineName(const UseCell &cell)
{
    const UseCellSeries *s = cell.headlineSeries();
    if (!s)
        return {};
    return s->info.key.labels.isEmpty() ? s->info.key.metric
                                        : s->info.key.metric + labelsToString(s->info.key.labels);
}

QStringList resources(const UseMatrix &matrix)
{
    QStringList out;
    for (const UseMatrixRow &row : matrix.rows)
        out << row.resource;
    return out;
}

} // namespace

class TestUseMatrix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void collectorResources();
    void collectorCells_data();
    void collectorCells();
    void staleByOwnSpacing();
    void postgresResources();
    void order_data();
    void order();
    void labels_data();
    void labels();
    void headline_data();
    void headline();
    void defaultThresholds_data();
    void defaultThresholds();
    void optionsOverride();
    void badOptions_data();
    void badOptions();
    void staleAfter();
    void formatting_data();
    void formatting();
    void csvRowsPerCell();
    void chartOfCell();
    void levelChanges();
    void model();

private:
    void publishPostgres(qint64 ts, double ordersLoad);

    SeriesRegistry m_registry;
    LiveBuffers m_live { 1000 };
    SampleBus m_bus { &m_registry };
    UseMatrix m_host; // from the host and nic collectors at At, shipped panel
};

void TestUseMatrix::initTestCase()
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
    QCOMPARE(panel.layout, (PanelLayout { 0, 20, 12, 5 }));
    const PanelData data = queryPanel(panel, m_registry, store, At - 15 * 60'000, At, 800);
    QCOMPARE(data.panelId, u"use-matrix"_s);
    QVERIFY(data.series.isEmpty());
    m_host = data.as<UseMatrix>();
    QCOMPARE(m_host.atMs, At);
}

void TestUseMatrix::collectorResources()
{
    // lo is left out by the nic collector; "disk" is host.io.psi (the whole host's
    // I/O pressure); tcp comes last with the other resources outside the groups.
    QCOMPARE(resources(m_host),
             (QStringList { u"cpu"_s, u"memory"_s, u"disk"_s, u"disk:nvme0n1"_s, u"disk:sda"_s,
                            u"nic:eth0"_s, u"nic:veth0"_s, u"nic:virt1"_s, u"tcp"_s }));
    QStringList labels;
    for (const UseMatrixRow &row : m_host.rows)
        labels << row.label;
    QCOMPARE(
        labels,
        (QStringList { u"CPU"_s, u"Memory"_s, u"Disks (all)"_s, u"Disk nvme0n1"_s, u"Disk sda"_s,
                       u"NIC eth0"_s, u"NIC veth0"_s, u"NIC virt1"_s, u"TCP"_s }));
}

void TestUseMatrix::collectorCells_data()
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
    QTest::newRow("tcp E: ratio, 1/5 %")
        << u"tcp"_s << E << u"2.5 %"_s << warn << u"tcp.retransmit_ratio"_s << 1;
}

void TestUseMatrix::collectorCells()
{
    QFETCH(QString, resource);
    QFETCH(int, column);
    QFETCH(QString, text);
    QFETCH(int, level);
    QFETCH(QString, headline);
    QFETCH(int, seriesCount);
    const UseCell &cell = cellOf(m_host, resource, UseColumn(column));
    QCOMPARE(UseMatrixModel::cellText(cell), text);
    QCOMPARE(int(cell.level), level);
    QCOMPARE(headlineName(cell), headline);
    QCOMPARE(cell.series.size(), seriesCount);
    if (const UseCellSeries *s = cell.headlineSeries()) {
        QCOMPARE(s->latest->tsMs, At);
        QCOMPARE(s->ageMs, 0);
    }
}

void TestUseMatrix::staleByOwnSpacing()
{
    // 7 s after the second poll: the gauges (two samples 2 s apart: stale after 6 s)
    // are stale, the rates (one sample: spacing unknown, stale after 10 s) are not.
    const SeriesStore store(&m_live, nullptr);
    const DashboardPanel panel = shippedMatrixPanel(u"host-use.json"_s);
    const UseMatrix later
        = queryPanel(panel, m_registry, store, T0 - 60'000, At + 7000, 0).as<UseMatrix>();
    const UseCell &memory = cellOf(later, u"memory"_s, UseColumn::Utilization);
    QCOMPARE(memory.level, UseLevel::Stale);
    QCOMPARE(UseMatrixModel::cellText(memory), u"—"_s);
    QCOMPARE(memory.series.constFirst().ageMs, 7000);
    const UseCell &cpu = cellOf(later, u"cpu"_s, UseColumn::Utilization);
    QCOMPARE(cpu.level, UseLevel::Ok);
    QCOMPARE(UseMatrixModel::cellText(cpu), u"30 %"_s);
    // The saturation gauges are stale; the fresh PSI rate still decides.
    const UseCell &cpuSat = cellOf(later, u"cpu"_s, UseColumn::Saturation);
    QCOMPARE(headlineName(cpuSat), u"host.cpu.psi{kind=some}"_s);
    int stale = 0;
    for (const UseCellSeries &s : cpuSat.series)
        stale += s.stale;
    QCOMPARE(stale, 2); // runqueue_per_cpu and load.per_cpu

    // 11 s later everything is stale, the rows stay (samples in the look-back window).
    const UseMatrix gone
        = queryPanel(panel, m_registry, store, T0 - 60'000, At + 11'000, 0).as<UseMatrix>();
    QCOMPARE(resources(gone), resources(m_host));
    for (const UseMatrixRow &row : gone.rows) {
        for (const UseCell &cell : row.cells)
            QVERIFY(cell.level == UseLevel::Stale || cell.level == UseLevel::NotMeasured);
    }
    // Beyond the look-back window nothing is left to show.
    QVERIFY(queryPanel(panel, m_registry, store, T0 - 60'000, At + UseLookbackMs + 1, 0)
                .as<UseMatrix>()
                .rows.isEmpty());
}

void TestUseMatrix::publishPostgres(qint64 ts, double ordersLoad)
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
    m_bus.publish(batch);
}

void TestUseMatrix::postgresResources()
{
    for (int i = 0; i < 5; ++i)
        publishPostgres(T0 + i * 1000, 95);
    const SeriesStore store(&m_live, nullptr);
    const DashboardPanel panel = shippedMatrixPanel(u"postgres-use.json"_s);
    QCOMPARE(panel.layout, (PanelLayout { 0, 41, 12, 4 }));
    const UseMatrix m = queryPanel(panel, m_registry, store, T0, T0 + 4000, 0).as<UseMatrix>();
    // Databases, then shard sets; the server-wide "pg" series are not selected.
    QCOMPARE(resources(m),
             (QStringList { u"db:app"_s, u"db:postgres"_s, u"shardset:public.events"_s,
                            u"shardset:public.orders"_s }));
    QCOMPARE(m.rows.at(0).label, u"Database app"_s);
    QCOMPARE(m.rows.at(3).label, u"Shard set public.orders"_s);
    const UseCell &orders = cellOf(m, u"shardset:public.orders"_s, UseColumn::Utilization);
    QCOMPARE(orders.level, UseLevel::Critical);
    QCOMPARE(UseMatrixModel::cellText(orders), u"95 %"_s);
    QCOMPARE(orders.series.size(), 3); // the set's max and both shards, for the chart
    QCOMPARE(cellOf(m, u"shardset:public.events"_s, UseColumn::Utilization).level, UseLevel::Ok);
    QCOMPARE(cellOf(m, u"db:app"_s, UseColumn::Utilization).level, UseLevel::NotMeasured);
    // Rollbacks 0.5/s: an error, not yet one per second.
    const UseCell &appErrors = cellOf(m, u"db:app"_s, UseColumn::Errors);
    QCOMPARE(appErrors.level, UseLevel::Warning);
    QCOMPARE(headlineName(appErrors), u"pg.db.rollbacks.rate{datname=app}"_s);
    QCOMPARE(cellOf(m, u"db:postgres"_s, UseColumn::Errors).level, UseLevel::Ok);
    const UseCell &appSat = cellOf(m, u"db:app"_s, UseColumn::Saturation);
    QCOMPARE(UseMatrixModel::cellText(appSat), u"2 MB/s"_s);
    QCOMPARE(appSat.level, UseLevel::Warning);
}

void TestUseMatrix::order_data()
{
    QTest::addColumn<QStringList>("shuffled");
    QTest::addColumn<QStringList>("expected");
    const QStringList expected {
        u"cpu"_s,       u"memory"_s,     u"disk"_s,     u"disk:nvme0n1"_s,  u"disk:sda"_s,
        u"disk:sda2"_s, u"disk:sda10"_s, u"disk:sdb"_s, u"nic:eth2"_s,      u"nic:eth10"_s,
        u"nic:wlan0"_s, u"db:app"_s,     u"db:app2"_s,  u"shardset:a.t9"_s, u"shardset:a.t10"_s,
        u"pg"_s,        u"tcp"_s,        u"zfs"_s,
    };
    QStringList reversed(expected.crbegin(), expected.crend());
    QTest::newRow("reversed") << reversed << expected;
    QStringList mixed = expected;
    std::rotate(mixed.begin(), mixed.begin() + 7, mixed.end());
    std::swap(mixed[0], mixed[9]);
    QTest::newRow("mixed") << mixed << expected;
}

void TestUseMatrix::order()
{
    QFETCH(QStringList, shuffled);
    QFETCH(QStringList, expected);
    QList<UseSeriesReading> readings;
    for (const QString &resource : std::as_const(shuffled))
        readings << reading(
            series(u"m"_s, { { u"r"_s, resource } }, u"%"_s, resource, UseKind::Utilization), 50);
    QCOMPARE(resources(buildUseMatrix(readings, {}, At)), expected);
    std::sort(shuffled.begin(), shuffled.end(), useResourceLess);
    QCOMPARE(shuffled, expected);
}

void TestUseMatrix::labels_data()
{
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("label");
    QTest::newRow("cpu") << u"cpu"_s << u"CPU"_s;
    QTest::newRow("memory") << u"memory"_s << u"Memory"_s;
    QTest::newRow("disk") << u"disk:sda"_s << u"Disk sda"_s;
    QTest::newRow("nic") << u"nic:eth0"_s << u"NIC eth0"_s;
    QTest::newRow("database") << u"db:app"_s << u"Database app"_s;
    QTest::newRow("shard set") << u"shardset:public.orders"_s << u"Shard set public.orders"_s;
    QTest::newRow("server") << u"pg"_s << u"PostgreSQL server"_s;
    QTest::newRow("tcp") << u"tcp"_s << u"TCP"_s;
    QTest::newRow("unknown") << u"gpu:0"_s << u"gpu:0"_s;
    QTest::newRow("empty name") << u"disk:"_s << u"disk:"_s;
}

void TestUseMatrix::labels()
{
    QFETCH(QString, resource);
    QFETCH(QString, label);
    QCOMPARE(useResourceLabel(resource), label);
}

void TestUseMatrix::headline_data()
{
    QTest::addColumn<QList<UseSeriesReading>>("readings");
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<QString>("headline");
    QTest::addColumn<int>("level");
    const QString disk = u"disk:sda"_s;
    const auto util = [&](const QString &metric, std::optional<double> v, qint64 age = 0) {
        return reading(series(metric, {}, u"%"_s, disk, UseKind::Utilization, u"host"_s), v, age);
    };
    const auto sat = [&](const QString &metric, const QString &unit, std::optional<double> v,
                         qint64 age = 0) {
        return reading(series(metric, {}, unit, disk, UseKind::Saturation, u"host"_s), v, age);
    };
    QTest::newRow("higher level beats larger value")
        << QList { sat(u"queue"_s, QString(), 5), sat(u"psi"_s, u"%"_s, 8) } << QJsonObject {}
        << u"queue"_s << int(UseLevel::Critical);
    // Both ok: queue 0.8 of its warning 1 is closer than PSI 5 of 10.
    QTest::newRow("equal level: nearest its warning")
        << QList { sat(u"queue"_s, QString(), 0.8), sat(u"psi"_s, u"%"_s, 5) } << QJsonObject {}
        << u"queue"_s << int(UseLevel::Ok);
    QTest::newRow("a bound beats none")
        << QList { sat(u"rows"_s, u"rows/block"_s, 9), sat(u"psi"_s, u"%"_s, 1) } << QJsonObject {}
        << u"psi"_s << int(UseLevel::Ok);
    QTest::newRow("same unit: largest")
        << QList { util(u"a"_s, 71), util(u"b"_s, 85), util(u"c"_s, 72) } << QJsonObject {}
        << u"b"_s << int(UseLevel::Warning);
    QTest::newRow("stale ignored while one is fresh")
        << QList { util(u"a"_s, 99, 60'000), util(u"b"_s, 10) } << QJsonObject {} << u"b"_s
        << int(UseLevel::Ok);
    QTest::newRow("all stale: the newest is told about")
        << QList { util(u"a"_s, 99, 60'000), util(u"b"_s, 10, 30'000), util(u"c"_s, {}) }
        << QJsonObject {} << u"b"_s << int(UseLevel::Stale);
    QTest::newRow("no samples at all: stale")
        << QList { util(u"a"_s, {}), sat(u"b"_s, QString(), 1) } << QJsonObject {} << u"a"_s
        << int(UseLevel::Stale);
    // Lower is worse (an override): the smallest value is the headline.
    QTest::newRow("lower is worse")
        << QList { util(u"a"_s, 40), util(u"b"_s, 15), util(u"c"_s, 60) }
        << QJsonObject { { u"thresholds"_s,
                           QJsonObject { { u"utilization"_s,
                                           QJsonObject { { u"warning"_s, 20 },
                                                         { u"critical"_s, 10 },
                                                         { u"higherIsWorse"_s, false } } } } } }
        << u"b"_s << int(UseLevel::Warning);
}

void TestUseMatrix::headline()
{
    QFETCH(QList<UseSeriesReading>, readings);
    QFETCH(QJsonObject, options);
    QFETCH(QString, headline);
    QFETCH(int, level);
    JsonReader reader;
    const auto parsed = readUseMatrixOptions(reader, options, u"options"_s);
    QVERIFY2(parsed, qPrintable(reader.error().toString()));
    const UseMatrix m = buildUseMatrix(readings, *parsed, At);
    QCOMPARE(m.rows.size(), 1);
    const UseCell &cell = m.rows.constFirst().cell(
        readings.constFirst().info.kind == UseKind::Utilization ? UseColumn::Utilization
                                                                : UseColumn::Saturation);
    QCOMPARE(headlineName(cell), headline);
    QCOMPARE(int(cell.level), level);
}

void TestUseMatrix::defaultThresholds_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("level");
    const int U = int(UseColumn::Utilization), S = int(UseColumn::Saturation),
              E = int(UseColumn::Errors);
    const auto row
        = [](const char *name, int column, const QString &unit, double value, UseLevel level) {
              QTest::newRow(name) << column << unit << value << int(level);
          };
    row("U 69.9 %", U, u"%"_s, 69.9, UseLevel::Ok);
    row("U 70 %", U, u"%"_s, 70, UseLevel::Warning);
    row("U 95 %", U, u"%"_s, 95, UseLevel::Critical);
    row("U other unit: unjudged", U, u"1/s"_s, 1e9, UseLevel::Ok);
    row("S PSI 9 %", S, u"%"_s, 9, UseLevel::Ok);
    row("S PSI 10 %", S, u"%"_s, 10, UseLevel::Warning);
    row("S PSI 25 %", S, u"%"_s, 25, UseLevel::Critical);
    row("S queue 0.9", S, QString(), 0.9, UseLevel::Ok);
    row("S queue 1", S, QString(), 1, UseLevel::Warning);
    row("S queue 4", S, QString(), 4, UseLevel::Critical);
    row("S drops 0", S, u"1/s"_s, 0, UseLevel::Ok);
    row("S drops 0.1", S, u"1/s"_s, 0.1, UseLevel::Warning);
    row("S swapping 100", S, u"pages/s"_s, 100, UseLevel::Critical);
    row("S wait time 99 ms/s", S, u"ms/s"_s, 99, UseLevel::Ok);
    row("S wait time 500 ms/s", S, u"ms/s"_s, 500, UseLevel::Critical);
    row("S temp bytes", S, u"B/s"_s, 5e6, UseLevel::Warning);
    row("S unknown unit", S, u"rows/block"_s, 1e6, UseLevel::Ok);
    row("E 0", E, u"1/s"_s, 0, UseLevel::Ok);
    row("E smallest rate", E, u"1/s"_s, 0.01, UseLevel::Warning);
    row("E 1/s", E, u"1/s"_s, 1, UseLevel::Critical);
    row("E count", E, QString(), 3, UseLevel::Critical);
    row("E ratio 0.5 %", E, u"%"_s, 0.5, UseLevel::Ok);
    row("E ratio 2.5 %", E, u"%"_s, 2.5, UseLevel::Warning);
    row("E ratio 5 %", E, u"%"_s, 5, UseLevel::Critical);
}

void TestUseMatrix::defaultThresholds()
{
    QFETCH(int, column);
    QFETCH(QString, unit);
    QFETCH(double, value);
    QFETCH(int, level);
    QCOMPARE(defaultUseThresholds(UseColumn(column), unit).level(value), level);
    // The same through a matrix cell.
    const UseKind kinds[] = { UseKind::Utilization, UseKind::Saturation, UseKind::Errors };
    const UseMatrix m = buildUseMatrix(
        { reading(series(u"m"_s, {}, unit, u"cpu"_s, kinds[column]), value) }, {}, At);
    QCOMPARE(int(m.rows.constFirst().cells.at(size_t(column)).level), level);
}

void TestUseMatrix::optionsOverride()
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

void TestUseMatrix::badOptions_data()
{
    QTest::addColumn<QByteArray>("panel");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("reasonPart");
    const QByteArray series = R"("series": [{"source": "host", "metric": "*"}])";
    QTest::newRow("no series") << QByteArray(R"({"id": "m", "type": "usematrix"})")
                               << u"panels[0].series"_s << u"required for a usematrix"_s;
    QTest::newRow("unknown option") << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                                                  + R"(, "options": {"threshold": {}}})")
                                    << u"panels[0].options.threshold"_s << u"unknown option"_s;
    QTest::newRow("thresholds not an object")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": [1]}})")
        << u"panels[0].options.thresholds"_s << u"must be an object, got an array"_s;
    QTest::newRow("unknown column")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": {"latency": {"warning": 1}}}})")
        << u"panels[0].options.thresholds.latency"_s << u"unknown column"_s;
    QTest::newRow("warning not a number")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": {"errors": {"warning": "high"}}}})")
        << u"panels[0].options.thresholds.errors.warning"_s << u"must be a number, got \"high\""_s;
    QTest::newRow("unknown bound")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"thresholds": {"errors": {"warn": 1}}}})")
        << u"panels[0].options.thresholds.errors.warn"_s << u"unknown field"_s;
    QTest::newRow("empty bounds") << QByteArray(
        R"({"id": "m", "type": "usematrix", )" + series
        + R"(, "options": {"thresholds": {"saturation": {}}}})")
                                  << u"panels[0].options.thresholds.saturation"_s
                                  << u"must set warning, critical"_s;
    QTest::newRow("critical below warning") << QByteArray(
        R"({"id": "m", "type": "usematrix", )" + series
        + R"(, "options": {"thresholds": {"utilization": {"warning": 90, "critical": 70}}}})")
                                            << u"panels[0].options.thresholds.utilization"_s
                                            << u"critical must not be below"_s;
    QTest::newRow("higherIsWorse not a bool")
        << QByteArray(
               R"({"id": "m", "type": "usematrix", )" + series
               + R"(, "options": {"thresholds": {"utilization": {"warning": 9, "higherIsWorse": 1}}}})")
        << u"panels[0].options.thresholds.utilization.higherIsWorse"_s << u"true or false"_s;
}

void TestUseMatrix::badOptions()
{
    QFETCH(QByteArray, panel);
    QFETCH(QString, field);
    QFETCH(QString, reasonPart);
    const QByteArray json
        = R"({"schemaVersion": 1, "title": "t", "sources": [{"id": "host", "plugin": "host"}],
        "panels": [)"
        + panel + "]}";
    const DashboardLoadResult result = parseDashboard(json, u"bad.json"_s);
    QVERIFY(!result.ok());
    QCOMPARE(result.error.field, field);
    QVERIFY2(result.error.reason.contains(reasonPart), qPrintable(result.error.toString()));

    // The same panel with good options is read, and the options survive.
    const QByteArray good
        = R"({"schemaVersion": 1, "title": "t", "sources": [{"id": "host", "plugin": "host"}],
        "panels": [{"id": "m", "type": "usematrix", "series": [{"source": "host", "metric": "*"}],
        "options": {"thresholds": {"errors": {"warning": 0.5, "critical": 2}}}}]})";
    const DashboardLoadResult ok = parseDashboard(good, u"good.json"_s);
    QVERIFY2(ok.ok(), qPrintable(ok.error.toString()));
    QCOMPARE(ok.dashboard->panels.constFirst().type, PanelType::UseMatrix);
}

void TestUseMatrix::staleAfter()
{
    QCOMPARE(useStaleAfterMs(1000), 3000);
    QCOMPARE(useStaleAfterMs(60'000), 180'000);
    QCOMPARE(useStaleAfterMs(100), 1000); // at least a second
    QCOMPARE(useStaleAfterMs(0), 10'000); // unknown spacing

    // Through the store: samples every second up to At.
    SeriesRegistry registry;
    LiveBuffers live(100);
    const int id = registry.idFor(
        series(u"host.cpu.utilization"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"host"_s));
    for (int i = 0; i < 20; ++i)
        live.append(id, { At - 19'000 + i * 1000, 95 });
    const SeriesStore store(&live, nullptr);
    DashboardPanel panel;
    panel.id = u"m"_s;
    panel.type = PanelType::UseMatrix;
    panel.series = { { u"host"_s, u"*"_s, {} } };
    const auto levelAt = [&](qint64 at) {
        return queryPanel(panel, registry, store, At - 3'600'000, at, 0)
            .as<UseMatrix>()
            .rows.constFirst()
            .cells.at(0)
            .level;
    };
    QCOMPARE(levelAt(At), UseLevel::Critical);
    QCOMPARE(levelAt(At + 3000), UseLevel::Critical);
    QCOMPARE(levelAt(At + 3001), UseLevel::Stale);
    // A range ending in the past judges the value current then.
    QCOMPARE(levelAt(At - 5000), UseLevel::Critical);
}

void TestUseMatrix::formatting_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("text");
    QTest::newRow("percent") << 93.4 << u"%"_s << u"93 %"_s;
    QTest::newRow("small percent") << 2.46 << u"%"_s << u"2.5 %"_s;
    QTest::newRow("queue") << 2.13 << QString() << u"2.1"_s;
    QTest::newRow("zero") << 0.0 << u"1/s"_s << u"0 /s"_s;
    QTest::newRow("rate") << 0.4 << u"1/s"_s << u"0.4 /s"_s;
    QTest::newRow("big rate") << 25000.0 << u"1/s"_s << u"25k /s"_s;
    QTest::newRow("pages") << 12.0 << u"pages/s"_s << u"12 pages/s"_s;
    QTest::newRow("bytes") << 1.5e6 << u"B/s"_s << u"1.5 MB/s"_s;
    QTest::newRow("bytes small") << 900.0 << u"B/s"_s << u"900 B/s"_s;
    QTest::newRow("huge percent stays") << 12345.0 << u"%"_s << u"12345 %"_s;
}

void TestUseMatrix::formatting()
{
    QFETCH(double, value);
    QFETCH(QString, unit);
    QFETCH(QString, text);
    QCOMPARE(formatUseValue(value, unit), text);
}

void TestUseMatrix::csvRowsPerCell()
{
    PanelData data;
    data.panelId = u"use-matrix"_s;
    data.payload = m_host;
    const QStringList lines = QString::fromUtf8(csvRows(data)).split(u"\r\n"_s, Qt::SkipEmptyParts);
    int withValue = 0;
    for (const UseMatrixRow &row : m_host.rows) {
        for (const UseCell &cell : row.cells)
            withValue += cell.hasValue();
    }
    QCOMPARE(lines.size(), withValue);
    QVERIFY(withValue >= 20);
    QVERIFY2(lines.contains(u"2023-11-14T22:13:22.000Z,use-matrix,host,host.disk.queue,"
                            "\"{device=sda,resource=disk:sda,use=saturation}\",1.5,"_s),
             qPrintable(lines.join(u'\n')));
    QVERIFY2(lines.contains(u"2023-11-14T22:13:22.000Z,use-matrix,host,host.cpu.psi,"
                            "\"{kind=some,resource=cpu,use=saturation}\",25,%"_s),
             qPrintable(lines.join(u'\n')));
    // Unmeasured (cpu errors) and stale cells give no row.
    for (const QString &line : lines)
        QVERIFY(!line.contains(u"resource=cpu,use=errors"_s));
    std::get<UseMatrix>(data.payload).rows.first().cells[0].level = UseLevel::Stale;
    QCOMPARE(QString::fromUtf8(csvRows(data)).split(u"\r\n"_s, Qt::SkipEmptyParts).size(),
             withValue - 1);
}

void TestUseMatrix::chartOfCell()
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

void TestUseMatrix::levelChanges()
{
    const SeriesInfo cpu = series(u"u"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"host"_s);
    const SeriesInfo disk = series(u"e"_s, {}, u"1/s"_s, u"disk:sda"_s, UseKind::Errors, u"host"_s);
    const UseMatrix before = buildUseMatrix({ reading(cpu, 50), reading(disk, 0) }, {}, At);
    const UseMatrix after = buildUseMatrix({ reading(cpu, 95) }, {}, At);
    const QList<UseLevelChange> changes = useLevelChanges(before, after);
    QCOMPARE(changes,
             (QList<UseLevelChange> {
                 { u"cpu"_s, UseColumn::Utilization, UseLevel::Ok, UseLevel::Critical },
                 { u"disk:sda"_s, UseColumn::Errors, UseLevel::Ok, UseLevel::NotMeasured } }));
    QVERIFY(useLevelChanges(after, after).isEmpty());
}

void TestUseMatrix::model()
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
    QCOMPARE(model.headerData(4, Qt::Vertical, Qt::ToolTipRole).toString(), u"disk:sda"_s);
    // Every measured cell of a new matrix changes level from NotMeasured.
    int measured = 0;
    for (const UseMatrixRow &row : m_host.rows) {
        for (const UseCell &cell : row.cells)
            measured += cell.level != UseLevel::NotMeasured;
    }
    QCOMPARE(levels.size(), measured);

    const QModelIndex sdaSat = model.index(4, int(UseColumn::Saturation));
    QCOMPARE(sdaSat.data().toString(), u"1.5"_s);
    QCOMPARE(sdaSat.data(UseMatrixModel::LevelRole).toInt(), int(UseLevel::Warning));
    QCOMPARE(sdaSat.data(UseMatrixModel::ResourceRole).toString(), u"disk:sda"_s);
    QCOMPARE(sdaSat.data(UseMatrixModel::ValueRole).toDouble(), 1.5);
    QCOMPARE(
        sdaSat.data(UseMatrixModel::SeriesKeysRole).value<QList<SeriesKey>>(),
        (QList<SeriesKey> { { u"host"_s, u"host.disk.queue"_s, { { u"device"_s, u"sda"_s } } } }));
    const QString tip = sdaSat.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(u"Disk sda — Saturation: warning"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"host.disk.queue {device=sda}: 1.5, now"_s), qPrintable(tip));
    const QString memTip
        = model.index(1, int(UseColumn::Saturation)).data(Qt::ToolTipRole).toString();
    QVERIFY2(memTip.contains(u"host.mem.page_scan [pages/s]: 500 pages/s, now"_s),
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
    cpuU.series[0].latest->value = 95;
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
    QCOMPARE(
        change,
        (UseLevelChange { u"cpu"_s, UseColumn::Utilization, UseLevel::Ok, UseLevel::Critical }));

    // A resource goes away: reset.
    UseMatrix fewer = hotter;
    fewer.rows.removeAt(2);
    model.setMatrix(fewer);
    QCOMPARE(resets.size(), 2);
    QCOMPARE(model.rowCount(), m_host.rows.size() - 1);
    model.setMatrix({});
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(TestUseMatrix)
#include "tst_usematrix.moc"
