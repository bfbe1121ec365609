// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The analysis over a real cache and the store, as --export-findings runs it: the
// series of the chosen sources only, a step found within a bin of where it was
// written, a two-day range read from block summaries (far fewer points than samples)
// with the same onset to within its bin, and What changed over a window.
#include "engine/cache/samplecache.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "query/analysis/analysisrun.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Analysis;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 Day = 86'400'000;
constexpr qint64 Base = 20'000LL * Day; // a UTC midnight
constexpr qint64 StepAt = Base + Day + 7 * 3'600'000; // day 2, 07:00
constexpr qint64 End = Base + 2 * Day - 1;

SeriesInfo gauge(const QString &source, const QString &metric, UseKind kind, const QString &unit,
                 const QString &resource)
{
    return SeriesInfo { { source, metric, {} }, unit, resource, kind, false };
}
} // namespace

class TestAnalysisRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void sourcesSelectSeries();
    void shortRangeFindsTheStep();
    void twoDaysFromSummaries();
    void whatChangedRanksTheStep();

private:
    QTemporaryDir m_dir;
    SeriesRegistry m_registry;
    std::unique_ptr<SampleCache> m_cache;
    std::unique_ptr<SeriesStore> m_store;
};

void TestAnalysisRun::initTestCase()
{
    QString error;
    CacheOptions options;
    options.retentionDays = 0;
    m_cache = SampleCache::open(m_dir.filePath(u"c.sqlite"_s), &m_registry, &error, options);
    QVERIFY2(m_cache, qPrintable(error));
    SampleBus bus(&m_registry);
    bus.addSink(m_cache.get());
    const SeriesInfo run
        = gauge(u"host"_s, u"host.cpu.runqueue_per_cpu"_s, UseKind::Saturation, {}, u"cpu"_s);
    const SeriesInfo mem
        = gauge(u"host"_s, u"host.mem.utilization"_s, UseKind::Utilization, u"%"_s, u"memory"_s);
    const SeriesInfo other = gauge(u"other"_s, u"x.errors"_s, UseKind::Errors, u"1/s"_s, u"x"_s);
    // Two days at 1 s: the run queue steps from 1 to 9 at StepAt; memory wobbles.
    for (qint64 ts = Base; ts <= End; ts += 1000) {
        SampleBatch batch;
        batch.source = u"host"_s;
        batch.tsMs = ts;
        const qint64 i = (ts - Base) / 1000;
        batch.add(run, ts < StepAt ? 1.0 + double(i % 3) * 0.1 : 9.0 + double(i % 3) * 0.1);
        batch.add(mem, 40 + double(i % 7) * 0.1);
        bus.publish(batch);
        SampleBatch o;
        o.source = u"other"_s;
        o.tsMs = ts;
        o.add(other, ts < StepAt ? 0.0 : 50.0);
        bus.publish(o);
    }
    m_cache->flush();
    bus.removeSink(m_cache.get());
    m_store = std::make_unique<SeriesStore>(nullptr, m_cache.get());
}

void TestAnalysisRun::sourcesSelectSeries()
{
    QCOMPARE(seriesOfSources(m_registry, { u"host"_s }).size(), 2);
    QCOMPARE(seriesOfSources(m_registry, { u"other"_s }).size(), 1);
    QCOMPARE(seriesOfSources(m_registry, {}).size(), 3);
    QCOMPARE(seriesOfSources(m_registry, { u"nobody"_s }).size(), 0);
}

void TestAnalysisRun::shortRangeFindsTheStep()
{
    const QList<int> ids = seriesOfSources(m_registry, { u"host"_s });
    const FindingsReport report
        = analyseRange(*m_store, m_registry, ids, StepAt - 3'600'000, StepAt + 1'800'000, 1000);
    QCOMPARE(report.binMs, qint64(6000)); // 1.5 h in at most 1000 bins of whole seconds
    QCOMPARE(report.seriesAnalysed, 2);
    QVERIFY(!report.findings.empty());
    const Finding &top = report.findings.front();
    QCOMPARE(top.source, u"host"_s); // "other" was not asked for
    QCOMPARE(top.resource, u"CPU"_s);
    QCOMPARE(top.kind, FindingKind::Saturation);
    QCOMPARE(top.sinceMs, StepAt);
    QVERIFY(top.aboveWarning());
}

void TestAnalysisRun::twoDaysFromSummaries()
{
    const int id = *m_registry.find({ u"host"_s, u"host.cpu.runqueue_per_cpu"_s, {} });
    const qint64 bin = binWidthFor(Base, End);
    QCOMPARE(bin, qint64(173'000));
    const std::vector<Sample> summarized = m_store->readForBins(id, Base, End, bin);
    const std::vector<Sample> every = m_store->read(id, Base, End);
    QCOMPARE(every.size(), size_t(2 * Day / 1000));
    // Blocks of 120 samples at 1 s span 2 minutes, under two bins: each is read as its
    // min and max, 60 times fewer points.
    QVERIFY2(summarized.size() * 50 < every.size(), qPrintable(QString::number(summarized.size())));
    const FindingsReport report
        = analyseRange(*m_store, m_registry, seriesOfSources(m_registry, {}), Base, End);
    QVERIFY(report.findings.size() >= 2);
    for (int r = 0; r < 2; ++r) {
        const Finding &f = report.findings[size_t(r)];
        QVERIFY2(std::abs(f.sinceMs - StepAt) <= bin, qPrintable(f.summary));
    }
}

void TestAnalysisRun::whatChangedRanksTheStep()
{
    const std::vector<ChangeRank> ranks = explainWindow(
        *m_store, m_registry, seriesOfSources(m_registry, {}), StepAt, StepAt + 3'600'000, 1000);
    QCOMPARE(ranks.size(), size_t(3));
    QCOMPARE(ranks[0].ks, 1.0);
    QCOMPARE(ranks[1].ks, 1.0);
    QVERIFY(ranks[2].ks < 0.5); // memory: the same wobble in both
    QCOMPARE(ranks[2].info.key.metric, u"host.mem.utilization"_s);
}

QTEST_GUILESS_MAIN(TestAnalysisRun)
#include "tst_analysisrun.moc"
