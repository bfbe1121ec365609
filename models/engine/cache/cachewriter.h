// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The cache's only writer: one thread owning the only write connection.
//
// consume() appends to a mutex-protected queue and returns; the thread wakes at least
// every flushInterval (or on flush/expire/stop), folds the queued batches into the
// per-series open blocks, and commits everything that changed in one transaction:
// new series rows, newly sealed blocks with their summaries (+ deleting the series'
// tail chunks), the unsealed samples that arrived since the last commit as one tail
// chunk per series, histograms.
// Retention and the hourly WAL reset run here too, so the file only ever has one
// writer; routine checkpoints run on WalCheckpointer's thread. An
// expired day leaves the catalogue in one short commit; its rows are then freed in
// slices between commits (DayReclaimer), so expiry never holds a batch back for long.
//
// A commit that fails (disk full, I/O error) keeps everything pending and is retried
// with backoff (1, 2, 4 ... 30 s); on a full disk the oldest day chunk that is not being
// written is dropped first to make room, after giving back the space reserve so that
// the drop itself can be written. Meanwhile pending memory is capped: the oldest
// pending blocks whose samples are nowhere on disk yet are dropped and counted
// (CacheStatus). Nothing committed is ever dropped for it.
#pragma once

#include "engine/cache/alerteventstore.h"
#include "engine/cache/cacheschema.h"
#include "engine/cache/cachestatus.h"
#include "engine/cache/dayreclaimer.h"
#include "engine/cache/rollupbuilder.h"
#include "engine/cache/seriesrun.h"
#include "engine/cache/spacereserve.h"
#include "engine/cache/sqlitedb.h"
#include "engine/cache/walcheckpointer.h"
#include "engine/runtime/samplebus.h"

#include <QHash>
#include <QSet>
#include <chrono>
#include <condition_variable>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace Headroom {

class SeriesRegistry;

class CacheWriter
{
public:
    // Samples per sealed block: 2 minutes of a 1 s series, 2 hours of a 1 min one.
    // Fixed, so every block row has about the same size and is written once.
    static constexpr size_t BlockSamples = 120;

    struct Options
    {
        int flushIntervalMs = 1000;
        int retentionDays = 30; // <= 0: never expire automatically
        // The rollup tiers' (rollup.h): each kept at least as long as the tier below it.
        int minuteRetentionDays = 90;
        int hourRetentionDays = 400;
        // While commits fail, pending blocks and histograms beyond this are dropped.
        qsizetype maxPendingBytes = 64 << 20;
        // The file next to the cache given back on a full disk (SpaceReserve); 0: none.
        qint64 reserveBytes = 1 << 20;
    };

    CacheWriter(Sqlite::Db db, SeriesRegistry *registry, const Options &options);
    ~CacheWriter(); // stop()s

    // On the calling thread, before the writer thread exists: loads the series into the
    // registry, the chunk catalogue and the tail, then starts the thread.
    bool start(QString *error);
    // Commits everything queued and joins the thread. Idempotent.
    void stop();

    void enqueue(const ResolvedBatch &batch);
    // Runs of samples (an import); waits while MaxQueuedRunSamples are queued, so a
    // reader faster than the writer cannot fill memory.
    void enqueueRuns(std::vector<SeriesRun> runs);
    void flush();
    // A new retention (<= 0: keep everything), applied by the writer at once and then
    // hourly; returns without waiting for the drop.
    void setRetentionDays(int days);
    void setTierRetentionDays(int minuteDays, int hourDays);
    // Stored with the next commit (at most flushIntervalMs later).
    void enqueueAlertEvents(const QList<AlertEvent> &events);
    void enqueueAcknowledgement(const AlertAcknowledgement &ack);
    int expireBefore(qint64 beforeMs);
    CacheStatus status() const;

private:
    struct SeriesState
    {
        std::vector<Sample> open; // unsealed samples, sorted, all in one UTC day
        std::vector<Sample> unsavedTail; // part of open not yet in the tail table
        qint64 sealedUntil = std::numeric_limits<qint64>::min();
        bool sealedKnown = false;
        qint64 lastChunkSeq = -1; // newest tail chunk written for the open samples
        // Some of the open samples are in committed tail chunks: the block they are
        // sealed into must not be dropped at the memory cap (those chunks go with it).
        bool committedTail = false;
    };
    struct PendingBlock
    {
        int seriesId;
        qint64 day, start, end;
        int count;
        QByteArray data;
        double min, max, sum; // NaN: no summary (all values NaN)
        qint64 tailDeleteUpTo; // the series' tail chunks this block replaces (-1: none)
        bool holdsCommittedSamples; // some samples are only on disk as those chunks
    };
    struct PendingHistogram
    {
        int seriesId;
        qint64 day, ts;
        QByteArray data;
    };
    struct DayStatements
    {
        Sqlite::Statement insertBlock;
        Sqlite::Statement insertHistogram;
    };
    struct ExpireRequest
    {
        qint64 beforeMs;
        std::promise<int> result;
    };

    void run();
    bool loadState(QString *error);
    void apply(const ResolvedBatch &batch);
    void apply(const SeriesRun &run);
    // Queues the series' row on first use; false (and its samples are dropped) for one
    // the cache cannot store (cachecheck.h: names or labels too long).
    bool ensureSeries(int id, const SeriesInfo &fallback);
    SeriesState &stateFor(int id);
    void append(int id, Sample sample, bool alreadyInTail);
    void seal(int id, SeriesState &state);
    bool commit();
    bool ensureDay(qint64 day, QList<qint64> *created);
    DayStatements &dayStatements(qint64 day);
    int expire(qint64 beforeMs);
    // Whole: the tables are dropped in this transaction (a full disk needs the space
    // now); otherwise the days leave the catalogue and the reclaimer frees them.
    enum class Drop
    {
        InSlices,
        Whole
    };
    int dropDays(qint64 beforeMs, Drop how);
    // One slice of freeing expired days; on an error, freeing waits for the next hour.
    void reclaimSlice();
    // After a failed commit: frees room on a full disk, then caps pending memory.
    void recoverFromFailedCommit();
    bool expireOldestDayForSpace();
    void capPendingMemory();
    void noteCommitFailure(const QString &error);
    void updateStatus();
    void maintenance();
    void expireTiers(qint64 nowMs);
    bool readStoredSamples(int id, qint64 fromMs, qint64 toMs, std::vector<Sample> *out);
    bool readMinuteSlots(int id, qint64 fromMs, qint64 toMs, std::vector<Aggregate> *out);
    bool hasStoredBlocks(int id, qint64 fromMs, qint64 toMs);
    bool readStoredHistograms(int id, std::optional<RollupTier> tier, qint64 fromMs, qint64 toMs,
                              std::vector<TimedHistogram> *out);
    bool reloadDays();

    Sqlite::Db m_db;
    // Declared after m_db: stopped (its hook removed) before the connection closes.
    WalCheckpointer m_checkpointer;
    SeriesRegistry *m_registry;
    const Options m_options;
    std::thread m_thread;
    std::optional<SpaceReserve> m_reserve; // writer thread only, once started

    // Shared with producers, guarded by m_mutex.
    std::mutex m_mutex;
    std::condition_variable m_wake; // to the writer
    std::condition_variable m_committed; // to flush()
    std::vector<ResolvedBatch> m_queue;
    std::vector<SeriesRun> m_runQueue;
    size_t m_queuedRunSamples = 0;
    std::condition_variable m_runsTaken; // to enqueueRuns()
    std::vector<ExpireRequest *> m_expireRequests;
    QList<AlertEvent> m_alertQueue;
    QList<AlertAcknowledgement> m_ackQueue;
    // flush() takes a ticket; the writer serves every ticket taken before its cycle
    // started, so a flush also waits out the cycle in progress (e.g. retention on open).
    quint64 m_flushTicket = 0;
    quint64 m_flushServed = 0;
    bool m_stopRequested = false;
    bool m_running = false;
    int m_retentionDays = 0; // from Options, then setRetentionDays()
    int m_minuteRetentionDays = 0, m_hourRetentionDays = 0; // likewise
    bool m_retentionChanged = false;

    // Writer-thread state (before start(): the starting thread's).
    Sqlite::Statement m_insertSeries, m_insertTail, m_deleteTail, m_insertRollup,
        m_insertRollupHistogram;
    std::optional<RollupBuilder> m_rollups; // once loadState() has the connection
    QSet<int> m_persistedSeries;
    std::unordered_map<int, SeriesState> m_series;
    QSet<int> m_dirtyTail;
    QSet<int> m_warnedDropped;
    QSet<int> m_unstorableSeries;
    bool m_warnedTime = false; // a batch outside CacheCheck's times was dropped
    std::vector<std::pair<int, SeriesInfo>> m_pendingSeries;
    std::vector<PendingBlock> m_pendingBlocks;
    qsizetype m_pendingBlockBytes = 0; // about what m_pendingBlocks holds
    std::vector<PendingHistogram> m_pendingHistograms;
    qsizetype m_pendingDataBytes = 0; // what pending blocks and histograms really hold
    QList<AlertEvent> m_pendingEvents;
    QList<AlertAcknowledgement> m_pendingAcks;
    QSet<qint64> m_days;
    std::optional<DayReclaimer> m_reclaimer; // once loadState() has the connection
    std::chrono::steady_clock::time_point m_reclaimPausedUntil {};
    std::unordered_map<qint64, DayStatements> m_dayStatements;
    qint64 m_newestTs = std::numeric_limits<qint64>::min();
    qint64 m_tailSeq = 0; // seq of the next tail chunk
    bool m_lastCommitFailed = false;
    int m_lastErrorCode = 0; // extended SQLite code of the last failed commit
    std::chrono::milliseconds m_retryDelay { 0 }; // 0: not backing off
    bool m_expiryTriedThisEpisode = false; // room was sought since the last good commit
    CacheStatus m_ownStatus; // the writer thread's; copied to m_status by updateStatus()

    mutable std::mutex m_statusMutex;
    CacheStatus m_status; // guarded by m_statusMutex
};

} // namespace Headroom
