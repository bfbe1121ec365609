// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "expositionconverter.h"

#include <cmath>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

bool isRateSuffix(const QString &sampleName, const QString &family)
{
    return sampleName == family + u"_sum"_s || sampleName == family + u"_count"_s;
}

} // namespace

ExpositionConverter::ExpositionConverter(QList<PrometheusShardSet> shardSets)
    : m_shardSets(std::move(shardSets))
{
}

QString ExpositionConverter::unitOf(const QString &name)
{
    QString base = name;
    for (const auto suffix : { "_total"_L1, "_sum"_L1, "_count"_L1, "_bucket"_L1 })
        if (base.endsWith(suffix))
            base.chop(suffix.size());
    if (base.endsWith("_bytes"_L1))
        return u"B"_s;
    if (base.endsWith("_seconds"_L1))
        return u"s"_s;
    if (base.endsWith("_percent"_L1))
        return u"%"_s;
    return {};
}

void ExpositionConverter::convert(const Exposition &exposition, SampleBatch *batch)
{
    const qint64 ts = batch->tsMs;
    const auto gauge = [&](const ExpositionSample &s, UseKind kind = UseKind::Info) {
        batch->add({ batch->source, s.name, s.labels }, unitOf(s.name), QString(), kind, s.value);
    };
    const auto rate = [&](const ExpositionSample &s) {
        const QString key = s.name + labelsToString(s.labels);
        if (const auto r = m_rates.update(key, s.value, ts)) {
            const QString unit = unitOf(s.name);
            batch->add({ batch->source, s.name + u":rate"_s, s.labels },
                       unit.isEmpty() ? u"1/s"_s : unit + u"/s"_s, QString(), UseKind::Throughput,
                       *r);
        }
    };
    for (const ExpositionFamily &family : exposition.families) {
        switch (family.type) {
        case MetricType::Counter:
            for (const ExpositionSample &s : family.samples)
                if (!s.name.endsWith("_created"_L1))
                    rate(s);
            break;
        case MetricType::Histogram:
            addHistograms(family, batch);
            break;
        case MetricType::Summary:
            for (const ExpositionSample &s : family.samples) {
                if (isRateSuffix(s.name, family.name))
                    rate(s);
                else if (!s.name.endsWith("_created"_L1))
                    gauge(s, UseKind::Latency);
            }
            break;
        case MetricType::GaugeHistogram:
        case MetricType::Gauge:
        case MetricType::Untyped:
        case MetricType::StateSet:
        case MetricType::Info:
            for (const ExpositionSample &s : family.samples)
                gauge(s);
            break;
        }
        for (const PrometheusShardSet &set : std::as_const(m_shardSets)) {
            if (set.metric != family.name)
                continue;
            for (const ExpositionSample &s : family.samples) {
                const QString shard = s.labels.value(set.shardLabel);
                if (shard.isEmpty() || !std::isfinite(s.value))
                    continue;
                batch->add({ batch->source,
                             u"shard.load"_s,
                             { { u"set"_s, set.name }, { u"shard"_s, shard } } },
                           u"%"_s, u"shardset:"_s + set.name, UseKind::Utilization, s.value);
            }
        }
    }
}

void ExpositionConverter::addHistograms(const ExpositionFamily &family, SampleBatch *batch)
{
    const bool seconds = family.name.endsWith("_seconds"_L1);
    const double scale = seconds ? 1000.0 : 1.0;
    // Cumulative counts per upper bound, per label set without "le".
    QMap<QString, std::pair<Labels, QMap<double, double>>> series;
    for (const ExpositionSample &s : family.samples) {
        if (s.name != family.name + u"_bucket"_s || !s.labels.contains(u"le"_s))
            continue;
        bool ok = false;
        const QString le = s.labels.value(u"le"_s);
        const double bound = le == "+Inf"_L1 ? qInf() : le.toDouble(&ok);
        if (!ok && !qIsInf(bound))
            continue;
        Labels labels = s.labels;
        labels.remove(u"le"_s);
        auto &entry = series[labelsToString(labels)];
        entry.first = labels;
        entry.second.insert(bound, s.value);
    }
    for (auto it = series.cbegin(); it != series.cend(); ++it) {
        const QString key = family.name + it.key();
        const QMap<double, double> &now = it->second;
        bool first = false;
        QMap<double, double> *previous = m_previousBuckets.touch(key, batch->tsMs, &first);
        if (!previous)
            continue; // too many histogram series to follow: the bus drops them anyway
        const QMap<double, double> before = std::exchange(*previous, now);
        if (first)
            continue; // increments need two scrapes
        LogHistogram histogram;
        double lower = 0;
        double cumulativeDelta = 0;
        bool reset = false;
        for (auto b = now.cbegin(); b != now.cend(); ++b) {
            const double delta = b.value() - before.value(b.key(), b.value());
            if (delta < 0) {
                reset = true; // the exporter restarted: no histogram this interval
                break;
            }
            const double inBucket = delta - cumulativeDelta;
            cumulativeDelta = delta;
            if (inBucket > 0) {
                const double at
                    = qIsInf(b.key()) ? lower : (lower > 0 ? std::sqrt(lower * b.key()) : b.key());
                histogram.add(at * scale, quint64(std::llround(inBucket)));
            }
            if (!qIsInf(b.key()))
                lower = b.key();
        }
        if (reset)
            continue;
        SeriesHistogram h;
        h.info = { { batch->source, family.name, it->first },
                   seconds ? u"ms"_s : unitOf(family.name),
                   QString(),
                   UseKind::Latency,
                   true };
        h.histogram = histogram;
        batch->histograms.append(h);
    }
}

} // namespace Headroom
