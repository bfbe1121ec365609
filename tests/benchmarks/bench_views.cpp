// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the views cost the GUI thread, beside baselines in the same run:
//  - a time panel 1600 px wide with 20 series over 24 h at 1 s, redrawn once its
//    (already reduced) data has arrived: setData, the event loop's layout and paint of
//    the shown panel, and a render into an image (so the paint counts twice); against
//    1 series, and against a plain QChart of 20 QLineSeries given the same points
//    (what the panel drew with before it painted its own lines and axes);
//  - the pool's query for that panel (off the GUI thread, for reference);
//  - 12 live panels refreshed at 1 Hz for a while: GUI-thread CPU time / wall time;
//  - the USE matrix over 24 h at 1 s of two hosts (48 U/S/E series): the pool's query
//    (the worst of every series over the range and since when) and the GUI thread's
//    model update and paint.
// Prints "name: value" lines (targets: redraw < 16 ms, GUI thread < 10 % of a core).
#include "benchutil.h"
#include "dashboardview.h"
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "engine/seriesstore.h"
#include "panels/timeseriespanel.h"
#include "panels/usematrixpanel.h"
#include "query/panelquery.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QLineSeries>
#include <QPainter>
#include <QTest>
#include <QTimer>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

using namespace Headroom;
using namespace Headroom::Bench;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 Base = 1'700'000'000'000;
constexpr qint64 Day = 86'400'000;

double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

int addSeries(SeriesRegistry &registry, const QString &source, const QString &cpu)
{
    return registry.idFor(SeriesInfo { { source, u"host.cpu.utilization"_s, { { u"cpu"_s, cpu } } },
                                       u"%"_s,
                                       u"cpu"_s,
                                       UseKind::Utilization,
                                       false });
}

DashboardPanel timePanel(const QString &id, const QString &source)
{
    DashboardPanel panel;
    panel.id = id;
    panel.type = PanelType::TimeSeries;
    panel.title = id;
    panel.series = { { source, u"host.cpu.utilization"_s, {} } };
    return panel;
}

} // namespace

class BenchViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void redrawDayOfSeries();
    void twelveLivePanels();
    void useMatrixDay();

private:
    static double qLineSeriesRedrawMs(const PanelData &data, int width);
};

void BenchViews::redrawDayOfSeries()
{
    SeriesRegistry registry;
    LiveBuffers live(86'400);
    for (int s = 0; s < 20; ++s) {
        const int id = addSeries(registry, u"day"_s, u"cpu%1"_s.arg(s));
        for (qint64 t = 0; t < 86'400; ++t)
            live.append(id, { Base + t * 1000, 50 + 40 * std::sin(double(t) / (300 + s)) });
    }
    const int one = addSeries(registry, u"one"_s, u"cpu0"_s);
    for (qint64 t = 0; t < 86'400; ++t)
        live.append(one, { Base + t * 1000, 50 + 40 * std::sin(double(t) / 300) });
    const SeriesStore store(&live, nullptr);
    constexpr int Width = 1600;

    for (const auto &[name, source, queryName] :
         { std::tuple { "redraw_1_series_24h_ms", u"one"_s, "query_1_series_24h_ms" },
           std::tuple { "redraw_20_series_24h_ms", u"day"_s, "query_20_series_24h_ms" } }) {
        const DashboardPanel config = timePanel(u"p"_s, source);
        PanelData data;
        const double queryMs = medianMs(
            5, [&] { data = queryPanel(config, registry, store, Base, Base + Day, Width); });
        TimeSeriesPanel panel(config);
        panel.resize(Width, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QImage target(panel.size(), QImage::Format_ARGB32_Premultiplied);
        // A redraw is what the GUI thread does when new data arrives: apply it to the
        // chart and paint the panel.
        const auto redraw = [&] {
            panel.setData(data);
            QCoreApplication::processEvents(); // QChart updates its geometry on an event
            QPainter painter(&target);
            panel.render(&painter);
        };
        redraw(); // first layout
        const double redrawMs = medianMs(15, redraw);
        print(queryName, queryMs);
        print(name, redrawMs);
        QBENCHMARK_ONCE
        {
            redraw();
        }
        if (source == u"day"_s)
            print("redraw_20_series_24h_qlineseries_ms", qLineSeriesRedrawMs(data, Width));
    }
}

double BenchViews::qLineSeriesRedrawMs(const PanelData &data, int width)
{
    // The baseline: QtCharts' own lines and axes, the same points, the same steps.
    auto *chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    auto *axisX = new QDateTimeAxis;
    auto *axisY = new QValueAxis;
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    QList<QLineSeries *> lines;
    for (qsizetype i = 0; i < data.series.size(); ++i) {
        auto *line = new QLineSeries;
        chart->addSeries(line);
        line->attachAxis(axisX);
        line->attachAxis(axisY);
        lines.append(line);
    }
    QChartView view(chart);
    view.resize(width, 400);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return -1;
    QImage target(view.size(), QImage::Format_ARGB32_Premultiplied);
    const auto redraw = [&] {
        for (qsizetype i = 0; i < data.series.size(); ++i) {
            QList<QPointF> points;
            points.reserve(qsizetype(data.series[i].points.size()));
            for (const Sample &p : data.series[i].points)
                points.append(QPointF(double(p.tsMs), p.value));
            lines[i]->replace(points);
        }
        axisX->setRange(QDateTime::fromMSecsSinceEpoch(data.fromMs),
                        QDateTime::fromMSecsSinceEpoch(data.toMs));
        axisY->setRange(0, 100);
        QCoreApplication::processEvents();
        QPainter painter(&target);
        view.render(&painter);
    };
    redraw();
    return medianMs(5, redraw);
}

void BenchViews::twelveLivePanels()
{
    // 12 panels of 4 series each over a 15 min range, one new sample per series and a
    // refresh every second, as the main window does while following live data.
    SeriesRegistry registry;
    LiveBuffers live(3600);
    QList<int> ids;
    Dashboard dashboard;
    for (int p = 0; p < 12; ++p) {
        const QString source = u"host%1"_s.arg(p);
        for (int s = 0; s < 4; ++s)
            ids.append(addSeries(registry, source, u"cpu%1"_s.arg(s)));
        DashboardPanel panel = timePanel(u"panel%1"_s.arg(p), source);
        panel.layout = { (p % 2) * 6, (p / 2) * 4, 6, 4 };
        dashboard.panels.append(panel);
    }
    const qint64 start = QDateTime::currentMSecsSinceEpoch();
    for (int id : std::as_const(ids)) {
        for (qint64 t = -3600; t < 0; ++t)
            live.append(id, { start + t * 1000, 50 + 40 * std::sin(double(t + id) / 60) });
    }
    const SeriesStore store(&live, nullptr);
    DashboardView view(&registry);
    view.setStore(&store);
    view.setDashboard(dashboard);
    view.resize(view.preferredSize(1600));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    int ticks = 0;
    int refreshed = 0;
    connect(&view, &DashboardView::refreshed, this, [&] { ++refreshed; });
    QTimer timer;
    timer.setInterval(1000);
    connect(&timer, &QTimer::timeout, this, [&] {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int id : std::as_const(ids))
            live.append(id, { now, 50 + 40 * std::sin(double(now / 1000 + id) / 60) });
        view.refresh(now - 15 * 60 * 1000, now);
        ++ticks;
    });
    const int seconds = qEnvironmentVariableIntValue("HEADROOM_BENCH_LIVE_SECONDS") > 0
        ? qEnvironmentVariableIntValue("HEADROOM_BENCH_LIVE_SECONDS")
        : 20;
    QElapsedTimer wall;
    const double cpuBefore = threadCpuMs();
    wall.start();
    timer.start();
    QTest::qWait(seconds * 1000);
    timer.stop();
    const double cpuMs = threadCpuMs() - cpuBefore;
    const double wallMs = double(wall.elapsed());
    QVERIFY(refreshed >= seconds / 2); // the refreshes really happened
    print("live_12_panels_refreshes", refreshed);
    print("live_12_panels_gui_thread_ms_per_refresh", cpuMs / std::max(1, refreshed));
    print("live_12_panels_gui_thread_percent", 100.0 * cpuMs / wallMs);
    Q_UNUSED(ticks)
}

void BenchViews::useMatrixDay()
{
    // Two hosts of the shipped host dashboard's shape: per host 24 U/S/E series on CPU,
    // memory, 3 disks and 3 NICs, a sample a second for a day, a spike now and then.
    SeriesRegistry registry;
    LiveBuffers live(86'400);
    struct Shape
    {
        QString metric, unit, resource;
        UseKind kind;
    };
    QList<Shape> shapes {
        { u"host.cpu.utilization"_s, u"%"_s, u"cpu"_s, UseKind::Utilization },
        { u"host.cpu.runqueue_per_cpu"_s, QString(), u"cpu"_s, UseKind::Saturation },
        { u"host.cpu.psi"_s, u"%"_s, u"cpu"_s, UseKind::Saturation },
        { u"host.mem.utilization"_s, u"%"_s, u"memory"_s, UseKind::Utilization },
        { u"host.mem.page_scan"_s, u"pages/s"_s, u"memory"_s, UseKind::Saturation },
        { u"host.mem.oom_kills"_s, u"1/s"_s, u"memory"_s, UseKind::Errors },
    };
    for (const QString &disk : { u"sda"_s, u"sdb"_s, u"nvme0n1"_s }) {
        shapes.append({ u"host.disk.utilization."_s + disk, u"%"_s, u"disk:"_s + disk,
                        UseKind::Utilization });
        shapes.append(
            { u"host.disk.queue."_s + disk, QString(), u"disk:"_s + disk, UseKind::Saturation });
    }
    for (const QString &nic : { u"eth0"_s, u"eth1"_s, u"eth2"_s }) {
        for (const QString &what : { u"utilization"_s, u"drops"_s, u"errors"_s, u"rx"_s })
            shapes.append({ u"nic."_s + what + u'.' + nic,
                            what == u"utilization"_s ? u"%"_s : u"1/s"_s, u"nic:"_s + nic,
                            what == u"utilization"_s  ? UseKind::Utilization
                                : what == u"errors"_s ? UseKind::Errors
                                                      : UseKind::Saturation });
    }
    int n = 0;
    for (const QString &source : { u"host"_s, u"web2"_s }) {
        for (const Shape &shape : std::as_const(shapes)) {
            const int id = registry.idFor(SeriesInfo {
                { source, shape.metric, {} }, shape.unit, shape.resource, shape.kind, false });
            ++n;
            for (qint64 t = 0; t < 86'400; ++t) {
                const double wave = 40 + 30 * std::sin(double(t) / (300 + n));
                live.append(id, { Base + t * 1000, t % 7919 == n ? 99 : wave });
            }
        }
    }
    const SeriesStore store(&live, nullptr);
    DashboardPanel config;
    config.id = u"use"_s;
    config.type = PanelType::UseMatrix;
    config.series = { { u"host"_s, u"*"_s, {} }, { u"web2"_s, u"*"_s, {} } };
    PanelData data;
    const double queryMs
        = medianMs(5, [&] { data = queryPanel(config, registry, store, Base, Base + Day, 1200); });
    QCOMPARE(data.as<UseMatrix>().rows.size(), 16); // 8 resources on each of two hosts
    print("usematrix_series", n);
    print("usematrix_query_48_series_24h_ms", queryMs);
    const double hourMs = medianMs(5, [&] {
        data = queryPanel(config, registry, store, Base + Day - 3'600'000, Base + Day, 1200);
    });
    print("usematrix_query_48_series_1h_ms", hourMs);

    UseMatrixPanel panel(config);
    panel.resize(1200, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QImage target(panel.size(), QImage::Format_ARGB32_Premultiplied);
    const auto redraw = [&] {
        panel.setData(data);
        QCoreApplication::processEvents();
        QPainter painter(&target);
        panel.render(&painter);
    };
    redraw();
    print("usematrix_redraw_ms", medianMs(15, redraw));
    QBENCHMARK_ONCE
    {
        data = queryPanel(config, registry, store, Base, Base + Day, 1200);
    }
}

QTEST_MAIN(BenchViews)
#include "bench_views.moc"
