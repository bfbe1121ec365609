// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What the alert engine costs, with the USE rule pack on a fleet named as the collectors
// name their series: 50 hosts (CPU, memory, 4 disks, 2 NICs; 30 series each, 17 of them
// watched by a rule), 4 PostgreSQL servers with 250 shards each and a latency histogram.
// Prints, side by side in one run:
//   publish_us_per_fleet_second_without_alerts / _with_alerts   collector-thread cost
//   alert_thread_ms_per_fleet_second    the engine's own thread (evaluation), per second
//                                       of fleet data; / 10 is its share of a core in %
//   evaluated_samples_per_s             samples through the evaluator
#include "benchutil.h"
#include "document/alertrulejson.h"
#include "engine/alerts/alertengine.h"
#include "engine/alerts/alertevaluator.h"
#include "engine/runtime/samplebus.h"
#include "engine/runtime/seriesregistry.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <cstdio>
#include <random>

using namespace Qt::StringLiterals;

using namespace Headroom;
using namespace Headroom::Bench;

namespace {

QList<SampleBatch> fleetSecond(qint64 tsMs, std::mt19937 &random)
{
    std::uniform_real_distribution<double> percent(0, 100);
    QList<SampleBatch> batches;
    for (int h = 0; h < 50; ++h) {
        SampleBatch b;
        b.source = u"host%1"_s.arg(h);
        b.tsMs = tsMs;
        const auto add = [&](const char *metric, Labels labels, const char *resource) {
            b.add({ b.source, QString::fromLatin1(metric), std::move(labels) }, u"%"_s,
                  QString::fromLatin1(resource), UseKind::Utilization, percent(random) * 0.85);
        };
        add("host.cpu.utilization", { { u"cpu"_s, u"all"_s } }, "cpu");
        add("host.cpu.runqueue_per_cpu", {}, "cpu");
        add("host.load.per_cpu", {}, "cpu");
        add("host.mem.psi", { { u"kind"_s, u"some"_s } }, "memory");
        add("host.mem.swap_in", {}, "memory");
        add("tcp.retransmit_ratio", {}, "tcp");
        for (int d = 0; d < 4; ++d) {
            const Labels disk { { u"device"_s, u"sd%1"_s.arg(QChar(u'a' + d)) } };
            add("host.disk.utilization", disk, "disk");
            add("host.disk.queue", disk, "disk");
            add("host.disk.reads", disk, "disk"); // not watched
        }
        for (int n = 0; n < 2; ++n)
            for (const char *direction : { "rx", "tx" })
                add("nic.utilization",
                    { { u"interface"_s, u"eth%1"_s.arg(n) },
                      { u"direction"_s, QString::fromLatin1(direction) } },
                    "nic");
        for (int i = 0; i < 9; ++i)
            add("host.cpu.mode", { { u"mode"_s, u"m%1"_s.arg(i) } }, "cpu");
        batches.append(b);
    }
    for (int p = 0; p < 4; ++p) {
        SampleBatch b;
        b.source = u"pg%1"_s.arg(p);
        b.tsMs = tsMs;
        for (int s = 0; s < 250; ++s)
            b.add({ b.source,
                    u"pg.shard.load"_s,
                    { { u"set"_s, u"public.orders"_s },
                      { u"shard"_s, u"public.orders_p%1"_s.arg(s) } } },
                  u"%"_s, u"shardset:public.orders"_s, UseKind::Utilization, percent(random) * 0.2);
        LogHistogram latency;
        for (int i = 0; i < 200; ++i)
            latency.add(0.5 + percent(random) / 10);
        b.histograms.append(
            { { { b.source, u"pg.latency.probe"_s, {} }, u"ms"_s, u"pg"_s, UseKind::Latency, true },
              latency });
        batches.append(b);
    }
    return batches;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    constexpr int Seconds = 300;
    const qint64 start = 1'700'000'000'000;
    std::mt19937 random(7);
    QList<QList<SampleBatch>> data;
    for (int s = 0; s < Seconds; ++s)
        data.append(fleetSecond(start + s * 1000, random));
    int samples = 0;
    for (const SampleBatch &b : data.first())
        samples += int(b.values.size() + b.histograms.size());
    print("fleet_samples_per_second", samples);

    const auto publishAll = [&](SampleBus &bus) {
        QElapsedTimer timer;
        timer.start();
        for (const QList<SampleBatch> &second : std::as_const(data))
            for (const SampleBatch &batch : second)
                bus.publish(batch);
        return double(timer.nsecsElapsed()) / 1e3 / Seconds;
    };
    {
        SeriesRegistry registry;
        SampleBus bus(&registry);
        publishAll(bus); // registers every series first, as a running session has
        print("publish_us_per_fleet_second_without_alerts", publishAll(bus));
    }
    QString error;
    const auto pack = loadAlertPack(u"use"_s, &error);
    if (!pack) {
        std::fprintf(stderr, "bench_alerts: %s\n", qPrintable(error));
        return 1;
    }
    SeriesRegistry registry;
    SampleBus bus(&registry);
    AlertEngine engine(&registry);
    engine.setRules(*pack);
    bus.addSink(&engine);
    publishAll(bus);
    engine.waitIdle();
    const double withAlerts = publishAll(bus);
    engine.waitIdle();
    print("publish_us_per_fleet_second_with_alerts", withAlerts);
    // The engine's thread overlaps the publishing above; its evaluation alone, on the
    // same data:
    AlertEvaluator evaluator;
    evaluator.setRules(*pack);
    qsizetype evaluated = 0;
    QElapsedTimer timer;
    timer.start();
    for (const QList<SampleBatch> &second : std::as_const(data))
        for (const SampleBatch &batch : second) {
            for (const SeriesValue &v : batch.values)
                if (evaluator.watches(v.info.key)) {
                    evaluator.addSample(v.info, { batch.tsMs, v.value });
                    ++evaluated;
                }
            for (const SeriesHistogram &h : batch.histograms) {
                evaluator.addHistogram(h.info, batch.tsMs, h.histogram);
                ++evaluated;
            }
        }
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    print("alert_thread_ms_per_fleet_second", ms / Seconds);
    print("evaluated_samples_per_s", double(evaluated) / (ms / 1000));
    print("alert_instances", double(evaluator.instances().size()));
    return 0;
}
