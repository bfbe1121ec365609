// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A hostile exporter on loopback sends a million distinct label sets over five scrapes
// (200,000 new ones each, half counters, half gauges): Headroom keeps the source's first
// 10,000 series, drops the rest before any sink, names the cap in the source status,
// and its memory stops growing after the second scrape.
//
// Memory under ASan (the ctest build): the sanitizer's shadow memory, redzones and
// quarantine inflate the resident size, so the absolute bound (300 MB) is asserted
// only in a build without it; in both, the test asserts that RSS does not grow with
// the label sets once two scrapes are done. Without the series cap, every scrape adds
// 100,000 series to the registry and the live rings, about 65 MB in the release build
// (bench_hostileexporter prints both side by side).
#include "hostileexporter.h"

#include <QTest>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

constexpr int Scrapes = 5;
constexpr int LabelSetsPerScrape = 200'000; // Exposition::MaxSamples: none cut by the parser

#if defined(__SANITIZE_ADDRESS__)
constexpr bool UnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool UnderAsan = true;
#else
constexpr bool UnderAsan = false;
#endif
#else
constexpr bool UnderAsan = false;
#endif

} // namespace

class TestHostileExporter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void millionLabelSetsStayBounded()
    {
        QCOMPARE(SeriesRegistry::DefaultSeriesCap, 10'000);
        const HostileRun run
            = runHostileExporter(Scrapes, LabelSetsPerScrape, SeriesRegistry::DefaultSeriesCap);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
        QCOMPARE(run.polls, Scrapes);

        // The first 10,000 series (up among them) and not one more, anywhere.
        QCOMPARE(run.registered, SeriesRegistry::DefaultSeriesCap);
        QCOMPARE(run.liveSeries, SeriesRegistry::DefaultSeriesCap);
        // Every later scrape's label sets are all new: its 100,000 gauges are dropped, and
        // said so (its 100,000 counters are first seen, so they are baselines, no rates).
        const SourceStatus &status = run.lastStatus;
        QCOMPARE(status.state, SourceState::Ok);
        QCOMPARE(status.seriesCap, SeriesRegistry::DefaultSeriesCap);
        QCOMPARE(status.droppedSeries, LabelSetsPerScrape / 2);
        QVERIFY2(status.message.contains(
                     u"series cap 10000 reached: 100000 new series dropped this poll"_s),
                 qPrintable(status.message));
        QCOMPARE(status.seriesCount, 1); // up: the one series of this scrape that is known

        // Warm-up is two scrapes: the second is where the counter baselines are full and
        // make room for the first time, and where the heap has held two pages.
        const qint64 warmMb = run.rssKbAfterPoll.at(1) / 1024;
        const qint64 lastMb = run.rssKbAfterPoll.last() / 1024;
        const qint64 peakMb = run.hwmKb / 1024;
        QStringList perPoll;
        for (const qint64 kb : run.rssKbAfterPoll)
            perPoll << QString::number(kb / 1024);
        qInfo("%s",
              qPrintable(u"VmRSS before %1 MB, after each poll %2 MB; VmHWM %3 MB%4"_s
                             .arg(run.rssKbBefore / 1024)
                             .arg(perPoll.join(u", "_s))
                             .arg(peakMb)
                             .arg(UnderAsan ? u" (ASan build)"_s : QString())));
        // 600,000 more label sets after that may not cost memory: uncapped, each scrape
        // adds about 65 MB in the release build (bench_hostileexporter).
        QVERIFY2(lastMb - warmMb < 32,
                 qPrintable(u"RSS grew %1 MB after the second scrape"_s.arg(lastMb - warmMb)));
        if (!UnderAsan)
            QVERIFY2(peakMb < 300, qPrintable(u"peak RSS %1 MB"_s.arg(peakMb)));
    }
};

QTEST_GUILESS_MAIN(TestHostileExporter)
#include "tst_hostileexporter.moc"
