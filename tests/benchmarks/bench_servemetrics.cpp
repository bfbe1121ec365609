// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The exporter's cost (`--serve-metrics`): 10,000 series (9,900 gauges, 100 latency
// histograms) updated every second on a feeder thread, as collectors would, served by
// the real MetricsServer and MetricsExposition on this thread, scraped over loopback
// by a client thread. Prints, for OpenMetrics and for the 0.0.4 text side by side:
// the render time, a scrape's wall time and bytes, this thread's CPU per scrape, and
// serve_metrics_cpu_percent, that CPU as a share of one core at a scrape every 15 s
// (what a Prometheus job with the default interval costs). The thread clock counts the
// serving thread only: the feeder stands in for collectors, whose cost is theirs.
#include "benchutil.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "metricsserver.h"
#include "query/openmetrics/metricsexposition.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QTcpSocket>
#include <QTimer>
#include <atomic>
#include <ctime>
#include <thread>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
constexpr int Gauges = 9'900;
constexpr int Histograms = 100;
constexpr int Scrapes = 30;
constexpr double ScrapeIntervalMs = 15'000;

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// 10,000 series shaped like a PostgreSQL and host dashboard's: statements with their
// text, shards with sets, per-CPU and per-disk figures.
std::vector<int> registerSeries(SeriesRegistry &registry)
{
    std::vector<int> ids;
    for (int i = 0; i < Gauges; ++i) {
        SeriesInfo info;
        const int metric = i % 30;
        info.key = { u"pg"_s,
                     u"pg.bench.metric%1.rate"_s.arg(metric),
                     { { u"queryid"_s, QString::number(1'000'000'000LL + i) },
                       { u"query"_s, u"SELECT * FROM orders_%1 WHERE id = $1"_s.arg(i % 500) },
                       { u"schema"_s, u"public"_s } } };
        info.unit = metric % 3 == 0 ? u"ms/s"_s : metric % 3 == 1 ? u"1/s"_s : u"%"_s;
        info.kind = UseKind::Throughput;
        ids.push_back(registry.idFor(info));
    }
    for (int i = 0; i < Histograms; ++i) {
        SeriesInfo info;
        info.key = { u"pg"_s, u"pg.bench.latency"_s, { { u"queryid"_s, QString::number(i) } } };
        info.unit = u"ms"_s;
        info.kind = UseKind::Latency;
        info.histogram = true;
        ids.push_back(registry.idFor(info));
    }
    return ids;
}

void feed(LiveBuffers &live, const std::vector<int> &ids, qint64 tsMs, int round)
{
    for (int i = 0; i < Gauges; ++i)
        live.append(ids[size_t(i)], { tsMs, double((i * 37 + round * 11) % 1000) / 7.0 });
    for (int i = Gauges; i < Gauges + Histograms; ++i) {
        LogHistogram h;
        for (int k = 0; k < 40; ++k)
            h.add(0.05 * double((k * 13 + i + round) % 400 + 1));
        live.appendHistogram(ids[size_t(i)], tsMs, h);
    }
}

// Blocking GETs on a thread of their own; returns (wall ms, bytes) per scrape.
std::vector<std::pair<double, qsizetype>> scrape(quint16 port, bool openMetrics, int count)
{
    std::vector<std::pair<double, qsizetype>> out;
    for (int i = 0; i < count; ++i) {
        QElapsedTimer timer;
        timer.start();
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (!socket.waitForConnected(5000))
            break;
        socket.write(QByteArray("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                     + (openMetrics ? "Accept: application/openmetrics-text\r\n" : "") + "\r\n");
        QByteArray response;
        while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(10000))
            response += socket.readAll();
        response += socket.readAll();
        out.emplace_back(double(timer.nsecsElapsed()) / 1e6, response.size());
    }
    return out;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    SeriesRegistry registry;
    LiveBuffers live(60);
    const std::vector<int> ids = registerSeries(registry);
    const qint64 start = QDateTime::currentMSecsSinceEpoch();
    for (int round = 0; round < 5; ++round)
        feed(live, ids, start - (5 - round) * 1000, round);

    std::atomic<bool> feeding { true };
    std::thread feeder([&] {
        for (int round = 5; feeding; ++round) {
            feed(live, ids, QDateTime::currentMSecsSinceEpoch(), round);
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
    });

    MetricsExposition exposition;
    std::vector<double> renderMs;
    MetricsServer server([&](bool openMetrics) {
        const auto format = openMetrics ? MetricsExposition::Format::OpenMetrics
                                        : MetricsExposition::Format::PrometheusText;
        QElapsedTimer timer;
        timer.start();
        QByteArray body
            = exposition.render(registry, live, QDateTime::currentMSecsSinceEpoch(), format);
        renderMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        return std::pair { body, MetricsExposition::contentType(format) };
    });
    QString error;
    if (!server.listen(QHostAddress::LocalHost, 0, &error)) {
        std::fprintf(stderr, "%s\n", qUtf8Printable(error));
        return 1;
    }
    for (const bool openMetrics : { true, false }) {
        renderMs.clear();
        std::vector<std::pair<double, qsizetype>> results;
        const double cpuBefore = threadCpuMs();
        QEventLoop loop;
        std::thread client([&] {
            results = scrape(server.port(), openMetrics, Scrapes);
            QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
        });
        loop.exec();
        client.join();
        const double cpuPerScrape
            = (threadCpuMs() - cpuBefore) / double(std::max<size_t>(1, results.size()));
        std::vector<double> wall;
        for (const auto &[ms, bytes] : results)
            wall.push_back(ms);
        const char *format = openMetrics ? "openmetrics" : "text004";
        std::printf("-- %s, %d series, %zu scrapes\n", format, Gauges + Histograms, results.size());
        const auto name = [format](const char *what) -> QByteArray {
            return QByteArray("serve_metrics_") + what + '_' + format;
        };
        Bench::print(name("render_ms").constData(), median(renderMs));
        Bench::print(name("scrape_wall_ms").constData(), median(wall));
        Bench::print(name("bytes").constData(),
                     results.empty() ? 0 : double(results.back().second));
        Bench::print(name("cpu_ms_per_scrape").constData(), cpuPerScrape);
        Bench::print(openMetrics ? "serve_metrics_cpu_percent"
                                 : "serve_metrics_cpu_percent_text004",
                     cpuPerScrape / ScrapeIntervalMs * 100.0);
        std::printf("   (exposition: %d families, %d series, %d histograms)\n",
                    exposition.lastStats().families, exposition.lastStats().series,
                    exposition.lastStats().histograms);
    }
    feeding = false;
    feeder.join();
    return 0;
}
