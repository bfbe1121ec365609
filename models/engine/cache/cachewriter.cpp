// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/cachewriter.h"

#include "cachelogging.h"
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"
#include "engine/cache/cachecheck.h"
#include "engine/cache/cachewriterlimits.h"
#include "engine/cache/seriescatalog.h"
#include "engine/runtime/seriesregistry.h"

#include <QDateTime>
#include <QTimeZone>
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <sqlite3.h>
#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

using namespace CacheSchema;

using namespace CacheWriterLimits;

namespace {
// A failed row that is only a constraint violation (a duplicate) loses that row; any
// other failure (disk full, I/O) aborts the transaction so it is retried as a whole.
bool runRow(sqlite3 *db, Sqlite::Statement &st, const char *what)
{
    if (st.run())
        return true;
    if ((sqlite3_extended_errcode(db) & 0xff) == SQLITE_CONSTRAINT) {
        qCWarning(lcCache) << "cache:" << what << "skipped:" << Sqlite::errorText(db);
        return true;
    }
    return false;
}
} // namespace

CacheWriter::CacheWriter(Sqlite::Db db, SeriesRegistry *registry, const Options &options)
    : m_db(std::move(db))
    , m_registry(registry)
    , m_options(options)
    , m_retentionDays(options.retentionDays)
    , m_minuteRetentionDays(options.minuteRetentionDays)
    , m_hourRetentionDays(options.hourRetentionDays)
{
}

CacheWriter::~CacheWriter()
{
    stop();
    // Statements before the connection they belong to.
    m_dayStatements.clear();
    m_insertSeries = {};
    m_insertTail = {};
    m_deleteTail = {};
    m_insertRollup = {};
    m_insertRollupHistogram = {};
}

bool CacheWriter::start(QString *error)
{
    if (!loadState(error))
        return false;
    if (m_options.reserveBytes > 0) {
        m_reserve.emplace(QString::fromUtf8(sqlite3_db_filename(m_db.get(), "main"))
                              + u"-reserve"_s,
                          m_options.reserveBytes);
        m_reserve->ensure();
    }
    updateStatus(); // days left to free by a previous run show from the start
    QString why;
    if (!m_checkpointer.start(m_db.get(),
                              QString::fromUtf8(sqlite3_db_filename(m_db.get(), "main")), &why))
        qCWarning(lcCache) << "cache: checkpoints stay in the writer's commits:" << why;
    {
        std::lock_guard lock(m_mutex);
        m_running = true;
    }
    m_thread = std::thread([this] { run(); });
    return true;
}

void CacheWriter::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_running)
            return;
        m_stopRequested = true;
    }
    m_wake.notify_one();
    m_thread.join();
    m_checkpointer.stop();
}

bool CacheWriter::loadState(QString *error)
{
    sqlite3 *db = m_db.get();
    auto failed = [&] {
        if (error)
            *error = Sqlite::errorText(db);
        return false;
    };
    m_insertSeries = Sqlite::Statement(db,
                                       "INSERT OR REPLACE INTO series(id, source, metric, labels,"
                                       " unit, resource, kind, histogram)"
                                       " VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                                       true);
    m_insertTail = Sqlite::Statement(db,
                                     "INSERT INTO tail_chunks(series_id, seq, first_ts, last_ts,"
                                     " count, data) VALUES(?, ?, ?, ?, ?, ?)",
                                     true);
    m_deleteTail
        = Sqlite::Statement(db, "DELETE FROM tail_chunks WHERE series_id = ? AND seq <= ?", true);
    m_insertRollupHistogram = Sqlite::Statement(db,
                                                "INSERT OR REPLACE INTO rollup_hist(tier,"
                                                " series_id, start_ts, data) VALUES(?, ?, ?, ?)",
                                                true);
    m_insertRollup = Sqlite::Statement(db,
                                       "INSERT OR REPLACE INTO rollup(tier, series_id, start_ts,"
                                       " first_slot, slots, data) VALUES(?, ?, ?, ?, ?, ?)",
                                       true);
    if (!m_insertSeries.isValid() || !m_insertTail.isValid() || !m_deleteTail.isValid()
        || !m_insertRollup.isValid() || !m_insertRollupHistogram.isValid())
        return failed();
    m_rollups.emplace(
        [this](int id, qint64 from, qint64 to, std::vector<Sample> *out) {
            return readStoredSamples(id, from, to, out);
        },
        [this](int id, qint64 from, qint64 to, std::vector<Aggregate> *out) {
            return readMinuteSlots(id, from, to, out);
        },
        [this](int id, qint64 from, qint64 to) { return hasStoredBlocks(id, from, to); },
        [this](int id, std::optional<RollupTier> tier, qint64 from, qint64 to,
               std::vector<TimedHistogram> *out) {
            return readStoredHistograms(id, tier, from, to, out);
        });

    // Series first: the registry must hand out the persisted ids before any collector
    // registers a series, so that ids never collide with the ones in the file.
    if (!loadSeriesCatalog(db, m_registry, &m_persistedSeries, error))
        return false;

    if (!reloadDays())
        return failed();
    // Days a previous run expired but had not finished freeing.
    m_reclaimer.emplace(db);
    QString orphanError;
    if (!m_reclaimer->findOrphans(&orphanError))
        qCWarning(lcCache) << "cache: cannot list expired day tables:" << orphanError;

    // The tail goes back into the open blocks, as if those samples had just arrived, in
    // the order they were written; they are already in the table, not written again.
    Sqlite::Statement tail(db,
                           "SELECT series_id, seq, data FROM tail_chunks ORDER BY series_id, seq");
    int tailRows = 0;
    std::vector<Sample> chunk;
    bool done = false;
    while (tail.step(&done)) {
        const int id = int(tail.columnInt64(0));
        const qint64 seq = tail.columnInt64(1);
        m_tailSeq = std::max(m_tailSeq, seq + 1);
        SeriesState &state = stateFor(id);
        state.lastChunkSeq = seq;
        state.committedTail = true;
        chunk.clear();
        QString codecError;
        if (!BlockCodec::decode(tail.columnBlob(2), &chunk, &codecError)) {
            qCWarning(lcCache) << "cache: skipping an unreadable tail chunk of series" << id << ":"
                               << codecError;
            continue;
        }
        for (const Sample &sample : chunk)
            append(id, sample, true);
        tailRows += int(chunk.size());
    }
    if (!done)
        return failed();
    qCDebug(lcCache) << "cache: loaded" << m_persistedSeries.size() << "series," << m_days.size()
                     << "day chunks," << tailRows << "tail samples";
    return true;
}

bool CacheWriter::reloadDays()
{
    m_days.clear();
    Sqlite::Statement days(m_db.get(), "SELECT day FROM chunks");
    bool done = false;
    while (days.step(&done))
        m_days.insert(days.columnInt64(0));
    return done;
}

void CacheWriter::enqueue(const ResolvedBatch &batch)
{
    bool wake = false;
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(batch);
        wake = m_queue.size() >= WakeAtQueuedBatches;
    }
    if (wake)
        m_wake.notify_one();
}

void CacheWriter::enqueueRuns(std::vector<SeriesRun> runs)
{
    size_t samples = 0;
    bool wake = false;
    for (const SeriesRun &run : runs)
        samples += run.samples.size();
    {
        std::unique_lock lock(m_mutex);
        m_runsTaken.wait(lock, [&] {
            return !m_running || m_queuedRunSamples == 0
                || m_queuedRunSamples + samples <= MaxQueuedRunSamples;
        });
        if (!m_running)
            return;
        for (SeriesRun &run : runs)
            m_runQueue.push_back(std::move(run));
        m_queuedRunSamples += samples;
        wake = m_queuedRunSamples >= WakeAtQueuedRunSamples;
    }
    if (wake)
        m_wake.notify_one();
}

void CacheWriter::enqueueAlertEvents(const QList<AlertEvent> &events)
{
    std::lock_guard lock(m_mutex);
    m_alertQueue.append(events);
}

void CacheWriter::enqueueAcknowledgement(const AlertAcknowledgement &ack)
{
    std::lock_guard lock(m_mutex);
    m_ackQueue.append(ack);
}

void CacheWriter::flush()
{
    std::unique_lock lock(m_mutex);
    if (!m_running)
        return;
    const quint64 ticket = ++m_flushTicket;
    m_wake.notify_one();
    m_committed.wait(lock, [&] { return m_flushServed >= ticket || !m_running; });
}

int CacheWriter::expireBefore(qint64 beforeMs)
{
    ExpireRequest request { beforeMs, {} };
    std::future<int> result = request.result.get_future();
    {
        std::lock_guard lock(m_mutex);
        if (!m_running)
            return 0;
        m_expireRequests.push_back(&request);
    }
    m_wake.notify_one();
    return result.get();
}

CacheStatus CacheWriter::status() const
{
    std::lock_guard lock(m_statusMutex);
    return m_status;
}

void CacheWriter::run()
{
    auto nextCommit = Clock::now() + std::chrono::milliseconds(m_options.flushIntervalMs);
    // Retention applies right after opening, then hourly.
    auto nextMaintenance = Clock::now();
    auto nextReclaim = Clock::now();
    for (;;) {
        std::vector<ResolvedBatch> batches;
        std::vector<SeriesRun> runs;
        std::vector<ExpireRequest *> expires;
        quint64 ticket = 0;
        bool stopping = false;
        bool flushRequested = false;
        {
            std::unique_lock lock(m_mutex);
            auto wakeAt = std::min(nextCommit, nextMaintenance);
            if (m_reclaimer->pending() && !m_lastCommitFailed) // no slice runs while failing
                wakeAt = std::min(wakeAt, std::max(nextReclaim, m_reclaimPausedUntil));
            m_wake.wait_until(lock, wakeAt, [&] {
                return m_stopRequested || m_flushTicket > m_flushServed || !m_expireRequests.empty()
                    || m_queue.size() >= WakeAtQueuedBatches
                    || m_queuedRunSamples >= WakeAtQueuedRunSamples || m_retentionChanged;
            });
            if (std::exchange(m_retentionChanged, false))
                nextMaintenance = Clock::now(); // a shorter retention applies now
            batches.swap(m_queue);
            runs.swap(m_runQueue);
            m_queuedRunSamples = 0;
            expires.swap(m_expireRequests);
            m_pendingEvents.append(std::exchange(m_alertQueue, {}));
            m_pendingAcks.append(std::exchange(m_ackQueue, {}));
            ticket = m_flushTicket;
            flushRequested = m_flushTicket > m_flushServed;
            stopping = m_stopRequested;
        }

        if (!runs.empty())
            m_runsTaken.notify_all(); // the importer reads on while these are folded in
        for (const ResolvedBatch &batch : batches)
            apply(batch);
        batches.clear();
        for (const SeriesRun &run : runs)
            apply(run);
        runs.clear();
        if (stopping) // the tiers cover what is sealed, for the next run or a recording
            m_rollups->writeUnfinished(std::nullopt);
        // A flood wakes the writer every WakeAtQueuedBatches batches to fold them into
        // blocks; committing each time would rewrite every series' newest index page
        // and tail chunk for a few thousand samples (commits cost by the pages they
        // touch, not the rows). So a commit waits for the interval, a flush, an expiry
        // or stop, unless the sealed blocks waiting for it grow large.
        // While commits fail, only the backoff (or a flush, an expiry, stop) retries:
        // the pending bytes then grow to the cap, which a commit would not relieve.
        const bool failing = m_retryDelay.count() > 0;
        if (stopping || flushRequested || !expires.empty() || Clock::now() >= nextCommit
            || (!failing && m_pendingBlockBytes >= MaxPendingBlockBytes)) {
            if (commit()) {
                m_retryDelay = std::chrono::milliseconds(0);
            } else {
                recoverFromFailedCommit();
                if (m_lastCommitFailed)
                    m_retryDelay = std::min<std::chrono::milliseconds>(
                        m_retryDelay.count() > 0 ? m_retryDelay * 2 : FirstRetryDelay,
                        MaxRetryDelay);
                else
                    m_retryDelay = std::chrono::milliseconds(0);
            }
            nextCommit = Clock::now()
                + (m_retryDelay.count() > 0 ? m_retryDelay
                                            : std::chrono::milliseconds(m_options.flushIntervalMs));
        }
        if (m_lastCommitFailed)
            capPendingMemory();
        updateStatus();

        if (Clock::now() >= nextMaintenance) {
            maintenance();
            nextMaintenance = Clock::now() + MaintenanceInterval;
        }
        for (ExpireRequest *request : expires)
            request->result.set_value(expire(request->beforeMs));
        bool workWaiting = false; // a flush or batches that came during this cycle go first
        {
            std::lock_guard lock(m_mutex);
            workWaiting = m_flushTicket > ticket || !m_queue.empty() || !m_runQueue.empty()
                || !m_expireRequests.empty();
        }
        const bool reclaimDue = !stopping && !workWaiting && m_reclaimer->pending()
            && !m_lastCommitFailed && Clock::now() >= std::max(nextReclaim, m_reclaimPausedUntil);
        if (reclaimDue && m_checkpointer.busy()) {
            nextReclaim = Clock::now() + std::chrono::milliseconds(20); // look again later
        } else if (reclaimDue) {
            const auto started = Clock::now();
            reclaimSlice();
            // A quarter of the writer's time at most: a slice, then three times as long
            // for batches, so few of them arrive during one.
            nextReclaim = Clock::now()
                + std::max<Clock::duration>(3 * (Clock::now() - started),
                                            std::chrono::milliseconds(5));
            updateStatus();
        }

        {
            std::lock_guard lock(m_mutex);
            m_flushServed = ticket;
            if (stopping) {
                m_running = false;
                // Requests that raced with stop() get an answer instead of a hang.
                for (ExpireRequest *request : m_expireRequests)
                    request->result.set_value(0);
                m_expireRequests.clear();
            }
        }
        m_committed.notify_all();
        if (stopping) {
            m_runsTaken.notify_all();
            return;
        }
    }
}

bool CacheWriter::ensureSeries(int id, const SeriesInfo &fallback)
{
    if (m_persistedSeries.contains(id))
        return true;
    if (m_unstorableSeries.contains(id))
        return false;
    const SeriesInfo info = m_registry->info(id).value_or(fallback);
    // What the opener refuses is never written: the cache must open again.
    QString why;
    if (id < 1 || id > CacheCheck::MaxSeriesId || !CacheCheck::storable(info, &why)) {
        m_unstorableSeries.insert(id);
        qCWarning(lcCache) << "cache: series" << id << "is not stored:" << why;
        return false;
    }
    m_persistedSeries.insert(id);
    m_pendingSeries.emplace_back(id, info);
    return true;
}

void CacheWriter::apply(const ResolvedBatch &batch)
{
    const SampleBatch &b = batch.batch;
    if (!CacheCheck::inTimeRange(b.tsMs)) {
        if (!m_warnedTime) {
            m_warnedTime = true;
            qCWarning(lcCache) << "cache: a batch at" << b.tsMs
                               << "ms is outside the times a cache holds; dropped (reported once)";
        }
        return;
    }
    m_newestTs = std::max(m_newestTs, b.tsMs);
    const qsizetype values = std::min(b.values.size(), batch.valueIds.size());
    for (qsizetype i = 0; i < values; ++i) {
        const int id = batch.valueIds.at(i);
        if (ensureSeries(id, b.values.at(i).info))
            append(id, Sample { b.tsMs, b.values.at(i).value }, false);
    }
    const qsizetype histograms = std::min(b.histograms.size(), batch.histogramIds.size());
    for (qsizetype i = 0; i < histograms; ++i) {
        const int id = batch.histogramIds.at(i);
        if (!ensureSeries(id, b.histograms.at(i).info))
            continue;
        m_pendingHistograms.push_back(
            { id, dayOf(b.tsMs), b.tsMs, b.histograms.at(i).histogram.serialize() });
        m_rollups->addHistogram(id, b.tsMs, b.histograms.at(i).histogram);
        m_pendingDataBytes += PendingBlockOverhead + m_pendingHistograms.back().data.size();
    }
}

void CacheWriter::apply(const SeriesRun &run)
{
    if (run.samples.empty() || !ensureSeries(run.seriesId, run.info))
        return;
    for (const Sample &sample : run.samples) {
        if (!CacheCheck::inTimeRange(sample.tsMs))
            continue;
        m_newestTs = std::max(m_newestTs, sample.tsMs);
        append(run.seriesId, sample, false);
    }
}

CacheWriter::SeriesState &CacheWriter::stateFor(int id)
{
    SeriesState &state = m_series[id];
    if (state.sealedKnown)
        return state;
    state.sealedKnown = true;
    // The newest sealed block bounds what may still be appended: block rows are never
    // rewritten, so an older sample arriving late (or replayed) is dropped instead.
    QList<qint64> days(m_days.cbegin(), m_days.cend());
    std::sort(days.begin(), days.end(), std::greater<>());
    for (qint64 day : days) {
        const QByteArray sql
            = "SELECT max(end_ts) FROM " + blocksTable(day) + " WHERE series_id = ?";
        Sqlite::Statement st(m_db.get(), sql);
        st.bind(1, qint64(id));
        if (st.step() && !st.columnIsNull(0)) {
            state.sealedUntil = st.columnInt64(0);
            break;
        }
    }
    return state;
}

void CacheWriter::append(int id, Sample sample, bool alreadyInTail)
{
    // A tail chunk reloaded from the file is decoded as it is: its samples are as
    // untrusted as the file, and one outside the times would open a day the next open
    // of the cache refuses.
    if (!CacheCheck::inTimeRange(sample.tsMs))
        return;
    SeriesState &state = stateFor(id);
    bool accept = sample.tsMs > state.sealedUntil;
    if (accept && !state.open.empty()) {
        // Blocks never cross a UTC day: a sample of a later day seals the open block.
        const qint64 openDay = dayOf(state.open.front().tsMs);
        const qint64 day = dayOf(sample.tsMs);
        if (day > openDay)
            seal(id, state);
        else if (day < openDay)
            accept = false;
    }
    if (!accept) {
        if (!m_warnedDropped.contains(id)) {
            m_warnedDropped.insert(id);
            qCWarning(lcCache) << "cache: series" << id << "sample at" << sample.tsMs
                               << "is older than its stored blocks; dropped (reported once)";
        }
        return;
    }

    auto &open = state.open;
    if (open.empty() || sample.tsMs > open.back().tsMs) {
        open.push_back(sample);
    } else {
        auto it = std::lower_bound(open.begin(), open.end(), sample.tsMs,
                                   [](const Sample &s, qint64 ts) { return s.tsMs < ts; });
        if (it->tsMs == sample.tsMs)
            it->value = sample.value; // the same timestamp again: the last value wins
        else
            open.insert(it, sample);
    }
    if (!alreadyInTail) {
        state.unsavedTail.push_back(sample);
        m_dirtyTail.insert(id);
    }
    if (open.size() >= BlockSamples)
        seal(id, state);
}

void CacheWriter::seal(int id, SeriesState &state)
{
    if (state.open.empty())
        return;
    const Sample &first = state.open.front();
    const Sample &last = state.open.back();
    // The block's summary (NaN left out; NULL when nothing else is there).
    double low = qQNaN(), high = qQNaN(), sum = 0;
    bool anyNaN = false;
    for (const Sample &s : state.open) {
        if (std::isnan(s.value)) {
            anyNaN = true;
            continue;
        }
        low = std::isnan(low) ? s.value : std::min(low, s.value);
        high = std::isnan(high) ? s.value : std::max(high, s.value);
        sum += s.value;
    }
    m_pendingBlockBytes += 64 + qsizetype(state.open.size()) * 2;
    // The block replaces this series' tail chunks, in the same transaction.
    m_pendingBlocks.push_back({ id, dayOf(first.tsMs), first.tsMs, last.tsMs,
                                int(state.open.size()), BlockCodec::encode(state.open), low, high,
                                // No sum (NULL) when a value is NaN: `count` counts
                                // it, so a mean from the summary would be low; such
                                // a block is decoded for means instead.
                                anyNaN ? qQNaN() : sum, state.lastChunkSeq, state.committedTail });
    m_pendingDataBytes += PendingBlockOverhead + m_pendingBlocks.back().data.size();
    m_rollups->add(id, state.open);
    state.lastChunkSeq = -1; // those chunks go with this commit; none is left
    state.committedTail = false;
    state.sealedUntil = last.tsMs;
    state.open.clear();
    state.unsavedTail.clear();
}

CacheWriter::DayStatements &CacheWriter::dayStatements(qint64 day)
{
    auto it = m_dayStatements.find(day);
    if (it != m_dayStatements.end())
        return it->second;
    DayStatements statements {
        Sqlite::Statement(m_db.get(),
                          "INSERT INTO " + blocksTable(day)
                              + "(series_id, start_ts, end_ts, count, data, min, max, sum)"
                                " VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                          true),
        Sqlite::Statement(m_db.get(),
                          "INSERT OR REPLACE INTO " + histTable(day)
                              + "(series_id, ts, data) VALUES(?, ?, ?)",
                          true),
    };
    return m_dayStatements.emplace(day, std::move(statements)).first->second;
}

bool CacheWriter::ensureDay(qint64 day, QList<qint64> *created)
{
    if (m_days.contains(day) || created->contains(day))
        return true;
    QString error;
    // A late sample for a day still being freed: the rest of its old rows must not come
    // back with it (dropping what is left of them costs at most one day's drop).
    const QByteArray sql = m_reclaimer->contains(day)
        ? DayReclaimer::dropWholeSql(day) + createDayTablesSql(day)
        : createDayTablesSql(day);
    if (!Sqlite::exec(m_db.get(), sql, &error)) {
        qCWarning(lcCache) << "cache: cannot create day tables:" << error;
        return false;
    }
    created->append(day);
    return true;
}

bool CacheWriter::commit()
{
    if (m_pendingSeries.empty() && m_pendingBlocks.empty() && m_dirtyTail.isEmpty()
        && m_pendingHistograms.empty() && m_pendingEvents.isEmpty() && m_pendingAcks.isEmpty()
        && m_rollups->pendingRows().empty() && m_rollups->pendingHistogramRows().empty())
        return true;

    sqlite3 *db = m_db.get();
    QString error;
    if (!Sqlite::exec(db, "BEGIN IMMEDIATE", &error)) {
        m_lastErrorCode = sqlite3_extended_errcode(db);
        noteCommitFailure(error);
        return false;
    }
    QList<qint64> createdDays;
    auto write = [&]() -> bool {
        for (const auto &[id, info] : m_pendingSeries) {
            m_insertSeries.bind(1, qint64(id));
            m_insertSeries.bind(2, info.key.source);
            m_insertSeries.bind(3, info.key.metric);
            m_insertSeries.bind(4, labelsToString(info.key.labels));
            m_insertSeries.bind(5, info.unit);
            m_insertSeries.bind(6, info.resource);
            m_insertSeries.bind(7, useKindName(info.kind));
            m_insertSeries.bind(8, qint64(info.histogram ? 1 : 0));
            if (!runRow(db, m_insertSeries, "series row"))
                return false;
        }
        for (const PendingBlock &block : m_pendingBlocks) {
            if (!ensureDay(block.day, &createdDays))
                return false;
            Sqlite::Statement &st = dayStatements(block.day).insertBlock;
            st.bind(1, qint64(block.seriesId));
            st.bind(2, block.start);
            st.bind(3, block.end);
            st.bind(4, qint64(block.count));
            st.bind(5, block.data);
            st.bind(6, block.min);
            st.bind(7, block.max);
            st.bind(8, block.sum);
            if (!runRow(db, st, "block"))
                return false;
        }
        for (const PendingBlock &block : m_pendingBlocks) {
            if (block.tailDeleteUpTo < 0)
                continue;
            m_deleteTail.bind(1, qint64(block.seriesId));
            m_deleteTail.bind(2, block.tailDeleteUpTo);
            if (!runRow(db, m_deleteTail, "tail delete"))
                return false;
        }
        for (int id : std::as_const(m_dirtyTail)) {
            // What arrived since the last commit, as one chunk (arrival order kept).
            SeriesState &state = m_series[id];
            if (state.unsavedTail.empty())
                continue;
            const auto [oldest, newest] = std::minmax_element(
                state.unsavedTail.begin(), state.unsavedTail.end(),
                [](const Sample &a, const Sample &b) { return a.tsMs < b.tsMs; });
            const qint64 seq = m_tailSeq++;
            m_insertTail.bind(1, qint64(id));
            m_insertTail.bind(2, seq);
            m_insertTail.bind(3, oldest->tsMs);
            m_insertTail.bind(4, newest->tsMs);
            m_insertTail.bind(5, qint64(state.unsavedTail.size()));
            m_insertTail.bind(6, BlockCodec::encode(state.unsavedTail));
            if (!runRow(db, m_insertTail, "tail chunk"))
                return false;
            // Recorded before the commit is known to succeed: a rolled-back chunk is
            // written again under a later seq, and deleting up to that covers both.
            state.lastChunkSeq = seq;
        }
        for (const PendingHistogram &h : m_pendingHistograms) {
            if (!ensureDay(h.day, &createdDays))
                return false;
            Sqlite::Statement &st = dayStatements(h.day).insertHistogram;
            st.bind(1, qint64(h.seriesId));
            st.bind(2, h.ts);
            st.bind(3, h.data);
            if (!runRow(db, st, "histogram"))
                return false;
        }
        for (const RollupRow &row : m_rollups->pendingRows()) {
            m_insertRollup.bind(1, qint64(row.tier));
            m_insertRollup.bind(2, qint64(row.seriesId));
            m_insertRollup.bind(3, row.startMs);
            m_insertRollup.bind(4, qint64(row.firstSlot));
            m_insertRollup.bind(5, qint64(row.slots));
            m_insertRollup.bind(6, row.data);
            if (!runRow(db, m_insertRollup, "rollup row"))
                return false;
        }
        for (const RollupHistogramRow &row : m_rollups->pendingHistogramRows()) {
            m_insertRollupHistogram.bind(1, qint64(row.tier));
            m_insertRollupHistogram.bind(2, qint64(row.seriesId));
            m_insertRollupHistogram.bind(3, row.startMs);
            m_insertRollupHistogram.bind(4, row.data);
            if (!runRow(db, m_insertRollupHistogram, "rollup histogram"))
                return false;
        }
        for (const AlertEvent &event : std::as_const(m_pendingEvents))
            if (CacheCheck::inTimeRange(event.tsMs) && !AlertEventStore::insert(db, event))
                return false;
        for (const AlertAcknowledgement &ack : std::as_const(m_pendingAcks))
            if (!AlertEventStore::acknowledge(db, ack))
                return false;
        return Sqlite::exec(db, "COMMIT", &error);
    };

    if (!write()) {
        // Before ROLLBACK, which sets its own result code.
        m_lastErrorCode = sqlite3_extended_errcode(db);
        if (error.isEmpty())
            error = Sqlite::errorText(db);
        Sqlite::exec(db, "ROLLBACK");
        // Statements of day tables created in the failed transaction point at nothing.
        for (qint64 day : std::as_const(createdDays))
            m_dayStatements.erase(day);
        // Everything pending stays pending and is retried (run() backs off).
        noteCommitFailure(error);
        return false;
    }
    if (m_lastCommitFailed) {
        qCInfo(lcCache) << "cache: commits succeed again";
        if (m_reserve)
            m_reserve->ensure(); // only once the disk has room for it several times over
    }
    m_lastCommitFailed = false;
    m_expiryTriedThisEpisode = false;
    for (qint64 day : std::as_const(createdDays)) {
        m_days.insert(day);
        m_reclaimer->forget(day);
    }
    m_pendingSeries.clear();
    m_pendingBlocks.clear();
    m_pendingBlockBytes = 0;
    m_pendingDataBytes = 0;
    for (int id : std::as_const(m_dirtyTail)) {
        SeriesState &state = m_series[id];
        if (!state.unsavedTail.empty())
            state.committedTail = true; // written as a chunk by this commit
        state.unsavedTail.clear();
    }
    m_dirtyTail.clear();
    m_pendingHistograms.clear();
    m_rollups->clearPending();
    m_pendingEvents.clear();
    m_pendingAcks.clear();
    return true;
}

} // namespace Headroom
