// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A hostile Prometheus exporter on loopback and a Headroom pipeline scraping it, shared
// by tst_hostileexporter (asserts the bounds) and bench_hostileexporter (prints the
// figures with the cap on and off, release build).
//
// Every scrape answers `labelSetsPerScrape` label sets never sent before, half of them
// counters (so the converter keeps baselines) and half gauges. The pipeline is what a
// session runs for a prometheus source: CollectorScheduler -> worker thread ->
// PrometheusCollector (HTTP, parser, converter) -> SampleBus (series cap) ->
// SeriesRegistry + LiveBuffers (1 h rings). RSS is read from /proc/self/status.
#pragma once

#include "engine/runtime/collectorscheduler.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"
#include "loopbackhttpserver.h"
#include "prometheuscollector.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QThread>
#include <QTimer>

namespace Headroom::Test {

// A field of /proc/self/status in kB ("VmRSS", "VmHWM"), or -1.
inline qint64 procStatusKb(QByteArrayView field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray prefix = field.toByteArray() + ':';
    for (const auto lines = status.readAll().split('\n'); const QByteArray &line : lines) {
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// Every scrape a page of label sets never sent before, served by LoopbackHttpServer.
class HostileExporter
{
public:
    explicit HostileExporter(int labelSetsPerScrape)
        : m_perScrape(labelSetsPerScrape)
    {
        m_server.setBodySource([this](int scrape) { return page(scrape); });
    }
    quint16 port() const { return m_server.port(); }
    int scrapes() const { return m_server.requests(); }

    // Scrape n's page: label sets n * perScrape ... (n + 1) * perScrape - 1.
    QByteArray page(int scrape) const
    {
        QByteArray body = "# TYPE hostile_requests_total counter\n"
                          "# TYPE hostile_queue_depth gauge\n";
        body.reserve(m_perScrape * 48);
        const qint64 first = qint64(scrape) * m_perScrape;
        for (qint64 id = first; id < first + m_perScrape; ++id) {
            body += (id % 2 ? "hostile_queue_depth{id=\"" : "hostile_requests_total{id=\"")
                + QByteArray::number(id) + "\"} " + QByteArray::number(scrape + 1) + '\n';
        }
        return body;
    }

private:
    const int m_perScrape;
    LoopbackHttpServer m_server;
};

struct HostileRun
{
    QList<qint64> rssKbAfterPoll; // VmRSS when each poll's status arrived
    qint64 rssKbBefore = 0; // before the first scrape (process, exporter thread started)
    qint64 hwmKb = 0; // VmHWM at the end: the peak of the whole process
    int polls = 0;
    int registered = 0; // series in the registry
    int liveSeries = 0; // series with a live ring
    SourceStatus lastStatus; // of the last poll that delivered
    QString error; // why the run did not get its polls
};

// `polls` scrapes of a HostileExporter through the pipeline, with the source's series
// cap set to seriesCap. Runs an event loop on the calling thread (the scheduler's).
inline HostileRun runHostileExporter(int polls, int labelSetsPerScrape, int seriesCap)
{
    using namespace Qt::StringLiterals;
    HostileRun run;
    HostileExporter exporter(labelSetsPerScrape);
    SeriesRegistry registry;
    registry.setSeriesCap(u"hostile"_s, seriesCap);
    SampleBus bus(&registry);
    LiveBuffers live; // the session's default, 1 h at 1 s
    bus.addSink(&live);
    CollectorScheduler scheduler(&bus);
    CollectorConfig config;
    config.sourceId = u"hostile"_s;
    config.intervalMs = 200; // back to back: each scrape takes longer than this
    config.timeoutMs = 120'000;
    config.options = { { u"url"_s, u"http://127.0.0.1:%1/metrics"_s.arg(exporter.port()) } };
    QString error;
    auto collector = PrometheusCollector::create(config, &error);
    if (!collector) {
        run.error = error;
        return run;
    }
    run.rssKbBefore = procStatusKb("VmRSS");
    scheduler.addSource(u"prometheus"_s, config, std::move(collector));
    QEventLoop loop;
    QObject::connect(&scheduler, &CollectorScheduler::statusChanged, &loop,
                     [&](const SourceStatus &status) {
                         if (status.state == SourceState::Error) {
                             run.error = status.message;
                             loop.quit();
                         }
                         if (status.state != SourceState::Ok)
                             return;
                         run.rssKbAfterPoll << procStatusKb("VmRSS");
                         run.lastStatus = status;
                         if (++run.polls == polls)
                             loop.quit();
                     });
    QTimer::singleShot(polls * 60'000, &loop, [&] {
        run.error = u"timed out after %1 of %2 polls"_s.arg(run.polls).arg(polls);
        loop.quit();
    });
    scheduler.start();
    loop.exec();
    scheduler.stop(10'000);
    run.registered = registry.size();
    run.liveSeries = int(live.seriesIds().size());
    run.hwmKb = procStatusKb("VmHWM");
    return run;
}

} // namespace Headroom::Test
