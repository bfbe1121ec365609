// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Checkpoints, the background writer, WAL and I/O by backend type, server-wide. Two
// queries a poll, three from PostgreSQL 16 on:
//  - pg_stat_checkpointer with pg_stat_bgwriter (17+), or pg_stat_bgwriter alone (older),
//    with checkpoint_timeout, max_wal_size, checkpoint_completion_target, and the WAL:
//    pg_stat_wal's counters (14+) and the WAL position (the insert position; on a
//    standby the replay position);
//  - pg_stat_io summed per backend type (16+).
// Series, resource "wal" (rates per second over the poll interval unless said):
//   pg.wal.bytes.rate                WAL written (B/s, Throughput): the WAL position's
//                                    advance (on a standby: replayed), on every version;
//                                    pg_stat_wal's wal_bytes reaches the view only as
//                                    backends flush their statistics (up to 10 s late),
//                                    a lagging, bursty rate
//   pg.wal.records.rate, .fpi.rate   records and full-page images (1/s, Info; 14+)
//   pg.wal.buffers_full.rate         WAL written because wal_buffers was full (1/s,
//                                    Info; 14+)
//   pg.checkpoints.timed.rate, .requested.rate
//                                    checkpoints started by checkpoint_timeout and by
//                                    request (WAL beyond max_wal_size, or a CHECKPOINT
//                                    command) over the last 15 minutes, per hour
//                                    (checkpoints/h, Info; from 1 minute of polls on)
//   pg.checkpoints.write_time.rate, .sync_time.rate
//                                    time checkpoints spent writing and syncing (ms/s,
//                                    Info)
//   pg.checkpoints.buffers.rate      buffers written by checkpoints (buffers/s, Info)
//   pg.bgwriter.buffers.rate         buffers written by the background writer
//   pg.bgwriter.maxwritten_clean.rate  its rounds stopped at bgwriter_lru_maxpages (1/s)
//   pg.buffers.backend_written.rate  buffers backends had to write themselves: before
//                                    17 buffers_backend, from 17 pg_stat_io's writes of
//                                    every backend type but the checkpointer and the
//                                    background writer (buffers/s, Info)
//   pg.buffers.alloc.rate            buffers allocated (buffers/s, Info)
//   pg.checkpoints.wal_forced        checkpoints the WAL volume forces per
//                                    checkpoint_timeout at the WAL rate of the last 30 s:
//                                    rate x checkpoint_timeout / (max_wal_size / (1 +
//                                    checkpoint_completion_target)), the WAL after which
//                                    the server requests one (x, Saturation; a primary
//                                    only): past 1 checkpoints come sooner than
//                                    checkpoint_timeout, "max_wal_size too small for this
//                                    write rate"
//   pg.checkpoints.timeout_s         checkpoint_timeout (s, Info)
//   pg.wal.max_wal_size              max_wal_size (B, Info)
// Per backend type (16+), labels {backend_type}, resource "pg" (B/s or 1/s, Throughput):
//   pg.io.read_bytes.rate, pg.io.write_bytes.rate, pg.io.extend_bytes.rate, pg.io.fsyncs.rate
// Counters that went down (pg_stat_reset_shared) give a gap, never a spike.
#pragma once

#include "collector/counterrate.h"
#include "pgpoll.h"

#include <QList>
#include <QString>
#include <deque>
#include <optional>

namespace Headroom {

struct PgCheckpointStats
{
    double timed = 0;
    double requested = 0;
    double writeTimeMs = 0;
    double syncTimeMs = 0;
    double checkpointBuffers = 0;
    double cleanBuffers = 0;
    double maxwrittenClean = 0;
    double allocBuffers = 0;
    std::optional<double> backendBuffers; // buffers_backend, or pg_stat_io's (17+)
    double timeoutS = 300;
    double maxWalSizeBytes = 1024.0 * 1024 * 1024;
    double completionTarget = 0.9;
    bool inRecovery = false;
    double walPosition = 0; // bytes from 0/0: insert position, or replayed on a standby
    // pg_stat_wal (14+; on a primary)
    std::optional<double> walBytes;
    std::optional<double> walRecords;
    std::optional<double> walFpi;
    std::optional<double> walBuffersFull;
};

struct PgIoRow
{
    QString backendType;
    double readBytes = 0;
    double writeBytes = 0;
    double extendBytes = 0;
    double fsyncs = 0;
};

class PgCheckpointsPart : public PgPart
{
public:
    static inline const QString Resource = QStringLiteral("wal");
    static constexpr qint64 CheckpointWindowMs = 15 * 60'000;
    static constexpr qint64 MinCheckpointWindowMs = 60'000;
    static constexpr qint64 WalWindowMs = 30'000;

    // One row: timed, requested, write ms, sync ms, checkpoint buffers, clean buffers,
    // maxwritten_clean, alloc buffers, backend buffers (NULL from 17 on), timeout s,
    // max_wal_size B, completion target, in recovery, WAL position B, then wal_bytes,
    // wal_records, wal_fpi, wal_buffers_full (NULL before 14 and in recovery).
    static QByteArray statsQuery(int serverVersion);
    // Per backend type: reads, writes, extends in bytes, fsyncs, and writes in buffers
    // (16+; empty before).
    static QByteArray ioQuery(int serverVersion);
    static std::optional<PgCheckpointStats> readStats(const PgResult &result);

    // Adds the series of one poll's readings at tsMs. io: per backend type (16+).
    void update(const PgCheckpointStats &stats, const QList<PgIoRow> &io, qint64 tsMs,
                const QString &source, SampleBatch &batch);

    void collect(PgPoll &poll) override;
    void resetBaselines() override;

private:
    CounterRate m_rates;
    // (ms, timed, requested) over the last CheckpointWindowMs; (ms, WAL bytes) over
    // WalWindowMs. Cleared when a counter goes down.
    std::deque<std::tuple<qint64, double, double>> m_checkpoints;
    std::deque<std::pair<qint64, double>> m_wal;
};

} // namespace Headroom
