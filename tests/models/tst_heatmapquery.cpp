// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Heatmap panel queries: histogram series and Prometheus-style le-bucket series become
// one grid of events per second (merged series and groups add up), columns never
// narrower than two polls and immune to poll phase jitter, the CSV export's own column
// choice, and the CSV rows scripts read.
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/csvexport.h"
#include "query/heatmap/heatmapquery.h"

#include <QTest>
#include <cmath>
#include <limits>
#include <numeric>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Base = 1'700'000'000'000;

SeriesInfo histogramInfo(const QString &source, const QString &metric)
{
    SeriesInfo info;
    info.key = { source, metric, {} };
    info.unit = u"ms"_s;
    info.resource = u"db"_s;
    info.kind = UseKind::Latency;
    info.histogram = true;
    return info;
}

SeriesInfo bucketInfo(const QString &le, const QString &unit, const QString &handler = u"a"_s)
{
    SeriesInfo info;
    info.key
        = { u"prom"_s, u"http.latency_bucket"_s, { { u"handler"_s, handler }, { u"le"_s, le } } };
    info.unit = unit;
    info.kind = UseKind::Latency;
    return info;
}

DashboardPanel heatmapPanel(const QString &source, const QString &metric)
{
    DashboardPanel panel;
    panel.id = u"heat"_s;
    panel.type = PanelType::Heatmap;
    panel.series = { { source, metric, {} } };
    return panel;
}

LogHistogram histogramOf(std::initializer_list<std::pair<double, quint64>> values)
{
    LogHistogram h;
    for (const auto &[v, n] : values)
        h.add(v, n);
    return h;
}

int rowOf(const HeatmapGrid &grid, double upperMs)
{
    for (int r = 0; r < grid.rows(); ++r) {
        if (std::abs(grid.upperBoundsMs.at(r) - upperMs) <= 1e-12 * upperMs)
            return r;
    }
    return -1;
}

// Every cell of row `upperMs` in columns [first, last] equals value.
void checkRow(const HeatmapGrid &grid, double upperMs, double value, int first = 0, int last = -1)
{
    const int row = rowOf(grid, upperMs);
    QVERIFY2(row >= 0, qPrintable(u"no row up to %1 ms"_s.arg(upperMs)));
    if (last < 0)
        last = grid.columns - 1;
    for (int c = first; c <= last; ++c) {
        QVERIFY2(std::abs(grid.at(row, c) - value) < 1e-9,
                 qPrintable(u"row %1 ms, column %2: %3, expected %4"_s.arg(upperMs)
                                .arg(c)
                                .arg(grid.at(row, c))
                                .arg(value)));
    }
}

double total(const HeatmapGrid &grid)
{
    return std::accumulate(grid.perSecond.begin(), grid.perSecond.end(), 0.0);
}

// Cumulative rates per bound: bucket i has perBucket[i] events per second.
void appendBuckets(SeriesRegistry &registry, LiveBuffers &live, const QStringList &les,
                   const QList<double> &perBucket, const QString &unit, int polls,
                   const QString &handler = u"a"_s)
{
    for (qsizetype b = 0; b < les.size(); ++b) {
        const int id = registry.idFor(bucketInfo(les.at(b), unit, handler));
        const double cumulative
            = std::accumulate(perBucket.begin(), perBucket.begin() + b + 1, 0.0);
        for (int k = 0; k < polls; ++k)
            live.append(id, { Base + k * 1000LL, cumulative });
    }
}

const QStringList SecondsLe { u"0.001"_s, u"0.002"_s, u"0.004"_s, u"0.008"_s, u"+Inf"_s };
const QList<double> PerBucket { 10, 20, 40, 5, 2 };

} // namespace

class TestHeatmapQuery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void histogramSeriesGiveCounts();
    void columnsNeverNarrowerThanTwoPolls();
    void pollJitterDoesNotStripe();
    void mergedHistogramSeriesSum();
    void cumulativeSecondsBecomeMilliseconds();
    void bucketUnitOverridesSeriesUnit_data();
    void bucketUnitOverridesSeriesUnit();
    void bucketGroupsSum();
    void otherSeriesIgnored();
    void exportColumns_data();
    void exportColumns();
    void sumAlignsRowsByBound();
    void sumCapsRows();
    void parseLe_data();
    void parseLe();
    void csvRowsForHeatmap();
};

void TestHeatmapQuery::histogramSeriesGiveCounts()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int id = registry.idFor(histogramInfo(u"pg"_s, u"pg.latency.probe"_s));
    // 60 polls: 10 runs at 3 ms (2–4 ms) and 2 at 20 ms (16–32 ms) each second.
    for (int k = 0; k < 60; ++k)
        live.appendHistogram(id, Base + k * 1000LL, histogramOf({ { 3, 10 }, { 20, 2 } }));
    const PanelData data = queryPanel(heatmapPanel(u"pg"_s, u"pg.latency.probe"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 60'000, 30);
    QCOMPARE(data.panelId, u"heat"_s);
    QCOMPARE(data.series.size(), 1);
    QCOMPARE(data.series.first().seriesId, id);
    QCOMPARE(data.series.first().rawCount, 60);
    QVERIFY(data.series.first().points.empty()); // the grid is the view, not lines
    const HeatmapGrid &grid = data.as<HeatmapGrid>();
    QCOMPARE(grid.columns, 30);
    QCOMPARE(grid.fromMs, Base);
    QCOMPARE(grid.toMs, Base + 60'000);
    checkRow(grid, 4, 10);
    checkRow(grid, 32, 2);
    QCOMPARE(heatmapRowLabel(grid, rowOf(grid, 4)), u"2–4 ms"_s);
    QCOMPARE(grid.maxPerSecond, 10.0);
    // Only those two rows hold events: 12 per second in every column.
    QCOMPARE(total(grid), 12.0 * 30);
}

void TestHeatmapQuery::columnsNeverNarrowerThanTwoPolls()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int id = registry.idFor(histogramInfo(u"pg"_s, u"pg.latency.probe"_s));
    for (int k = 0; k < 60; ++k)
        live.appendHistogram(id, Base + k * 1000LL, histogramOf({ { 3, 10 } }));
    // 600 pixels for 60 polls would leave most columns empty: 30 columns of 2 s.
    const PanelData data = queryPanel(heatmapPanel(u"pg"_s, u"pg.latency.probe"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 60'000, 600);
    QCOMPARE(data.as<HeatmapGrid>().columns, 30);
    checkRow(data.as<HeatmapGrid>(), 4, 10);
    // Fewer pixels than that: one column per pixel.
    const PanelData narrow = queryPanel(heatmapPanel(u"pg"_s, u"pg.latency.probe"_s), registry,
                                        SeriesStore(&live, nullptr), Base, Base + 60'000, 12);
    QCOMPARE(narrow.as<HeatmapGrid>().columns, 12);
    checkRow(narrow.as<HeatmapGrid>(), 4, 10);
}

void TestHeatmapQuery::pollJitterDoesNotStripe()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int id = registry.idFor(histogramInfo(u"pg"_s, u"pg.latency.probe"_s));
    // Polls sit on the column boundaries (every 2 s) give or take 10 ms, so columns
    // catch 1, 2 or 3 polls; each poll saw 10 events in its second.
    for (int k = 0; k < 60; ++k) {
        const qint64 jitter = k % 4 == 0 ? -10 : (k % 4 == 2 ? 10 : 0);
        live.appendHistogram(id, Base + k * 1000LL + jitter, histogramOf({ { 3, 10 } }));
    }
    const PanelData data = queryPanel(heatmapPanel(u"pg"_s, u"pg.latency.probe"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 60'000, 30);
    QCOMPARE(data.as<HeatmapGrid>().columns, 30);
    // Column 0 holds the polls at 1 s and 2.01 s ... whatever they are, the rate is 10/s.
    checkRow(data.as<HeatmapGrid>(), 4, 10);
}

void TestHeatmapQuery::mergedHistogramSeriesSum()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int a = registry.idFor(histogramInfo(u"pg"_s, u"pg.latency.probe"_s));
    const int b = registry.idFor(histogramInfo(u"pg"_s, u"pg.latency.statements"_s));
    // Different phases (b polls half a second later) and partly the same rows.
    for (int k = 0; k < 60; ++k) {
        live.appendHistogram(a, Base + k * 1000LL, histogramOf({ { 3, 10 }, { 0.7, 4 } }));
        live.appendHistogram(b, Base + 500 + k * 1000LL, histogramOf({ { 3, 7 }, { 100, 1 } }));
    }
    const PanelData data = queryPanel(heatmapPanel(u"pg"_s, u"pg.latency.*"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 60'000, 30);
    QCOMPARE(data.series.size(), 2);
    const HeatmapGrid &grid = data.as<HeatmapGrid>();
    QCOMPARE(grid.columns, 30);
    checkRow(grid, 1, 4); // only a
    checkRow(grid, 4, 17); // both
    checkRow(grid, 128, 1); // only b
    // The rows between hold nothing: the sum has every row from 0.5–1 to 64–128 ms.
    QCOMPARE(grid.upperBoundsMs.first(), 0.5);
    QCOMPARE(grid.upperBoundsMs.last(), 128.0);
    QCOMPARE(total(grid), 22.0 * 30);
    QCOMPARE(grid.maxPerSecond, 17.0);
}

void TestHeatmapQuery::cumulativeSecondsBecomeMilliseconds()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    appendBuckets(registry, live, SecondsLe, PerBucket, u"s"_s, 60);
    const PanelData data = queryPanel(heatmapPanel(u"prom"_s, u"http.latency_bucket"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 60'000, 30);
    QCOMPARE(data.series.size(), 5); // every bound series
    QCOMPARE(data.series.first().info.key.metric, u"http.latency_bucket"_s);
    const HeatmapGrid &grid = data.as<HeatmapGrid>();
    QCOMPARE(grid.columns, 30);
    checkRow(grid, 1, 10); // le 0.001 s: 0.5–1 ms
    checkRow(grid, 2, 20);
    checkRow(grid, 4, 40);
    checkRow(grid, 8, 5);
    checkRow(grid, 16, 2); // +Inf: the row above the largest bound
    QCOMPARE(total(grid), 77.0 * 30);
}

void TestHeatmapQuery::bucketUnitOverridesSeriesUnit_data()
{
    QTest::addColumn<QString>("seriesUnit");
    QTest::addColumn<QString>("bucketUnit");
    QTest::addColumn<double>("topFiniteRowMs"); // the row le = 8 (units) lands in

    QTest::newRow("series in s") << u"s"_s << QString() << 8192.0;
    QTest::newRow("series in ms") << u"ms"_s << QString() << 8.0;
    QTest::newRow("series in us") << u"us"_s << QString() << 0.015625; // (2^-7, 2^-6] holds 0.008
    QTest::newRow("unknown unit: seconds") << u"1/s"_s << QString() << 8192.0;
    QTest::newRow("option ms over s") << u"s"_s << u"ms"_s << 8.0;
    QTest::newRow("option s over unknown") << u""_s << u"s"_s << 8192.0;
}

void TestHeatmapQuery::bucketUnitOverridesSeriesUnit()
{
    QFETCH(QString, seriesUnit);
    QFETCH(QString, bucketUnit);
    QFETCH(double, topFiniteRowMs);

    SeriesRegistry registry;
    LiveBuffers live(1000);
    appendBuckets(registry, live, { u"1"_s, u"2"_s, u"4"_s, u"8"_s }, { 1, 1, 1, 1 }, seriesUnit,
                  10);
    DashboardPanel panel = heatmapPanel(u"prom"_s, u"http.latency_bucket"_s);
    if (!bucketUnit.isEmpty())
        panel.options.insert(u"bucketUnit"_s, bucketUnit);
    const PanelData data
        = queryPanel(panel, registry, SeriesStore(&live, nullptr), Base, Base + 10'000, 5);
    const HeatmapGrid &grid = data.as<HeatmapGrid>();
    QVERIFY(grid.rows() > 1);
    QCOMPARE(grid.upperBoundsMs.last(), topFiniteRowMs);
    checkRow(grid, topFiniteRowMs, 1);
}

void TestHeatmapQuery::bucketGroupsSum()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    appendBuckets(registry, live, SecondsLe, PerBucket, u"s"_s, 60, u"a"_s);
    appendBuckets(registry, live, { u"0.004"_s, u"0.016"_s, u"+Inf"_s }, { 1, 3, 6 }, u"s"_s, 60,
                  u"b"_s);
    const PanelData data = queryPanel(heatmapPanel(u"prom"_s, u"http.latency_bucket"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 60'000, 30);
    QCOMPARE(data.series.size(), 8);
    const HeatmapGrid &grid = data.as<HeatmapGrid>();
    checkRow(grid, 1, 10);
    checkRow(grid, 4, 41); // a's 40 + b's 1
    checkRow(grid, 8, 5);
    checkRow(grid, 16, 2 + 3); // a's +Inf, b's le 16 ms
    checkRow(grid, 32, 6); // b's +Inf
    QCOMPARE(total(grid), 87.0 * 30);
}

void TestHeatmapQuery::otherSeriesIgnored()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    SeriesInfo plain;
    plain.key = { u"prom"_s, u"http.latency_count"_s, {} };
    const int plainId = registry.idFor(plain);
    const int badLe = registry.idFor(bucketInfo(u"fast"_s, u"s"_s));
    for (int k = 0; k < 10; ++k) {
        live.append(plainId, { Base + k * 1000LL, 5 });
        live.append(badLe, { Base + k * 1000LL, 5 });
    }
    DashboardPanel panel = heatmapPanel(u"prom"_s, u"http.latency*"_s);
    const PanelData data
        = queryPanel(panel, registry, SeriesStore(&live, nullptr), Base, Base + 10'000, 100);
    QVERIFY(data.series.isEmpty());
    QCOMPARE(data.as<HeatmapGrid>().rows(), 0);
    QVERIFY(data.as<HeatmapGrid>().perSecond.empty());
    QCOMPARE(data.as<HeatmapGrid>().fromMs, Base); // still the range, for the view's time axis
    QCOMPARE(data.as<HeatmapGrid>().toMs, Base + 10'000);
    QVERIFY(csvRows(data).isEmpty());
}

void TestHeatmapQuery::exportColumns_data()
{
    QTest::addColumn<qint64>("intervalMs");
    QTest::addColumn<qint64>("rangeMs");
    QTest::addColumn<int>("columns");

    QTest::newRow("1 s polls, 1 min") << qint64(1000) << qint64(60'000) << 60;
    QTest::newRow("5 s polls, 1 min") << qint64(5000) << qint64(60'000) << 12;
    QTest::newRow("1 s polls, 2 h: capped")
        << qint64(1000) << qint64(7'200'000) << HeatmapMaxExportColumns;
}

void TestHeatmapQuery::exportColumns()
{
    QFETCH(qint64, intervalMs);
    QFETCH(qint64, rangeMs);
    QFETCH(int, columns);

    SeriesRegistry registry;
    LiveBuffers live(100);
    const int id = registry.idFor(histogramInfo(u"pg"_s, u"pg.latency.probe"_s));
    for (int k = 0; k < 5; ++k)
        live.appendHistogram(id, Base + k * intervalMs, histogramOf({ { 3, 10 } }));
    const PanelData data = queryPanel(heatmapPanel(u"pg"_s, u"pg.latency.probe"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + rangeMs, 0);
    QCOMPARE(data.as<HeatmapGrid>().columns, columns);
    // Every poll in a column of its own (when not capped), 10 events per interval.
    if (columns != HeatmapMaxExportColumns)
        checkRow(data.as<HeatmapGrid>(), 4, 10.0 * 1000 / double(intervalMs), 0, 4);
}

void TestHeatmapQuery::sumAlignsRowsByBound()
{
    const std::vector<TimedHistogram> fast { { Base, histogramOf({ { 1.5, 4 }, { 3, 2 } }) } };
    const std::vector<TimedHistogram> slow { { Base, histogramOf({ { 50, 6 } }) },
                                             { Base + 5000, histogramOf({ { 3, 1 } }) } };
    const HeatmapGrid a = heatmapFromHistograms(fast, Base, Base + 10'000, 2);
    const HeatmapGrid b = heatmapFromHistograms(slow, Base, Base + 10'000, 2);
    std::vector<TimedHistogram> both = fast;
    both.insert(both.end(), slow.begin(), slow.end());
    const HeatmapGrid expected = heatmapFromHistograms(both, Base, Base + 10'000, 2);

    const HeatmapGrid sum = sumHeatmapGrids({ a, b });
    QCOMPARE(sum.upperBoundsMs, expected.upperBoundsMs);
    QCOMPARE(sum.firstExponent, expected.firstExponent);
    QCOMPARE(sum.perSecond, expected.perSecond);
    QCOMPARE(sum.maxPerSecond, expected.maxPerSecond);
    // A grid over another range or width cannot be added cell by cell: skipped.
    const HeatmapGrid other = heatmapFromHistograms(slow, Base, Base + 10'000, 3);
    QCOMPARE(sumHeatmapGrids({ a, other }).perSecond, a.perSecond);
    QCOMPARE(sumHeatmapGrids({}).rows(), 0);
}

void TestHeatmapQuery::sumCapsRows()
{
    // 2^-19 ms and 2^30 ms are 50 rows apart: the fastest collapse into row 0, as when
    // one grid is built from both.
    const std::vector<TimedHistogram> fast {
        { Base, histogramOf({ { std::ldexp(1.0, -19), 3 }, { 0, 2 } }) }
    };
    const std::vector<TimedHistogram> slow { { Base,
                                               histogramOf({ { std::ldexp(1.0, 30), 1 } }) } };
    std::vector<TimedHistogram> both = fast;
    both.insert(both.end(), slow.begin(), slow.end());
    const HeatmapGrid expected = heatmapFromHistograms(both, Base, Base + 1000, 1);
    const HeatmapGrid sum = sumHeatmapGrids({ heatmapFromHistograms(fast, Base, Base + 1000, 1),
                                              heatmapFromHistograms(slow, Base, Base + 1000, 1) });
    QCOMPARE(sum.rows(), MaxHeatmapRows);
    QCOMPARE(sum.upperBoundsMs, expected.upperBoundsMs);
    QCOMPARE(sum.perSecond, expected.perSecond);
    QCOMPARE(sum.at(0, 0), 5.0);
}

void TestHeatmapQuery::parseLe_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("expected"); // NaN: refused

    const double inf = std::numeric_limits<double>::infinity();
    const double refused = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("decimal") << u"0.005"_s << 0.005;
    QTest::newRow("exponent") << u"1e-3"_s << 0.001;
    QTest::newRow("integer") << u"10"_s << 10.0;
    QTest::newRow("+Inf") << u"+Inf"_s << inf;
    QTest::newRow("inf") << u"inf"_s << inf;
    QTest::newRow("word") << u"fast"_s << refused;
    QTest::newRow("empty") << u""_s << refused;
    QTest::newRow("nan") << u"NaN"_s << refused;
}

void TestHeatmapQuery::parseLe()
{
    QFETCH(QString, text);
    QFETCH(double, expected);
    const std::optional<double> parsed = parseLeBound(text);
    if (std::isnan(expected)) {
        QVERIFY(!parsed);
        return;
    }
    QVERIFY(parsed);
    QCOMPARE(*parsed, expected);
    QCOMPARE(msPerBucketUnit(u"s"_s), 1000.0);
    QCOMPARE(msPerBucketUnit(u"µs"_s), 0.001);
    QVERIFY(!msPerBucketUnit(u"1/s"_s));
}

void TestHeatmapQuery::csvRowsForHeatmap()
{
    SeriesRegistry registry;
    LiveBuffers live(1000);
    const int id = registry.idFor(histogramInfo(u"pg"_s, u"pg.latency.probe"_s));
    // Three polls; the second saw nothing, the third also saw a slow run.
    live.appendHistogram(id, Base, histogramOf({ { 3, 10 } }));
    live.appendHistogram(id, Base + 1000, LogHistogram());
    live.appendHistogram(id, Base + 2000, histogramOf({ { 3, 8 }, { 20, 1 } }));
    const PanelData data = queryPanel(heatmapPanel(u"pg"_s, u"pg.latency.probe"_s), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 3000, 0);
    QCOMPARE(data.as<HeatmapGrid>().columns, 3);
    const QStringList rows = QString::fromUtf8(csvRows(data)).split(u"\r\n"_s, Qt::SkipEmptyParts);
    // One row per non-empty cell, columns in time order, fastest row first.
    const QStringList expected {
        u"2023-11-14T22:13:20.000Z,heat,pg,pg.latency.probe,\"{bucket=2–4 ms,gt_ms=2,le_ms=4}\",10,1/s"_s,
        u"2023-11-14T22:13:22.000Z,heat,pg,pg.latency.probe,\"{bucket=2–4 ms,gt_ms=2,le_ms=4}\",8,1/s"_s,
        u"2023-11-14T22:13:22.000Z,heat,pg,pg.latency.probe,\"{bucket=16–32 ms,gt_ms=16,le_ms=32}\",1,1/s"_s,
    };
    QCOMPARE(rows, expected);
}

QTEST_GUILESS_MAIN(TestHeatmapQuery)
#include "tst_heatmapquery.moc"
