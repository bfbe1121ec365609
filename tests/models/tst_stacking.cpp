// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Stacked areas: bands add up on shared timestamps, gaps add nothing, and the mean
// reduction puts every series on the same column instants.
#include "query/downsample.h"
#include "query/stacking.h"

#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Qt::StringLiterals;

class TestStacking : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bandsAddUp();
    void missingPointsInterpolatedInsideSegments();
    void gapsAndNonFiniteCountAsZero();
    void meanReductionSharesColumnInstants();
};

namespace {
PanelSeriesData line(std::vector<Sample> points, std::vector<size_t> starts = { 0 })
{
    PanelSeriesData s;
    s.points = std::move(points);
    s.segmentStarts = s.points.empty() ? std::vector<size_t> {} : std::move(starts);
    return s;
}
} // namespace

void TestStacking::bandsAddUp()
{
    const auto bands = stackSeries({ line({ { 0, 1 }, { 10, 2 } }), line({ { 0, 10 }, { 10, 20 } }),
                                     line({ { 0, 100 }, { 10, 200 } }) });
    QCOMPARE(bands.size(), size_t(3));
    QCOMPARE(bands[0].lower[1].value, 0.0);
    QCOMPARE(bands[0].upper[1].value, 2.0);
    QCOMPARE(bands[1].lower[1].value, 2.0);
    QCOMPARE(bands[1].upper[1].value, 22.0);
    QCOMPARE(bands[2].lower[0].value, 11.0);
    QCOMPARE(bands[2].upper[0].value, 111.0);
    QCOMPARE(bands[2].upper[1].tsMs, 10);
}

void TestStacking::missingPointsInterpolatedInsideSegments()
{
    // The second series has no point at 5: halfway between 10 and 30 is 20.
    const auto bands
        = stackSeries({ line({ { 0, 1 }, { 5, 1 }, { 10, 1 } }), line({ { 0, 10 }, { 10, 30 } }) });
    QCOMPARE(bands[1].upper.size(), size_t(3));
    QCOMPARE(bands[1].upper[1].tsMs, 5);
    QCOMPARE(bands[1].upper[1].value, 21.0);
}

void TestStacking::gapsAndNonFiniteCountAsZero()
{
    // A gap between 10 and 40 (a new segment at index 2): nothing at 20, not 25.
    const auto bands
        = stackSeries({ line({ { 0, 1 }, { 20, 1 }, { 50, 1 } }),
                        line({ { 0, 5 }, { 10, 5 }, { 40, 45 }, { 50, qQNaN() } }, { 0, 2 }) });
    QCOMPARE(bands[1].upper[2].tsMs, 20);
    QCOMPARE(bands[1].upper[2].value, 1.0);
    // Before the first point of the first series: 0 as well.
    QCOMPARE(bands[0].upper[1].tsMs, 10);
    QCOMPARE(bands[0].upper[1].value, 1.0); // interpolated 0..20 for series 0
    QCOMPARE(bands[1].upper.back().value, 1.0); // NaN adds nothing
}

void TestStacking::meanReductionSharesColumnInstants()
{
    std::vector<Sample> a, b;
    for (qint64 t = 0; t < 100'000; t += 1000) {
        a.push_back({ t, double(t % 3000) });
        b.push_back({ t + 300, 1.0 }); // another phase, same columns
    }
    const auto ra = downsampleMean(a, 0, 100'000, 10);
    const auto rb = downsampleMean(b, 0, 100'000, 10);
    QCOMPARE(ra.size(), size_t(10));
    QCOMPARE(rb.size(), size_t(10));
    for (size_t i = 0; i < ra.size(); ++i)
        QCOMPARE(ra[i].tsMs, rb[i].tsMs);
    QCOMPARE(ra[0].tsMs, 5000);
    QCOMPARE(rb[3].value, 1.0);
    // The column mean: 10 samples of 0, 1000, 2000, 0, ... in the first 10 s.
    double expected = 0;
    for (qint64 t = 0; t < 10'000; t += 1000)
        expected += double(t % 3000);
    QCOMPARE(ra[0].value, expected / 10);
    // Sparse input comes back as it is.
    const std::vector<Sample> sparse { { 0, 1 }, { 50'000, 2 } };
    QCOMPARE(downsampleMean(sparse, 0, 100'000, 10).size(), size_t(2));
}

QTEST_GUILESS_MAIN(TestStacking)
#include "tst_stacking.moc"
