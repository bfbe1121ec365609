// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The SQLite sample cache (see DESIGN.md, "The SQLite cache").
//
// One file; WAL; one writer thread owning the only write connection; readers on their
// own connections. Samples are buffered per series and sealed into fixed, compressed
// blocks in day-chunked tables; the unsealed recent tail is kept crash-safe in a small
// table. Retention drops whole day tables. A file that is not a Headroom cache, or one
// written by a newer schema, is refused and never modified.
#pragma once

#include "core/histogram.h"
#include "engine/cache/alerteventstore.h"
#include "engine/cache/cachestatus.h"
#include "engine/cache/rollup.h"
#include "engine/cache/seriesrun.h"
#include "engine/runtime/samplebus.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace Headroom {

class SeriesRegistry;

// How long the cache keeps what it collects, as the user sets it (--retention, the
// Settings menu): whole days, 1 to 400, 30 unless chosen.
constexpr int DefaultRetentionDays = 30;
constexpr int MinRetentionDays = 1;
constexpr int MaxRetentionDays = 400;
constexpr int DefaultMinuteRetentionDays = 90;
constexpr int DefaultHourRetentionDays = 400;

struct CacheOptions
{
    // Day chunks entirely older than now - retentionDays are dropped on open and hourly.
    // <= 0 keeps everything (tests of old timestamps; a recording is never trimmed).
    int retentionDays = DefaultRetentionDays;
    int flushIntervalMs = 1000; // how often the writer commits the recent tail
    // While commits fail (disk full, I/O error), the oldest pending blocks beyond this
    // are dropped and counted in status(), so memory stays bounded.
    qsizetype maxPendingBytes = 64 << 20;
    // Bytes kept allocated in PATH-reserve and given back when the disk is full, so that
    // the oldest day can still be dropped to make room (see SpaceReserve). 0: none.
    qint64 reserveBytes = 1 << 20;
    // How long the rollup tiers (rollup.h) are kept: days, each at least as long as the
    // tier below it (raw, minute, hour); <= 0 keeps a tier for good (as does a raw
    // retention <= 0 for every tier).
    int minuteRetentionDays = DefaultMinuteRetentionDays;
    int hourRetentionDays = DefaultHourRetentionDays;
};

class SampleCache : public SampleSink
{
public:
    static constexpr int SchemaVersion = 6;

    // Opens (creating when missing) the cache at path, loading its series into registry.
    // nullptr with *error naming the file and the reason when it cannot be used.
    // Missing directories are created 0700 and a new file 0600 whatever the umask (SQLite
    // gives its -wal and -shm the main file's mode); an existing file keeps its mode.
    static std::unique_ptr<SampleCache> open(const QString &path, SeriesRegistry *registry,
                                             QString *error, const CacheOptions &options = {});
    // Opens the cache at path as a recording: read-only, no writer, no retention, no
    // migration of the file and nothing created beside it (recordingaccess.h); its
    // series are loaded into registry. Writes (consume, alert events, acks, expiry) are
    // ignored. nullptr with *error naming the file and the reason when it cannot be read.
    static std::unique_ptr<SampleCache> openRecording(const QString &path, SeriesRegistry *registry,
                                                      QString *error);
    // $XDG_DATA_HOME/headroom/cache.sqlite (via QStandardPaths::GenericDataLocation).
    static QString defaultPath();

    ~SampleCache() override; // flushes and stops the writer

    QString path() const;
    bool isReadOnly() const;
    // How a recording is read ("read-only, in place", ...); empty for a writable cache.
    QString readMode() const;
    // The first and last timestamp of anything stored (samples, tails, histograms);
    // nullopt when the cache holds none or cannot be read.
    std::optional<std::pair<qint64, qint64>> span(QString *error = nullptr) const;
    // The distinct sources of the stored series, sorted (what a recording watched).
    QStringList sources() const;
    // The dashboards a saved recording holds (name, JSON as written), by name; none in a
    // cache that collects or a file older than schema 4. The JSON is untrusted input.
    QList<std::pair<QString, QByteArray>> dashboards(QString *error = nullptr) const;

    // SampleSink: queues the batch for the writer thread; never blocks on SQLite.
    void consume(const ResolvedBatch &batch) override;
    // Queues runs of samples (an import) for the writer; waits while the writer is
    // behind by more than a few million samples. Ignored by a recording.
    void writeRuns(std::vector<SeriesRun> runs);
    // Blocks until everything queued before the call is committed, or the commit failed
    // (status() then says why; what is pending stays queued for the retries).
    void flush();
    // How writes are going (disk full, dropped blocks); thread-safe, a copy.
    CacheStatus status() const;

    // Samples of one series with from <= ts <= to, oldest first. Thread-safe.
    // Sees what is committed (at most flushIntervalMs old; flush() to be sure): the live
    // ring buffers cover the most recent minutes. On a read error, *error is set and the
    // result is empty.
    std::vector<Sample> read(int seriesId, qint64 fromMs, qint64 toMs,
                             QString *error = nullptr) const;
    // As read(), for a range to be reduced to columns: a block whose span is at most
    // summaryMaxSpanMs (about a column) and that lies inside the range comes from its
    // summary in the series index, as two points (its minimum and its maximum), without
    // reading or decoding it; the rollup that keeps a week as fast as an hour. Blocks
    // written before schema 2 have no summary and are decoded.
    std::vector<Sample> readSummarized(int seriesId, qint64 fromMs, qint64 toMs,
                                       qint64 summaryMaxSpanMs, QString *error = nullptr) const;
    // The tier's aggregates of one series, its whole slots inside [from, to] only, and
    // the spans its rows cover there; empty where the file has no tiers (written before
    // schema 6).
    RollupRead readRollup(int seriesId, RollupTier tier, qint64 fromMs, qint64 toMs,
                          QString *error = nullptr) const;
    // The tier's merged histograms of a histogram series, one per slot with a row among
    // the whole slots inside [from, to], stamped at the slot's middle; each covers its
    // own slot (one lost in a crash is read from the polls).
    HistogramRollupRead readHistogramRollup(int seriesId, RollupTier tier, qint64 fromMs,
                                            qint64 toMs, QString *error = nullptr) const;
    // As readSummarized(), as aggregates: a summarized block is one (its count, sum, min
    // and max), a decoded sample one of count 1.
    std::vector<Aggregate> readBlockAggregates(int seriesId, qint64 fromMs, qint64 toMs,
                                               qint64 summaryMaxSpanMs,
                                               QString *error = nullptr) const;
    // Histograms of one histogram series with from <= ts <= to, oldest first; as read().
    std::vector<TimedHistogram> readHistograms(int seriesId, qint64 fromMs, qint64 toMs,
                                               QString *error = nullptr) const;

    // Alert events (schema 3): stored with the writer's next commit, read like samples.
    void recordAlertEvents(const QList<AlertEvent> &events);
    void acknowledgeAlert(const AlertAcknowledgement &ack);
    QList<AlertEvent> readAlertEvents(qint64 fromMs, qint64 toMs, QString *error = nullptr) const;
    // The newest event of each alert instance (rule x series), oldest first.
    QList<AlertEvent> readLatestAlertStates(QString *error = nullptr) const;

    // A new retention for this open cache (see CacheOptions), applied by the writer at
    // once and hourly after; does not wait. Ignored by a recording.
    void setRetentionDays(int days);
    void setTierRetentionDays(int minuteDays, int hourDays);
    // Drops every day chunk entirely older than beforeMs; returns how many were dropped.
    int expireBefore(qint64 beforeMs);
    // Day chunks present, as UTC day numbers since the epoch.
    QList<qint64> chunkDays() const;

private:
    SampleCache();
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Headroom
