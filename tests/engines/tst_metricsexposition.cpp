// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The exposition --serve-metrics serves: names as documented, labels escaped and never
// duplicated, stale series left out, histograms cumulative with exact bucket counts,
// and every byte of it read back by Headroom's own exposition parser (the one the
// prometheus collector scrapes with) in both formats, nothing skipped.
#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "expositionparser.h"
#include "query/openmetrics/metricsexposition.h"
#include "query/openmetrics/openmetricsnames.h"

#include <QTest>
#include <cmath>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 Now = 1'800'000'000'000;

SeriesInfo series(const QString &source, const QString &metric, const QString &unit,
                  const Labels &labels = {}, bool histogram = false)
{
    SeriesInfo info;
    info.key = { source, metric, labels };
    info.unit = unit;
    info.kind = histogram ? UseKind::Latency : UseKind::Utilization;
    info.histogram = histogram;
    return info;
}

Exposition parse(const QByteArray &text, MetricsExposition::Format format)
{
    return parseExposition(text,
                           format == MetricsExposition::Format::OpenMetrics
                               ? ExpositionFormat::OpenMetrics
                               : ExpositionFormat::Text004);
}

const ExpositionFamily *family(const Exposition &exposition, const QString &name)
{
    for (const ExpositionFamily &f : exposition.families) {
        if (f.name == name)
            return &f;
    }
    return nullptr;
}

// The sample of a family with these labels (name as written: foo_bucket etc.).
std::optional<double> valueOf(const Exposition &exposition, const QString &sampleName,
                              const Labels &labels)
{
    for (const ExpositionFamily &f : exposition.families) {
        for (const ExpositionSample &s : f.samples) {
            if (s.name == sampleName && s.labels == labels)
                return s.value;
        }
    }
    return std::nullopt;
}
} // namespace

class TestMetricsExposition : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void names_data()
    {
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("name");
        QTest::newRow("issue's statements") << u"pg.statements.exec_time.rate"_s << u"ms/s"_s
                                            << u"headroom_pg_statements_exec_time_ms_per_s"_s;
        QTest::newRow("issue's shard load")
            << u"pg.shard.load"_s << u"%"_s << u"headroom_pg_shard_load"_s;
        QTest::newRow("bytes") << u"host.mem.available"_s << u"B"_s
                               << u"headroom_host_mem_available_bytes"_s;
        QTest::newRow("bytes already named")
            << u"nic.rx.bytes"_s << u"B/s"_s << u"headroom_nic_rx_bytes_per_s"_s;
        QTest::newRow("per second")
            << u"mariadb.queries.rate"_s << u"1/s"_s << u"headroom_mariadb_queries_per_s"_s;
        QTest::newRow("seconds already named") << u"pg.activity.longest_query_age_s"_s << u"s"_s
                                               << u"headroom_pg_activity_longest_query_age_s"_s;
        QTest::newRow("no unit") << u"host.cpu.count"_s << QString()
                                 << u"headroom_host_cpu_count"_s;
        QTest::newRow("odd characters")
            << u"my-metric.2x"_s << u"ms"_s << u"headroom_my_metric_2x_ms"_s;
        QTest::newRow("hours to full")
            << u"host.fs.time_to_full"_s << u"h"_s << u"headroom_host_fs_time_to_full_h"_s;
        QTest::newRow("open files already named")
            << u"host.process.open_files"_s << u"files"_s << u"headroom_host_process_open_files"_s;
        QTest::newRow("sockets") << u"tcp.connections"_s << u"sockets"_s
                                 << u"headroom_tcp_connections_sockets"_s;
        QTest::newRow("connection slots") << u"pg.connections.utilization"_s << u"%"_s
                                          << u"headroom_pg_connections_utilization"_s;
        QTest::newRow("replay lag") << u"pg.replication.replay_lag_s"_s << u"s"_s
                                    << u"headroom_pg_replication_replay_lag_s"_s;
        QTest::newRow("slot bytes") << u"pg.replication.slot.retained_bytes"_s << u"B"_s
                                    << u"headroom_pg_replication_slot_retained_bytes"_s;
        QTest::newRow("growth per hour")
            << u"pg.db.size_growth"_s << u"B/h"_s << u"headroom_pg_db_size_growth_bytes_per_h"_s;
        QTest::newRow("checkpoints per hour")
            << u"pg.checkpoints.requested.rate"_s << u"checkpoints/h"_s
            << u"headroom_pg_checkpoints_requested_checkpoints_per_h"_s;
    }

    // A server's connections, standbys and slots as a scraper sees them: who holds the
    // sessions and which standby lags, as labels; an application name with a quote.
    void pgPagesServed()
    {
        SeriesRegistry registry;
        LiveBuffers live;
        SeriesInfo utilization = series(u"pg"_s, u"pg.connections.utilization"_s, u"%"_s);
        utilization.resource = u"connections"_s;
        live.append(registry.idFor(utilization), { Now - 500, 97.0 });
        live.append(
            registry.idFor(series(u"pg"_s, u"pg.connections.by_application"_s, u"sessions"_s,
                                  { { u"application"_s, u"hr \"leak\""_s } })),
            { Now - 500, 15.0 });
        SeriesInfo lag
            = series(u"pg"_s, u"pg.replication.replay_lag_s"_s, u"s"_s,
                     { { u"standby"_s, u"standby1"_s }, { u"client_addr"_s, QString() } });
        lag.kind = UseKind::Saturation;
        lag.resource = u"standby:standby1"_s;
        live.append(registry.idFor(lag), { Now - 500, 42.5 });
        live.append(
            registry.idFor(series(u"pg"_s, u"pg.replication.slot.retained_bytes"_s, u"B"_s,
                                  { { u"slot"_s, u"s1"_s }, { u"type"_s, u"physical"_s } })),
            { Now - 500, 2e9 });
        MetricsExposition exposition;
        for (const auto format : { MetricsExposition::Format::OpenMetrics,
                                   MetricsExposition::Format::PrometheusText }) {
            const Exposition parsed = parse(exposition.render(registry, live, Now, format), format);
            QVERIFY2(parsed.skippedLines == 0, qPrintable(parsed.summary()));
            QCOMPARE(valueOf(parsed, u"headroom_pg_connections_utilization"_s,
                             { { u"source"_s, u"pg"_s } }),
                     std::optional(97.0));
            QCOMPARE(valueOf(parsed, u"headroom_pg_connections_by_application_sessions"_s,
                             { { u"source"_s, u"pg"_s }, { u"application"_s, u"hr \"leak\""_s } }),
                     std::optional(15.0));
            QCOMPARE(valueOf(parsed, u"headroom_pg_replication_replay_lag_s"_s,
                             { { u"source"_s, u"pg"_s },
                               { u"standby"_s, u"standby1"_s },
                               { u"client_addr"_s, QString() } }),
                     std::optional(42.5));
            QCOMPARE(valueOf(parsed, u"headroom_pg_replication_slot_retained_bytes"_s,
                             { { u"source"_s, u"pg"_s },
                               { u"slot"_s, u"s1"_s },
                               { u"type"_s, u"physical"_s } }),
                     std::optional(2e9));
        }
    }

    // The host's filesystems and top processes as a scraper sees them: a mount point with
    // a space, a command name with parentheses and a quote, the pid as a label.
    void hostPagesServed()
    {
        SeriesRegistry registry;
        LiveBuffers live;
        const Labels fs { { u"mountpoint"_s, u"/mnt/wal archive"_s },
                          { u"device"_s, u"/dev/sda3"_s },
                          { u"fstype"_s, u"xfs"_s } };
        SeriesInfo left = series(u"host"_s, u"host.fs.time_to_full"_s, u"h"_s, fs);
        left.kind = UseKind::Saturation;
        left.resource = u"fs:/mnt/wal archive"_s;
        live.append(registry.idFor(left), { Now - 500, 0.75 });
        const Labels process { { u"pid"_s, u"4242"_s },
                               { u"comm"_s, u"hr (\"burn\")"_s },
                               { u"user"_s, u"ops"_s } };
        live.append(registry.idFor(series(u"host"_s, u"host.process.cpu"_s, u"%"_s, process)),
                    { Now - 500, 190.0 });
        MetricsExposition exposition;
        const QByteArray text
            = exposition.render(registry, live, Now, MetricsExposition::Format::OpenMetrics);
        const Exposition parsed = parse(text, MetricsExposition::Format::OpenMetrics);
        QVERIFY2(parsed.skippedLines == 0, qPrintable(parsed.summary()));
        QCOMPARE(valueOf(parsed, u"headroom_host_fs_time_to_full_h"_s,
                         { { u"source"_s, u"host"_s },
                           { u"mountpoint"_s, u"/mnt/wal archive"_s },
                           { u"device"_s, u"/dev/sda3"_s },
                           { u"fstype"_s, u"xfs"_s } }),
                 std::optional(0.75));
        QCOMPARE(valueOf(parsed, u"headroom_host_process_cpu"_s,
                         { { u"source"_s, u"host"_s },
                           { u"pid"_s, u"4242"_s },
                           { u"comm"_s, u"hr (\"burn\")"_s },
                           { u"user"_s, u"ops"_s } }),
                 std::optional(190.0));
    }
    void names()
    {
        QFETCH(QString, metric);
        QFETCH(QString, unit);
        QFETCH(QString, name);
        QCOMPARE(OpenMetrics::metricName(metric, unit), name);
    }

    void labelNames()
    {
        QCOMPARE(OpenMetrics::labelName(u"set"_s), u"set"_s);
        QCOMPARE(OpenMetrics::labelName(u"disk:sda"_s), u"disk_sda"_s);
        QCOMPARE(OpenMetrics::labelName(u"9lives"_s), u"_9lives"_s);
        QCOMPARE(OpenMetrics::labelName(u"__name__"_s), u"label__name__"_s);
    }

    void formatValues()
    {
        QCOMPARE(OpenMetrics::formatValue(0.1), QByteArray("0.1"));
        QCOMPARE(OpenMetrics::formatValue(42.5), QByteArray("42.5"));
        QCOMPARE(OpenMetrics::formatValue(std::nan("")), QByteArray("NaN"));
        QCOMPARE(OpenMetrics::formatValue(-INFINITY), QByteArray("-Inf"));
        // Shortest text that reads back exactly: what the engine stores is what we held.
        const double third = 1.0 / 3.0;
        QCOMPARE(OpenMetrics::formatValue(third).toDouble(), third);
    }

    void gaugesReadBack_data()
    {
        QTest::addColumn<MetricsExposition::Format>("format");
        QTest::newRow("OpenMetrics 1.0") << MetricsExposition::Format::OpenMetrics;
        QTest::newRow("text 0.0.4") << MetricsExposition::Format::PrometheusText;
    }
    void gaugesReadBack()
    {
        QFETCH(MetricsExposition::Format, format);
        SeriesRegistry registry;
        LiveBuffers live;
        const int shard
            = registry.idFor(series(u"pg:orders"_s, u"pg.shard.load"_s, u"%"_s,
                                    { { u"set"_s, u"orders"_s }, { u"shard"_s, u"orders_3"_s } }));
        live.append(shard, { Now - 2000, 12.0 });
        live.append(shard, { Now - 1000, 42.5 }); // the newest is served
        const QString hostile = u"SELECT \"a\\b\"\nFROM t"_s;
        const int statement
            = registry.idFor(series(u"pg:orders"_s, u"pg.statements.exec_time.rate"_s, u"ms/s"_s,
                                    { { u"query"_s, hostile }, { u"source"_s, u"theirs"_s } }));
        live.append(statement, { Now - 500, 1.0 / 3.0 });
        const int stale = registry.idFor(series(u"host"_s, u"host.cpu.utilization"_s, u"%"_s));
        live.append(stale, { Now - MetricsExposition::DefaultStaleMs - 1, 99.0 });
        registry.idFor(series(u"host"_s, u"host.mem.utilization"_s, u"%"_s)); // never sampled

        MetricsExposition exposition;
        const QByteArray text = exposition.render(registry, live, Now, format);
        const Exposition parsed = parse(text, format);
        QVERIFY2(parsed.skippedLines == 0, qPrintable(parsed.summary()));
        QVERIFY(!parsed.truncated);
        QCOMPARE(text.endsWith("# EOF\n"), format == MetricsExposition::Format::OpenMetrics);
        QCOMPARE(parsed.families.size(), 2);
        QCOMPARE(exposition.lastStats().series, 2);

        const ExpositionFamily *load = family(parsed, u"headroom_pg_shard_load"_s);
        QVERIFY(load);
        QCOMPARE(load->type, MetricType::Gauge);
        QCOMPARE(load->help, u"Headroom series pg.shard.load (%, utilization)"_s);
        QCOMPARE(valueOf(parsed, u"headroom_pg_shard_load"_s,
                         { { u"source"_s, u"pg:orders"_s },
                           { u"set"_s, u"orders"_s },
                           { u"shard"_s, u"orders_3"_s } }),
                 std::optional(42.5));
        // The query text survives quoting; the series' own `source` is renamed, not lost.
        QCOMPARE(valueOf(parsed, u"headroom_pg_statements_exec_time_ms_per_s"_s,
                         { { u"source"_s, u"pg:orders"_s },
                           { u"query"_s, hostile },
                           { u"exported_source"_s, u"theirs"_s } }),
                 std::optional(1.0 / 3.0));
        QVERIFY(!text.contains("host_cpu")); // stale: its source stopped answering
        QVERIFY(!text.contains("host_mem"));
    }

    void histogramsAreCumulativeAndExact()
    {
        SeriesRegistry registry;
        LiveBuffers live;
        const int id = registry.idFor(series(u"pg:orders"_s, u"pg.probe.latency"_s, u"ms"_s,
                                             { { u"le"_s, u"theirs"_s } }, true));
        QList<double> observed;
        LogHistogram first;
        for (const double v : { 0.0, 0.3, 0.9, 1.0, 2.5, 7.0, 7.5, 40.0, 41.0, 900.0 }) {
            first.add(v);
            observed.append(v);
        }
        live.appendHistogram(id, Now - 2000, first);
        MetricsExposition exposition;
        const auto check = [&](const QByteArray &text) {
            const Exposition parsed = parse(text, MetricsExposition::Format::OpenMetrics);
            QVERIFY2(parsed.skippedLines == 0, qPrintable(parsed.summary()));
            const ExpositionFamily *f = family(parsed, u"headroom_pg_probe_latency_ms"_s);
            QVERIFY(f);
            QCOMPARE(f->type, MetricType::Histogram);
            int bounds = 0;
            double previous = -1;
            for (const ExpositionSample &s : f->samples) {
                if (s.name != u"headroom_pg_probe_latency_ms_bucket"_s)
                    continue;
                QCOMPARE(s.labels.value(u"exported_le"_s), u"theirs"_s);
                const double le = s.labels.value(u"le"_s) == u"+Inf"_s
                    ? INFINITY
                    : s.labels.value(u"le"_s).toDouble();
                QVERIFY(le > previous);
                previous = le;
                // Exact: every observation at or below the bound, none interpolated.
                const auto atOrBelow = std::count_if(observed.cbegin(), observed.cend(),
                                                     [le](double v) { return v <= le; });
                QCOMPARE(s.value, double(atOrBelow));
                ++bounds;
            }
            QVERIFY(bounds >= 4);
            QCOMPARE(
                *valueOf(parsed, u"headroom_pg_probe_latency_ms_count"_s,
                         { { u"source"_s, u"pg:orders"_s }, { u"exported_le"_s, u"theirs"_s } }),
                double(observed.size()));
        };
        check(exposition.render(registry, live, Now, MetricsExposition::Format::OpenMetrics));
        // A scrape without a new poll counts nothing twice.
        check(exposition.render(registry, live, Now, MetricsExposition::Format::OpenMetrics));
        LogHistogram second;
        for (const double v : { 0.5, 3000.0 }) {
            second.add(v);
            observed.append(v);
        }
        live.appendHistogram(id, Now - 1000, second);
        check(exposition.render(registry, live, Now, MetricsExposition::Format::OpenMetrics));
        QCOMPARE(exposition.lastStats().histograms, 1);
    }

    void clashingNamesStayApart()
    {
        SeriesRegistry registry;
        LiveBuffers live;
        // Both become headroom_a_b: the second gets its own family, not a duplicate.
        live.append(registry.idFor(series(u"s"_s, u"a.b"_s, {})), { Now, 1 });
        live.append(registry.idFor(series(u"s"_s, u"a_b"_s, {})), { Now, 2 });
        // Two labels equal once made valid.
        live.append(registry.idFor(
                        series(u"s"_s, u"c"_s, {}, { { u"x-y"_s, u"1"_s }, { u"x_y"_s, u"2"_s } })),
                    { Now, 3 });
        MetricsExposition exposition;
        const auto format = MetricsExposition::Format::OpenMetrics;
        const Exposition parsed = parse(exposition.render(registry, live, Now, format), format);
        QVERIFY2(parsed.skippedLines == 0, qPrintable(parsed.summary()));
        QCOMPARE(valueOf(parsed, u"headroom_a_b"_s, { { u"source"_s, u"s"_s } }),
                 std::optional(1.0));
        QCOMPARE(valueOf(parsed, u"headroom_a_b_2"_s, { { u"source"_s, u"s"_s } }),
                 std::optional(2.0));
        QCOMPARE(valueOf(parsed, u"headroom_c"_s,
                         { { u"source"_s, u"s"_s }, { u"x_y"_s, u"1"_s }, { u"x_y_2"_s, u"2"_s } }),
                 std::optional(3.0));
    }
};

QTEST_GUILESS_MAIN(TestMetricsExposition)
#include "tst_metricsexposition.moc"
