// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/recordingsaver.h"

#include "cachelogging.h"
#include "engine/cache/cachefiles.h"
#include "engine/cache/samplecache.h"
#include "engine/cache/sqlitedb.h"
#include "engine/runtime/seriesregistry.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sqlite3.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// The span is copied a window at a time, so memory stays bounded by a window of every
// series (an hour of 1,000 series at 1 s is about 58 MB of samples), not the span.
constexpr qint64 WindowMs = 3600 * 1000;

void removeWithCompanions(const QString &path)
{
    for (const char *suffix : { "", "-wal", "-shm", ".lock" })
        QFile::remove(path + QLatin1StringView(suffix));
}

// One value or histogram of one series at one time, to be regrouped by time.
struct Item
{
    qint64 tsMs;
    int order; // the series' position: ids keep their relative order in the copy
    double value;
    const LogHistogram *histogram; // null for a value
};

struct SeriesToCopy
{
    int sourceId;
    SeriesInfo info;
    int targetId = 0;
};

} // namespace

bool storeRecordingDashboards(const QString &path,
                              const QList<std::pair<QString, QByteArray>> &dashboards,
                              QString *reason)
{
    Sqlite::Db db = Sqlite::open(path, SQLITE_OPEN_READWRITE, reason);
    if (!db || !Sqlite::configure(db.get(), true, reason)
        || !Sqlite::exec(db.get(), "BEGIN", reason))
        return false;
    Sqlite::Statement insert(db.get(),
                             "INSERT OR REPLACE INTO dashboards(name, json) VALUES(?, ?)");
    for (const auto &[name, json] : dashboards) {
        insert.bind(1, name);
        insert.bind(2, json);
        if (!insert.run()) {
            *reason = Sqlite::errorText(db.get());
            return false;
        }
    }
    return Sqlite::exec(db.get(), "COMMIT", reason);
    // Closing the only connection checkpoints the WAL into the file and removes it.
}

std::optional<SavedRecording> saveRecording(const SampleCache &source,
                                            const SeriesRegistry &registry, qint64 fromMs,
                                            qint64 toMs,
                                            const QList<std::pair<QString, QByteArray>> &dashboards,
                                            const QString &target, QString *error)
{
    if (fromMs > toMs) {
        *error = CacheFiles::withPath(target, u"the range is empty"_s);
        return std::nullopt;
    }
    if (QFileInfo(target).absoluteFilePath() == QFileInfo(source.path()).absoluteFilePath()) {
        *error = CacheFiles::withPath(target, u"is the cache being read; choose another file"_s);
        return std::nullopt;
    }
    const QString partial = target
        + u".partial-%1"_s.arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    SavedRecording saved;
    {
        SeriesRegistry copyRegistry;
        CacheOptions options;
        options.retentionDays = 0; // a recording is never trimmed
        options.reserveBytes = 0;
        QString reason;
        std::unique_ptr<SampleCache> copy
            = SampleCache::open(partial, &copyRegistry, &reason, options);
        if (!copy) {
            removeWithCompanions(partial);
            *error = CacheFiles::withPath(target,
                                          reason.mid(reason.indexOf(QLatin1StringView(": ")) + 2));
            return std::nullopt;
        }
        QList<int> ids = registry.ids();
        std::sort(ids.begin(), ids.end());
        std::vector<SeriesToCopy> series;
        for (int id : std::as_const(ids))
            if (auto info = registry.info(id))
                series.push_back({ id, *info });
        std::vector<bool> seen(series.size(), false);

        for (qint64 windowStart = fromMs; windowStart <= toMs; windowStart += WindowMs) {
            // Inclusive bounds that do not overlap: [start, start + window - 1], the last
            // one ending at toMs.
            const qint64 windowEnd = std::min(toMs, windowStart + WindowMs - 1);
            std::vector<std::vector<Sample>> values(series.size());
            std::vector<std::vector<TimedHistogram>> histograms(series.size());
            std::vector<Item> items;
            for (size_t i = 0; i < series.size(); ++i) {
                QString readError;
                if (series[i].info.histogram) {
                    histograms[i] = source.readHistograms(series[i].sourceId, windowStart,
                                                          windowEnd, &readError);
                    for (const TimedHistogram &h : histograms[i])
                        items.push_back({ h.first, int(i), 0, &h.second });
                } else {
                    values[i] = source.read(series[i].sourceId, windowStart, windowEnd, &readError);
                    for (const Sample &s : values[i])
                        items.push_back({ s.tsMs, int(i), s.value, nullptr });
                }
                if (!readError.isEmpty()) {
                    copy.reset();
                    removeWithCompanions(partial);
                    *error = readError;
                    return std::nullopt;
                }
            }
            std::stable_sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
                return a.tsMs != b.tsMs ? a.tsMs < b.tsMs : a.order < b.order;
            });
            for (size_t at = 0; at < items.size();) {
                ResolvedBatch batch;
                batch.batch.tsMs = items[at].tsMs;
                for (; at < items.size() && items[at].tsMs == batch.batch.tsMs; ++at) {
                    SeriesToCopy &s = series[size_t(items[at].order)];
                    if (!seen[size_t(items[at].order)]) {
                        // Registered in the source's id order on first sight.
                        s.targetId = copyRegistry.idFor(s.info);
                        seen[size_t(items[at].order)] = true;
                        batch.newSeriesIds.append(s.targetId);
                        ++saved.series;
                    }
                    if (batch.batch.source.isEmpty())
                        batch.batch.source = s.info.key.source;
                    if (items[at].histogram) {
                        batch.batch.histograms.append({ s.info, *items[at].histogram });
                        batch.histogramIds.append(s.targetId);
                        ++saved.histograms;
                    } else {
                        batch.batch.values.append({ s.info, items[at].value });
                        batch.valueIds.append(s.targetId);
                        ++saved.samples;
                    }
                }
                copy->consume(batch);
            }
        }
        QString readError;
        const QList<AlertEvent> events = source.readAlertEvents(fromMs, toMs, &readError);
        if (!readError.isEmpty()) {
            copy.reset();
            removeWithCompanions(partial);
            *error = readError;
            return std::nullopt;
        }
        copy->recordAlertEvents(events);
        saved.alertEvents = events.size();
        copy->flush();
        if (copy->status().hadWriteErrors()) {
            const QString summary = copy->status().summary();
            copy.reset();
            removeWithCompanions(partial);
            *error = CacheFiles::withPath(target, u"cannot be written: "_s + summary);
            return std::nullopt;
        }
    } // the copy closes: its WAL is checkpointed into the file and removed
    QString reason;
    if (!storeRecordingDashboards(partial, dashboards, &reason)) {
        removeWithCompanions(partial);
        *error = CacheFiles::withPath(target, u"cannot be written: "_s + reason);
        return std::nullopt;
    }
    QFile::remove(partial + u".lock"_s);
    // rename(2) replaces an existing target atomically: whole or not at all.
    if (std::rename(QFile::encodeName(partial).constData(), QFile::encodeName(target).constData())
        != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        removeWithCompanions(partial);
        *error = CacheFiles::withPath(target, u"cannot be written: "_s + why);
        return std::nullopt;
    }
    saved.bytes = QFileInfo(target).size();
    qCInfo(lcCache) << "recording saved:" << target << saved.series << "series," << saved.samples
                    << "samples," << saved.bytes << "bytes";
    return saved;
}

} // namespace Headroom
