// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Connections as a USE resource (resource "connections"): the server's client sessions
// against the slots an ordinary role may take, max_connections less
// superuser_reserved_connections and, from PostgreSQL 16 on, reserved_connections. One
// query a poll, server-wide:
//   pg.connections.utilization      % of those slots in use (Utilization; at most 100:
//                                   superusers in their reserved slots count as full)
//   pg.connections.used             client sessions, Headroom's own among them
//   pg.connections.available        the slots an ordinary role may take (Info)
//   pg.connections.max              max_connections (Info)
//   pg.connections.by_state{state}  client sessions by state; a state seen once is
//                                   published from then on, 0 while none is in it
//   pg.connections.by_application{application}
//   pg.connections.by_user{user}    the MaxNamed applications (application_name, empty
//                                   when unset) and roles holding most sessions: who
//                                   holds the slots (a finding of the resource names
//                                   the ones that grew; they raise nothing themselves)
// The collector adds pg.connections.refused (Errors): 1 while its own last attempt to
// connect was refused for want of a slot (SQLSTATE 53300: "sorry, too many clients
// already", or the remaining slots are reserved), 0 while connected.
// Walsenders and background workers have slots of their own and are not counted. Without
// pg_monitor (pg_read_all_stats) other roles' sessions show no state or backend type:
// those with a role are counted as client sessions (walsenders and workers of a role
// among them), without a state.
#pragma once

#include "pgpoll.h"

#include <QList>
#include <QSet>
#include <QString>
#include <optional>

namespace Headroom {

struct PgConnectionsSnapshot
{
    int maxConnections = 0;
    int superuserReserved = 0;
    int reserved = 0; // reserved_connections (16+), else 0
    QList<std::pair<QString, int>> byState; // "" for sessions whose state is hidden
    QList<std::pair<QString, int>> byApplication; // the top MaxNamed, most first
    QList<std::pair<QString, int>> byUser;
};

class PgConnectionsPart : public PgPart
{
public:
    static inline const QString Resource = QStringLiteral("connections");
    static inline const QString RefusedMetric = QStringLiteral("pg.connections.refused");
    static constexpr int MaxNamed = 10;

    // Rows (kind, name, count): kind 0 a setting (max_connections,
    // superuser_reserved_connections, reserved_connections), 1 sessions by state, 2 the
    // top MaxNamed applications, 3 the top MaxNamed roles.
    static QByteArray query();
    static std::optional<PgConnectionsSnapshot> read(const PgResult &result);
    // The series of a snapshot; seenStates keeps the states published before.
    static void publish(const PgConnectionsSnapshot &snapshot, QSet<QString> *seenStates,
                        const QString &source, SampleBatch &batch);
    // pg.connections.refused: 1 when refused, else 0.
    static void publishRefused(bool refused, const QString &source, SampleBatch &batch);

    void collect(PgPoll &poll) override;
    void resetBaselines() override { }

private:
    QSet<QString> m_seenStates;
};

} // namespace Headroom
