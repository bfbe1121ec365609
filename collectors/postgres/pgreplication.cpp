// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgreplication.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Where this server's WAL ends: the insert position on a primary, what it received on a
// standby (which cascades what it received). CASE keeps pg_current_wal_lsn() from
// running in recovery, where it fails.
constexpr char CurrentLsn[] = "(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_receive_lsn()"
                              " ELSE pg_current_wal_lsn() END)";

double walStatusCode(const QString &status)
{
    if (status == "extended"_L1)
        return 1;
    if (status == "unreserved"_L1)
        return 2;
    if (status == "lost"_L1)
        return 3;
    return 0;
}

std::optional<double> optionalNumber(const PgResult &result, int row, int column)
{
    bool ok = false;
    const double v = result.number(row, column, &ok);
    return ok ? std::optional(v) : std::nullopt;
}

} // namespace

QByteArray PgReplicationPart::standbysQuery()
{
    static_assert(MaxStandbys == 64);
    return QByteArray("SELECT coalesce(application_name, ''), coalesce(host(client_addr), ''),"
                      " coalesce(state, ''), coalesce(sync_state, ''),"
                      " greatest(pg_wal_lsn_diff(c.lsn, write_lsn), 0)::float8,"
                      " greatest(pg_wal_lsn_diff(c.lsn, flush_lsn), 0)::float8,"
                      " greatest(pg_wal_lsn_diff(c.lsn, replay_lsn), 0)::float8,"
                      " extract(epoch FROM write_lag)::float8,"
                      " extract(epoch FROM flush_lag)::float8,"
                      " extract(epoch FROM replay_lag)::float8"
                      " FROM pg_stat_replication, (SELECT ")
        + CurrentLsn
        + " AS lsn) c"
          " ORDER BY pg_wal_lsn_diff(c.lsn, replay_lsn) DESC NULLS LAST, application_name"
          " LIMIT 64";
}

QByteArray PgReplicationPart::slotsQuery(int serverVersion)
{
    static_assert(MaxSlots == 100);
    const QByteArray status = serverVersion >= 130000
        ? "coalesce(wal_status, ''), safe_wal_size::float8"
        : "'', NULL::float8";
    return "SELECT slot_name, slot_type, active, " + status
        + ", greatest(pg_wal_lsn_diff(c.lsn, restart_lsn), 0)::float8"
          " FROM pg_replication_slots, (SELECT "
        + CurrentLsn
        + " AS lsn) c"
          " ORDER BY pg_wal_lsn_diff(c.lsn, restart_lsn) DESC NULLS LAST, slot_name LIMIT 100";
}

QByteArray PgReplicationPart::replicaQuery(int serverVersion)
{
    // pg_get_wal_replay_pause_state() tells a requested pause (the startup process has
    // not reached a point to stop yet) from one in effect: both stop replay soon.
    const QByteArray paused = serverVersion >= 140000
        ? "pg_get_wal_replay_pause_state() <> 'not paused'"
        : "pg_is_wal_replay_paused()";
    return "SELECT r, pg_wal_lsn_diff(pg_last_wal_receive_lsn(), '0/0')::float8,"
           " pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::float8,"
           " extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8,"
           " CASE WHEN r THEN "
        + paused
        + " ELSE false END,"
          " w.status, w.sender_host"
          " FROM pg_is_in_recovery() AS r"
          " LEFT JOIN (SELECT status, sender_host FROM pg_stat_wal_receiver LIMIT 1) w ON r";
}

QString PgReplicationPart::standbyResource(const PgStandby &standby)
{
    return u"standby:"_s + standby.name
        + (standby.clientAddr.isEmpty() ? QString() : u" ("_s + standby.clientAddr + u')');
}

void PgReplicationPart::publishStandbys(const QList<PgStandby> &standbys, const QString &source,
                                        SampleBatch &batch)
{
    for (const PgStandby &s : standbys) {
        const QString resource = standbyResource(s);
        const Labels labels { { u"standby"_s, s.name }, { u"client_addr"_s, s.clientAddr } };
        const auto add
            = [&](const QString &metric, const QString &unit, UseKind kind, double value) {
                  batch.add({ source, metric, labels }, unit, resource, kind, value);
              };
        add(u"pg.replication.write_lag_bytes"_s, u"B"_s, UseKind::Saturation, s.writeLagBytes);
        add(u"pg.replication.flush_lag_bytes"_s, u"B"_s, UseKind::Saturation, s.flushLagBytes);
        add(u"pg.replication.replay_lag_bytes"_s, u"B"_s, UseKind::Saturation, s.replayLagBytes);
        // A lag time the server no longer shows is 0 once the bytes say it caught up; with
        // WAL still outstanding and no time measured yet, there is no figure.
        const auto lagTime
            = [&](const QString &metric, const std::optional<double> &seconds, double bytes) {
                  if (seconds)
                      add(metric, u"s"_s, UseKind::Saturation, std::max(0.0, *seconds));
                  else if (bytes <= 0)
                      add(metric, u"s"_s, UseKind::Saturation, 0);
              };
        lagTime(u"pg.replication.write_lag_s"_s, s.writeLagS, s.writeLagBytes);
        lagTime(u"pg.replication.flush_lag_s"_s, s.flushLagS, s.flushLagBytes);
        lagTime(u"pg.replication.replay_lag_s"_s, s.replayLagS, s.replayLagBytes);
        Labels state = labels;
        state.insert(u"state"_s, s.state);
        state.insert(u"sync_state"_s, s.syncState);
        batch.add({ source, u"pg.replication.standby"_s, state }, QString(), resource,
                  UseKind::Info, 1);
    }
}

void PgReplicationPart::publishSlots(const QList<PgSlot> &slots, const QString &source,
                                     SampleBatch &batch)
{
    for (const PgSlot &s : slots) {
        const QString resource = u"slot:"_s + s.name;
        const Labels labels { { u"slot"_s, s.name }, { u"type"_s, s.type } };
        const auto add
            = [&](const QString &metric, const QString &unit, UseKind kind, double value) {
                  batch.add({ source, metric, labels }, unit, resource, kind, value);
              };
        if (s.retainedBytes)
            add(u"pg.replication.slot.retained_bytes"_s, u"B"_s, UseKind::Saturation,
                *s.retainedBytes);
        add(u"pg.replication.slot.active"_s, QString(), UseKind::Info, s.active ? 1 : 0);
        if (!s.walStatus.isEmpty())
            add(u"pg.replication.slot.wal_status"_s, QString(), UseKind::Info,
                walStatusCode(s.walStatus));
        if (s.safeWalSize)
            add(u"pg.replication.slot.safe_wal_size"_s, u"B"_s, UseKind::Info,
                std::max(0.0, *s.safeWalSize));
    }
}

void PgReplicationPart::publishReplica(const PgReplicaStatus &status, double replayDelayS,
                                       const QString &source, SampleBatch &batch)
{
    const auto add = [&](const QString &metric, const Labels &labels, const QString &unit,
                         UseKind kind, double value) {
        batch.add({ source, metric, labels }, unit, ReplicaResource, kind, value);
    };
    add(u"pg.replica.unreplayed_bytes"_s, {}, u"B"_s, UseKind::Saturation,
        std::max(0.0, status.receivedLsn - status.replayedLsn));
    add(u"pg.replica.replay_delay_s"_s, {}, u"s"_s, UseKind::Saturation,
        std::max(0.0, replayDelayS));
    if (status.lastReplayAgeS)
        add(u"pg.replica.last_replay_age_s"_s, {}, u"s"_s, UseKind::Info,
            std::max(0.0, *status.lastReplayAgeS));
    add(u"pg.replica.replay_paused"_s, {}, QString(), UseKind::Errors, status.paused ? 1 : 0);
    add(u"pg.replica.receiving"_s, {}, QString(), UseKind::Info, status.receiving ? 1 : 0);
    if (!status.receiverStatus.isEmpty())
        add(u"pg.replica.wal_receiver"_s,
            { { u"status"_s, status.receiverStatus }, { u"sender"_s, status.sender } }, QString(),
            UseKind::Info, 1);
}

double PgReplicationPart::replayDelay(const PgReplicaStatus &status, qint64 nowMs)
{
    if (m_firstSeenMs < 0)
        m_firstSeenMs = nowMs;
    if (m_received.empty() || status.receivedLsn > m_received.back().second) {
        if (m_received.size() >= MaxHistory)
            m_received.pop_front();
        m_received.emplace_back(nowMs, status.receivedLsn);
    }
    // What was replayed no longer waits.
    while (m_received.size() > 1 && m_received.front().second <= status.replayedLsn
           && m_received[1].second <= status.replayedLsn)
        m_received.pop_front();
    if (status.receivedLsn <= status.replayedLsn)
        return 0;
    // The first position seen beyond what is replayed: WAL has waited since then.
    const auto waiting
        = std::find_if(m_received.cbegin(), m_received.cend(),
                       [&](const auto &seen) { return seen.second > status.replayedLsn; });
    const bool sinceFirstPoll = waiting == m_received.cbegin() && m_firstSeenMs == waiting->first;
    const double observed = waiting == m_received.cend() ? 0 : (nowMs - waiting->first) / 1000.0;
    if (!status.lastReplayAgeS)
        return observed;
    // Behind already at the first poll: how long, only the last replay's age can say.
    if (sinceFirstPoll)
        return *status.lastReplayAgeS;
    return std::min(*status.lastReplayAgeS, observed);
}

void PgReplicationPart::collect(PgPoll &poll)
{
    collectStandbys(poll);
    if (poll.failed())
        return;
    collectSlots(poll);
    if (poll.failed())
        return;
    collectReplica(poll);
}

void PgReplicationPart::collectStandbys(PgPoll &poll)
{
    const auto result = poll.run(u"pg_stat_replication"_s, standbysQuery());
    if (!result)
        return;
    QList<PgStandby> standbys;
    for (int r = 0; r < result->rows(); ++r) {
        PgStandby s;
        s.name = result->text(r, 0);
        s.clientAddr = result->text(r, 1);
        s.state = result->text(r, 2);
        s.syncState = result->text(r, 3);
        s.writeLagBytes = result->number(r, 4);
        s.flushLagBytes = result->number(r, 5);
        s.replayLagBytes = result->number(r, 6);
        s.writeLagS = optionalNumber(*result, r, 7);
        s.flushLagS = optionalNumber(*result, r, 8);
        s.replayLagS = optionalNumber(*result, r, 9);
        // Two walsenders of one standby name and address (a reconnect while the old one
        // ends): one series, the one further behind (they come sorted so).
        const bool seen = std::any_of(standbys.cbegin(), standbys.cend(), [&](const PgStandby &o) {
            return o.name == s.name && o.clientAddr == s.clientAddr;
        });
        if (!seen)
            standbys.append(std::move(s));
    }
    publishStandbys(standbys, poll.source(), poll.result.batch);
}

void PgReplicationPart::collectSlots(PgPoll &poll)
{
    const auto result
        = poll.run(u"pg_replication_slots"_s, slotsQuery(poll.connection.serverVersion()));
    if (!result)
        return;
    QList<PgSlot> slots;
    for (int r = 0; r < result->rows(); ++r) {
        PgSlot s;
        s.name = result->text(r, 0);
        s.type = result->text(r, 1);
        s.active = result->text(r, 2) == "t"_L1;
        s.walStatus = result->text(r, 3);
        s.safeWalSize = optionalNumber(*result, r, 4);
        s.retainedBytes = optionalNumber(*result, r, 5);
        slots.append(std::move(s));
    }
    publishSlots(slots, poll.source(), poll.result.batch);
}

void PgReplicationPart::collectReplica(PgPoll &poll)
{
    const auto result
        = poll.run(u"pg_stat_wal_receiver"_s, replicaQuery(poll.connection.serverVersion()));
    if (!result || result->rows() != 1 || result->text(0, 0) != "t"_L1) {
        m_received.clear();
        m_firstSeenMs = -1;
        return;
    }
    PgReplicaStatus status;
    status.receivedLsn = result->number(0, 1);
    status.replayedLsn = result->number(0, 2);
    // Nothing received by streaming yet (a standby restoring from an archive): replay is
    // all there is.
    if (result->isNull(0, 1))
        status.receivedLsn = status.replayedLsn;
    status.lastReplayAgeS = optionalNumber(*result, 0, 3);
    status.paused = result->text(0, 4) == "t"_L1;
    status.receiverStatus = result->text(0, 5);
    status.sender = result->text(0, 6);
    status.receiving = status.receiverStatus == "streaming"_L1;
    publishReplica(status, replayDelay(status, poll.ts), poll.source(), poll.result.batch);
}

} // namespace Headroom
