// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/apdex.h"
#include "core/histogram.h"

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

using namespace Headroom;

using Requests = QList<QPair<double, int>>; // a latency in ms and how many took it

class TestHistogram : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void percentileErrorBound_data();
    void percentileErrorBound();
    void mergeAddsCounts();
    void edgeCases();
    void serializeRoundTrip();
    void deserializeGarbage();
    void apdexHandCount_data();
    void apdexHandCount();
};

namespace {
// Nearest-rank percentile, the definition LogHistogram::quantile follows.
double exactQuantile(std::vector<double> values, double q)
{
    std::sort(values.begin(), values.end());
    const auto rank = size_t(std::ceil(q * double(values.size())));
    return values[std::max<size_t>(rank, 1) - 1];
}
} // namespace

void TestHistogram::percentileErrorBound_data()
{
    QTest::addColumn<QString>("distribution");
    QTest::newRow("uniform 0.1-100 ms") << u"uniform"_s;
    QTest::newRow("lognormal latencies") << u"lognormal"_s;
    QTest::newRow("bimodal (cache hit / miss)") << u"bimodal"_s;
    QTest::newRow("wide: 1 us to 100 s") << u"wide"_s;
}

void TestHistogram::percentileErrorBound()
{
    QFETCH(QString, distribution);
    QRandomGenerator rng(42);
    std::vector<double> values;
    LogHistogram h;
    for (int i = 0; i < 100000; ++i) {
        double v = 0;
        if (distribution == u"uniform")
            v = 0.1 + rng.generateDouble() * 99.9;
        else if (distribution == u"lognormal") {
            const double u1 = std::max(1e-12, rng.generateDouble()), u2 = rng.generateDouble();
            v = std::exp(1.0 + 0.8 * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2));
        } else if (distribution == u"bimodal")
            v = rng.generateDouble() < 0.9 ? 0.5 + rng.generateDouble()
                                           : 50 + 20 * rng.generateDouble();
        else
            v = std::pow(10.0, -3 + 8 * rng.generateDouble());
        values.push_back(v);
        h.add(v);
    }
    QCOMPARE(h.count(), quint64(values.size()));
    for (double q : { 0.5, 0.9, 0.95, 0.99, 0.999 }) {
        const double exact = exactQuantile(values, q);
        const double approx = h.quantile(q);
        const double relative = std::abs(approx - exact) / exact;
        QVERIFY2(
            relative <= 0.01,
            qPrintable(u"q=%1 exact=%2 approx=%3 error=%4%"_s.arg(q).arg(exact).arg(approx).arg(
                relative * 100)));
    }
    QCOMPARE(h.quantile(1.0), *std::max_element(values.begin(), values.end()));
}

void TestHistogram::mergeAddsCounts()
{
    LogHistogram a, b, both;
    for (int i = 1; i <= 1000; ++i) {
        (i % 2 ? a : b).add(i * 0.37);
        both.add(i * 0.37);
    }
    a.merge(b);
    QCOMPARE(a.count(), both.count());
    QCOMPARE(a.buckets(), both.buckets());
    QCOMPARE(a.quantile(0.99), both.quantile(0.99));
    QCOMPARE(a.max(), both.max());
}

void TestHistogram::edgeCases()
{
    LogHistogram h;
    QCOMPARE(h.quantile(0.5), 0.0);
    h.add(0.0);
    h.add(-1.0); // below MinValue: the zero bucket, never a crash
    h.add(std::nan(""));
    QCOMPARE(h.count(), quint64(2));
    LogHistogram withInf;
    withInf.add(std::numeric_limits<double>::infinity());
    withInf.add(1.0);
    QCOMPARE(withInf.count(), quint64(2));
    QCOMPARE(withInf.quantile(1.0), std::numeric_limits<double>::infinity());
    QCOMPARE(h.buckets().value(LogHistogram::ZeroBucket), quint64(2));
    h.add(5.0, 10);
    QCOMPARE(h.count(), quint64(12));
    QVERIFY(std::abs(h.quantile(0.99) - 5.0) / 5.0 <= 0.01);
    // Bucket bounds are consistent with the index function.
    for (double v : { 0.001, 1.0, 1.5, 64.0, 12345.678 }) {
        const int i = LogHistogram::bucketIndex(v);
        QVERIFY(v > LogHistogram::bucketLowerBound(i) * (1 - 1e-12));
        QVERIFY(v <= LogHistogram::bucketUpperBound(i) * (1 + 1e-12));
    }
}

void TestHistogram::serializeRoundTrip()
{
    LogHistogram h;
    for (int i = 0; i < 500; ++i)
        h.add(0.01 * (i * i + 1), quint64(i % 7 + 1));
    h.add(0);
    bool ok = false;
    const LogHistogram back = LogHistogram::deserialize(h.serialize(), &ok);
    QVERIFY(ok);
    QCOMPARE(back, h);
}

void TestHistogram::deserializeGarbage()
{
    QRandomGenerator rng(7);
    for (int i = 0; i < 2000; ++i) {
        QByteArray junk(int(rng.bounded(40)), Qt::Uninitialized);
        for (char &c : junk)
            c = char(rng.bounded(256));
        bool ok = true;
        LogHistogram::deserialize(junk, &ok); // must not crash; usually fails
    }
    bool ok = true;
    QVERIFY(LogHistogram::deserialize(QByteArray("\x05\x01", 2), &ok).isEmpty());
    QVERIFY(!ok);
}

void TestHistogram::apdexHandCount_data()
{
    // Requests in ms with their counts, T, and the hand count: (satisfied + tolerating
    // / 2) / total.
    QTest::addColumn<Requests>("requests");
    QTest::addColumn<double>("t");
    QTest::addColumn<double>("expected");
    // 60 within 50 ms, 30 within 200 ms, 10 beyond: (60 + 15) / 100.
    QTest::newRow("known") << Requests { { 10, 40 }, { 45, 20 }, { 100, 25 },
                                         { 180, 5 }, { 300, 8 }, { 5000, 2 } }
                           << 50.0 << 0.75;
    // On the bounds: T itself satisfies, 4T is tolerated, just past 4T frustrates.
    QTest::newRow("bounds") << Requests { { 50, 1 }, { 200, 1 }, { 205, 2 } } << 50.0
                            << (1 + 0.5) / 4;
    QTest::newRow("all fast") << Requests { { 0, 3 }, { 1, 7 } } << 50.0 << 1.0;
    QTest::newRow("all slow") << Requests { { 900, 3 } } << 50.0 << 0.0;
}

void TestHistogram::apdexHandCount()
{
    QFETCH(Requests, requests);
    QFETCH(double, t);
    QFETCH(double, expected);
    LogHistogram h;
    for (const auto &[ms, count] : requests)
        h.add(ms, quint64(count));
    const auto score = apdexScore(h, t);
    QVERIFY(score);
    QCOMPARE(*score, expected);
    QCOMPARE(apdexScore(LogHistogram(), t), std::nullopt); // no request, no score
    QCOMPARE(apdexScore(h, 0), std::nullopt);
}

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
