// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Memory of a session scraping a hostile exporter: a million distinct label sets over
// five scrapes (tests/collectors/hostileexporter.h), with the series cap (10,000 per
// source) and without it (the baseline: the registry takes every series). Each run is a
// child process of its own, so one run's freed heap does not flatter the other's
// figures. Prints VmRSS after the first and the last scrape and the peak (VmHWM), MB.
#include "../collectors/hostileexporter.h"
#include "benchutil.h"

#include <QCoreApplication>
#include <QProcess>
#include <climits>
#include <cstdio>

using namespace Headroom;
using namespace Headroom::Test;
using namespace Qt::StringLiterals;

namespace {

constexpr int LabelSetsPerScrape = 200'000;

// HEADROOM_BENCH_HOSTILE_SCRAPES: how many scrapes (default 5: a million label sets).
int scrapes()
{
    const int n = qEnvironmentVariableIntValue("HEADROOM_BENCH_HOSTILE_SCRAPES");
    return n > 0 ? n : 5;
}

// The child: one run, its figures as "key value" lines on stdout.
int child(int cap)
{
    const HostileRun run = runHostileExporter(scrapes(), LabelSetsPerScrape, cap);
    if (!run.error.isEmpty()) {
        std::fprintf(stderr, "%s\n", qPrintable(run.error));
        return 1;
    }
    std::printf("first %lld\nlast %lld\npeak %lld\nseries %d\n", run.rssKbAfterPoll.first() / 1024,
                run.rssKbAfterPoll.last() / 1024, run.hwmKb / 1024, run.registered);
    QStringList perPoll;
    for (const qint64 kb : run.rssKbAfterPoll)
        perPoll << QString::number(kb / 1024);
    std::printf("polls %s\n", qPrintable(perPoll.join(u", "_s)));
    std::printf("status %s\n", qPrintable(run.lastStatus.message));
    return 0;
}

QHash<QString, QString> runChild(const QString &mode)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(QCoreApplication::applicationFilePath(), { u"--child"_s, mode });
    process.waitForFinished(-1);
    QHash<QString, QString> figures;
    for (const QByteArray &line : process.readAllStandardOutput().split('\n')) {
        const qsizetype space = line.indexOf(' ');
        if (space > 0)
            figures.insert(QString::fromUtf8(line.left(space)),
                           QString::fromUtf8(line.mid(space + 1)));
    }
    if (process.exitCode() != 0 || figures.isEmpty())
        qFatal("the %s run failed", qPrintable(mode));
    return figures;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() == 3 && args.at(1) == "--child"_L1)
        return child(args.at(2) == "capped"_L1 ? SeriesRegistry::DefaultSeriesCap : INT_MAX);

    const auto capped = runChild(u"capped"_s);
    const auto uncapped = runChild(u"uncapped"_s);
    const auto print
        = [](const char *name, const QString &value) { Bench::print(name, value.toDouble()); };
    print("hostile_rss_after_first_scrape_mb", capped.value(u"first"_s));
    print("hostile_rss_after_last_scrape_mb", capped.value(u"last"_s));
    print("hostile_peak_rss_mb", capped.value(u"peak"_s));
    print("hostile_series", capped.value(u"series"_s));
    print("hostile_uncapped_rss_after_first_scrape_mb", uncapped.value(u"first"_s));
    print("hostile_uncapped_rss_after_last_scrape_mb", uncapped.value(u"last"_s));
    print("hostile_uncapped_peak_rss_mb", uncapped.value(u"peak"_s));
    print("hostile_uncapped_series", uncapped.value(u"series"_s));
    std::printf("hostile_rss_per_scrape_mb: %s\n", qPrintable(capped.value(u"polls"_s)));
    std::printf("hostile_uncapped_rss_per_scrape_mb: %s\n", qPrintable(uncapped.value(u"polls"_s)));
    std::printf("hostile_status: %s\n", qPrintable(capped.value(u"status"_s)));
    return 0;
}
