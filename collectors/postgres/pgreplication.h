// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Replication, on both sides. Three queries a poll, server-wide.
//
// The standbys this server sends WAL to (pg_stat_replication: a primary, or a standby
// cascading to others), per standby, labels {standby = application_name, client_addr
// (empty over a Unix socket)}, resource "standby:<application_name>" ("standby:name
// (address)" when it has an address), at most MaxStandbys, the furthest behind first:
//   pg.replication.write_lag_bytes, .flush_lag_bytes, .replay_lag_bytes
//                          WAL written here and not yet written, flushed, replayed
//                          there (B, Saturation)
//   pg.replication.write_lag_s, .flush_lag_s, .replay_lag_s
//                          how long ago the WAL it last wrote, flushed, replayed was
//                          written here (s, Saturation): the server's own lag times,
//                          0 when it has caught up and the server shows none
//   pg.replication.standby{standby, client_addr, state, sync_state}
//                          1 (Info): its state (startup, catchup, streaming, backup,
//                          stopping) and sync_state (async, potential, sync, quorum)
// Per replication slot, labels {slot, type (physical, logical)}, resource
// "slot:<slot_name>", at most MaxSlots, the most WAL retained first:
//   pg.replication.slot.retained_bytes
//                          WAL kept for it: from its restart_lsn to the current
//                          position (B, Saturation)
//   pg.replication.slot.active   1 while a consumer is connected, else 0 (Info)
//   pg.replication.slot.wal_status
//                          0 reserved, 1 extended (past max_wal_size), 2 unreserved
//                          (removed at the next checkpoint), 3 lost (Info; 13+)
//   pg.replication.slot.safe_wal_size
//                          WAL that may still be written before the slot is lost (B,
//                          Info; only with max_slot_wal_keep_size set, 13+)
// This server as a standby (pg_is_in_recovery()), resource "replica":
//   pg.replica.unreplayed_bytes  WAL received and not yet replayed (B, Saturation)
//   pg.replica.replay_delay_s    how long replay has been behind what was received
//                                (s, Saturation): 0 when it has replayed all it
//                                received, else the age of the last transaction it
//                                replayed, but no more than since Headroom first saw
//                                WAL waiting (so a record received a moment ago on an
//                                idle primary is no hour-long delay)
//   pg.replica.last_replay_age_s now - pg_last_xact_replay_timestamp() (s, Info): on an
//                                idle primary it grows with nothing wrong
//   pg.replica.replay_paused     1 while replay is paused or a pause is requested
//                                (pg_get_wal_replay_pause_state(), 14+; else
//                                pg_is_wal_replay_paused()), else 0 (Errors)
//   pg.replica.receiving         1 while a WAL receiver streams from the primary, else 0
//                                (Info; a standby fed from an archive has none)
//   pg.replica.wal_receiver{status, sender}
//                                1 (Info): pg_stat_wal_receiver's status and
//                                sender_host, while there is a WAL receiver
// pg_stat_replication's columns, the slots' and pg_stat_wal_receiver's need pg_monitor
// (pg_read_all_stats) for other roles' walsenders; without it the rows are empty.
#pragma once

#include "pgpoll.h"

#include <QList>
#include <QString>
#include <deque>
#include <optional>

namespace Headroom {

struct PgStandby
{
    QString name; // application_name
    QString clientAddr; // empty over a Unix socket
    QString state;
    QString syncState;
    double writeLagBytes = 0;
    double flushLagBytes = 0;
    double replayLagBytes = 0;
    // The server's lag times; nullopt while it has none (it shows NULL once caught up).
    std::optional<double> writeLagS;
    std::optional<double> flushLagS;
    std::optional<double> replayLagS;
};

struct PgSlot
{
    QString name;
    QString type;
    bool active = false;
    QString walStatus; // empty before 13
    std::optional<double> retainedBytes; // nullopt without a restart_lsn
    std::optional<double> safeWalSize;
};

struct PgReplicaStatus
{
    double receivedLsn = 0; // bytes from 0/0
    double replayedLsn = 0;
    std::optional<double> lastReplayAgeS;
    bool paused = false;
    bool receiving = false;
    QString receiverStatus; // empty without a WAL receiver
    QString sender;
};

class PgReplicationPart : public PgPart
{
public:
    static constexpr int MaxStandbys = 64;
    static constexpr int MaxSlots = 100;
    static inline const QString ReplicaResource = QStringLiteral("replica");

    // Columns: application_name, client address, state, sync_state, write, flush and
    // replay lag in bytes, write, flush and replay lag in s (NULL: none shown).
    static QByteArray standbysQuery();
    // Columns: slot_name, slot_type, active, wal_status, retained bytes, safe_wal_size;
    // wal_status and safe_wal_size NULL before 13 (`serverVersion`).
    static QByteArray slotsQuery(int serverVersion);
    // One row: in recovery, received and replayed LSN as bytes, last replay age s,
    // paused, the WAL receiver's status and sender (NULL without one).
    static QByteArray replicaQuery(int serverVersion);

    static QString standbyResource(const PgStandby &standby);
    static void publishStandbys(const QList<PgStandby> &standbys, const QString &source,
                                SampleBatch &batch);
    static void publishSlots(const QList<PgSlot> &slots, const QString &source, SampleBatch &batch);
    // replayDelayS: as the header says, from replayDelay().
    static void publishReplica(const PgReplicaStatus &status, double replayDelayS,
                               const QString &source, SampleBatch &batch);

    // The replay delay of status at nowMs (see pg.replica.replay_delay_s), remembering
    // when each received position was first seen: a bounded history of (ms, received).
    double replayDelay(const PgReplicaStatus &status, qint64 nowMs);

    void collect(PgPoll &poll) override;
    void resetBaselines() override
    {
        m_received.clear();
        m_firstSeenMs = -1;
    }

private:
    void collectStandbys(PgPoll &poll);
    void collectSlots(PgPoll &poll);
    void collectReplica(PgPoll &poll);

    // When each received position was first seen, oldest first (at most MaxHistory).
    std::deque<std::pair<qint64, double>> m_received;
    qint64 m_firstSeenMs = -1; // the first poll that found this server a standby
    static constexpr size_t MaxHistory = 4096;
};

} // namespace Headroom
