// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/import/cacheimport.h"

#include "document/dashboardfile.h"
#include "document/dashboardlimits.h"
#include "engine/cache/recordingsaver.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/seriesregistry.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace Headroom::Import {

namespace {

// Samples held before they go to the writer while a time-ordered file is read.
constexpr size_t StreamSamples = 1 << 20;

// Buffers each series' samples; passes them to the cache sorted, a time once per series
// (the last value wins, as in the cache), and, for a time-ordered file, while it reads.
class CacheSink final : public Sink
{
public:
    CacheSink(SampleCache *cache, SeriesRegistry *registry)
        : m_cache(cache)
        , m_registry(registry)
    {
    }

    int series(const SeriesInfo &info) override
    {
        m_series.push_back(
            { m_registry->idFor(info), info, {}, std::numeric_limits<qint64>::min() });
        return int(m_series.size() - 1);
    }

    void sample(int series, qint64 tsMs, double value) override
    {
        m_series[size_t(series)].buffer.push_back({ tsMs, value });
        if (++m_buffered >= StreamSamples && m_streaming)
            pass();
    }

    void inTimeOrder() override { m_streaming = true; }

    // Everything buffered to the writer.
    void pass()
    {
        std::vector<SeriesRun> runs;
        for (Buffered &s : m_series) {
            if (s.buffer.empty())
                continue;
            std::vector<Sample> &b = s.buffer;
            if (!std::is_sorted(b.begin(), b.end(), byTime))
                std::stable_sort(b.begin(), b.end(), byTime);
            std::vector<Sample> out;
            out.reserve(b.size());
            for (const Sample &x : b) {
                if (x.tsMs < s.written)
                    continue; // before what went out (the file gave it twice)
                if (x.tsMs == s.written || (!out.empty() && out.back().tsMs == x.tsMs)) {
                    if (!out.empty() && out.back().tsMs == x.tsMs)
                        out.back().value = x.value;
                    continue;
                }
                out.push_back(x);
            }
            b.clear();
            if (out.empty())
                continue;
            s.written = out.back().tsMs;
            m_from = std::min(m_from, out.front().tsMs);
            m_to = std::max(m_to, out.back().tsMs);
            m_stored += qint64(out.size());
            runs.push_back({ s.id, s.info, std::move(out) });
        }
        m_buffered = 0;
        if (!runs.empty())
            m_cache->writeRuns(std::move(runs));
    }

    QList<SeriesInfo> seriesWithSamples() const
    {
        QList<SeriesInfo> out;
        for (const Buffered &s : m_series)
            if (s.written != std::numeric_limits<qint64>::min())
                out.append(s.info);
        return out;
    }
    qint64 stored() const { return m_stored; }
    qint64 from() const { return m_from; }
    qint64 to() const { return m_to; }

private:
    static bool byTime(const Sample &a, const Sample &b) { return a.tsMs < b.tsMs; }
    struct Buffered
    {
        int id;
        SeriesInfo info;
        std::vector<Sample> buffer;
        qint64 written; // the newest time passed on
    };
    SampleCache *m_cache;
    SeriesRegistry *m_registry;
    std::vector<Buffered> m_series;
    size_t m_buffered = 0;
    bool m_streaming = false;
    qint64 m_stored = 0;
    qint64 m_from = std::numeric_limits<qint64>::max();
    qint64 m_to = std::numeric_limits<qint64>::min();
};

void removeCache(const QString &path)
{
    for (const char *suffix : { "", "-wal", "-shm", ".lock", "-reserve" })
        QFile::remove(path + QLatin1StringView(suffix));
}

QString panelId(const QString &metric, int index)
{
    QString id;
    for (const QChar c : metric)
        id += c.isLetterOrNumber() ? c.toLower() : u'-';
    return id.left(DashboardLimits::MaximumIdLength - 8) + u'-' + QString::number(index);
}

} // namespace

QByteArray importDashboardJson(const QString &title, const QList<SeriesInfo> &series, qint64 spanMs)
{
    Dashboard dashboard;
    dashboard.title = title.left(DashboardLimits::MaximumNameLength);
    dashboard.rangeMs = std::clamp<qint64>(spanMs, 60 * 1000, DashboardLimits::MaximumRangeMs);
    DashboardPanel matrix;
    matrix.id = u"use-matrix"_s;
    matrix.type = PanelType::UseMatrix;
    matrix.title = u"USE matrix of every imported series"_s;
    matrix.series = { { u"*"_s, u"*"_s, {} } };
    matrix.layout = { 0, 0, 12, 6 };
    dashboard.panels.append(matrix);
    // A panel per metric, in the order the file gave them, two to a row.
    QStringList metrics;
    for (const SeriesInfo &info : series)
        if (!metrics.contains(info.key.metric))
            metrics.append(info.key.metric);
    const int shown = int(std::min<qsizetype>(metrics.size(), DashboardLimits::MaximumPanels - 1));
    for (int i = 0; i < shown; ++i) {
        DashboardPanel panel;
        panel.id = panelId(metrics.at(i), i);
        panel.type = PanelType::TimeSeries;
        panel.title = metrics.at(i).left(DashboardLimits::MaximumNameLength);
        panel.series = { { u"*"_s, metrics.at(i), {} } };
        panel.layout = { (i % 2) * 6, 6 + (i / 2) * 4, 6, 4 };
        dashboard.panels.append(panel);
    }
    return dashboardToJson(dashboard);
}

std::optional<Imported> importIntoCache(const QString &file, const Options &options,
                                        const QString &cachePath, QString *error)
{
    QFile input(file);
    if (!input.open(QIODevice::ReadOnly)) {
        *error = file + u": cannot read: "_s + input.errorString();
        return std::nullopt;
    }
    const qint64 size = input.size();
    // Mapped, not read: a file of gigabytes is not copied into memory, and its pages
    // are the kernel's to drop.
    const uchar *mapped = size > 0 ? input.map(0, size) : nullptr;
    QByteArray readBytes;
    if (size > 0 && !mapped) { // a pipe or a file that cannot be mapped
        readBytes = input.readAll();
    }
    const QByteArrayView data = mapped
        ? QByteArrayView(reinterpret_cast<const char *>(mapped), size)
        : QByteArrayView(readBytes);

    Imported imported;
    QList<SeriesInfo> series;
    {
        SeriesRegistry registry;
        CacheOptions cacheOptions;
        cacheOptions.retentionDays = 0; // an import is never trimmed
        cacheOptions.reserveBytes = 0;
        QString reason;
        std::unique_ptr<SampleCache> cache
            = SampleCache::open(cachePath, &registry, &reason, cacheOptions);
        if (!cache) {
            *error = reason;
            return std::nullopt;
        }
        CacheSink sink(cache.get(), &registry);
        const Result result = readImport(data, options, &sink);
        if (!result.ok) {
            cache.reset();
            removeCache(cachePath);
            *error = result.error;
            return std::nullopt;
        }
        sink.pass();
        cache->flush();
        if (cache->status().hadWriteErrors()) {
            const QString summary = cache->status().summary();
            cache.reset();
            removeCache(cachePath);
            *error = cachePath + u": cannot be written: "_s + summary;
            return std::nullopt;
        }
        imported.format = result.format;
        imported.lines = result.lines;
        imported.samples = sink.stored();
        series = sink.seriesWithSamples();
        imported.series = int(series.size());
        if (imported.samples == 0) {
            cache.reset();
            removeCache(cachePath);
            *error = options.fileName + u": holds no samples"_s;
            return std::nullopt;
        }
        imported.fromMs = sink.from();
        imported.toMs = sink.to();
    } // closed: the WAL is checkpointed into the file
    const QString name = QFileInfo(file).fileName();
    QString reason;
    if (!storeRecordingDashboards(cachePath,
                                  { { name,
                                      importDashboardJson(u"Imported: "_s + name, series,
                                                          imported.toMs - imported.fromMs) } },
                                  &reason)) {
        removeCache(cachePath);
        *error = cachePath + u": cannot be written: "_s + reason;
        return std::nullopt;
    }
    QFile::remove(cachePath + u".lock"_s);
    return imported;
}

} // namespace Headroom::Import
