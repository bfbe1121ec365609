// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgcheckpoints.h"

#include "pgactivity.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr int StatsColumns = 18;

} // namespace

QByteArray PgCheckpointsPart::statsQuery(int serverVersion)
{
    // The counters, then what they are judged against, then the WAL.
    QByteArray counters;
    QByteArray from;
    if (serverVersion >= 170000) {
        counters = "c.num_timed, c.num_requested, c.write_time, c.sync_time, c.buffers_written,"
                   " b.buffers_clean, b.maxwritten_clean, b.buffers_alloc,"
                   " (SELECT sum(writes) FROM pg_stat_io WHERE object = 'relation'"
                   "  AND backend_type NOT IN ('checkpointer', 'background writer'))::float8";
        from = " FROM pg_stat_checkpointer c, pg_stat_bgwriter b";
    } else {
        counters = "b.checkpoints_timed, b.checkpoints_req, b.checkpoint_write_time,"
                   " b.checkpoint_sync_time, b.buffers_checkpoint, b.buffers_clean,"
                   " b.maxwritten_clean, b.buffers_alloc, b.buffers_backend::float8";
        from = " FROM pg_stat_bgwriter b";
    }
    const QByteArray settings
        = " (SELECT setting::float8 FROM pg_settings WHERE name = 'checkpoint_timeout'),"
          " (SELECT setting::float8 * 1048576 FROM pg_settings WHERE name = 'max_wal_size'),"
          " (SELECT setting::float8 FROM pg_settings"
          "  WHERE name = 'checkpoint_completion_target'),"
          " pg_is_in_recovery(),"
          " pg_wal_lsn_diff(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
          "  ELSE pg_current_wal_lsn() END, '0/0')::float8";
    QByteArray wal = ", NULL::float8, NULL::float8, NULL::float8, NULL::float8";
    if (serverVersion >= 140000) {
        wal = ", w.wal_bytes::float8, w.wal_records::float8, w.wal_fpi::float8,"
              " w.wal_buffers_full::float8";
        from += ", pg_stat_wal w";
    }
    return "SELECT " + counters + "," + settings + wal + from;
}

QByteArray PgCheckpointsPart::ioQuery(int serverVersion)
{
    if (serverVersion < 160000)
        return {};
    // op_bytes, one block per operation, until 18 counts bytes itself.
    const QByteArray bytes = serverVersion >= 180000
        ? "coalesce(sum(read_bytes)::float8, 0), coalesce(sum(write_bytes)::float8, 0),"
          " coalesce(sum(extend_bytes)::float8, 0)"
        : "coalesce(sum(reads * op_bytes)::float8, 0), coalesce(sum(writes * op_bytes)::float8, 0),"
          " coalesce(sum(extends * op_bytes)::float8, 0)";
    return "SELECT backend_type, " + bytes
        + ", coalesce(sum(fsyncs)::float8, 0)"
          " FROM pg_stat_io GROUP BY backend_type ORDER BY backend_type LIMIT 50";
}

std::optional<PgCheckpointStats> PgCheckpointsPart::readStats(const PgResult &result)
{
    if (result.rows() != 1 || result.columns() != StatsColumns)
        return std::nullopt;
    PgCheckpointStats s;
    bool ok = true;
    const auto required = [&](int column) {
        bool cell = false;
        const double v = result.number(0, column, &cell);
        ok = ok && cell;
        return v;
    };
    const auto optional = [&](int column) -> std::optional<double> {
        bool cell = false;
        const double v = result.number(0, column, &cell);
        return cell ? std::optional(v) : std::nullopt;
    };
    s.timed = required(0);
    s.requested = required(1);
    s.writeTimeMs = required(2);
    s.syncTimeMs = required(3);
    s.checkpointBuffers = required(4);
    s.cleanBuffers = required(5);
    s.maxwrittenClean = required(6);
    s.allocBuffers = required(7);
    s.backendBuffers = optional(8);
    s.timeoutS = required(9);
    s.maxWalSizeBytes = required(10);
    s.completionTarget = required(11);
    s.inRecovery = result.text(0, 12) == "t"_L1;
    s.walPosition = required(13);
    s.walBytes = optional(14);
    s.walRecords = optional(15);
    s.walFpi = optional(16);
    s.walBuffersFull = optional(17);
    if (!ok)
        return std::nullopt;
    return s;
}

void PgCheckpointsPart::resetBaselines()
{
    m_rates.clear();
    m_checkpoints.clear();
    m_wal.clear();
}

void PgCheckpointsPart::update(const PgCheckpointStats &s, const QList<PgIoRow> &io, qint64 tsMs,
                               const QString &source, SampleBatch &batch)
{
    const auto add = [&](const QString &metric, const QString &unit, UseKind kind, double value) {
        batch.add({ source, metric, {} }, unit, Resource, kind, value);
    };
    const auto rate
        = [&](const QString &metric, const QString &unit, UseKind kind, double counter) {
              if (const auto r = m_rates.update(metric, counter, tsMs))
                  add(metric, unit, kind, *r);
          };
    // The WAL by its position's advance, exact at the moment it is read: pg_stat_wal's
    // wal_bytes reaches the view only when each backend flushes its statistics (at most
    // once a second while busy, 10 s after it went idle), so a rate of it lags and comes
    // in bursts. Its other counters have no such twin and are read as they are.
    const bool walStats = s.walBytes.has_value() && !s.inRecovery;
    const double walCounter = s.walPosition;
    rate(u"pg.wal.bytes.rate"_s, u"B/s"_s, UseKind::Throughput, walCounter);
    if (walStats) {
        if (s.walRecords)
            rate(u"pg.wal.records.rate"_s, u"1/s"_s, UseKind::Info, *s.walRecords);
        if (s.walFpi)
            rate(u"pg.wal.fpi.rate"_s, u"1/s"_s, UseKind::Info, *s.walFpi);
        if (s.walBuffersFull)
            rate(u"pg.wal.buffers_full.rate"_s, u"1/s"_s, UseKind::Info, *s.walBuffersFull);
    }
    rate(u"pg.checkpoints.write_time.rate"_s, u"ms/s"_s, UseKind::Info, s.writeTimeMs);
    rate(u"pg.checkpoints.sync_time.rate"_s, u"ms/s"_s, UseKind::Info, s.syncTimeMs);
    rate(u"pg.checkpoints.buffers.rate"_s, u"buffers/s"_s, UseKind::Info, s.checkpointBuffers);
    rate(u"pg.bgwriter.buffers.rate"_s, u"buffers/s"_s, UseKind::Info, s.cleanBuffers);
    rate(u"pg.bgwriter.maxwritten_clean.rate"_s, u"1/s"_s, UseKind::Info, s.maxwrittenClean);
    if (s.backendBuffers)
        rate(u"pg.buffers.backend_written.rate"_s, u"buffers/s"_s, UseKind::Info,
             *s.backendBuffers);
    rate(u"pg.buffers.alloc.rate"_s, u"buffers/s"_s, UseKind::Info, s.allocBuffers);
    add(u"pg.checkpoints.timeout_s"_s, u"s"_s, UseKind::Info, s.timeoutS);
    add(u"pg.wal.max_wal_size"_s, u"B"_s, UseKind::Info, s.maxWalSizeBytes);

    // Checkpoints are rare events: counted over a quarter of an hour, per hour.
    if (!m_checkpoints.empty()
        && (s.timed < std::get<1>(m_checkpoints.back())
            || s.requested < std::get<2>(m_checkpoints.back())
            || tsMs <= std::get<0>(m_checkpoints.back())))
        m_checkpoints.clear(); // a reset, or time stood still
    m_checkpoints.emplace_back(tsMs, s.timed, s.requested);
    while (m_checkpoints.size() > 2 && std::get<0>(m_checkpoints[1]) <= tsMs - CheckpointWindowMs)
        m_checkpoints.pop_front();
    const auto &[firstMs, firstTimed, firstRequested] = m_checkpoints.front();
    const qint64 spanMs = tsMs - firstMs;
    if (spanMs >= MinCheckpointWindowMs) {
        const double perHour = 3'600'000.0 / double(spanMs);
        add(u"pg.checkpoints.timed.rate"_s, u"checkpoints/h"_s, UseKind::Info,
            (s.timed - firstTimed) * perHour);
        add(u"pg.checkpoints.requested.rate"_s, u"checkpoints/h"_s, UseKind::Info,
            (s.requested - firstRequested) * perHour);
    }

    // How often the WAL volume forces a checkpoint, per checkpoint_timeout.
    if (!m_wal.empty() && (walCounter < m_wal.back().second || tsMs <= m_wal.back().first))
        m_wal.clear();
    m_wal.emplace_back(tsMs, walCounter);
    while (m_wal.size() > 2 && m_wal[1].first <= tsMs - WalWindowMs)
        m_wal.pop_front();
    const qint64 walSpanMs = tsMs - m_wal.front().first;
    if (!s.inRecovery && walSpanMs > 0 && s.maxWalSizeBytes > 0 && s.timeoutS > 0) {
        const double walRate = (walCounter - m_wal.front().second) * 1000.0 / double(walSpanMs);
        const double perCheckpoint = s.maxWalSizeBytes / (1.0 + std::max(0.0, s.completionTarget));
        add(u"pg.checkpoints.wal_forced"_s, u"x"_s, UseKind::Saturation,
            std::max(0.0, walRate * s.timeoutS / perCheckpoint));
    }

    for (const PgIoRow &row : io) {
        const Labels labels { { u"backend_type"_s, row.backendType } };
        const auto ioRate = [&](const QString &metric, const QString &unit, double counter) {
            if (const auto r = m_rates.update(metric + u'\x1f' + row.backendType, counter, tsMs))
                batch.add({ source, metric, labels }, unit, PgActivitySampler::Resource,
                          UseKind::Throughput, *r);
        };
        ioRate(u"pg.io.read_bytes.rate"_s, u"B/s"_s, row.readBytes);
        ioRate(u"pg.io.write_bytes.rate"_s, u"B/s"_s, row.writeBytes);
        ioRate(u"pg.io.extend_bytes.rate"_s, u"B/s"_s, row.extendBytes);
        ioRate(u"pg.io.fsyncs.rate"_s, u"1/s"_s, row.fsyncs);
    }
}

void PgCheckpointsPart::collect(PgPoll &poll)
{
    const int version = poll.connection.serverVersion();
    const auto result = poll.run(u"checkpoints and WAL"_s, statsQuery(version));
    if (!result)
        return;
    const auto stats = readStats(*result);
    if (!stats) {
        poll.warn(u"checkpoints and WAL: unexpected answer"_s);
        return;
    }
    QList<PgIoRow> io;
    const QByteArray ioSql = ioQuery(version);
    if (!ioSql.isEmpty()) {
        const auto rows = poll.run(u"pg_stat_io"_s, ioSql);
        if (poll.failed())
            return;
        for (int r = 0; rows && r < rows->rows(); ++r)
            io.append({ rows->text(r, 0), rows->number(r, 1), rows->number(r, 2),
                        rows->number(r, 3), rows->number(r, 4) });
    }
    update(*stats, io, poll.ts, poll.source(), poll.result.batch);
}

} // namespace Headroom
