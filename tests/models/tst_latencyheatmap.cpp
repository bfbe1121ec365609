// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Latency heatmap bucketing: histograms land in power-of-two rows at the right rate per
// second and in the right pixel column, Prometheus-style cumulative le buckets give the
// same grid as the equivalent histograms, and jitter, holes and odd values do no harm.
#include "query/heatmap/latencyheatmap.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Base = 1'700'000'000'000;

LogHistogram histogramOf(const QList<double> &values, const QList<double> &counts)
{
    LogHistogram histogram;
    for (qsizetype i = 0; i < values.size(); ++i)
        histogram.add(values.at(i), quint64(counts.at(i)));
    return histogram;
}

// The row whose upper bound is upperMs, or -1.
int rowOf(const HeatmapGrid &grid, double upperMs)
{
    return int(grid.upperBoundsMs.indexOf(upperMs));
}

double total(const HeatmapGrid &grid)
{
    return std::accumulate(grid.perSecond.begin(), grid.perSecond.end(), 0.0);
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

// Four polls 1 s apart from Base; at poll k bucket b holds PerBucket[b] * (k + 1)
// events, i.e. that many per second. Buckets (0,1], (1,2], (2,4], (4,8], (8,+inf) ms,
// represented in histograms by one value inside the row each bucket maps to.
const QList<double> PerBucket { 10, 20, 40, 5, 2 };
const QList<double> BucketValuesMs { 0.9, 1.5, 3, 6, 12 };
const QList<double> LeSeconds { 0.001, 0.002, 0.004, 0.008,
                                std::numeric_limits<double>::infinity() };
constexpr int Polls = 4;

std::vector<TimedHistogram> equivalentHistograms()
{
    std::vector<TimedHistogram> out;
    for (int k = 0; k < Polls; ++k) {
        QList<double> counts;
        for (double rate : PerBucket)
            counts << rate * (k + 1);
        out.emplace_back(Base + k * 1000, histogramOf(BucketValuesMs, counts));
    }
    return out;
}

// The cumulative rate series, +Inf first: the function must not rely on input order.
QList<std::pair<double, std::vector<Sample>>> cumulativeRates()
{
    QList<std::pair<double, std::vector<Sample>>> bounds;
    for (qsizetype b = LeSeconds.size() - 1; b >= 0; --b) {
        std::vector<Sample> samples;
        for (int k = 0; k < Polls; ++k) {
            double cumulative = 0;
            for (qsizetype i = 0; i <= b; ++i)
                cumulative += PerBucket.at(i) * (k + 1);
            samples.push_back({ Base + k * 1000, cumulative });
        }
        bounds.append({ LeSeconds.at(b), std::move(samples) });
    }
    return bounds;
}

std::vector<Sample> &seriesFor(QList<std::pair<double, std::vector<Sample>>> &bounds, double le)
{
    for (auto &[bound, samples] : bounds) {
        if (bound == le)
            return samples;
    }
    return bounds.first().second; // not reached: the tests only ask for existing bounds
}

} // namespace

class TestLatencyHeatmap : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void knownSamples_data();
    void knownSamples();
    void columnsByTime_data();
    void columnsByTime();
    void cumulativeMatchesHistograms_data();
    void cumulativeMatchesHistograms();
    void negativeJitterClamped();
    void missingTimestampSkipped();
    void emptyInput();
    void extremeValues_data();
    void extremeValues();
    void rowLabels_data();
    void rowLabels();
};

void TestLatencyHeatmap::knownSamples_data()
{
    QTest::addColumn<QList<double>>("values"); // ms
    QTest::addColumn<QList<double>>("counts");
    QTest::addColumn<QList<double>>("upperBounds"); // every row of the grid
    QTest::addColumn<QList<double>>("expectedUppers"); // the rows that get events
    QTest::addColumn<QList<double>>("expectedRates");

    QTest::newRow("3 ms and 10 ms")
        << QList<double> { 3, 10 } << QList<double> { 1000, 500 } << QList<double> { 2, 4, 8, 16 }
        << QList<double> { 4, 16 } << QList<double> { 500, 250 };
    // The 2 % bucket holding exactly 8 ms reaches above 8, its representative is 8.08.
    QTest::newRow("exactly 8 ms: by representative")
        << QList<double> { 8 } << QList<double> { 20 } << QList<double> { 8, 16 }
        << QList<double> { 16 } << QList<double> { 10 };
    QTest::newRow("sub-millisecond")
        << QList<double> { 0.3 } << QList<double> { 4 } << QList<double> { 0.25, 0.5 }
        << QList<double> { 0.5 } << QList<double> { 2 };
    QTest::newRow("zero bucket goes to the first row")
        << QList<double> { 0, 1e-7, 3 } << QList<double> { 4, 2, 2 } << QList<double> { 2, 4 }
        << QList<double> { 2, 4 } << QList<double> { 3, 1 };
}

void TestLatencyHeatmap::knownSamples()
{
    QFETCH(QList<double>, values);
    QFETCH(QList<double>, counts);
    QFETCH(QList<double>, upperBounds);
    QFETCH(QList<double>, expectedUppers);
    QFETCH(QList<double>, expectedRates);
    // One column of 2 s holding one poll.
    const HeatmapGrid grid = heatmapFromHistograms({ { Base + 1000, histogramOf(values, counts) } },
                                                   Base, Base + 2000, 1);
    QCOMPARE(grid.columns, 1);
    QCOMPARE(grid.upperBoundsMs, upperBounds);
    QCOMPARE(grid.perSecond.size(), size_t(upperBounds.size()));
    for (qsizetype i = 0; i < expectedUppers.size(); ++i) {
        const int row = rowOf(grid, expectedUppers.at(i));
        QVERIFY2(row >= 0, qPrintable(u"no row up to %1 ms"_s.arg(expectedUppers.at(i))));
        QCOMPARE(grid.at(row, 0), expectedRates.at(i));
    }
    // Nothing anywhere else.
    QCOMPARE(total(grid), std::accumulate(expectedRates.begin(), expectedRates.end(), 0.0));
    QCOMPARE(grid.maxPerSecond, *std::max_element(expectedRates.begin(), expectedRates.end()));
}

void TestLatencyHeatmap::columnsByTime_data()
{
    QTest::addColumn<int>("columns");
    QTest::addColumn<QList<double>>("expected"); // per column, row "2–4 ms"
    // 4 events at +0.5 s and 8 at +6.5 s of an 8 s range.
    QTest::newRow("1 column of 8 s") << 1 << QList<double> { 1.5 };
    QTest::newRow("2 columns of 4 s") << 2 << QList<double> { 1, 2 };
    QTest::newRow("3 columns of 2.67 s") << 3 << QList<double> { 1.5, 0, 3 };
    QTest::newRow("4 columns of 2 s") << 4 << QList<double> { 2, 0, 0, 4 };
    QTest::newRow("8 columns of 1 s") << 8 << QList<double> { 4, 0, 0, 0, 0, 0, 8, 0 };
}

void TestLatencyHeatmap::columnsByTime()
{
    QFETCH(int, columns);
    QFETCH(QList<double>, expected);
    const std::vector<TimedHistogram> histograms {
        { Base - 1, histogramOf({ 3 }, { 100 }) }, // before the range: ignored
        { Base + 500, histogramOf({ 3 }, { 4 }) },
        { Base + 6500, histogramOf({ 3 }, { 8 }) },
        { Base + 8001, histogramOf({ 3 }, { 100 }) }, // after the range: ignored
    };
    const HeatmapGrid grid = heatmapFromHistograms(histograms, Base, Base + 8000, columns);
    QCOMPARE(grid.columns, columns);
    QCOMPARE(grid.upperBoundsMs, (QList<double> { 2, 4 }));
    QCOMPARE(grid.perSecond.size(), size_t(2 * columns));
    for (int c = 0; c < columns; ++c) {
        QVERIFY2(near(grid.at(1, c), expected.at(c)),
                 qPrintable(u"column %1: %2"_s.arg(c).arg(grid.at(1, c))));
        QCOMPARE(grid.at(0, c), 0.0);
    }
    QVERIFY(near(grid.maxPerSecond, *std::max_element(expected.begin(), expected.end())));
}

void TestLatencyHeatmap::cumulativeMatchesHistograms_data()
{
    // Columns that hold the same number of 1 s polls each, where a mean of rates and a
    // count over the column width are the same thing.
    QTest::addColumn<int>("columns");
    QTest::newRow("1 column") << 1;
    QTest::newRow("2 columns") << 2;
    QTest::newRow("4 columns") << 4;
}

void TestLatencyHeatmap::cumulativeMatchesHistograms()
{
    QFETCH(int, columns);
    const qint64 to = Base + Polls * 1000;
    const HeatmapGrid fromHistograms
        = heatmapFromHistograms(equivalentHistograms(), Base, to, columns);
    const HeatmapGrid fromRates
        = heatmapFromCumulativeBuckets(cumulativeRates(), 1000, Base, to, columns);
    // Rows 0.5–1 .. 8–16 ms; +Inf went to the row above le = 8 ms.
    QCOMPARE(fromRates.upperBoundsMs, (QList<double> { 0.5, 1, 2, 4, 8, 16 }));
    QCOMPARE(fromRates.upperBoundsMs, fromHistograms.upperBoundsMs);
    QCOMPARE(fromRates.firstExponent, fromHistograms.firstExponent);
    QCOMPARE(fromRates.columns, columns);
    QCOMPARE(fromRates.perSecond.size(), fromHistograms.perSecond.size());
    for (size_t i = 0; i < fromRates.perSecond.size(); ++i)
        QVERIFY2(near(fromRates.perSecond[i], fromHistograms.perSecond[i]),
                 qPrintable(u"cell %1: %2 vs %3"_s.arg(i)
                                .arg(fromRates.perSecond[i])
                                .arg(fromHistograms.perSecond[i])));
    QVERIFY(near(fromRates.maxPerSecond, fromHistograms.maxPerSecond));
    // Spot check: the mean over all 4 polls of bucket (2, 4] is 40 * 2.5.
    if (columns == 1)
        QCOMPARE(fromRates.at(rowOf(fromRates, 4), 0), 100.0);
}

void TestLatencyHeatmap::negativeJitterClamped()
{
    // (1, 2] has no events, and le=0.002 was rated a hair below le=0.001; +Inf a hair
    // below le=0.008, so nothing is above 8 ms.
    const QList<std::pair<double, std::vector<Sample>>> bounds {
        { 0.001, { { Base, 10 } } },
        { 0.002, { { Base, 10 - 1e-7 } } },
        { 0.004, { { Base, 50 } } },
        { std::numeric_limits<double>::infinity(), { { Base, 55 - 1e-9 } } },
        { 0.008, { { Base, 55 } } },
    };
    const HeatmapGrid grid = heatmapFromCumulativeBuckets(bounds, 1000, Base, Base + 1000, 1);
    // No row 8–16 ms: a clamped bucket does not widen the grid.
    QCOMPARE(grid.upperBoundsMs, (QList<double> { 0.5, 1, 2, 4, 8 }));
    for (double cell : grid.perSecond)
        QVERIFY(cell >= 0);
    QCOMPARE(grid.at(rowOf(grid, 1), 0), 10.0);
    QCOMPARE(grid.at(rowOf(grid, 2), 0), 0.0);
    QVERIFY(near(grid.at(rowOf(grid, 4), 0), 40 + 1e-7));
    QCOMPARE(grid.at(rowOf(grid, 8), 0), 5.0);
}

void TestLatencyHeatmap::missingTimestampSkipped()
{
    auto bounds = cumulativeRates();
    // le=0.004 lost its poll 1; +Inf has a stray sample no other bound has.
    auto &le4 = seriesFor(bounds, 0.004);
    le4.erase(le4.begin() + 1);
    seriesFor(bounds, std::numeric_limits<double>::infinity()).push_back({ Base + 3500, 1e6 });
    std::sort(seriesFor(bounds, std::numeric_limits<double>::infinity()).begin(),
              seriesFor(bounds, std::numeric_limits<double>::infinity()).end(),
              [](const Sample &a, const Sample &b) { return a.tsMs < b.tsMs; });

    const HeatmapGrid grid
        = heatmapFromCumulativeBuckets(bounds, 1000, Base, Base + Polls * 1000, 2);
    QCOMPARE(grid.upperBoundsMs, (QList<double> { 0.5, 1, 2, 4, 8, 16 }));
    // Column 0 is poll 0 alone (factor 1); column 1 the mean of polls 2 and 3 (3.5).
    for (qsizetype b = 0; b < PerBucket.size(); ++b) {
        const int row = int(b) + 1;
        QVERIFY2(near(grid.at(row, 0), PerBucket.at(b)),
                 qPrintable(u"bucket %1, column 0: %2"_s.arg(b).arg(grid.at(row, 0))));
        QVERIFY2(near(grid.at(row, 1), PerBucket.at(b) * 3.5),
                 qPrintable(u"bucket %1, column 1: %2"_s.arg(b).arg(grid.at(row, 1))));
    }
    QCOMPARE(grid.at(0, 0), 0.0);
    QVERIFY(near(grid.maxPerSecond, 40 * 3.5));
}

void TestLatencyHeatmap::emptyInput()
{
    const HeatmapGrid none = heatmapFromHistograms({}, Base, Base + 1000, 10);
    QCOMPARE(none.columns, 10);
    QCOMPARE(none.rows(), 0);
    QVERIFY(none.perSecond.empty());
    QCOMPARE(none.maxPerSecond, 0.0);

    // Polls that saw no event give no rows either.
    const HeatmapGrid emptyPolls
        = heatmapFromHistograms({ { Base, LogHistogram() } }, Base, Base + 1000, 10);
    QCOMPARE(emptyPolls.rows(), 0);

    const HeatmapGrid noBounds = heatmapFromCumulativeBuckets({}, 1000, Base, Base + 1000, 10);
    QCOMPARE(noBounds.rows(), 0);
    QVERIFY(noBounds.perSecond.empty());

    // All rates 0: nothing to show.
    auto zeroRates = cumulativeRates();
    for (auto &[le, samples] : zeroRates)
        for (Sample &sample : samples)
            sample.value = 0;
    QCOMPARE(heatmapFromCumulativeBuckets(zeroRates, 1000, Base, Base + 4000, 4).rows(), 0);

    // Unusable ranges give no columns, so at() can never index past perSecond.
    const std::vector<TimedHistogram> some { { Base, histogramOf({ 3 }, { 1 }) } };
    QCOMPARE(heatmapFromHistograms(some, Base, Base + 1000, 0).columns, 0);
    QCOMPARE(heatmapFromHistograms(some, Base, Base, 10).columns, 0);
    QCOMPARE(heatmapFromHistograms(some, Base, Base, 10).rows(), 0);
    QCOMPARE(heatmapFromCumulativeBuckets(cumulativeRates(), 1000, Base + 10, Base, 4).columns, 0);
}

void TestLatencyHeatmap::extremeValues_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<int>("rows");
    QTest::addColumn<double>("topUpperMs");
    QTest::addColumn<double>("firstRowRate"); // of the catch-all row, in a 1/3 s column
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("only the zero bucket")
        << QList<double> { 0, -5, 1e-6 } << 1 << LogHistogram::MinValue << 9.0;
    QTest::newRow("3 ms and 1e9 ms")
        << QList<double> { 3, 1e9 } << 30 << std::ldexp(1.0, 30) << 0.0;
    QTest::newRow("3 ms and 1e12 ms: exactly 40 rows")
        << QList<double> { 3, 1e12 } << MaxHeatmapRows << std::ldexp(1.0, 40) << 0.0;
    // Too wide: the fast end folds into the catch-all row, the slow end stays.
    QTest::newRow("1 us and 1e12 ms: capped")
        << QList<double> { 1e-3, 1e12 } << MaxHeatmapRows << std::ldexp(1.0, 40) << 3.0;
    QTest::newRow("+inf and DBL_MAX: finite top row")
        << QList<double> { inf, std::numeric_limits<double>::max() } << 2
        << std::ldexp(1.0, std::numeric_limits<double>::max_exponent - 1) << 0.0;
}

void TestLatencyHeatmap::extremeValues()
{
    QFETCH(QList<double>, values);
    QFETCH(int, rows);
    QFETCH(double, topUpperMs);
    QFETCH(double, firstRowRate);
    const QList<double> ones(values.size(), 1.0);
    const HeatmapGrid grid
        = heatmapFromHistograms({ { Base, histogramOf(values, ones) } }, Base, Base + 1000, 3);
    QCOMPARE(grid.rows(), rows);
    QCOMPARE(grid.upperBoundsMs.last(), topUpperMs);
    for (double bound : grid.upperBoundsMs)
        QVERIFY(std::isfinite(bound) && bound > 0);
    QCOMPARE(grid.at(0, 0), firstRowRate);
    // Every event is somewhere: one per value, in a 1/3 s column.
    QVERIFY(near(total(grid), double(values.size()) * 3));
    QVERIFY(std::isfinite(grid.maxPerSecond));
}

void TestLatencyHeatmap::rowLabels_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("3 and 10 ms") << QList<double> { 3, 10 }
                                 << QStringList { u"≤ 2 ms"_s, u"2–4 ms"_s, u"4–8 ms"_s,
                                                  u"8–16 ms"_s };
    QTest::newRow("sub-millisecond")
        << QList<double> { 0.3 } << QStringList { u"≤ 0.25 ms"_s, u"0.25–0.5 ms"_s };
    QTest::newRow("zero bucket only") << QList<double> { 0 } << QStringList { u"≤ 1e-06 ms"_s };
}

void TestLatencyHeatmap::rowLabels()
{
    QFETCH(QList<double>, values);
    QFETCH(QStringList, labels);
    const QList<double> ones(values.size(), 1.0);
    const HeatmapGrid grid
        = heatmapFromHistograms({ { Base, histogramOf(values, ones) } }, Base, Base + 1000, 1);
    QStringList actual;
    for (int row = 0; row < grid.rows(); ++row)
        actual << heatmapRowLabel(grid, row);
    QCOMPARE(actual, labels);
    QVERIFY(heatmapRowLabel(grid, grid.rows()).isEmpty());
    QVERIFY(heatmapRowLabel(grid, -1).isEmpty());
}

QTEST_GUILESS_MAIN(TestLatencyHeatmap)
#include "tst_latencyheatmap.moc"
