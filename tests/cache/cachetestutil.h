// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Helpers shared by the cache tests: series, batches resolved through a registry,
// exact comparison of samples.
#pragma once

#include "core/bytecoding.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/seriesregistry.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

namespace CacheTest {

using namespace Headroom;

inline SeriesInfo gauge(const QString &metric, const QString &label = QStringLiteral("all"))
{
    SeriesInfo info;
    info.key.source = QStringLiteral("host");
    info.key.metric = metric;
    info.key.labels = { { QStringLiteral("cpu"), label } };
    info.unit = QStringLiteral("%");
    info.resource = QStringLiteral("cpu");
    info.kind = UseKind::Utilization;
    return info;
}

inline SeriesInfo latency(const QString &metric)
{
    SeriesInfo info;
    info.key.source = QStringLiteral("pg:orders-db");
    info.key.metric = metric;
    info.unit = QStringLiteral("ms");
    info.resource = QStringLiteral("db:erp");
    info.kind = UseKind::Latency;
    info.histogram = true;
    return info;
}

// What SampleBus::publish does: resolve every series to its registry id.
inline ResolvedBatch resolve(SeriesRegistry &registry, const SampleBatch &batch)
{
    ResolvedBatch resolved;
    resolved.batch = batch;
    for (const SeriesValue &v : batch.values) {
        bool isNew = false;
        resolved.valueIds.append(registry.idFor(v.info, &isNew));
        if (isNew)
            resolved.newSeriesIds.append(resolved.valueIds.back());
    }
    for (const SeriesHistogram &h : batch.histograms) {
        bool isNew = false;
        resolved.histogramIds.append(registry.idFor(h.info, &isNew));
        if (isNew)
            resolved.newSeriesIds.append(resolved.histogramIds.back());
    }
    return resolved;
}

inline ResolvedBatch valuesAt(SeriesRegistry &registry, qint64 ts,
                              const QList<std::pair<SeriesInfo, double>> &values)
{
    SampleBatch batch;
    batch.source = QStringLiteral("host");
    batch.tsMs = ts;
    for (const auto &[info, value] : values)
        batch.add(info, value);
    return resolve(registry, batch);
}

// Bitwise comparison: NaN == NaN and -0.0 != 0.0 here, which is what "exact" means.
inline bool sameBits(const std::vector<Sample> &a, const std::vector<Sample> &b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].tsMs != b[i].tsMs
            || ByteCoding::doubleBits(a[i].value) != ByteCoding::doubleBits(b[i].value))
            return false;
    }
    return true;
}

// What a directory holds, each file with its size and mtime: for checks that nothing
// appears beside a file and nothing changes.
inline QStringList directorySnapshot(const QString &dir)
{
    QStringList entries;
    const auto infos = QDir(dir).entryInfoList(QDir::Files | QDir::Hidden, QDir::Name);
    for (const QFileInfo &info : infos)
        entries << QStringLiteral("%1 %2 %3")
                       .arg(info.fileName())
                       .arg(info.size())
                       .arg(info.lastModified().toMSecsSinceEpoch());
    return entries;
}

inline QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace CacheTest
