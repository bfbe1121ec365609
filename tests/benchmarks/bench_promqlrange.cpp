// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// promql_range_query_7d_50_series_ms: a PromQL panel over 7 days at a 15 s step, 50
// series (2,016,000 points), read from a real VictoriaMetrics (Debian's package, started
// here with its own data directory) holding 7 days of imported samples: cold (every
// chunk asked), warm (the same render again: every chunk complete and cached), and,
// side by side, the same range as one query_range request without chunks.
#include "benchutil.h"
#include "collector/promql/promqlclient.h"
#include "engine/promqlengines.h"
#include "query/promql/promqlpanelquery.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <cstdio>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
constexpr int Series = 50;
constexpr qint64 StepMs = 15'000;
constexpr qint64 RangeMs = 7LL * 24 * 3600 * 1000;

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// POST body to path; true on a 2xx answer.
bool post(quint16 port, const QByteArray &path, const QByteArray &body)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return false;
    socket.write("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: "
                 + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    QByteArray answer;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(60000))
        answer += socket.readAll();
    answer += socket.readAll();
    return answer.startsWith("HTTP/1.1 2");
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    const quint16 port = freePort();
    QProcess vm;
    vm.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    vm.start(u"/usr/bin/victoria-metrics"_s,
             { u"-storageDataPath="_s + dir.filePath(u"data"_s),
               u"-httpListenAddr=127.0.0.1:%1"_s.arg(port), u"-retentionPeriod=30d"_s,
               u"-search.latencyOffset=0s"_s, u"-search.disableCache"_s,
               u"-search.maxPointsPerTimeseries=100000"_s, u"-loggerLevel=ERROR"_s });
    if (!vm.waitForStarted(5000)) {
        std::fprintf(stderr, "victoria-metrics did not start\n");
        return 1;
    }
    const QUrl url(u"http://127.0.0.1:%1"_s.arg(port));
    bool ready = false;
    for (int i = 0; i < 100 && !ready; ++i) {
        QThread::msleep(100);
        QTcpSocket probe;
        probe.connectToHost(QHostAddress::LocalHost, port);
        ready = probe.waitForConnected(200);
    }
    // Seven days of 50 series at 15 s, ending 5 minutes ago: JSON lines for /api/v1/import.
    const qint64 endMs = (QDateTime::currentMSecsSinceEpoch() - 5 * 60'000) / StepMs * StepMs;
    const qint64 startMs = endMs - RangeMs;
    QElapsedTimer importTimer;
    importTimer.start();
    for (int s = 0; s < Series; ++s) {
        QByteArray values = "[", timestamps = "[";
        for (qint64 t = startMs; t <= endMs; t += StepMs) {
            const char *sep = t == startMs ? "" : ",";
            values
                += sep + QByteArray::number(100.0 + 50.0 * std::sin(double(t) / 3.6e6 + s), 'f', 3);
            timestamps += sep + QByteArray::number(t);
        }
        const QByteArray line = R"({"metric":{"__name__":"bench_load","series":")"
            + QByteArray::number(s) + R"("},"values":)" + values + R"(],"timestamps":)" + timestamps
            + "]}\n";
        if (!post(port, "/api/v1/import", line)) {
            std::fprintf(stderr, "import failed\n");
            return 1;
        }
    }
    post(port, "/internal/force_flush", {});
    std::printf("-- %d series x %lld points imported in %.1f s\n", Series,
                (endMs - startMs) / StepMs + 1, double(importTimer.elapsed()) / 1000);

    PromqlEngines engines;
    engines.set({ { { u"vm"_s, url } }, {} });
    DashboardPanel panel;
    panel.id = u"bench"_s;
    panel.query = u"bench_load"_s;
    const int columns = int(RangeMs / StepMs); // a 15 s step
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 points = 0;
    QString message;
    const auto render = [&] {
        const PanelData data = queryPromqlPanel(panel, &engines, startMs, endMs, columns, now);
        message = data.message;
        points = 0;
        for (const PanelSeriesData &s : data.series)
            points += s.rawCount;
    };
    QElapsedTimer timer;
    timer.start();
    render();
    const double coldMs = double(timer.nsecsElapsed()) / 1e6;
    if (!message.isEmpty()) {
        std::fprintf(stderr, "%s\n", qUtf8Printable(message));
        return 1;
    }
    const qint64 requests = engines.misses();
    std::printf("-- step %lld ms, %lld points of %d series, %lld requests\n",
                promqlStepMs(startMs, endMs, columns), points, Series, requests);
    Bench::print("promql_range_query_7d_50_series_ms", coldMs);
    Bench::print("promql_range_query_7d_50_series_warm_ms", Bench::medianMs(5, render));
    std::printf("   (warm: %lld more requests)\n", engines.misses() - requests);
    Bench::print("promql_range_query_7d_50_series_one_request_ms", Bench::medianMs(3, [&] {
                     promqlRangeQuery(url, u"bench_load"_s, startMs, endMs, StepMs,
                                      QDeadlineTimer(120'000));
                 }));
    vm.terminate();
    vm.waitForFinished(10000);
    return 0;
}
