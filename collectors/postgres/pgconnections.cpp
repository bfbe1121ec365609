// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgconnections.h"

#include "pgactivity.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

QByteArray PgConnectionsPart::query()
{
    // Client sessions: backend_type says so, or, for another role's session hidden from
    // us (no backend_type, no state), a role: aux processes have none.
    static_assert(MaxNamed == 10);
    return "WITH s AS (SELECT state, application_name, usename FROM pg_stat_activity"
           " WHERE backend_type = 'client backend'"
           " OR (backend_type IS NULL AND usesysid IS NOT NULL))"
           " SELECT 0, name, setting::int8 FROM pg_settings WHERE name IN ('max_connections',"
           " 'superuser_reserved_connections', 'reserved_connections')"
           " UNION ALL SELECT 1, coalesce(state, ''), count(*) FROM s GROUP BY 2"
           " UNION ALL (SELECT 2, coalesce(application_name, ''), count(*) FROM s GROUP BY 2"
           "  ORDER BY 3 DESC, 2 LIMIT 10)"
           " UNION ALL (SELECT 3, coalesce(usename::text, ''), count(*) FROM s GROUP BY 2"
           "  ORDER BY 3 DESC, 2 LIMIT 10)";
}

std::optional<PgConnectionsSnapshot> PgConnectionsPart::read(const PgResult &result)
{
    PgConnectionsSnapshot s;
    for (int r = 0; r < result.rows(); ++r) {
        const int kind = int(result.number(r, 0));
        const QString name = result.text(r, 1);
        const int count = int(result.number(r, 2));
        switch (kind) {
        case 0:
            if (name == "max_connections"_L1)
                s.maxConnections = count;
            else if (name == "superuser_reserved_connections"_L1)
                s.superuserReserved = count;
            else if (name == "reserved_connections"_L1)
                s.reserved = count;
            break;
        case 1:
            s.byState.append({ name, count });
            break;
        case 2:
            s.byApplication.append({ name, count });
            break;
        case 3:
            s.byUser.append({ name, count });
            break;
        default:
            break;
        }
    }
    if (s.maxConnections <= 0)
        return std::nullopt;
    const auto mostFirst = [](const std::pair<QString, int> &a, const std::pair<QString, int> &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    };
    std::sort(s.byApplication.begin(), s.byApplication.end(), mostFirst);
    std::sort(s.byUser.begin(), s.byUser.end(), mostFirst);
    if (s.byApplication.size() > MaxNamed)
        s.byApplication.resize(MaxNamed);
    if (s.byUser.size() > MaxNamed)
        s.byUser.resize(MaxNamed);
    return s;
}

void PgConnectionsPart::publish(const PgConnectionsSnapshot &snapshot, QSet<QString> *seenStates,
                                const QString &source, SampleBatch &batch)
{
    const QString sessions = PgActivitySampler::SessionsUnit;
    const auto add
        = [&](const QString &metric, const Labels &labels, const QString &unit, UseKind kind,
              double value) { batch.add({ source, metric, labels }, unit, Resource, kind, value); };
    int used = 0;
    for (const auto &[state, count] : snapshot.byState) {
        used += count;
        if (!state.isEmpty())
            seenStates->insert(state);
    }
    const int available
        = std::max(1, snapshot.maxConnections - snapshot.superuserReserved - snapshot.reserved);
    add(u"pg.connections.utilization"_s, {}, u"%"_s, UseKind::Utilization,
        std::min(100.0, 100.0 * used / available));
    add(u"pg.connections.used"_s, {}, sessions, UseKind::Info, used);
    add(u"pg.connections.available"_s, {}, sessions, UseKind::Info, available);
    add(u"pg.connections.max"_s, {}, sessions, UseKind::Info, snapshot.maxConnections);
    for (const QString &state : std::as_const(*seenStates)) {
        int count = 0;
        for (const auto &[name, n] : snapshot.byState)
            if (name == state)
                count += n;
        add(u"pg.connections.by_state"_s, { { u"state"_s, state } }, sessions, UseKind::Info,
            count);
    }
    for (const auto &[application, count] : snapshot.byApplication)
        add(u"pg.connections.by_application"_s, { { u"application"_s, application } }, sessions,
            UseKind::Info, count);
    for (const auto &[user, count] : snapshot.byUser)
        add(u"pg.connections.by_user"_s, { { u"user"_s, user } }, sessions, UseKind::Info, count);
}

void PgConnectionsPart::publishRefused(bool refused, const QString &source, SampleBatch &batch)
{
    batch.add({ source, RefusedMetric, {} }, QString(), Resource, UseKind::Errors, refused ? 1 : 0);
}

void PgConnectionsPart::collect(PgPoll &poll)
{
    const auto result = poll.run(u"connections"_s, query());
    if (!result)
        return;
    const auto snapshot = read(*result);
    if (!snapshot) {
        poll.warn(u"connections: max_connections not readable"_s);
        return;
    }
    publish(*snapshot, &m_seenStates, poll.source(), poll.result.batch);
    publishRefused(false, poll.source(), poll.result.batch);
}

} // namespace Headroom
