// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The realistic mix the cache benchmarks write: a fleet polled at 1 s, as the
// collectors publish it (one batch per source per second).
//  - 8 hosts x 40 gauges (utilization with one decimal, load with two, memory bytes),
//  - 8 NIC sources x 16 (bytes and packets per second as integers, errors mostly 0),
//  - 4 PostgreSQL servers x 80 (counts, rates with one decimal) + 2 latency histograms.
// Values are random walks rounded as the collectors round them, seeded, so every run
// writes the same data.
#pragma once

#include "core/sample.h"

#include <QList>
#include <cmath>
#include <random>

namespace Headroom::Bench {

class CacheWorkload
{
public:
    explicit CacheWorkload(bool withHistograms = true)
    {
        addSources(u"host", 8, 40, 1);
        addSources(u"nic", 8, 16, 0);
        addSources(u"pg", 4, 80, 1);
        if (withHistograms) {
            for (int s = 0; s < 4; ++s) {
                for (const char16_t *metric : { u"pg.latency.probe", u"pg.latency.statements" })
                    m_sources[size_t(16 + s)].histograms.append(SeriesInfo {
                        { m_sources[size_t(16 + s)].name, QString::fromUtf16(metric), {} },
                        QStringLiteral("ms"),
                        QStringLiteral("db"),
                        UseKind::Latency,
                        true });
            }
        }
    }

    // Each source's poll lands up to jitterMs before or after the second, as real
    // collectors' do (0: exactly on it, the default).
    void setJitterMs(int jitterMs)
    {
        m_jitter = std::uniform_int_distribution<int>(-jitterMs, jitterMs);
    }

    // Samples (values and histograms) in one second of the whole fleet.
    int samplesPerSecond() const
    {
        int n = 0;
        for (const Source &s : m_sources)
            n += int(s.series.size() + s.histograms.size());
        return n;
    }
    int seriesCount() const { return samplesPerSecond(); }

    // The batches of every source at tsMs.
    QList<SampleBatch> second(qint64 tsMs)
    {
        QList<SampleBatch> batches;
        batches.reserve(qsizetype(m_sources.size()));
        for (Source &source : m_sources) {
            SampleBatch batch;
            batch.source = source.name;
            batch.tsMs = tsMs + m_jitter(m_random);
            batch.values.reserve(source.series.size());
            for (qsizetype i = 0; i < source.series.size(); ++i) {
                double &v = source.current[size_t(i)];
                v = std::max(0.0, v + m_step(m_random));
                const double scale = std::pow(10.0, source.decimals);
                batch.add(source.series.at(i), std::round(v * scale) / scale);
            }
            for (const SeriesInfo &info : std::as_const(source.histograms)) {
                LogHistogram h;
                for (int k = 0; k < 20; ++k)
                    h.add(0.05 + std::abs(m_step(m_random)) * 10, 1);
                batch.histograms.append({ info, h });
            }
            batches.append(std::move(batch));
        }
        return batches;
    }

private:
    struct Source
    {
        QString name;
        int decimals = 0;
        QList<SeriesInfo> series;
        QList<SeriesInfo> histograms;
        std::vector<double> current;
    };

    void addSources(const char16_t *kind, int count, int perSource, int decimals)
    {
        for (int s = 0; s < count; ++s) {
            Source source;
            source.name = QString::fromUtf16(kind) + u':' + QString::number(s);
            source.decimals = decimals;
            for (int i = 0; i < perSource; ++i) {
                source.series.append(
                    SeriesInfo { { source.name,
                                   QString::fromUtf16(kind) + u".metric" + QString::number(i / 4),
                                   { { QStringLiteral("n"), QString::number(i % 4) } } },
                                 QStringLiteral("1"),
                                 source.name,
                                 UseKind::Utilization,
                                 false });
                source.current.push_back(10.0 + i);
            }
            m_sources.push_back(std::move(source));
        }
    }

    std::vector<Source> m_sources;
    std::mt19937_64 m_random { 42 };
    std::normal_distribution<double> m_step { 0.0, 0.5 };
    std::uniform_int_distribution<int> m_jitter { 0, 0 };
};

} // namespace Headroom::Bench
