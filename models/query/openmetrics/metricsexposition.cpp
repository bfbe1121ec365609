// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/openmetrics/metricsexposition.h"

#include "engine/runtime/livebuffers.h"
#include "engine/runtime/seriesregistry.h"
#include "query/openmetrics/openmetricsnames.h"

#include <QMap>
#include <algorithm>
#include <limits>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
struct Entry
{
    int id = 0;
    SeriesInfo info;
    double value = 0; // a value series' newest sample
};

struct Family
{
    QString help;
    bool histogram = false;
};

// `source="pg:orders",set="orders"`: the source first, then the series' own labels.
// A label that would clash (its own `source`, a histogram's `le`, two names equal once
// made valid) is renamed, never dropped: a sample with a duplicate label name would
// fail the whole scrape.
QString labelPairs(const SeriesKey &key, bool histogram)
{
    QStringList used { u"source"_s };
    QString out = u"source=\""_s + OpenMetrics::escapeLabelValue(key.source) + u'"';
    for (auto it = key.labels.cbegin(); it != key.labels.cend(); ++it) {
        QString name = OpenMetrics::labelName(it.key());
        if (name == u"source"_s || (histogram && name == u"le"_s))
            name.prepend(u"exported_"_s);
        QString unique = name;
        for (int n = 2; used.contains(unique); ++n)
            unique = name + u'_' + QString::number(n);
        used.append(unique);
        out += u',' + unique + u"=\""_s + OpenMetrics::escapeLabelValue(it.value()) + u'"';
    }
    return out;
}

// ceil(index / step) for negative indices too (bounds below 1 have negative indices).
int boundFor(int index)
{
    return index >= 0 ? (index + MetricsExposition::BoundStep - 1) / MetricsExposition::BoundStep
                      : -(-index / MetricsExposition::BoundStep);
}

void appendSample(QByteArray *out, const QString &name, const QString &labels,
                  const QByteArray &value)
{
    out->append(name.toUtf8());
    out->append('{');
    out->append(labels.toUtf8());
    out->append("} ");
    out->append(value);
    out->append('\n');
}

void appendHistogram(QByteArray *out, const QString &name, const QString &labels,
                     const LogHistogram &histogram)
{
    const QString bucket = name + u"_bucket"_s;
    const auto bound = [&](double le, quint64 cumulative) {
        appendSample(out, bucket,
                     labels + u",le=\""_s + QString::fromLatin1(OpenMetrics::formatValue(le))
                         + u'"',
                     QByteArray::number(cumulative));
    };
    const QMap<int, quint64> &buckets = histogram.buckets();
    auto it = buckets.cbegin();
    quint64 cumulative = 0;
    if (it != buckets.cend() && it.key() == LogHistogram::ZeroBucket) {
        cumulative += it.value();
        bound(LogHistogram::MinValue, cumulative);
        ++it;
    }
    if (it != buckets.cend()) {
        const int last = boundFor(std::prev(buckets.cend()).key());
        for (int k = boundFor(it.key()); k <= last; ++k) {
            for (; it != buckets.cend() && it.key() <= k * MetricsExposition::BoundStep; ++it)
                cumulative += it.value();
            bound(LogHistogram::bucketUpperBound(k * MetricsExposition::BoundStep), cumulative);
        }
    }
    appendSample(out, bucket, labels + u",le=\"+Inf\""_s, QByteArray::number(histogram.count()));
    appendSample(out, name + u"_count"_s, labels, QByteArray::number(histogram.count()));
    appendSample(out, name + u"_sum"_s, labels, OpenMetrics::formatValue(histogram.sum()));
}
} // namespace

MetricsExposition::MetricsExposition(qint64 staleAfterMs)
    : m_staleMs(staleAfterMs)
{
}

QByteArray MetricsExposition::contentType(Format format)
{
    return format == Format::OpenMetrics
        ? QByteArrayLiteral("application/openmetrics-text; version=1.0.0; charset=utf-8")
        : QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
}

QByteArray MetricsExposition::render(const SeriesRegistry &registry, const LiveBuffers &live,
                                     qint64 nowMs, Format format)
{
    std::vector<Entry> entries;
    for (const auto allIds = registry.ids(); const int id : allIds) {
        if (auto info = registry.info(id))
            entries.push_back({ id, std::move(*info) });
    }
    // One family per (metric, unit, kind), in a stable order, so a name two metrics
    // share goes to the same one on every scrape.
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.info.key.metric, a.info.unit, a.info.histogram, a.info.key.source)
            < std::tie(b.info.key.metric, b.info.unit, b.info.histogram, b.info.key.source);
    });

    QMap<QString, Family> families; // by exposed name: the exposition lists them sorted
    QHash<QString, QString> ownerOfName; // exposed name -> "metric|unit|kind"
    QHash<QString, QString> nameOfOwner;
    QMap<QString, QMap<QString, int>> order; // family -> labels -> entry (sorted samples)
    m_stats = {};
    const qint64 oldestKept = nowMs - m_staleMs;
    for (qsizetype i = 0; i < qsizetype(entries.size()); ++i) {
        Entry &entry = entries[size_t(i)];
        const SeriesInfo &info = entry.info;
        if (info.histogram) {
            RunningHistogram &running = m_histograms[entry.id];
            for (const TimedHistogram &poll : live.readHistograms(
                     entry.id, running.lastMs + 1, std::numeric_limits<qint64>::max())) {
                running.total.merge(poll.second);
                running.lastMs = poll.first;
            }
            if (running.lastMs < oldestKept)
                continue;
        } else {
            const auto newest = live.newest(entry.id);
            if (!newest || newest->tsMs < oldestKept)
                continue;
            entry.value = newest->value;
        }
        const QString owner
            = info.key.metric + u'|' + info.unit + u'|' + (info.histogram ? u"h"_s : u"g"_s);
        QString name = nameOfOwner.value(owner);
        if (name.isEmpty()) {
            const QString base = OpenMetrics::metricName(info.key.metric, info.unit);
            name = base;
            for (int n = 2; ownerOfName.contains(name); ++n)
                name = base + u'_' + QString::number(n);
            ownerOfName.insert(name, owner);
            nameOfOwner.insert(owner, name);
            Family &family = families[name];
            family.histogram = info.histogram;
            family.help = u"Headroom series %1 (%2%3)"_s.arg(
                info.key.metric, info.unit.isEmpty() ? QString() : info.unit + u", "_s,
                useKindName(info.kind).toLower());
        }
        order[name].insert(labelPairs(info.key, info.histogram), int(i));
    }

    QByteArray out;
    out.reserve(int(entries.size()) * 96);
    for (auto family = families.cbegin(); family != families.cend(); ++family) {
        const QByteArray name = family.key().toUtf8();
        out += "# HELP " + name + ' ' + OpenMetrics::escapeHelp(family->help).toUtf8() + '\n';
        out += "# TYPE " + name + (family->histogram ? " histogram\n" : " gauge\n");
        const QMap<QString, int> &samples = order[family.key()];
        for (auto sample = samples.cbegin(); sample != samples.cend(); ++sample) {
            const Entry &entry = entries[size_t(sample.value())];
            if (family->histogram) {
                appendHistogram(&out, family.key(), sample.key(),
                                m_histograms.value(entry.id).total);
                ++m_stats.histograms;
            } else {
                appendSample(&out, family.key(), sample.key(),
                             OpenMetrics::formatValue(entry.value));
            }
            ++m_stats.series;
        }
        ++m_stats.families;
    }
    if (format == Format::OpenMetrics)
        out += "# EOF\n";
    return out;
}

} // namespace Headroom
