// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Reducing a day of 1 s samples to a panel's pixel columns, beside the plain copy of
// the same samples, so the cost of the reduction reads against a baseline.
#include "core/histogram.h"
#include "query/downsample.h"

#include <QRandomGenerator>
#include <QTest>

using namespace Headroom;

class BenchDownsample : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void copyDay(); // baseline
    void downsampleDayTo2000Columns();
    void histogramAddMillion();

private:
    std::vector<Sample> m_day;
};

void BenchDownsample::initTestCase()
{
    QRandomGenerator rng(3);
    for (qint64 t = 0; t < 86400; ++t)
        m_day.push_back({ t * 1000, rng.generateDouble() });
}

void BenchDownsample::copyDay()
{
    QBENCHMARK
    {
        std::vector<Sample> copy(m_day.begin(), m_day.end());
        QVERIFY(copy.size() == m_day.size());
    }
}

void BenchDownsample::downsampleDayTo2000Columns()
{
    QBENCHMARK
    {
        const auto out = downsampleMinMax(m_day, 0, 86400 * 1000, 2000);
        QVERIFY(out.size() <= 8000);
    }
}

void BenchDownsample::histogramAddMillion()
{
    QRandomGenerator rng(5);
    std::vector<double> values(1'000'000);
    for (double &v : values)
        v = 0.1 + rng.generateDouble() * 100;
    QBENCHMARK
    {
        LogHistogram h;
        for (double v : values)
            h.add(v);
        QVERIFY(h.count() == values.size());
    }
}

QTEST_GUILESS_MAIN(BenchDownsample)
#include "bench_downsample.moc"
