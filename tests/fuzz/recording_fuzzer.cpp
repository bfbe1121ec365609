// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// libFuzzer target: a recording (a cache file from someone else) opened with
// SampleCache::openRecording and analysed as --export-findings does. An input is either
// a whole SQLite file (it starts with "SQLite format 3"), opened as it is, or SQL run on
// a small well-formed recording before it is opened: rows and schema objects tampered
// with, as in tst_hostilerecording (the seeds in corpus/recording). The open must
// refuse with the file's name and a reason, or give a span within the times a cache
// holds (cachecheck.h); every read and the analysis over that span must then finish
// without a crash, undefined behaviour or a runaway allocation. Built with clang by
// tests/run-fuzz; tst_fuzzreplay_recording runs it over the seeds and mutations of them
// in every ctest run.
#include "engine/cache/cachecheck.h"
#include "engine/cache/samplecache.h"
#include "engine/runtime/seriesregistry.h"
#include "query/analysis/findings.h"
#include "query/analysis/seriestrack.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sqlite3.h>

namespace {

using namespace Headroom;
using namespace Qt::StringLiterals;

// The cache logs every refusal and unreadable block: millions of lines for nothing.
const bool quiet = [] {
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) { });
    return true;
}();

// The most series and samples an input is analysed with: enough for every detector.
constexpr int MaxSeries = 16;
constexpr qsizetype MaxSqlBytes = 16 * 1024;

// A directory of its own for each input, removed after it: libFuzzer ends a run with
// _Exit, which would leave a directory made once per process behind.
QString workPattern()
{
    return QDir::tempPath() + u"/headroom-fuzz-recording-XXXXXX"_s;
}

SeriesInfo series(const QString &metric, UseKind kind, const QString &unit)
{
    SeriesInfo info;
    info.key.source = u"host"_s;
    info.key.metric = metric;
    info.key.labels = { { u"cpu"_s, u"all"_s } };
    info.unit = unit;
    info.resource = u"cpu"_s;
    info.kind = kind;
    return info;
}

// A closed recording: a utilization that steps up and a saturation that rises with it,
// 250 samples at 10 s (two sealed blocks and a tail), a histogram series, an alert
// event.
QByteArray baseRecording()
{
    const QTemporaryDir dir(workPattern());
    const QString path = dir.filePath(u"base.sqlite"_s);
    {
        SeriesRegistry registry;
        CacheOptions options;
        options.retentionDays = 0;
        options.reserveBytes = 0;
        QString error;
        auto cache = SampleCache::open(path, &registry, &error, options);
        if (!cache)
            std::abort();
        const qint64 start = 1'790'000'000'000;
        const SeriesInfo utilization
            = series(u"host.cpu.utilization"_s, UseKind::Utilization, u"%"_s);
        const SeriesInfo saturation = series(u"host.cpu.runqueue"_s, UseKind::Saturation, {});
        SeriesInfo latency = series(u"pg.write.latency"_s, UseKind::Latency, u"ms"_s);
        latency.histogram = true;
        for (int i = 0; i < 250; ++i) {
            const bool after = i >= 150;
            SampleBatch batch;
            batch.source = u"host"_s;
            batch.tsMs = start + i * 10'000LL;
            batch.add(utilization, (after ? 97 : 40) + i % 3);
            batch.add(saturation, (after ? 3 : 0.2) + (i % 5) * 0.01);
            if (i % 50 == 0) {
                LogHistogram histogram;
                histogram.add(after ? 40 : 2, 5);
                batch.histograms.append({ latency, histogram });
            }
            ResolvedBatch resolved;
            resolved.batch = batch;
            for (const SeriesValue &v : std::as_const(batch.values))
                resolved.valueIds.append(registry.idFor(v.info));
            for (const SeriesHistogram &h : std::as_const(batch.histograms))
                resolved.histogramIds.append(registry.idFor(h.info));
            cache->consume(resolved);
        }
        AlertEvent event;
        event.tsMs = start + 2'000'000;
        event.ruleId = u"cpu-high"_s;
        event.series = utilization.key;
        event.state = AlertState::Firing;
        cache->recordAlertEvents({ event });
        cache->flush();
    }
    // Without its WAL mode the copy each input starts from is tampered with and read
    // without -wal and -shm files (a seed may turn it back on).
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) != SQLITE_OK
        || sqlite3_exec(db, "PRAGMA journal_mode = DELETE; VACUUM", nullptr, nullptr, nullptr)
            != SQLITE_OK)
        std::abort();
    sqlite3_close(db);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        std::abort();
    return file.readAll();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// Runs sql on the file the way anyone's sqlite3 would (no defensive mode), bounded: no
// other file attached (ATTACH, VACUUM INTO), values of at most 1 MB, and a statement
// stopped after some million steps (an endless recursive query is a fine input).
void tamper(const QString &path, const QByteArray &sql)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK) {
        sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
        int steps = 0;
        sqlite3_progress_handler(
            db, 1000, [](void *count) { return ++*static_cast<int *>(count) > 2000 ? 1 : 0; },
            &steps);
        sqlite3_exec(db, "PRAGMA synchronous = OFF", nullptr, nullptr, nullptr); // no fsync
        sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr);
    }
    sqlite3_close(db);
}

void analyse(const SampleCache &recording, const SeriesRegistry &registry, qint64 from, qint64 to)
{
    using namespace Analysis;
    const qint64 bin = binWidthFor(from, to);
    std::vector<SeriesTrack> tracks;
    QList<int> ids = registry.ids();
    if (ids.size() > MaxSeries)
        ids.resize(MaxSeries);
    for (int id : std::as_const(ids)) {
        const std::optional<SeriesInfo> info = registry.info(id);
        if (!info)
            continue;
        if (info->histogram) {
            recording.readHistograms(id, from, to);
            recording.readHistogramRollup(id, RollupTier::Minute, from, to);
            continue;
        }
        recording.readRollup(id, RollupTier::Minute, from, to);
        recording.readBlockAggregates(id, from, to, 60'000);
        SeriesTrack track;
        track.seriesId = id;
        track.info = *info;
        track.fromMs = from;
        track.toMs = to;
        track.binMs = bin;
        fillTrack(&track, recording.readSummarized(id, from, to, 2 * bin));
        if (!track.isEmpty())
            tracks.push_back(std::move(track));
    }
    findFindings(tracks);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const QByteArray base = baseRecording();
    const QTemporaryDir dir(workPattern());
    const QString path = dir.filePath(u"recording.sqlite"_s);
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    static const QByteArray magic("SQLite format 3\0", 16);
    if (input.startsWith(magic)) {
        if (!writeFile(path, input))
            std::abort();
    } else {
        if (!writeFile(path, base))
            std::abort();
        tamper(path, input.left(MaxSqlBytes));
    }

    SeriesRegistry registry;
    QString error;
    const auto recording = SampleCache::openRecording(path, &registry, &error);
    if (!recording) {
        if (!error.startsWith(QDir::toNativeSeparators(path) + u": "_s))
            std::abort();
        return 0;
    }
    recording->sources();
    recording->dashboards();
    const auto span = recording->span(&error);
    if (!span)
        return 0;
    const auto [from, to] = *span;
    if (!CacheCheck::inTimeRange(from) || !CacheCheck::inTimeRange(to) || from > to)
        std::abort();
    recording->readAlertEvents(from, to);
    analyse(*recording, registry, from, to);
    return 0;
}
