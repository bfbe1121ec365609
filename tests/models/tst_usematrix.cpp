// The USE matrix: resources found in series the real host and nic collectors publish
// (fixture trees with known values, through SampleBus -> LiveBuffers -> SeriesStore),
// PostgreSQL-shaped series (databases, shard sets), rows per source and resource, row
// order and labels, the headline rule, the worst in the range and since when, default
// and overridden thresholds, stale values, CSV rows, the chart of a cell, the dashboard
// file checks and the table model (QAbstractItemModelTester).
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
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

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

PanelThresholds defaultsFor(const SeriesInfo &info)
{
    return defaultUseThresholds(*useColumnOf(info.kind), info.unit);
}

// What readUseSeries() gives for a series whose samples in the range are `samples`
// (oldest first), judged by the default thresholds of its column and unit.
UseSeriesReading rangeReading(const SeriesInfo &info, const std::vector<Sample> &samples,
                              qint64 spacingMs = 1000)
{
    UseSeriesReading r;
    r.info = info;
    r.seriesId = int(qHash(info.key) & 0xffff);
    if (!samples.empty())
        r.latest = samples.back();
    r.spacingMs = spacingMs;
    r.worst = useWorstInRange(samples, defaultsFor(info));
    return r;
}

// A single sample ageMs before At.
UseSeriesReading reading(const SeriesInfo &info, std::optional<double> value, qint64 ageMs = 0,
                         qint64 spacingMs = 1000)
{
    std::vector<Sample> samples;
    if (value)
        samples.push_back({ At - ageMs, *value });
    return rangeReading(info, samples, spacingMs);
}

// The worst figure of a cell, as the model writes it ("" without one).
QString figure(const UseCell &cell)
{
    const UseWorst *w = cell.worst();
    return w && cell.hasValue() ? formatUseValue(w->sample.value, cell.headlineSeries()->info.unit)
                                : QString();
}

QString localHm(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(u"HH:mm"_s);
}

QString isoUtc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(Qt::ISODateWithMs);
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
    void worstFirst();
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
    void rowsPerSource_data();
    void rowsPerSource();
    void worstInRange_data();
    void worstInRange();
    void worstThroughQuery_data();
    void worstThroughQuery();
    void csvColumns_data();
    void csvColumns();
    void modelTwoSources();

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
    QCOMPARE(panel.layout, (PanelLayout { 0, 0, 12, 5 })); // first, full width
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

void TestUseMatrix::staleByOwnSpacing()
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
    QCOMPARE(panel.layout, (PanelLayout { 0, 0, 12, 4 })); // first, full width
    const UseMatrix m = queryPanel(panel, m_registry, store, T0, T0 + 4000, 0).as<UseMatrix>();
    // Databases, then shard sets; the server-wide "pg" series are not selected.
    QCOMPARE(resources(m),
             (QStringList { u"db:app"_s, u"db:postgres"_s, u"shardset:public.events"_s,
                            u"shardset:public.orders"_s }));
    QCOMPARE(m.rows.at(0).label, u"Database app"_s);
    QCOMPARE(m.rows.at(3).label, u"Shard set public.orders"_s);
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

// A fleet's rows, worst first: critical, then the warning furthest beyond its bound,
// then the other warning, then ok rows (a stale one among them) by host and resource.
void TestUseMatrix::worstFirst()
{
    const auto cpu = [](const QString &host, std::optional<double> value, qint64 age = 0) {
        return reading(series(u"cpu"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, host), value,
                       age, 1000);
    };
    const QList<UseSeriesReading> readings {
        cpu(u"web1"_s, 10), // ok
        cpu(u"web2"_s, 75), // warning, 75 / 70
        cpu(u"web3"_s, 95), // critical
        cpu(u"web4"_s, 5, 120'000), // ok but stale: its host went away two minutes ago
        cpu(u"web10"_s, 20), // ok, after web1 in natural order
        cpu(u"web5"_s, 85), // warning, 85 / 70: further beyond than web2
    };
    UseMatrix m = buildUseMatrix(readings, {}, At);
    QCOMPARE(m.rows.size(), 6);
    orderUseRowsWorstFirst(&m.rows);
    QStringList hosts;
    for (const UseMatrixRow &row : std::as_const(m.rows))
        hosts << row.source;
    QCOMPARE(hosts,
             (QStringList { u"web3"_s, u"web5"_s, u"web2"_s, u"web1"_s, u"web4"_s, u"web10"_s }));
    // Labels and cells travel with their rows.
    QCOMPARE(m.rows.first().label, u"web3 · CPU"_s);
    QCOMPARE(m.rows.first().cell(UseColumn::Utilization).level, UseLevel::Critical);
    QVERIFY(m.rows.at(4).cell(UseColumn::Utilization).stale);
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
    // Worst in the range: a series raised earlier that went away still leads.
    QTest::newRow("stale but raised beats fresh and fine")
        << QList { util(u"a"_s, 99, 60'000), util(u"b"_s, 10) } << QJsonObject {} << u"a"_s
        << int(UseLevel::Critical);
    QTest::newRow("equal worst: the fresh one")
        << QList { util(u"a"_s, 50, 60'000), util(u"b"_s, 50) } << QJsonObject {} << u"b"_s
        << int(UseLevel::Ok);
    QTest::newRow("all stale: still the worst")
        << QList { util(u"a"_s, 99, 60'000), util(u"b"_s, 10, 30'000), util(u"c"_s, {}) }
        << QJsonObject {} << u"a"_s << int(UseLevel::Critical);
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
    // Judged by the panel's thresholds, as readUseSeries() does.
    for (UseSeriesReading &r : readings) {
        if (r.latest)
            r.worst = useWorstInRange(
                { *r.latest }, parsed->thresholdsFor(*useColumnOf(r.info.kind), r.info.unit));
    }
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
    const QByteArray query = R"({"resource": "cpu", "use": "utilization", "query": "up"})";
    QTest::newRow("queries and series")
        << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                      + R"(, "options": {"queries": [)" + query + "]}}")
        << u"panels[0].options.queries"_s << u"either queries or series"_s;
    QTest::newRow("use of no column") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"queries": [{"resource": "cpu", "use": "latency", "query": "up"}]}})")
                                      << u"panels[0].options.queries[0].use"_s
                                      << u"expected one of utilization"_s;
    QTest::newRow("query missing") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"queries": [{"resource": "cpu", "use": "errors"}]}})")
                                   << u"panels[0].options.queries[0].query"_s << u"required"_s;
    QTest::newRow("resource template open") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"queries": [{"resource": "nic:{device", "use": "errors", "query": "up"}]}})")
                                            << u"panels[0].options.queries[0].resource"_s
                                            << u"not closed"_s;
    QTest::newRow("by without queries") << QByteArray(
        R"({"id": "m", "type": "usematrix", )" + series + R"(, "options": {"by": "instance"}})")
                                        << u"panels[0].options.by"_s << u"there are none"_s;
    QTest::newRow("by no label name") << QByteArray(
        R"({"id": "m", "type": "usematrix", "options": {"by": "in-stance", "queries": [)" + query
        + "]}}") << u"panels[0].options.by"_s
                                      << u"no label name"_s;
    QTest::newRow("order unknown") << QByteArray(R"({"id": "m", "type": "usematrix", )" + series
                                                 + R"(, "options": {"order": "best"}})")
                                   << u"panels[0].options.order"_s << u"\"worst\""_s;
    QTest::newRow("fleet without an engine")
        << QByteArray(R"({"id": "m", "type": "usematrix", "options": {"queries": [)" + query
                      + "]}}")
        << u"panels[0].options.queries"_s << u"needs a source with plugin \"promql\""_s;
    QTest::newRow("a query on a matrix")
        << QByteArray(R"({"id": "m", "type": "usematrix", "query": "up", )" + series + "}")
        << u"panels[0].query"_s << u"a usematrix panel reads options.queries"_s;
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
    const auto cellAt = [&](qint64 at) {
        return queryPanel(panel, registry, store, At - 3'600'000, at, 0)
            .as<UseMatrix>()
            .rows.constFirst()
            .cells.at(0);
    };
    QCOMPARE(cellAt(At).level, UseLevel::Critical);
    QVERIFY(!cellAt(At).stale);
    QVERIFY(!cellAt(At + 3000).stale);
    QVERIFY(cellAt(At + 3000).ongoing);
    // Stale: the worst figure stays critical, no longer ongoing.
    QCOMPARE(cellAt(At + 3001).level, UseLevel::Critical);
    QVERIFY(cellAt(At + 3001).stale);
    QVERIFY(!cellAt(At + 3001).ongoing);
    QCOMPARE(cellAt(At + 3001).untilMs, At);
    // A range ending in the past judges the value current then.
    QVERIFY(!cellAt(At - 5000).stale);
    QCOMPARE(cellAt(At - 5000).sinceMs, At - 19'000);
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
    QTest::newRow("bytes") << 1.5e6 << u"B/s"_s << u"1.4 MiB/s"_s;
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
                 { u"host"_s, u"cpu"_s, UseColumn::Utilization, UseLevel::Ok, UseLevel::Critical },
                 { u"host"_s, u"disk:sda"_s, UseColumn::Errors, UseLevel::Ok,
                   UseLevel::NotMeasured } }));
    QVERIFY(useLevelChanges(after, after).isEmpty());
    // Another host's CPU is another row: it appears, the first host's stays.
    const SeriesInfo web2 = series(u"u"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"web2"_s);
    const UseMatrix both = buildUseMatrix({ reading(cpu, 95), reading(web2, 75) }, {}, At);
    QCOMPARE(useLevelChanges(after, both),
             (QList<UseLevelChange> { { u"web2"_s, u"cpu"_s, UseColumn::Utilization,
                                        UseLevel::NotMeasured, UseLevel::Warning } }));
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
    QCOMPARE(model.headerData(4, Qt::Vertical, Qt::ToolTipRole).toString(),
             u"disk:sda on source host"_s);
    QCOMPARE(model.headerData(4, Qt::Vertical, UseMatrixModel::SourceRole).toString(), u"host"_s);
    QCOMPARE(model.headerData(5, Qt::Vertical, UseMatrixModel::SourceRole).toString(), u"nic"_s);
    // Every measured cell of a new matrix changes level from NotMeasured.
    int measured = 0;
    for (const UseMatrixRow &row : m_host.rows) {
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

void TestUseMatrix::rowsPerSource_data()
{
    // Each reading: "source|resource|value" (utilization in %, fresh).
    QTest::addColumn<QStringList>("readings");
    QTest::addColumn<QStringList>("rows"); // "label=level" in row order
    QTest::newRow("two hosts' CPUs: two rows, named by source")
        << QStringList { u"host|cpu|95"_s, u"host:web2|cpu|10"_s }
        << QStringList { u"host · CPU=2"_s, u"host:web2 · CPU=0"_s };
    QTest::newRow("one source: short names")
        << QStringList { u"host|memory|75"_s, u"host|cpu|10"_s }
        << QStringList { u"CPU=0"_s, u"Memory=1"_s };
    QTest::newRow("sources sharing no resource: short names, by source")
        << QStringList { u"nic|nic:eth0|95"_s, u"host|cpu|10"_s, u"host|disk:sda|80"_s }
        << QStringList { u"CPU=0"_s, u"Disk sda=1"_s, u"NIC eth0=2"_s };
    QTest::newRow("natural source order, resource order within")
        << QStringList { u"host10|cpu|50"_s, u"host2|memory|50"_s, u"host2|cpu|91"_s }
        << QStringList { u"host2 · CPU=2"_s, u"host2 · Memory=0"_s, u"host10 · CPU=0"_s };
    QTest::newRow("one shared resource names every row")
        << QStringList { u"pg|db:app|50"_s, u"pg|shardset:a.t|50"_s, u"pg2|db:app|75"_s }
        << QStringList { u"pg · Database app=0"_s, u"pg · Shard set a.t=0"_s,
                         u"pg2 · Database app=1"_s };
}

void TestUseMatrix::rowsPerSource()
{
    QFETCH(QStringList, readings);
    QFETCH(QStringList, rows);
    QList<UseSeriesReading> in;
    for (const QString &spec : std::as_const(readings)) {
        const QStringList f = spec.split(u'|');
        in << reading(series(u"m"_s, {}, u"%"_s, f.at(1), UseKind::Utilization, f.at(0)),
                      f.at(2).toDouble());
    }
    const UseMatrix m = buildUseMatrix(in, {}, At);
    QStringList out;
    for (const UseMatrixRow &row : m.rows) {
        out << u"%1=%2"_s.arg(row.label).arg(int(row.cell(UseColumn::Utilization).level));
        // A row holds only its own source's series.
        for (const UseCellSeries &s : row.cell(UseColumn::Utilization).series)
            QCOMPARE(s.info.key.source, row.source);
        QCOMPARE(m.rowOf(row.source, row.resource), int(&row - m.rows.constData()));
    }
    QCOMPARE(out, rows);
}

void TestUseMatrix::worstInRange_data()
{
    // Samples 1 s apart from T0; bounds 70 / 90 unless lower is worse (20 / 10).
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<bool>("higherIsWorse");
    QTest::addColumn<int>("worst"); // index of the worst sample
    QTest::addColumn<int>("level");
    QTest::addColumn<int>("since"); // index, -1 when not raised
    QTest::addColumn<int>("until");
    QTest::addColumn<bool>("toLast");
    const double nan = qQNaN();
    QTest::newRow("worst, not latest")
        << QList<double> { 50, 95, 60 } << true << 1 << 2 << 1 << 1 << false;
    QTest::newRow("crosses warning at t1 and stays")
        << QList<double> { 10, 20, 75, 80, 85 } << true << 4 << 1 << 2 << 4 << true;
    QTest::newRow("warning, then critical: since it turned critical")
        << QList<double> { 10, 75, 80, 95, 92 } << true << 3 << 2 << 3 << 4 << true;
    QTest::newRow("flapping over critical: the first critical of the stretch")
        << QList<double> { 75, 92, 85, 93, 80 } << true << 3 << 2 << 1 << 4 << true;
    QTest::newRow("a dip below warning ends the stretch")
        << QList<double> { 95, 50, 75, 91, 80 } << true << 0 << 2 << 0 << 0 << false;
    QTest::newRow("equal worst values: the latest")
        << QList<double> { 95, 50, 95, 80 } << true << 2 << 2 << 2 << 3 << true;
    QTest::newRow("never raised: no since")
        << QList<double> { 10, 69.9, 20 } << true << 1 << 0 << -1 << -1 << false;
    QTest::newRow("NaN neither worst nor a break")
        << QList<double> { 10, 80, nan, 95, nan } << true << 3 << 2 << 3 << 3 << true;
    QTest::newRow("lower is worse: the smallest")
        << QList<double> { 40, 15, 8, 12, 30 } << false << 2 << 2 << 2 << 3 << false;
    QTest::newRow("lower is worse: falls below warning and stays")
        << QList<double> { 50, 18, 17 } << false << 2 << 1 << 1 << 2 << true;
    QTest::newRow("lower is worse: a high value is fine")
        << QList<double> { 50, 99 } << false << 0 << 0 << -1 << -1 << false;
}

void TestUseMatrix::worstInRange()
{
    QFETCH(QList<double>, values);
    QFETCH(bool, higherIsWorse);
    QFETCH(int, worst);
    QFETCH(int, level);
    QFETCH(int, since);
    QFETCH(int, until);
    QFETCH(bool, toLast);
    std::vector<Sample> samples;
    for (qsizetype i = 0; i < values.size(); ++i)
        samples.push_back({ T0 + i * 1000, values.at(i) });
    PanelThresholds t;
    t.higherIsWorse = higherIsWorse;
    t.warning = higherIsWorse ? 70 : 20;
    t.critical = higherIsWorse ? 90 : 10;
    const auto w = useWorstInRange(samples, t);
    QVERIFY(w);
    QCOMPARE(w->sample.tsMs, T0 + worst * 1000);
    QCOMPARE(w->sample.value, values.at(worst));
    QCOMPARE(w->level, level);
    QCOMPARE(w->sinceMs, since < 0 ? -1 : T0 + since * 1000);
    QCOMPARE(w->untilMs, until < 0 ? -1 : T0 + until * 1000);
    QCOMPARE(w->toLastSample, toLast);
    QVERIFY(!useWorstInRange({}, t));
    QVERIFY(!useWorstInRange({ { T0, qQNaN() } }, t));
}

void TestUseMatrix::worstThroughQuery_data()
{
    // One CPU series, a sample a second from Start; the range ends at Start + end s.
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<int>("end");
    QTest::addColumn<QJsonObject>("options");
    QTest::addColumn<int>("level");
    QTest::addColumn<bool>("stale");
    QTest::addColumn<int>("since"); // s after Start, -1 when not raised
    QTest::addColumn<bool>("ongoing");
    QTest::addColumn<QString>("figure");
    QList<double> crossing(60, 40.0);
    for (int i = 30; i < 60; ++i)
        crossing[i] = 75 + (i % 3); // crosses warning at t1 = 30 s and stays
    QTest::newRow("crosses warning at t1 and stays: since t1")
        << crossing << 59 << QJsonObject {} << int(UseLevel::Warning) << false << 30 << true
        << u"77 %"_s;
    QList<double> spike(60, 30.0);
    spike[20] = 97;
    QTest::newRow("worst in range, not the latest")
        << spike << 59 << QJsonObject {} << int(UseLevel::Critical) << false << 20 << false
        << u"97 %"_s;
    // Raised, then the series went away 30 s before the range end: stale, still red.
    QList<double> gone(30, 95.0);
    gone[0] = 10;
    QTest::newRow("stale but raised") << gone << 59 << QJsonObject {} << int(UseLevel::Critical)
                                      << true << 1 << false << u"95 %"_s;
    QList<double> falling(60, 50.0);
    for (int i = 40; i < 60; ++i)
        falling[i] = 15 - (i >= 50 ? 7 : 0);
    QTest::newRow("lower is worse, by the panel's thresholds")
        << falling << 59
        << QJsonObject { { u"thresholds"_s,
                           QJsonObject { { u"utilization"_s,
                                           QJsonObject { { u"warning"_s, 20 },
                                                         { u"critical"_s, 10 },
                                                         { u"higherIsWorse"_s, false } } } } } }
        << int(UseLevel::Critical) << false << 50 << true << u"8 %"_s;
}

void TestUseMatrix::worstThroughQuery()
{
    QFETCH(QList<double>, values);
    QFETCH(int, end);
    QFETCH(QJsonObject, options);
    QFETCH(int, level);
    QFETCH(bool, stale);
    QFETCH(int, since);
    QFETCH(bool, ongoing);
    QFETCH(QString, figure);
    constexpr qint64 Start = T0 + 3'600'000;
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int id = registry.idFor(
        series(u"host.cpu.utilization"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization, u"host"_s));
    for (qsizetype i = 0; i < values.size(); ++i)
        live.append(id, { Start + i * 1000, values.at(i) });
    const SeriesStore store(&live, nullptr);
    DashboardPanel panel;
    panel.id = u"m"_s;
    panel.type = PanelType::UseMatrix;
    panel.series = { { u"host"_s, u"*"_s, {} } };
    panel.options = options;
    const qint64 atMs = Start + end * 1000;
    const UseMatrix m = queryPanel(panel, registry, store, Start, atMs, 0).as<UseMatrix>();
    QCOMPARE(m.rows.size(), 1);
    const UseCell &cell = m.rows.constFirst().cell(UseColumn::Utilization);
    QCOMPARE(int(cell.level), level);
    QCOMPARE(cell.stale, stale);
    QCOMPARE(cell.sinceMs, since < 0 ? -1 : Start + since * 1000);
    QCOMPARE(cell.ongoing, ongoing);
    QCOMPARE(::figure(cell), figure);
    const QString text = UseMatrixModel::cellText(cell, atMs);
    QVERIFY2(text.startsWith(figure), qPrintable(text));
    if (ongoing)
        QCOMPARE(text, figure + u" since "_s + localHm(cell.sinceMs));
    else if (since >= 0)
        QVERIFY2(!text.contains(u"since"_s), qPrintable(text));
}

void TestUseMatrix::csvColumns_data()
{
    QTest::addColumn<QList<double>>("values"); // a sample a second, the last at At
    QTest::addColumn<qint64>("age"); // of the last sample at the range end
    QTest::addColumn<QString>("line");
    const QString head = u"use-matrix,web2,host.cpu.utilization,"_s;
    QTest::newRow("ok: no level, no since")
        << QList<double> { 30, 40, 35 } << qint64(0)
        << isoUtc(At - 1000) + u","_s + head + u"\"{resource=cpu,use=utilization}\",40,%"_s;
    QTest::newRow("raised and holding: level and since")
        << QList<double> { 30, 92, 85 } << qint64(0)
        << isoUtc(At - 1000) + u","_s + head + u"\"{level=critical,resource=cpu,since="_s
            + isoUtc(At - 1000) + u",use=utilization}\",92,%"_s;
    QTest::newRow("raised and over: until")
        << QList<double> { 75, 80, 10 } << qint64(0)
        << isoUtc(At - 1000) + u","_s + head + u"\"{level=warning,resource=cpu,since="_s
            + isoUtc(At - 2000) + u",until="_s + isoUtc(At - 1000) + u",use=utilization}\",80,%"_s;
    QTest::newRow("stale and raised: until and stale") << QList<double> { 95, 95 } << qint64(60'000)
                                                       << isoUtc(At - 60'000) + u","_s + head
            + u"\"{level=critical,resource=cpu,since="_s + isoUtc(At - 61'000)
            + u",stale=true,until="_s + isoUtc(At - 60'000) + u",use=utilization}\",95,%"_s;
}

void TestUseMatrix::csvColumns()
{
    QFETCH(QList<double>, values);
    QFETCH(qint64, age);
    QFETCH(QString, line);
    std::vector<Sample> samples;
    for (qsizetype i = 0; i < values.size(); ++i)
        samples.push_back({ At - age - (values.size() - 1 - i) * 1000, values.at(i) });
    PanelData data;
    data.panelId = u"use-matrix"_s;
    data.payload = buildUseMatrix({ rangeReading(series(u"host.cpu.utilization"_s, {}, u"%"_s,
                                                        u"cpu"_s, UseKind::Utilization, u"web2"_s),
                                                 samples) },
                                  {}, At);
    const QString csv = QString::fromUtf8(csvRows(data));
    QCOMPARE(csv, line + u"\r\n"_s);
    // The header stays the one every panel shares.
    QCOMPARE(csvHeader(), QByteArray("time,panel,source,metric,labels,value,unit\r\n"));
}

void TestUseMatrix::modelTwoSources()
{
    UseMatrixModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    const auto cpu = [](const QString &source) {
        return series(u"host.cpu.utilization"_s, {}, u"%"_s, u"cpu"_s, UseKind::Utilization,
                      source);
    };
    // host: raised from At - 3 s and holding; web2: fine now, was critical a while ago.
    const UseMatrix m = buildUseMatrix(
        { rangeReading(cpu(u"host"_s), { { At - 5000, 40 }, { At - 3000, 92 }, { At, 91 } }),
          rangeReading(cpu(u"web2"_s),
                       { { At - 200'000, 95 }, { At - 100'000, 96 }, { At, 20 } }) },
        {}, At);
    model.setMatrix(m);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), u"host · CPU"_s);
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), u"web2 · CPU"_s);
    QCOMPARE(model.headerData(1, Qt::Vertical, UseMatrixModel::SourceRole).toString(), u"web2"_s);
    const QModelIndex host = model.index(0, 0);
    QCOMPARE(host.data().toString(), u"92 % since "_s + localHm(At - 3000));
    QCOMPARE(host.data(UseMatrixModel::SinceRole).toLongLong(), At - 3000);
    QCOMPARE(host.data(UseMatrixModel::ValueRole).toDouble(), 92.0);
    QCOMPARE(host.data(UseMatrixModel::WorstTimeRole).toLongLong(), At - 3000);
    const QModelIndex web2 = model.index(1, 0);
    QCOMPARE(web2.data(UseMatrixModel::LevelRole).toInt(), int(UseLevel::Critical));
    QCOMPARE(web2.data(UseMatrixModel::ValueRole).toDouble(), 96.0);
    QCOMPARE(web2.data(UseMatrixModel::SinceRole).toLongLong(), At - 200'000);
    QCOMPARE(web2.data(UseMatrixModel::UntilRole).toLongLong(), At - 100'000);
    QCOMPARE(web2.data(UseMatrixModel::SourceRole).toString(), u"web2"_s);
    const QString ended = localHm(At - 200'000) == localHm(At - 100'000)
        ? QString(u"96 % at "_s + localHm(At - 200'000))
        : u"96 % "_s + localHm(At - 200'000) + u'–' + localHm(At - 100'000);
    QCOMPARE(web2.data().toString(), ended);
    const QString tip = web2.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(u"web2 · CPU — Utilization: critical"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"critical from "_s), qPrintable(tip));
    // The same rows again: data changes, no reset.
    model.setMatrix(m);
    QCOMPARE(resets.size(), 1);
    // One host goes: a reset, and the remaining row's label is short again.
    UseMatrix one = m;
    one.rows.removeLast();
    labelUseRows(&one.rows);
    model.setMatrix(one);
    QCOMPARE(resets.size(), 2);
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), u"CPU"_s);
}

QTEST_GUILESS_MAIN(TestUseMatrix)
#include "tst_usematrix.moc"
