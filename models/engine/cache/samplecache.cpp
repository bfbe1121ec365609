// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// SampleCache: opening (refusal checks, lock, schema), the facade over the writer
// thread, and the reads, which run on pooled read connections in one read
// transaction each so that a block sealed meanwhile is seen exactly once.
#include "engine/cache/samplecache.h"

#include "cachelogging.h"
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"
#include "engine/cache/cachefiles.h"
#include "engine/cache/cacheschema.h"
#include "engine/cache/cachewriter.h"
#include "engine/cache/readerpool.h"
#include "engine/cache/recordingaccess.h"
#include "engine/cache/seriescatalog.h"
#include "engine/cache/sqlitedb.h"
#include "engine/runtime/seriesregistry.h"

#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <algorithm>
#include <sqlite3.h>

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace CacheSchema;

static_assert(SampleCache::SchemaVersion == CacheSchema::Version);

struct SampleCache::Private
{
    // A recording's private copy (recordingaccess.h): destroyed after the readers.
    std::unique_ptr<QTemporaryDir> workingCopy;
    QString readMode; // empty: a writable cache
    QString path;
    std::unique_ptr<QLockFile> lock;
    std::unique_ptr<CacheWriter> writer;
    std::unique_ptr<ReaderPool> readers;
    bool hasRollups = false; // the file has the rollup table (schema 6 on)

    // Runs body inside one read transaction on a pooled connection.
    template<typename Body> bool readTransaction(QString *error, Body body) const;
};

template<typename Body> bool SampleCache::Private::readTransaction(QString *error, Body body) const
{
    QString reason;
    ReaderPool::Lease lease = readers->acquire(&reason);
    bool ok = false;
    if (lease) {
        sqlite3 *db = lease.db();
        if (Sqlite::exec(db, "BEGIN", &reason)) {
            ok = body(db, &reason);
            if (ok)
                ok = Sqlite::exec(db, "COMMIT", &reason);
            if (!ok)
                Sqlite::exec(db, "ROLLBACK");
        }
    }
    if (!ok) {
        qCWarning(lcCache) << "cache read failed:" << reason;
        if (error)
            *error = CacheFiles::withPath(path, reason);
    }
    return ok;
}

SampleCache::SampleCache()
    : d(std::make_unique<Private>())
{
}

SampleCache::~SampleCache()
{
    // Writer first (commits what is queued), then the readers; the write connection
    // closes last, which checkpoints and removes the WAL so the file can be copied.
    CacheWriter *writer = d->writer.get();
    if (writer)
        writer->stop();
    d->readers.reset();
    d->writer.reset();
    d->lock.reset();
}

QString SampleCache::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
        + QLatin1StringView("/headroom/cache.sqlite");
}

std::unique_ptr<SampleCache> SampleCache::open(const QString &path, SeriesRegistry *registry,
                                               QString *error, const CacheOptions &options)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return nullptr;
    };
    if (!registry)
        return fail(CacheFiles::withPath(path, u"no series registry"_s));

    // Everything that could refuse the file happens before the first byte is written.
    if (!CacheSchema::inspect(path, error))
        return nullptr;

    const QFileInfo info(path);
    if (QString reason; !CacheFiles::makePrivateDirectory(info.absolutePath(), &reason))
        return fail(CacheFiles::withPath(path, reason));

    // Two processes appending to one cache would hand out clashing series ids.
    auto lock = std::make_unique<QLockFile>(path + QLatin1StringView(".lock"));
    lock->setStaleLockTime(0); // held for the whole session; stale only if its pid is gone
    if (!lock->tryLock(0)) {
        qint64 pid = 0;
        QString host, app;
        lock->getLockInfo(&pid, &host, &app);
        return fail(CacheFiles::withPath(path,
                                         lock->error() == QLockFile::LockFailedError
                                             ? u"in use by another Headroom process "
                                               "(pid %1)"_s.arg(pid)
                                             : u"cannot create its lock file"_s));
    }

    QString reason;
    // Created here, 0600, before SQLite sees it: SQLite would create it 0644 under the
    // usual umask, and the -wal and -shm it makes later copy the main file's mode.
    if (!CacheFiles::createPrivateFile(path, &reason))
        return fail(CacheFiles::withPath(path, reason));
    Sqlite::Db db = Sqlite::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &reason);
    if (!db || !Sqlite::configure(db.get(), true, &reason)
        || !CacheSchema::createOrMigrate(db.get(), &reason))
        return fail(CacheFiles::withPath(path, reason));

    std::unique_ptr<SampleCache> cache(new SampleCache());
    cache->d->path = path;
    cache->d->lock = std::move(lock);
    cache->d->writer = std::make_unique<CacheWriter>(
        std::move(db), registry,
        CacheWriter::Options { std::max(1, options.flushIntervalMs), options.retentionDays,
                               options.minuteRetentionDays, options.hourRetentionDays,
                               options.maxPendingBytes, options.reserveBytes });
    if (!cache->d->writer->start(&reason))
        return fail(CacheFiles::withPath(path, reason));
    cache->d->readers = std::make_unique<ReaderPool>(path);
    cache->d->hasRollups = true; // created or migrated above
    qCDebug(lcCache) << "cache opened:" << path;
    return cache;
}

std::unique_ptr<SampleCache> SampleCache::openRecording(const QString &path,
                                                        SeriesRegistry *registry, QString *error)
{
    if (!registry) {
        if (error)
            *error = CacheFiles::withPath(path, u"no series registry"_s);
        return nullptr;
    }
    QString reason;
    std::optional<RecordingAccess> access = prepareRecordingAccess(path, &reason);
    if (!access) {
        if (error)
            *error = reason;
        return nullptr;
    }
    std::unique_ptr<SampleCache> cache(new SampleCache());
    cache->d->path = path;
    cache->d->readMode = access->how;
    cache->d->workingCopy = std::move(access->workingCopy);
    cache->d->readers = std::make_unique<ReaderPool>(access->uri, 4, access->openFlags);
    QSet<int> loaded;
    if (!cache->d->readTransaction(error, [&](sqlite3 *db, QString *why) {
            if (!loadSeriesCatalog(db, registry, &loaded, why))
                return false;
            Sqlite::Statement table(db,
                                    "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                                    " AND name = 'rollup'");
            cache->d->hasRollups = table.step(); // with rollup_hist: both came in schema 6
            return true;
        }))
        return nullptr;
    qCDebug(lcCache) << "recording opened:" << path << access->how << loaded.size() << "series";
    return cache;
}

QString SampleCache::path() const
{
    return d->path;
}

bool SampleCache::isReadOnly() const
{
    return !d->writer;
}

QString SampleCache::readMode() const
{
    return d->readMode;
}

void SampleCache::consume(const ResolvedBatch &batch)
{
    if (d->writer)
        d->writer->enqueue(batch);
}

void SampleCache::writeRuns(std::vector<SeriesRun> runs)
{
    if (d->writer)
        d->writer->enqueueRuns(std::move(runs));
}

void SampleCache::flush()
{
    if (d->writer)
        d->writer->flush();
}

CacheStatus SampleCache::status() const
{
    return d->writer ? d->writer->status() : CacheStatus {};
}

void SampleCache::setRetentionDays(int days)
{
    if (d->writer)
        d->writer->setRetentionDays(days);
}

void SampleCache::setTierRetentionDays(int minuteDays, int hourDays)
{
    if (d->writer)
        d->writer->setTierRetentionDays(minuteDays, hourDays);
}

int SampleCache::expireBefore(qint64 beforeMs)
{
    return d->writer ? d->writer->expireBefore(beforeMs) : 0;
}

namespace {

// Steps `st` through all its rows, handing each to onRow; false and *reason on an error.
template<typename OnRow>
bool forEachRow(sqlite3 *db, Sqlite::Statement &st, QString *reason, OnRow onRow)
{
    bool done = false;
    while (st.step(&done))
        onRow(st);
    if (!done)
        *reason = Sqlite::errorText(db);
    return done;
}

// The given columns of a series' blocks of one day that overlap [from, to], oldest
// first. The series index (series_id, start_ts, end_ts, ...) bounds the scan to this
// series' blocks starting before the end of the range.
Sqlite::Statement blocksInRange(sqlite3 *db, qint64 day, const char *columns, int seriesId,
                                qint64 fromMs, qint64 toMs)
{
    Sqlite::Statement st(db,
                         QByteArray("SELECT ") + columns + " FROM " + blocksTable(day)
                             + " WHERE series_id = ? AND start_ts <= ? AND end_ts >= ?"
                               " ORDER BY start_ts");
    st.bind(1, qint64(seriesId));
    st.bind(2, toMs);
    st.bind(3, fromMs);
    return st;
}

// Appends the series' tail samples in [from, to] (not sorted, not filtered yet).
bool readTail(sqlite3 *db, int seriesId, qint64 fromMs, qint64 toMs, std::vector<Sample> *out,
              QString *reason)
{
    Sqlite::Statement tail(db,
                           "SELECT data FROM tail_chunks"
                           " WHERE series_id = ? AND last_ts >= ? AND first_ts <= ? ORDER BY seq");
    tail.bind(1, qint64(seriesId));
    tail.bind(2, fromMs);
    tail.bind(3, toMs);
    return forEachRow(db, tail, reason, [&](const Sqlite::Statement &row) {
        if (!BlockCodec::decode(row.columnBlob(0), out))
            qCWarning(lcCache) << "cache: skipping an unreadable tail chunk of series" << seriesId;
    });
}

// The samples within [from, to], sorted by time, one per timestamp. Blocks of one
// series never overlap and the tail is newer than all of them, so this is usually
// sorted already. A timestamp written again (a replayed or corrected sample) is in a
// later tail chunk: the stable sort keeps write order, and the last value wins.
std::vector<Sample> sortedInRange(std::vector<Sample> samples, qint64 fromMs, qint64 toMs)
{
    std::erase_if(samples, [&](const Sample &s) { return s.tsMs < fromMs || s.tsMs > toMs; });
    const auto earlier = [](const Sample &a, const Sample &b) { return a.tsMs < b.tsMs; };
    if (std::is_sorted(samples.begin(), samples.end(), earlier)
        && std::adjacent_find(samples.begin(), samples.end(),
                              [](const Sample &a, const Sample &b) { return a.tsMs == b.tsMs; })
            == samples.end())
        return samples;
    std::stable_sort(samples.begin(), samples.end(), earlier);
    size_t kept = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
        if (i + 1 < samples.size() && samples[i + 1].tsMs == samples[i].tsMs)
            continue; // a later write of the same timestamp follows
        samples[kept++] = samples[i];
    }
    samples.resize(kept);
    return samples;
}

// Day chunks that exist and may hold timestamps in [from, to], in this snapshot.
bool daysInRange(sqlite3 *db, qint64 fromMs, qint64 toMs, QList<qint64> *days, QString *reason)
{
    Sqlite::Statement st(db, "SELECT day FROM chunks WHERE day BETWEEN ? AND ? ORDER BY day");
    st.bind(1, dayOf(fromMs));
    st.bind(2, dayOf(toMs));
    return forEachRow(db, st, reason,
                      [&](const Sqlite::Statement &row) { days->append(row.columnInt64(0)); });
}

// Runs query(day), a prepared and bound statement, for each day chunk in [from, to] and
// hands every row to onRow; false and *reason on an error.
template<typename Query, typename OnRow>
bool forEachRowInDays(sqlite3 *db, qint64 fromMs, qint64 toMs, QString *reason, Query query,
                      OnRow onRow)
{
    QList<qint64> days;
    if (!daysInRange(db, fromMs, toMs, &days, reason))
        return false;
    for (qint64 day : std::as_const(days)) {
        Sqlite::Statement st = query(day);
        if (!forEachRow(db, st, reason, onRow))
            return false;
    }
    return true;
}

} // namespace

std::vector<Sample> SampleCache::read(int seriesId, qint64 fromMs, qint64 toMs,
                                      QString *error) const
{
    std::vector<Sample> result;
    if (fromMs > toMs)
        return result;
    const bool ok = d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        const auto blocks = [&](qint64 day) {
            return blocksInRange(db, day, "start_ts, data", seriesId, fromMs, toMs);
        };
        const auto decodeBlock = [&](const Sqlite::Statement &row) {
            QString codecError;
            if (!BlockCodec::decode(row.columnBlob(1), &result, &codecError))
                qCWarning(lcCache) << "cache: skipping unreadable block of series" << seriesId
                                   << "at" << row.columnInt64(0) << ":" << codecError;
        };
        if (!forEachRowInDays(db, fromMs, toMs, reason, blocks, decodeBlock))
            return false;
        return readTail(db, seriesId, fromMs, toMs, &result, reason);
    });
    if (!ok)
        return {};
    return sortedInRange(std::move(result), fromMs, toMs);
}

namespace {

// A series' blocks in [from, to]: those inside the range spanning at most
// summaryMaxSpanMs with a summary as aggregates (from the series index alone when the
// index has every column asked for), the others decoded into *samples, with the tail.
bool readBlocksOrSummaries(sqlite3 *db, int seriesId, qint64 fromMs, qint64 toMs,
                           qint64 summaryMaxSpanMs, bool withCountAndSum,
                           std::vector<Aggregate> *summaries, std::vector<Sample> *samples,
                           QString *reason)
{
    QList<qint64> days;
    if (!daysInRange(db, fromMs, toMs, &days, reason))
        return false;
    for (qint64 day : std::as_const(days)) {
        // Covered by the series index: no block is read unless it has to be decoded.
        Sqlite::Statement index
            = blocksInRange(db, day,
                            withCountAndSum ? "start_ts, end_ts, min, max, id, count, sum"
                                            : "start_ts, end_ts, min, max, id",
                            seriesId, fromMs, toMs);
        std::vector<qint64> toDecode;
        const bool listed = forEachRow(db, index, reason, [&](const Sqlite::Statement &row) {
            const qint64 start = row.columnInt64(0), end = row.columnInt64(1);
            if (start < fromMs || end > toMs || end - start > summaryMaxSpanMs
                || row.columnIsNull(2) || (withCountAndSum && row.columnIsNull(6))) {
                toDecode.push_back(row.columnInt64(4));
                return;
            }
            Aggregate a;
            a.startMs = start;
            a.endMs = end;
            a.min = row.columnDouble(2);
            a.max = row.columnDouble(3);
            if (withCountAndSum) {
                a.count = row.columnInt64(5);
                a.sum = row.columnDouble(6);
            }
            summaries->push_back(a);
        });
        if (!listed)
            return false;
        if (toDecode.empty())
            continue;
        Sqlite::Statement block(db, "SELECT data FROM " + blocksTable(day) + " WHERE id = ?");
        for (qint64 id : toDecode) {
            block.bind(1, id);
            if (block.step() && !BlockCodec::decode(block.columnBlob(0), samples))
                qCWarning(lcCache)
                    << "cache: skipping unreadable block" << id << "of series" << seriesId;
            block.reset();
        }
    }
    return readTail(db, seriesId, fromMs, toMs, samples, reason);
}

} // namespace

std::vector<Sample> SampleCache::readSummarized(int seriesId, qint64 fromMs, qint64 toMs,
                                                qint64 summaryMaxSpanMs, QString *error) const
{
    std::vector<Sample> result;
    if (fromMs > toMs)
        return result;
    std::vector<Aggregate> summaries;
    const bool ok = d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        return readBlocksOrSummaries(db, seriesId, fromMs, toMs, summaryMaxSpanMs, false,
                                     &summaries, &result, reason);
    });
    if (!ok)
        return {};
    const std::vector<Sample> points = aggregatePoints(summaries); // two per block
    result.insert(result.end(), points.begin(), points.end());
    return sortedInRange(std::move(result), fromMs, toMs);
}

std::vector<Aggregate> SampleCache::readBlockAggregates(int seriesId, qint64 fromMs, qint64 toMs,
                                                        qint64 summaryMaxSpanMs,
                                                        QString *error) const
{
    std::vector<Aggregate> result;
    if (fromMs > toMs)
        return result;
    std::vector<Sample> samples;
    const bool ok = d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        return readBlocksOrSummaries(db, seriesId, fromMs, toMs, summaryMaxSpanMs, true, &result,
                                     &samples, reason);
    });
    if (!ok)
        return {};
    for (const Sample &s : sortedInRange(std::move(samples), fromMs, toMs)) {
        if (!std::isnan(s.value))
            result.push_back(Aggregate::of(s));
    }
    std::sort(result.begin(), result.end(),
              [](const Aggregate &a, const Aggregate &b) { return a.startMs < b.startMs; });
    return result;
}

namespace {

// The whole slots of `step` inside [from, to]: [first, end) in ms.
std::pair<qint64, qint64> wholeSlots(qint64 fromMs, qint64 toMs, qint64 step)
{
    return { floorTo(fromMs + step - 1, step), floorTo(toMs + 1, step) };
}

// Appends [from, to) to sorted spans, merging it with the last when they touch.
void addSpan(std::vector<std::pair<qint64, qint64>> *spans, qint64 fromMs, qint64 toMs)
{
    if (fromMs >= toMs)
        return;
    if (!spans->empty() && spans->back().second == fromMs)
        spans->back().second = toMs;
    else
        spans->emplace_back(fromMs, toMs);
}

} // namespace

RollupRead SampleCache::readRollup(int seriesId, RollupTier tier, qint64 fromMs, qint64 toMs,
                                   QString *error) const
{
    RollupRead result;
    const qint64 step = rollupStepMs(tier);
    const auto [first, end] = wholeSlots(fromMs, toMs, step);
    if (first >= end || !d->hasRollups)
        return result;
    const bool ok = d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        Sqlite::Statement st(db,
                             "SELECT start_ts, first_slot, slots, data FROM rollup WHERE tier = ?"
                             " AND series_id = ? AND start_ts BETWEEN ? AND ? ORDER BY start_ts");
        st.bind(1, qint64(tier));
        st.bind(2, qint64(seriesId));
        st.bind(3, floorTo(first, rollupRowSpanMs(tier)));
        st.bind(4, end - 1);
        std::vector<Aggregate> rowSlots;
        return forEachRow(db, st, reason, [&](const Sqlite::Statement &row) {
            const qint64 start = row.columnInt64(0);
            const qint64 perRow = rollupSlotsPerRow(tier);
            // What the row covers, within the whole slots asked for.
            const qint64 from
                = std::max(first, start + std::clamp<qint64>(row.columnInt64(1), 0, perRow) * step);
            const qint64 to
                = std::min(end, start + std::clamp<qint64>(row.columnInt64(2), 0, perRow) * step);
            QString why;
            rowSlots.clear();
            if (start % rollupRowSpanMs(tier) != 0
                || !RollupCodec::decode(tier, start, row.columnBlob(3), &rowSlots, &why)) {
                qCWarning(lcCache) << "cache: skipping an unreadable rollup row of series"
                                   << seriesId << "at" << start << ":" << why;
                return;
            }
            for (const Aggregate &a : rowSlots) {
                if (a.startMs >= from && a.startMs < to)
                    result.slots.push_back(a);
            }
            addSpan(&result.covered, from, to);
        });
    });
    if (!ok)
        return {};
    return result;
}

HistogramRollupRead SampleCache::readHistogramRollup(int seriesId, RollupTier tier, qint64 fromMs,
                                                     qint64 toMs, QString *error) const
{
    HistogramRollupRead result;
    const qint64 step = rollupStepMs(tier);
    const auto [first, end] = wholeSlots(fromMs, toMs, step);
    if (first >= end || !d->hasRollups)
        return result;
    const bool ok = d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        Sqlite::Statement st(db,
                             "SELECT start_ts, data FROM rollup_hist WHERE tier = ?"
                             " AND series_id = ? AND start_ts BETWEEN ? AND ? ORDER BY start_ts");
        st.bind(1, qint64(tier));
        st.bind(2, qint64(seriesId));
        st.bind(3, first);
        st.bind(4, end - step);
        return forEachRow(db, st, reason, [&](const Sqlite::Statement &row) {
            bool decoded = false;
            LogHistogram h = LogHistogram::deserialize(row.columnBlob(1), &decoded);
            const qint64 start = row.columnInt64(0);
            if (!decoded || start % step != 0) {
                qCWarning(lcCache) << "cache: skipping an unreadable rollup histogram of series"
                                   << seriesId << "at" << start;
                return;
            }
            result.slots.emplace_back(start + step / 2, std::move(h));
            // Each slot covers itself: one without a row (a crash) is read from the polls.
            addSpan(&result.covered, start, start + step);
        });
    });
    if (!ok)
        return {};
    return result;
}

std::vector<TimedHistogram> SampleCache::readHistograms(int seriesId, qint64 fromMs, qint64 toMs,
                                                        QString *error) const
{
    std::vector<TimedHistogram> result;
    if (fromMs > toMs)
        return result;
    const bool ok = d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        const auto histograms = [&](qint64 day) {
            Sqlite::Statement st(db,
                                 "SELECT ts, data FROM " + histTable(day)
                                     + " WHERE series_id = ? AND ts BETWEEN ? AND ?"
                                       " ORDER BY ts");
            st.bind(1, qint64(seriesId));
            st.bind(2, fromMs);
            st.bind(3, toMs);
            return st;
        };
        return forEachRowInDays(
            db, fromMs, toMs, reason, histograms, [&](const Sqlite::Statement &row) {
                bool decoded = false;
                LogHistogram h = LogHistogram::deserialize(row.columnBlob(1), &decoded);
                if (decoded)
                    result.emplace_back(row.columnInt64(0), std::move(h));
                else
                    qCWarning(lcCache) << "cache: skipping unreadable histogram of series"
                                       << seriesId << "at" << row.columnInt64(0);
            });
    });
    if (!ok)
        return {};
    return result;
}

void SampleCache::recordAlertEvents(const QList<AlertEvent> &events)
{
    if (!events.isEmpty() && d->writer)
        d->writer->enqueueAlertEvents(events);
}

void SampleCache::acknowledgeAlert(const AlertAcknowledgement &ack)
{
    if (d->writer)
        d->writer->enqueueAcknowledgement(ack);
}

QList<AlertEvent> SampleCache::readAlertEvents(qint64 fromMs, qint64 toMs, QString *error) const
{
    QList<AlertEvent> events;
    if (!d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
            return AlertEventStore::read(db, fromMs, toMs, &events, reason);
        }))
        return {};
    return events;
}

QList<AlertEvent> SampleCache::readLatestAlertStates(QString *error) const
{
    QList<AlertEvent> events;
    if (!d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
            return AlertEventStore::readLatestPerInstance(db, &events, reason);
        }))
        return {};
    return events;
}

std::optional<std::pair<qint64, qint64>> SampleCache::span(QString *error) const
{
    std::optional<std::pair<qint64, qint64>> result;
    const auto widen = [&](const Sqlite::Statement &row) {
        if (row.columnIsNull(0))
            return; // an empty table
        const qint64 first = row.columnInt64(0), last = row.columnInt64(1);
        result = result
            ? std::pair { std::min(result->first, first), std::max(result->second, last) }
            : std::pair { first, last };
    };
    const bool ok = d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        QList<qint64> days;
        Sqlite::Statement list(db, "SELECT day FROM chunks ORDER BY day");
        if (!forEachRow(db, list, reason,
                        [&](const Sqlite::Statement &row) { days.append(row.columnInt64(0)); }))
            return false;
        Sqlite::Statement tail(db, "SELECT min(first_ts), max(last_ts) FROM tail_chunks");
        if (!forEachRow(db, tail, reason, widen))
            return false;
        for (qint64 day : std::as_const(days)) {
            Sqlite::Statement blocks(db,
                                     "SELECT min(start_ts), max(end_ts) FROM " + blocksTable(day));
            Sqlite::Statement histograms(db, "SELECT min(ts), max(ts) FROM " + histTable(day));
            if (!forEachRow(db, blocks, reason, widen)
                || !forEachRow(db, histograms, reason, widen))
                return false;
        }
        return true;
    });
    if (!ok)
        return std::nullopt;
    return result;
}

QStringList SampleCache::sources() const
{
    QStringList result;
    d->readTransaction(nullptr, [&](sqlite3 *db, QString *reason) {
        Sqlite::Statement st(db, "SELECT DISTINCT source FROM series ORDER BY source");
        return forEachRow(db, st, reason,
                          [&](const Sqlite::Statement &row) { result.append(row.columnText(0)); });
    });
    return result;
}

QList<std::pair<QString, QByteArray>> SampleCache::dashboards(QString *error) const
{
    QList<std::pair<QString, QByteArray>> result;
    d->readTransaction(error, [&](sqlite3 *db, QString *reason) {
        Sqlite::Statement exists(
            db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'dashboards'");
        if (!exists.step())
            return true; // schema 3: none
        Sqlite::Statement st(db, "SELECT name, json FROM dashboards ORDER BY name");
        return forEachRow(db, st, reason, [&](const Sqlite::Statement &row) {
            result.append({ row.columnText(0), row.columnBlob(1) });
        });
    });
    return result;
}

QList<qint64> SampleCache::chunkDays() const
{
    QList<qint64> days;
    d->readTransaction(nullptr, [&](sqlite3 *db, QString *reason) {
        Sqlite::Statement st(db, "SELECT day FROM chunks ORDER BY day");
        return forEachRow(db, st, reason,
                          [&](const Sqlite::Statement &row) { days.append(row.columnInt64(0)); });
    });
    return days;
}

} // namespace Headroom
