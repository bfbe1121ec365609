// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Percentile lines of histogram series: every point is within 1 % of the exact
// percentile of the raw samples of the polls it covers (max exact), gaps split lines,
// empty polls draw nothing, and a range stitched from the SQLite cache and the live
// buffers gives the same lines as one source would.
#include "document/dashboardfile.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/csvexport.h"
#include "query/heatmap/percentilelines.h"

#include <QLocale>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <set>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Base = 1'700'000'000'000;
constexpr int PollMs = 1000;

// Raw samples per poll, kept beside the histograms built from them: the reference.
struct Polls
{
    std::vector<qint64> ts;
    std::vector<std::vector<double>> samples;
    std::vector<LogHistogram> histograms;
};

// `count` polls, 1 s apart from Base, of `perPoll` lognormal latencies (median 4 ms)
// with a 1 % slow tail. Polls for which skip(n) is true are missing (an outage);
// polls for which empty(n) is true happened but saw no event.
Polls makePolls(int count, int perPoll, const std::function<bool(int)> &skip = {},
                const std::function<bool(int)> &empty = {})
{
    std::mt19937_64 rng(20240611);
    std::lognormal_distribution<double> latency(std::log(4.0), 0.7);
    std::uniform_real_distribution<double> unit(0, 1);
    Polls polls;
    for (int n = 0; n < count; ++n) {
        if (skip && skip(n))
            continue;
        std::vector<double> values;
        LogHistogram histogram;
        const int events = empty && empty(n) ? 0 : perPoll;
        for (int i = 0; i < events; ++i) {
            const double v = latency(rng) * (unit(rng) < 0.01 ? 25 : 1);
            values.push_back(v);
            histogram.add(v);
        }
        polls.ts.push_back(Base + qint64(n) * PollMs);
        polls.samples.push_back(std::move(values));
        polls.histograms.push_back(std::move(histogram));
    }
    return polls;
}

// Nearest rank, the definition LogHistogram::quantile follows.
double exactPercentile(std::vector<double> values, double percentile)
{
    const auto rank = size_t(std::ceil(percentile / 100.0 * double(values.size())));
    const auto nth = values.begin() + qsizetype(std::max<size_t>(rank, 1) - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

SeriesInfo latencyInfo(const QString &metric)
{
    SeriesInfo info;
    info.key = { u"pg"_s, metric, {} };
    info.unit = u"ms"_s;
    info.resource = u"db:erp"_s;
    info.kind = UseKind::Latency;
    info.histogram = true;
    return info;
}

DashboardPanel latencyPanel(const QList<double> &percentiles = {})
{
    DashboardPanel panel;
    panel.id = u"latency"_s;
    panel.type = PanelType::TimeSeries;
    panel.series = { { u"pg"_s, u"pg.latency.*"_s, {} } };
    panel.percentiles = percentiles;
    return panel;
}

double worstRelativeError = 0; // over every compared point, reported at the end
qint64 comparedPoints = 0;

// Checks each point of one line against the raw samples it covers: the polls in the
// same pixel column after the line's previous point, up to the point's own time (a
// point is stamped with the newest poll merged into it). Returns what is wrong, or
// nothing; *covered counts the non-empty polls the points covered, so callers can check
// that none was dropped or counted twice.
QString checkLine(const PanelSeriesData &line, double percentile, const Polls &polls, qint64 fromMs,
                  qint64 toMs, int columns, qint64 *covered)
{
    const auto columnOf = [&](qint64 ts) {
        return std::min(columns - 1, int(double(ts - fromMs) * columns / double(toMs - fromMs)));
    };
    *covered = 0;
    qint64 previous = std::numeric_limits<qint64>::min();
    for (const Sample &point : line.points) {
        std::vector<double> raw;
        for (size_t n = 0; n < polls.ts.size(); ++n) {
            const qint64 ts = polls.ts[n];
            const bool inGroup = columns > 0
                ? ts > previous && ts <= point.tsMs && columnOf(ts) == columnOf(point.tsMs)
                : ts == point.tsMs;
            if (inGroup && !polls.samples[n].empty()) {
                raw.insert(raw.end(), polls.samples[n].begin(), polls.samples[n].end());
                ++*covered;
            }
        }
        const QString where = u"p%1 at %2 ms"_s.arg(percentile).arg(point.tsMs - Base);
        if (raw.empty())
            return where + u": the point covers no raw sample"_s;
        const double exact = exactPercentile(raw, percentile);
        if (percentile >= 100) {
            if (point.value != exact)
                return where + u": max %1 is not the exact %2"_s.arg(point.value).arg(exact);
        } else {
            const double relative = std::abs(point.value - exact) / exact;
            worstRelativeError = std::max(worstRelativeError, relative);
            ++comparedPoints;
            if (relative > 0.01)
                return where
                    + u": %1 vs exact %2, %3 %"_s.arg(point.value).arg(exact).arg(relative * 100);
        }
        previous = point.tsMs;
    }
    return {};
}

// checkLine that also wants every non-empty poll covered exactly once.
#define CHECK_LINE(line, percentile, polls, from, to, columns, expectedCovered)                    \
    do {                                                                                           \
        qint64 covered = 0;                                                                        \
        const QString problem = checkLine(line, percentile, polls, from, to, columns, &covered);   \
        QVERIFY2(problem.isEmpty(), qPrintable(problem));                                          \
        QCOMPARE(covered, qint64(expectedCovered));                                                \
    } while (false)

qint64 nonEmptyPolls(const Polls &polls)
{
    return std::count_if(polls.samples.begin(), polls.samples.end(),
                         [](const auto &s) { return !s.empty(); });
}

} // namespace

class TestPercentileLines : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void linesWithinOnePercent_data();
    void linesWithinOnePercent();
    void labels_data();
    void labels();
    void gapsSplitLines_data();
    void gapsSplitLines();
    void emptyPollsDrawNothing();
    void valuesAndHistogramsInOnePanel();
    void apdexOptionCountsEveryRequest();
    void csvRowsPerPercentile();
    void cacheAndLiveStitched();
    void cleanupTestCase();
};

void TestPercentileLines::linesWithinOnePercent_data()
{
    QTest::addColumn<int>("columns");
    QTest::addColumn<int>("perPoll");
    QTest::newRow("60 columns: 10 polls each") << 60 << 200;
    QTest::newRow("37 columns: uneven") << 37 << 200;
    QTest::newRow("7 columns: wide merges") << 7 << 200;
    QTest::newRow("600 columns: one poll each") << 600 << 200;
    QTest::newRow("1000 columns: more than polls") << 1000 << 200;
    QTest::newRow("no reduction (CSV)") << 0 << 200;
    QTest::newRow("one event per poll (a probe)") << 53 << 1;
}

void TestPercentileLines::linesWithinOnePercent()
{
    QFETCH(int, columns);
    QFETCH(int, perPoll);
    const Polls polls = makePolls(600, perPoll);
    SeriesRegistry registry;
    LiveBuffers live(3600);
    const int id = registry.idFor(latencyInfo(u"pg.latency.statements"_s));
    for (size_t n = 0; n < polls.ts.size(); ++n)
        live.appendHistogram(id, polls.ts[n], polls.histograms[n]);
    // The range does not start on a poll, so columns and polls do not line up.
    const qint64 from = Base - 700, to = Base + 600'000;
    const PanelData data
        = queryPanel(latencyPanel(), registry, SeriesStore(&live, nullptr), from, to, columns);

    const QList<double> percentiles { 50, 95, 99, 100 };
    QCOMPARE(data.series.size(), percentiles.size());
    std::set<int> usedColumns;
    for (qint64 ts : polls.ts)
        usedColumns.insert(
            columns > 0
                ? std::min(columns - 1, int(double(ts - from) * columns / double(to - from)))
                : int(ts - Base));
    for (qsizetype i = 0; i < percentiles.size(); ++i) {
        const PanelSeriesData &line = data.series.at(i);
        QCOMPARE(line.seriesId, id);
        QCOMPARE(line.rawCount, 600);
        QCOMPARE(line.points.size(), usedColumns.size()); // one point per column with data
        QCOMPARE(line.segmentStarts, std::vector<size_t> { 0 });
        CHECK_LINE(line, percentiles.at(i), polls, from, to, columns, 600);
    }
}

void TestPercentileLines::labels_data()
{
    QTest::addColumn<QList<double>>("percentiles");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("default") << QList<double>()
                             << QStringList { u"latency.probe p50"_s, u"latency.probe p95"_s,
                                              u"latency.probe p99"_s, u"latency.probe max"_s };
    QTest::newRow("file order, fractions") << QList<double> { 99.9, 50, 100, 0.5 }
                                           << QStringList {
                                                  u"latency.probe p99.9"_s,
                                                  u"latency.probe p50"_s,
                                                  u"latency.probe max"_s,
                                                  u"latency.probe p0.5"_s,
                                              };
    QTest::newRow("max alone") << QList<double> { 100 } << QStringList { u"latency.probe max"_s };
}

void TestPercentileLines::labels()
{
    QFETCH(QList<double>, percentiles);
    QFETCH(QStringList, names);
    const Polls polls = makePolls(30, 20);
    SeriesRegistry registry;
    LiveBuffers live(100);
    SeriesInfo info = latencyInfo(u"pg.latency.probe"_s);
    info.key.labels = { { u"database"_s, u"erp"_s } };
    const int id = registry.idFor(info);
    for (size_t n = 0; n < polls.ts.size(); ++n)
        live.appendHistogram(id, polls.ts[n], polls.histograms[n]);
    const PanelData data = queryPanel(latencyPanel(percentiles), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 30'000, 10);
    QStringList actual;
    for (const PanelSeriesData &line : data.series) {
        actual << seriesDisplayName(line.info).remove(u"erp/"_s);
        // The series' own labels stay; unit and kind are the series'.
        QCOMPARE(line.info.key.labels.value(u"database"_s), u"erp"_s);
        QCOMPARE(line.info.unit, u"ms"_s);
        QVERIFY(line.info.histogram);
        QCOMPARE(line.points.size(), size_t(10));
    }
    QCOMPARE(actual, names);
}

void TestPercentileLines::gapsSplitLines_data()
{
    QTest::addColumn<int>("columns");
    QTest::newRow("no reduction") << 0;
    QTest::newRow("100 columns") << 100;
    // 150 s per column: the outage falls inside column 1, which must still not merge
    // the polls on either side into one point.
    QTest::newRow("4 columns") << 4;
}

void TestPercentileLines::gapsSplitLines()
{
    QFETCH(int, columns);
    // A 60 s outage: polls 200..259 are missing.
    const Polls polls = makePolls(600, 50, [](int n) { return n >= 200 && n < 260; });
    SeriesRegistry registry;
    LiveBuffers live(3600);
    const int id = registry.idFor(latencyInfo(u"pg.latency.probe"_s));
    for (size_t n = 0; n < polls.ts.size(); ++n)
        live.appendHistogram(id, polls.ts[n], polls.histograms[n]);
    const qint64 from = Base, to = Base + 599'000;
    const PanelData data
        = queryPanel(latencyPanel(), registry, SeriesStore(&live, nullptr), from, to, columns);
    QCOMPARE(data.series.size(), 4);
    const QList<double> percentiles { 50, 95, 99, 100 };
    for (qsizetype i = 0; i < data.series.size(); ++i) {
        const PanelSeriesData &line = data.series.at(i);
        QCOMPARE(line.segmentStarts.size(), size_t(2));
        QCOMPARE(line.segmentStarts[0], size_t(0));
        const size_t second = line.segmentStarts[1];
        QCOMPARE(line.points[second - 1].tsMs, Base + 199'000); // the last poll before
        QVERIFY(line.points[second].tsMs >= Base + 260'000); // a point after the outage
        CHECK_LINE(line, percentiles.at(i), polls, from, to, columns, 540);
        if (columns == 4) {
            // Columns 0 and 1 left of the outage, then 1, 2 and 3 right of it: column 1
            // (polls 150..199 and 260..299) gives a point on each side.
            QCOMPARE(line.points.size(), size_t(5));
            QCOMPARE(second, size_t(2));
            QCOMPARE(line.points[second].tsMs, Base + 299'000);
        }
    }
}

void TestPercentileLines::emptyPollsDrawNothing()
{
    // Polls 100..149 saw no statement: no point there, and no gap either (the source
    // was polled).
    const Polls polls = makePolls(300, 20, {}, [](int n) { return n >= 100 && n < 150; });
    SeriesRegistry registry;
    LiveBuffers live(3600);
    const int id = registry.idFor(latencyInfo(u"pg.latency.statements"_s));
    const int idle = registry.idFor(latencyInfo(u"pg.latency.idle"_s));
    for (size_t n = 0; n < polls.ts.size(); ++n) {
        live.appendHistogram(id, polls.ts[n], polls.histograms[n]);
        live.appendHistogram(idle, polls.ts[n], LogHistogram());
    }
    const PanelData data = queryPanel(latencyPanel({ 50, 100 }), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 299'000, 0);
    QCOMPARE(data.series.size(), 4); // idle p50, idle max, statements p50, statements max
    for (const PanelSeriesData &line : data.series) {
        if (line.info.key.metric == u"pg.latency.idle"_s) {
            QVERIFY(line.points.empty());
            QVERIFY(line.segmentStarts.empty());
            QCOMPARE(line.rawCount, 300);
        } else {
            QCOMPARE(line.points.size(), size_t(250));
            QCOMPARE(line.segmentStarts, std::vector<size_t> { 0 });
        }
    }
    // Reduced: the columns of only empty polls give no point either.
    const PanelData reduced = queryPanel(latencyPanel({ 50 }), registry,
                                         SeriesStore(&live, nullptr), Base, Base + 300'000, 30);
    const PanelSeriesData &line = reduced.series.at(1);
    QCOMPARE(line.points.size(), size_t(25));
    CHECK_LINE(line, 50, polls, Base, Base + 300'000, 30, nonEmptyPolls(polls));
}

void TestPercentileLines::valuesAndHistogramsInOnePanel()
{
    SeriesRegistry registry;
    LiveBuffers live(100);
    const int sessions = registry.idFor(
        SeriesInfo { { u"pg"_s, u"pg.activity.sessions"_s, {} }, {}, {}, UseKind::Info, false });
    const int probe = registry.idFor(latencyInfo(u"pg.latency.probe"_s));
    LogHistogram h;
    h.add(2.0);
    for (int n = 0; n < 10; ++n) {
        live.append(sessions, { Base + n * 1000LL, double(n) });
        live.appendHistogram(probe, Base + n * 1000LL, h);
    }
    DashboardPanel panel = latencyPanel({ 99 });
    panel.series.append({ u"pg"_s, u"pg.activity.*"_s, {} });
    const PanelData data
        = queryPanel(panel, registry, SeriesStore(&live, nullptr), Base, Base + 9000, 100);
    QCOMPARE(data.series.size(), 2); // ordered by series key
    QCOMPARE(data.series.at(0).seriesId, sessions);
    QCOMPARE(data.series.at(0).points.size(), size_t(10));
    QVERIFY(!data.series.at(0).info.key.labels.contains(u"percentile"_s));
    QCOMPARE(data.series.at(1).seriesId, probe);
    QCOMPARE(data.series.at(1).info.key.labels.value(u"percentile"_s), u"p99"_s);
    QCOMPARE(data.series.at(1).points.size(), size_t(10));
}

void TestPercentileLines::apdexOptionCountsEveryRequest()
{
    // 300 polls in 30 columns; T = 5 ms. Each point is the APDEX of every raw latency
    // of its column's polls, counted by hand: not a mean of per-poll scores.
    const Polls polls = makePolls(300, 20, [](int n) { return n >= 200 && n < 210; });
    SeriesRegistry registry;
    LiveBuffers live(3600);
    const int id = registry.idFor(latencyInfo(u"pg.latency.statements"_s));
    for (size_t n = 0; n < polls.ts.size(); ++n)
        live.appendHistogram(id, polls.ts[n], polls.histograms[n]);
    DashboardPanel panel = latencyPanel();
    panel.options.insert(u"apdex"_s, u"5ms"_s);
    const qint64 to = Base + 300'000;
    const PanelData data = queryPanel(panel, registry, SeriesStore(&live, nullptr), Base, to, 30);
    QCOMPARE(data.series.size(), 1); // no percentile lines
    const PanelSeriesData &line = data.series.at(0);
    QCOMPARE(line.info.key.labels.value(u"apdex"_s), u"T=5ms"_s);
    QCOMPARE(line.info.unit, QString());
    QCOMPARE(line.segmentStarts.size(), size_t(2)); // the outage splits it
    const auto columnOf
        = [&](qint64 ts) { return int(double(ts - Base) * 30 / double(to - Base)); };
    qint64 previous = 0;
    for (const Sample &point : line.points) {
        double satisfied = 0, tolerating = 0, total = 0;
        for (size_t n = 0; n < polls.ts.size(); ++n) {
            const qint64 ts = polls.ts[n];
            if (ts <= previous || ts > point.tsMs || columnOf(ts) != columnOf(point.tsMs))
                continue;
            for (const double v : polls.samples[n]) {
                total += 1;
                satisfied += v <= 5 ? 1 : 0;
                tolerating += v > 5 && v <= 20 ? 1 : 0;
            }
        }
        QVERIFY(total > 0);
        const double exact = (satisfied + tolerating / 2) / total;
        // The buckets holding T and 4T are 2 % wide: a request within them may count a
        // step better than its hand count.
        QVERIFY2(std::abs(point.value - exact) <= 0.02,
                 qPrintable(u"at %1 s: %2, by hand %3"_s.arg((point.tsMs - Base) / 1000)
                                .arg(point.value)
                                .arg(exact)));
        previous = point.tsMs;
    }
    QCOMPARE(line.points.size(), size_t(29)); // the column of the outage has none
}

void TestPercentileLines::csvRowsPerPercentile()
{
    const Polls polls = makePolls(3, 10);
    SeriesRegistry registry;
    LiveBuffers live(100);
    const int id = registry.idFor(latencyInfo(u"pg.latency.probe"_s));
    for (size_t n = 0; n < polls.ts.size(); ++n)
        live.appendHistogram(id, polls.ts[n], polls.histograms[n]);
    const PanelData data = queryPanel(latencyPanel({ 50, 100 }), registry,
                                      SeriesStore(&live, nullptr), Base, Base + 2000, 0);
    const QList<QByteArray> rows = csvRows(data).split('\n');
    QCOMPARE(rows.size(), 7); // 2 lines x 3 polls, and the empty rest after the last CRLF
    QVERIFY2(rows[0].contains(",latency,pg,pg.latency.probe,{percentile=p50},"),
             rows[0].constData());
    QVERIFY2(rows[3].contains(",latency,pg,pg.latency.probe,{percentile=max},"),
             rows[3].constData());
    const double max2 = *std::max_element(polls.samples[2].begin(), polls.samples[2].end());
    const QByteArray value = QString::number(max2, 'g', QLocale::FloatingPointShortest).toUtf8();
    QVERIFY2(rows[5].endsWith(QByteArray(',' + value + ",ms\r")), rows[5].constData());
}

void TestPercentileLines::cacheAndLiveStitched()
{
    // A dashboard file asks for the lines; the older two thirds of the range come from a
    // real SQLite cache, the newest third from a live ring that holds only 200 polls.
    const DashboardLoadResult loaded = parseDashboard(R"({
        "schemaVersion": 1, "title": "pg",
        "sources": [{"id": "pg", "plugin": "postgres"}],
        "panels": [{"id": "latency", "type": "timeseries", "title": "Probe latency",
                    "unit": "ms", "yScale": "log", "percentiles": [50, 95, 99, 100],
                    "series": [{"source": "pg", "metric": "pg.latency.probe"}]}]
    })",
                                                      u"pg.json"_s);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error.toString()));
    const DashboardPanel &panel = loaded.dashboard->panels.at(0);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SeriesRegistry registry;
    QString error;
    CacheOptions options;
    options.retentionDays = 0; // Base is in 2023: keep it
    const auto cache
        = SampleCache::open(dir.filePath(u"cache.sqlite"_s), &registry, &error, options);
    QVERIFY2(cache, qPrintable(error));
    SampleBus bus(&registry);
    LiveBuffers live(200);
    bus.addSink(&live);
    bus.addSink(cache.get());
    const Polls polls = makePolls(600, 200);
    for (size_t n = 0; n < polls.ts.size(); ++n) {
        SampleBatch batch;
        batch.source = u"pg"_s;
        batch.tsMs = polls.ts[n];
        batch.histograms.append({ latencyInfo(u"pg.latency.probe"_s), polls.histograms[n] });
        bus.publish(batch);
    }
    cache->flush();
    const int id = *registry.find({ u"pg"_s, u"pg.latency.probe"_s, {} });
    QCOMPARE(live.oldest(id), Base + 400'000); // polls 0..399 are in the cache only

    const SeriesStore store(&live, cache.get());
    const qint64 from = Base - 300, to = Base + 599'500;
    const std::vector<TimedHistogram> stitched = store.readHistograms(id, from, to);
    QCOMPARE(stitched.size(), size_t(600));
    for (size_t n = 0; n < stitched.size(); ++n) {
        QCOMPARE(stitched[n].first, polls.ts[n]);
        QVERIFY(stitched[n].second == polls.histograms[n]); // exact through the cache
    }
    // A range entirely before the ring comes from the cache, and not past its end.
    QCOMPARE(store.readHistograms(id, Base, Base + 9000).size(), size_t(10));

    const PanelData full = queryPanel(panel, registry, store, from, to, 0);
    QCOMPARE(full.series.size(), 4);
    for (qsizetype i = 0; i < full.series.size(); ++i) {
        const PanelSeriesData &line = full.series.at(i);
        QCOMPARE(line.points.size(), size_t(600));
        for (size_t n = 0; n < line.points.size(); ++n)
            QCOMPARE(line.points[n].tsMs, polls.ts[n]); // no overlap, no hole at the seam
        CHECK_LINE(line, panel.percentiles.at(i), polls, from, to, 0, 600);
    }
    // 70 columns: about 8.6 polls each, so one column spans the seam at poll 400.
    const int columns = 70;
    const auto columnOf = [&](qint64 ts) {
        return std::min(columns - 1, int(double(ts - from) * columns / double(to - from)));
    };
    QCOMPARE(columnOf(polls.ts[399]), columnOf(polls.ts[400]));
    const PanelData reduced = queryPanel(panel, registry, store, from, to, columns);
    for (qsizetype i = 0; i < reduced.series.size(); ++i) {
        const PanelSeriesData &line = reduced.series.at(i);
        QCOMPARE(line.points.size(), size_t(columns));
        CHECK_LINE(line, panel.percentiles.at(i), polls, from, to, columns, 600);
    }
}

void TestPercentileLines::cleanupTestCase()
{
    qInfo("worst relative percentile error over %lld points: %.4f %%", comparedPoints,
          worstRelativeError * 100);
    QVERIFY(worstRelativeError <= (LogHistogram::Gamma - 1) / (LogHistogram::Gamma + 1));
}

QTEST_GUILESS_MAIN(TestPercentileLines)
#include "tst_percentilelines.moc"
