// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The latency probe against the real test server: every run lands in the histogram,
// latencies match what the server was asked to spend, and a probe that would overrun
// the poll stops at the deadline with a lower bound and a warning.
#include "pgprobe.h"
#include "pgtestutil.h"
#include "postgrescollector.h"

#include <QElapsedTimer>
#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

QJsonObject options(const QString &sql, int count)
{
    return { { u"conninfo"_s, conninfo() },
             { u"statements"_s, false },
             { u"tables"_s, false },
             { u"probe"_s, QJsonObject { { u"sql"_s, sql }, { u"count"_s, count } } } };
}

const SeriesHistogram *probe(const SampleBatch &batch)
{
    for (const SeriesHistogram &h : batch.histograms) {
        if (h.info.key.metric == PgProbePart::Metric)
            return &h;
    }
    return nullptr;
}

} // namespace

class TestPgProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { HEADROOM_REQUIRE_PG(); }
    void everyRunRecorded();
    void latencyMatchesServerTime();
    void overrunStopsAtDeadline();
    void offByOption();
    void failingProbeIsNamed();
};

void TestPgProbe::everyRunRecorded()
{
    const auto collector = makeCollector(options(u"SELECT 1"_s, 25));
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const SeriesHistogram *h = probe(result.batch);
    QVERIFY(h);
    QCOMPARE(h->histogram.count(), quint64(25));
    QVERIFY(h->histogram.min() > 0);
    QVERIFY2(h->histogram.max() < 1000, qPrintable(QString::number(h->histogram.max())));
    QCOMPARE(h->info.unit, u"ms"_s);
    QCOMPARE(h->info.kind, UseKind::Latency);
    QVERIFY(h->info.histogram);
    QCOMPARE(h->info.key.source, u"pg:test"_s);
    qInfo("SELECT 1 over a unix socket: p50 %.3f ms, max %.3f ms", h->histogram.quantile(0.5),
          h->histogram.max());
}

void TestPgProbe::latencyMatchesServerTime()
{
    const auto collector = makeCollector(options(u"SELECT pg_sleep(0.03)"_s, 4));
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const SeriesHistogram *h = probe(result.batch);
    QVERIFY(h);
    QCOMPARE(h->histogram.count(), quint64(4));
    // At least the 30 ms asked for (less the histogram's 1% bucket error), and not
    // wildly more on an idle loopback server.
    QVERIFY2(h->histogram.quantile(0.0) >= 29.7, qPrintable(QString::number(h->histogram.min())));
    QVERIFY2(h->histogram.max() < 300, qPrintable(QString::number(h->histogram.max())));
}

void TestPgProbe::overrunStopsAtDeadline()
{
    // 50 runs of 100 ms cannot fit in a 1.5 s poll: the probe must stop, not the poll.
    const auto collector = makeCollector(options(u"SELECT pg_sleep(0.1)"_s, 50), 1500);
    QVERIFY(collector);
    QElapsedTimer clock;
    clock.start();
    const PollResult result = collector->poll(QDeadlineTimer(1500));
    const qint64 elapsed = clock.elapsed();
    QVERIFY2(elapsed < 1500 + 100, qPrintable(QString::number(elapsed)));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(value(result.batch, u"pg.up"_s), 1.0);
    const SeriesHistogram *h = probe(result.batch);
    QVERIFY(h);
    QVERIFY2(h->histogram.count() >= 5 && h->histogram.count() < 50,
             qPrintable(QString::number(h->histogram.count())));
    QVERIFY2(anyWarningContains(result.warnings, u"runs fit in the poll's time"_s)
                 || anyWarningContains(result.warnings, u"hit the poll deadline"_s),
             qPrintable(result.warnings.join(u" | "_s)));
    // The session survived the cancel.
    const PollResult next = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(next.error.isEmpty(), qPrintable(next.error));
}

void TestPgProbe::offByOption()
{
    QJsonObject off = options(u"SELECT 1"_s, 3);
    off.insert(u"probe"_s, false);
    const auto collector = makeCollector(off);
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(!probe(result.batch));
}

void TestPgProbe::failingProbeIsNamed()
{
    const auto collector = makeCollector(options(u"SELECT * FROM no_such_table"_s, 3));
    QVERIFY(collector);
    const PollResult result = collector->poll(QDeadlineTimer(5000));
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QVERIFY(!probe(result.batch));
    QVERIFY2(anyWarningContains(result.warnings, u"probe: skipped: "_s)
                 && anyWarningContains(result.warnings, u"no_such_table"_s),
             qPrintable(result.warnings.join(u" | "_s)));
    QCOMPARE(value(result.batch, u"pg.up"_s), 1.0);
}

QTEST_GUILESS_MAIN(TestPgProbe)
#include "tst_pgprobe.moc"
