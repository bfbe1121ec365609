#include "engine/cache/cachewriter.h"

#include "cachelogging.h"
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"
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

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto MaintenanceInterval = std::chrono::hours(1);
// A collector flood wakes the writer before the interval so memory stays bounded.
constexpr size_t WakeAtQueuedBatches = 512;
// Sealed blocks held for the next commit before it is forced (memory bound).
constexpr qsizetype MaxPendingBlockBytes = 32 << 20;
// Retries of a failing commit: 1, 2, 4 ... 30 s apart.
constexpr auto FirstRetryDelay = std::chrono::seconds(1);
constexpr auto MaxRetryDelay = std::chrono::seconds(30);
constexpr qsizetype PendingBlockOverhead = 96; // the struct and the QByteArray header

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
                    || m_queue.size() >= WakeAtQueuedBatches || m_retentionChanged;
            });
            if (std::exchange(m_retentionChanged, false))
                nextMaintenance = Clock::now(); // a shorter retention applies now
            batches.swap(m_queue);
            expires.swap(m_expireRequests);
            m_pendingEvents.append(std::exchange(m_alertQueue, {}));
            m_pendingAcks.append(std::exchange(m_ackQueue, {}));
            ticket = m_flushTicket;
            flushRequested = m_flushTicket > m_flushServed;
            stopping = m_stopRequested;
        }

        for (const ResolvedBatch &batch : batches)
            apply(batch);
        batches.clear();
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
            workWaiting = m_flushTicket > ticket || !m_queue.empty() || !m_expireRequests.empty();
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
        if (stopping)
            return;
    }
}

void CacheWriter::ensureSeries(int id, const SeriesInfo &fallback)
{
    if (m_persistedSeries.contains(id))
        return;
    m_persistedSeries.insert(id);
    m_pendingSeries.emplace_back(id, m_registry->info(id).value_or(fallback));
}

void CacheWriter::apply(const ResolvedBatch &batch)
{
    const SampleBatch &b = batch.batch;
    m_newestTs = std::max(m_newestTs, b.tsMs);
    const qsizetype values = std::min(b.values.size(), batch.valueIds.size());
    for (qsizetype i = 0; i < values; ++i) {
        const int id = batch.valueIds.at(i);
        ensureSeries(id, b.values.at(i).info);
        append(id, Sample { b.tsMs, b.values.at(i).value }, false);
    }
    const qsizetype histograms = std::min(b.histograms.size(), batch.histogramIds.size());
    for (qsizetype i = 0; i < histograms; ++i) {
        const int id = batch.histogramIds.at(i);
        ensureSeries(id, b.histograms.at(i).info);
        m_pendingHistograms.push_back(
            { id, dayOf(b.tsMs), b.tsMs, b.histograms.at(i).histogram.serialize() });
        m_rollups->addHistogram(id, b.tsMs, b.histograms.at(i).histogram);
        m_pendingDataBytes += PendingBlockOverhead + m_pendingHistograms.back().data.size();
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
            if (!AlertEventStore::insert(db, event))
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

int CacheWriter::expire(qint64 beforeMs)
{
    commit(); // blocks sealed for old days go in first, so the drop below is complete
    return dropDays(beforeMs, Drop::InSlices);
}

void CacheWriter::reclaimSlice()
{
    QString error;
    if (m_reclaimer->runSlice(&error))
        return;
    qCWarning(lcCache) << "cache: freeing expired days failed, retrying in an hour:" << error;
    m_reclaimPausedUntil = Clock::now() + MaintenanceInterval;
}

int CacheWriter::dropDays(qint64 beforeMs, Drop how)
{
    // Day d is entirely older than beforeMs when its end, (d + 1) * DayMs, is <= beforeMs.
    const qint64 lastDay = dayOf(beforeMs) - 1;
    QList<qint64> days;
    for (qint64 day : std::as_const(m_days)) {
        if (day <= lastDay)
            days.append(day);
    }
    // The tail is small (at most one block per series), so DELETE on it is cheap.
    const qint64 cutoff = (lastDay + 1) * DayMs;
    sqlite3 *db = m_db.get();
    QString error;
    if (!Sqlite::exec(db, "BEGIN IMMEDIATE", &error)) {
        qCWarning(lcCache) << "cache: expiry cannot begin:" << error;
        return 0;
    }
    bool ok = true;
    for (qint64 day : std::as_const(days)) {
        m_dayStatements.erase(day);
        // Out of the catalogue, the day is gone for every reader that starts after this
        // commit; its pages are freed by the reclaimer, or here when space is needed now.
        QByteArray sql = "DELETE FROM chunks WHERE day = " + QByteArray::number(day) + ";";
        if (how == Drop::Whole)
            sql += DayReclaimer::dropWholeSql(day);
        ok = ok && Sqlite::exec(db, sql, &error);
    }
    ok = ok
        && Sqlite::exec(db, "DELETE FROM tail_chunks WHERE last_ts < " + QByteArray::number(cutoff),
                        &error)
        && AlertEventStore::deleteBefore(db, cutoff) && Sqlite::exec(db, "COMMIT", &error);
    if (!ok) {
        qCWarning(lcCache) << "cache: expiry failed:" << error;
        Sqlite::exec(db, "ROLLBACK");
        return 0;
    }
    for (qint64 day : std::as_const(days)) {
        m_days.remove(day);
        if (how == Drop::InSlices)
            m_reclaimer->add(day);
    }
    updateStatus(); // before expireBefore() returns: the days now wait to be freed
    for (auto &[id, state] : m_series) {
        if (!state.open.empty() && state.open.front().tsMs < cutoff) {
            state.open.clear(); // one day per open block: all of it is expired
            state.unsavedTail.clear();
            state.committedTail = false; // its chunks went with the DELETE above
        }
    }
    if (!days.isEmpty())
        qCInfo(lcCache) << "cache: dropped" << days.size() << "day chunks before" << beforeMs;
    return int(days.size());
}

void CacheWriter::noteCommitFailure(const QString &error)
{
    if (!m_lastCommitFailed) {
        qCWarning(lcCache) << "cache: commit failed, will retry:" << error;
        m_ownStatus.failingSinceMs = QDateTime::currentMSecsSinceEpoch();
    }
    m_lastCommitFailed = true;
    ++m_ownStatus.failedCommits;
    m_ownStatus.reason = error;
    m_ownStatus.diskFull = (m_lastErrorCode & 0xff) == SQLITE_FULL;
}

void CacheWriter::updateStatus()
{
    m_ownStatus.reclaimingDays = m_reclaimer ? m_reclaimer->pendingDays() : 0;
    m_ownStatus.checkpoints = m_checkpointer.checkpoints();
    m_ownStatus.writeFailing = m_lastCommitFailed;
    if (!m_lastCommitFailed)
        m_ownStatus.diskFull = false;
    m_ownStatus.pendingBytes = m_pendingDataBytes;
    std::lock_guard lock(m_statusMutex);
    m_status = m_ownStatus;
}

void CacheWriter::recoverFromFailedCommit()
{
    // Room can only be made when space is what is missing; an I/O error is retried as is.
    if ((m_lastErrorCode & 0xff) != SQLITE_FULL)
        return;
    // One day per episode: when dropping one did not let a commit through, the disk is
    // filled by something else, and dropping the rest of the history would not help.
    if (m_expiryTriedThisEpisode)
        return;
    m_expiryTriedThisEpisode = true;
    if (expireOldestDayForSpace())
        commit();
}

bool CacheWriter::expireOldestDayForSpace()
{
    // Never the day being written: today, nor any day that still has samples waiting.
    qint64 protectedFrom = dayOf(QDateTime::currentMSecsSinceEpoch());
    if (m_newestTs != std::numeric_limits<qint64>::min())
        protectedFrom = std::min(protectedFrom, dayOf(m_newestTs));
    for (const PendingBlock &block : m_pendingBlocks)
        protectedFrom = std::min(protectedFrom, block.day);
    for (const PendingHistogram &h : m_pendingHistograms)
        protectedFrom = std::min(protectedFrom, h.day);
    for (const auto &[id, state] : m_series) {
        if (!state.open.empty())
            protectedFrom = std::min(protectedFrom, dayOf(state.open.front().tsMs));
    }
    std::optional<qint64> oldest;
    for (qint64 day : std::as_const(m_days)) {
        if (day < protectedFrom && (!oldest || day < *oldest))
            oldest = day;
    }
    if (!oldest) {
        qCWarning(lcCache) << "cache: disk full and no day older than the one being written"
                              " to drop; waiting for space";
        return false;
    }
    if (m_reserve && m_reserve->release())
        qCWarning(lcCache) << "cache: disk full: gave back the space reserve" << m_reserve->path()
                           << "so that the oldest day can be dropped";
    const int dropped = dropDays((*oldest + 1) * DayMs, Drop::Whole);
    if (dropped == 0)
        return false;
    m_ownStatus.daysExpiredForSpace += dropped;
    qCWarning(lcCache).noquote()
        << u"cache: disk full: dropped the oldest day chunk (%1) to make room"_s.arg(
               QDateTime::fromMSecsSinceEpoch(*oldest * DayMs, QTimeZone::UTC)
                   .date()
                   .toString(Qt::ISODate));
    // The freed pages are reused by the next commits; a WAL reset also gives its file's
    // space back when the checkpoint can complete.
    Sqlite::exec(m_db.get(), "PRAGMA wal_checkpoint(TRUNCATE)");
    return true;
}

void CacheWriter::capPendingMemory()
{
    if (m_pendingDataBytes <= m_options.maxPendingBytes)
        return;
    // Oldest first (blocks are sealed in time order). A block holding samples whose only
    // copy on disk is its series' tail chunks is kept: it is at most one per series, and
    // dropping it would let a later block's tail delete take committed samples along.
    qint64 blocks = 0, samples = 0, histograms = 0;
    std::erase_if(m_pendingBlocks, [&](const PendingBlock &block) {
        if (m_pendingDataBytes <= m_options.maxPendingBytes || block.holdsCommittedSamples)
            return false;
        m_pendingDataBytes -= PendingBlockOverhead + block.data.size();
        m_pendingBlockBytes -= 64 + qsizetype(block.count) * 2;
        ++blocks;
        samples += block.count;
        return true;
    });
    std::erase_if(m_pendingHistograms, [&](const PendingHistogram &h) {
        if (m_pendingDataBytes <= m_options.maxPendingBytes)
            return false;
        m_pendingDataBytes -= PendingBlockOverhead + h.data.size();
        ++histograms;
        return true;
    });
    if (blocks == 0 && histograms == 0)
        return;
    if (m_ownStatus.droppedBlocks == 0 && m_ownStatus.droppedHistograms == 0)
        qCWarning(lcCache) << "cache: writes failing; dropping the oldest pending blocks beyond"
                           << m_options.maxPendingBytes << "bytes (counted in the status)";
    m_ownStatus.droppedBlocks += blocks;
    m_ownStatus.droppedSamples += samples;
    m_ownStatus.droppedHistograms += histograms;
}

void CacheWriter::setRetentionDays(int days)
{
    {
        std::lock_guard lock(m_mutex);
        m_retentionDays = days;
        m_retentionChanged = true;
    }
    m_wake.notify_one();
}

void CacheWriter::setTierRetentionDays(int minuteDays, int hourDays)
{
    {
        std::lock_guard lock(m_mutex);
        m_minuteRetentionDays = minuteDays;
        m_hourRetentionDays = hourDays;
        m_retentionChanged = true;
    }
    m_wake.notify_one();
}

void CacheWriter::expireTiers(qint64 nowMs)
{
    int raw = 0, minute = 0, hour = 0;
    {
        std::lock_guard lock(m_mutex);
        raw = m_retentionDays;
        minute = m_minuteRetentionDays;
        hour = m_hourRetentionDays;
    }
    // A tier is kept at least as long as the one below it: no range goes blank in a
    // tier while a finer one still holds it. Keeping everything raw keeps every tier.
    if (raw <= 0)
        return;
    minute = minute <= 0 ? 0 : std::max(minute, raw);
    hour = hour <= 0 || minute <= 0 ? 0 : std::max(hour, minute);
    // Rows are small (one per series and hour or day): a plain DELETE, hourly.
    QByteArray sql;
    for (const auto &[tier, days] :
         { std::pair { RollupTier::Minute, minute }, std::pair { RollupTier::Hour, hour } }) {
        if (days <= 0)
            continue;
        const qint64 cutoff = nowMs - qint64(days) * DayMs - rollupRowSpanMs(tier);
        for (const char *table : { "rollup", "rollup_hist" })
            sql += QByteArray("DELETE FROM ") + table
                + " WHERE tier = " + QByteArray::number(int(tier)) + " AND start_ts < "
                + QByteArray::number(cutoff) + ";";
    }
    QString error;
    if (!sql.isEmpty() && !Sqlite::exec(m_db.get(), sql, &error))
        qCWarning(lcCache) << "cache: expiring rollup rows failed, retrying in an hour:" << error;
}

bool CacheWriter::readStoredSamples(int id, qint64 fromMs, qint64 toMs, std::vector<Sample> *out)
{
    for (qint64 day = dayOf(fromMs); day <= dayOf(toMs - 1); ++day) {
        if (!m_days.contains(day))
            continue;
        Sqlite::Statement st(m_db.get(),
                             "SELECT data FROM " + blocksTable(day)
                                 + " WHERE series_id = ? AND start_ts < ? AND end_ts >= ?");
        st.bind(1, qint64(id));
        st.bind(2, toMs);
        st.bind(3, fromMs);
        bool done = false;
        while (st.step(&done)) {
            if (!BlockCodec::decode(st.columnBlob(0), out))
                qCWarning(lcCache) << "cache: rollup skips an unreadable block of series" << id;
        }
        if (!done)
            return false;
    }
    return true;
}

bool CacheWriter::hasStoredBlocks(int id, qint64 fromMs, qint64 toMs)
{
    for (qint64 day = dayOf(fromMs); day <= dayOf(toMs - 1); ++day) {
        if (!m_days.contains(day))
            continue;
        Sqlite::Statement st(m_db.get(),
                             "SELECT 1 FROM " + blocksTable(day)
                                 + " WHERE series_id = ? AND start_ts < ? AND end_ts >= ? LIMIT 1");
        st.bind(1, qint64(id));
        st.bind(2, toMs);
        st.bind(3, fromMs);
        if (st.step())
            return true;
    }
    return false;
}

bool CacheWriter::readMinuteSlots(int id, qint64 fromMs, qint64 toMs, std::vector<Aggregate> *out)
{
    Sqlite::Statement st(m_db.get(),
                         "SELECT start_ts, data FROM rollup WHERE tier = ? AND series_id = ?"
                         " AND start_ts >= ? AND start_ts < ?");
    st.bind(1, qint64(RollupTier::Minute));
    st.bind(2, qint64(id));
    st.bind(3, fromMs);
    st.bind(4, toMs);
    bool done = false;
    while (st.step(&done)) {
        QString error;
        if (!RollupCodec::decode(RollupTier::Minute, st.columnInt64(0), st.columnBlob(1), out,
                                 &error))
            qCWarning(lcCache) << "cache: rollup skips an unreadable row of series" << id << ":"
                               << error;
    }
    return done;
}

bool CacheWriter::readStoredHistograms(int id, std::optional<RollupTier> tier, qint64 fromMs,
                                       qint64 toMs, std::vector<TimedHistogram> *out)
{
    const auto readRows = [&](const QByteArray &sql) {
        Sqlite::Statement st(m_db.get(), sql);
        st.bind(1, qint64(id));
        st.bind(2, fromMs);
        st.bind(3, toMs);
        bool done = false;
        while (st.step(&done)) {
            bool ok = false;
            LogHistogram h = LogHistogram::deserialize(st.columnBlob(1), &ok);
            if (ok)
                out->emplace_back(st.columnInt64(0), std::move(h));
        }
        return done;
    };
    if (tier)
        return readRows("SELECT start_ts, data FROM rollup_hist WHERE tier = "
                        + QByteArray::number(int(*tier))
                        + " AND series_id = ? AND start_ts >= ? AND start_ts < ?");
    for (qint64 day = dayOf(fromMs); day <= dayOf(toMs - 1); ++day) {
        if (m_days.contains(day)
            && !readRows("SELECT ts, data FROM " + histTable(day)
                         + " WHERE series_id = ? AND ts >= ? AND ts < ?"))
            return false;
    }
    return true;
}

void CacheWriter::maintenance()
{
    int retentionDays = 0;
    {
        std::lock_guard lock(m_mutex);
        retentionDays = m_retentionDays;
    }
    if (retentionDays > 0) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        expire(now - qint64(retentionDays) * DayMs);
    }
    // A series that went quiet keeps its last samples in the tail; once newer data of a
    // later day arrives elsewhere, seal them so the tail stays small.
    if (m_newestTs != std::numeric_limits<qint64>::min()) {
        const qint64 today = dayOf(m_newestTs);
        for (auto &[id, state] : m_series) {
            if (!state.open.empty() && dayOf(state.open.front().tsMs) < today)
                seal(id, state);
        }
        m_rollups->writeUnfinished(m_newestTs); // the tiers of series gone quiet, so far
        commit();
    }
    expireTiers(QDateTime::currentMSecsSinceEpoch());
    // Automatic checkpoints are PASSIVE: with readers always overlapping they may never
    // reach the end of the WAL, which then only grows. TRUNCATE waits (busy_timeout) for
    // a gap between the short read transactions and resets it.
    QString error;
    if (!Sqlite::exec(m_db.get(), "PRAGMA wal_checkpoint(TRUNCATE)", &error))
        qCDebug(lcCache) << "cache: checkpoint postponed:" << error;
    if (m_reserve && !m_lastCommitFailed)
        m_reserve->ensure();
}

} // namespace Headroom
