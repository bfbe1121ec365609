// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgmaintenance.h"

#include "pgactivity.h"
#include "pgstatementtext.h"

#include <algorithm>
#include <string_view>
#include <tuple>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// One progress view as rows of the common shape. `command` is SQL choosing the name,
// `done` and `total` the view's columns for the progress of the phase.
QByteArray progressRows(const QByteArray &view, const QByteArray &command, const QByteArray &done,
                        const QByteArray &total)
{
    // A relation of another database cannot be named from here: its oid, never the
    // name of whatever has that oid in ours.
    return "SELECT p.pid, " + command
        + ", coalesce(p.datname::text, ''),"
          " coalesce(CASE WHEN p.datname = current_database() THEN p.relid::regclass::text"
          " ELSE p.relid::text END, ''),"
          " coalesce(p.phase, ''), "
        + done + ", " + total
        + ", coalesce(extract(epoch FROM now() - a.query_start)::float8, 0)"
          " FROM "
        + view + " p LEFT JOIN pg_stat_activity a ON a.pid = p.pid";
}

} // namespace

const QStringList &PgMaintenancePart::commandNames()
{
    static const QStringList names { u"vacuum"_s, u"autovacuum"_s, u"analyze"_s, u"autoanalyze"_s,
                                     u"create_index"_s };
    return names;
}

QByteArray PgMaintenancePart::progressQuery(int serverVersion)
{
    // Autovacuum's commands are told apart by the backend they run in.
    const QByteArray byAutovacuum = "CASE WHEN a.backend_type = 'autovacuum worker'";
    QByteArray sql = progressRows("pg_stat_progress_vacuum",
                                  byAutovacuum + " THEN 'autovacuum' ELSE 'vacuum' END",
                                  "p.heap_blks_scanned", "p.heap_blks_total");
    if (serverVersion >= 130000)
        sql += " UNION ALL "
            + progressRows("pg_stat_progress_analyze",
                           byAutovacuum + " THEN 'autoanalyze' ELSE 'analyze' END",
                           "p.sample_blks_scanned", "p.sample_blks_total");
    if (serverVersion >= 120000)
        sql += " UNION ALL "
            + progressRows("pg_stat_progress_create_index", "'create_index'",
                           "CASE WHEN p.blocks_total > 0 THEN p.blocks_done ELSE p.tuples_done END",
                           "CASE WHEN p.blocks_total > 0 THEN p.blocks_total"
                           " ELSE p.tuples_total END");
    return sql;
}

QByteArray PgMaintenancePart::horizonQuery()
{
    // Our own session holds an xmin while it runs this, and so does Headroom's wait
    // sampler (or another Headroom) for the few ms of a statement: left out by pid and
    // by the marker their statements start with. age() counts xids from the next one to
    // be assigned, so an idle server's horizon ages slowly.
    static_assert(std::string_view(OwnStatementMarker) == "/* headroom */ ");
    return "SELECT"
           " (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'),"
           " current_setting('autovacuum_max_workers')::int,"
           " (SELECT max(age(backend_xmin)) FROM pg_stat_activity"
           "  WHERE backend_xmin IS NOT NULL AND pid <> pg_backend_pid()"
           "  AND query NOT LIKE '/* headroom */%'),"
           " (SELECT max(age(transaction)) FROM pg_prepared_xacts),"
           " (SELECT max(greatest(age(xmin), age(catalog_xmin))) FROM pg_replication_slots),"
           " o.pid, coalesce(o.application_name, ''), coalesce(o.usename::text, ''),"
           " coalesce(o.state, ''),"
           " coalesce(extract(epoch FROM now() - o.xact_start)::float8, 0),"
           " left(coalesce(o.query, ''), 4000)"
           " FROM (VALUES (1)) AS one (x) LEFT JOIN LATERAL ("
           "  SELECT pid, application_name, usename, state, xact_start, query"
           "  FROM pg_stat_activity WHERE backend_xmin IS NOT NULL AND pid <> pg_backend_pid()"
           "  AND query NOT LIKE '/* headroom */%'"
           "  ORDER BY age(backend_xmin) DESC, pid LIMIT 1) o ON true";
}

void PgMaintenancePart::publish(const PgMaintenance &m, const QString &source, SampleBatch &batch)
{
    const QString resource = PgActivitySampler::Resource;
    const QString sessions = PgActivitySampler::SessionsUnit;
    for (const QString &command : commandNames()) {
        const auto running
            = std::count_if(m.commands.cbegin(), m.commands.cend(),
                            [&](const PgMaintenanceCommand &c) { return c.command == command; });
        batch.add({ source, u"pg.maintenance.running"_s, { { u"command"_s, command } } }, sessions,
                  resource, UseKind::Info, double(running));
    }
    for (qsizetype i = 0; i < std::min<qsizetype>(m.commands.size(), MaxCommands); ++i) {
        const PgMaintenanceCommand &c = m.commands.at(i);
        Labels labels { { u"pid"_s, QString::number(c.pid) },
                        { u"command"_s, c.command },
                        { u"datname"_s, c.database },
                        { u"table"_s, c.table } };
        if (c.total > 0)
            batch.add({ source, u"pg.maintenance.progress"_s, labels }, u"%"_s, resource,
                      UseKind::Info, std::clamp(100.0 * c.done / c.total, 0.0, 100.0));
        labels.insert(u"phase"_s, c.phase);
        batch.add({ source, u"pg.maintenance.elapsed_s"_s, labels }, u"s"_s, resource,
                  UseKind::Info, std::max(0.0, c.elapsedS));
    }
    batch.add({ source, u"pg.autovacuum.workers"_s, {} }, sessions, resource, UseKind::Info,
              m.autovacuumWorkers);
    if (m.autovacuumMaxWorkers > 0)
        batch.add({ source, u"pg.autovacuum.busy"_s, {} }, u"%"_s, resource, UseKind::Utilization,
                  100.0 * m.autovacuumWorkers / m.autovacuumMaxWorkers);
    const auto horizon = [&](const QString &holder, const std::optional<double> &age) {
        if (age)
            batch.add({ source, u"pg.xmin.horizon_age"_s, { { u"holder"_s, holder } } }, u"xids"_s,
                      resource, UseKind::Info, *age);
    };
    horizon(u"session"_s, m.sessionHorizonAge);
    horizon(u"prepared"_s, m.preparedHorizonAge);
    horizon(u"slot"_s, m.slotHorizonAge);
    if (const auto &o = m.oldestSession)
        batch.add({ source,
                    u"pg.xmin.oldest_xact_age_s"_s,
                    { { u"pid"_s, QString::number(o->pid) },
                      { u"application"_s, o->application },
                      { u"user"_s, o->user },
                      { u"state"_s, o->state },
                      { u"query"_s, normalizeStatementText(o->query) } } },
                  u"s"_s, resource, UseKind::Info, std::max(0.0, o->xactAgeS));
}

void PgMaintenancePart::collect(PgPoll &poll)
{
    PgMaintenance m;
    const auto progress
        = poll.run(u"pg_stat_progress_*"_s, progressQuery(poll.connection.serverVersion()));
    if (!progress)
        return;
    for (int r = 0; r < progress->rows(); ++r) {
        PgMaintenanceCommand c;
        c.pid = progress->text(r, 0).toInt();
        c.command = progress->text(r, 1);
        c.database = progress->text(r, 2);
        c.table = progress->text(r, 3);
        c.phase = progress->text(r, 4);
        c.done = progress->number(r, 5);
        c.total = progress->number(r, 6);
        c.elapsedS = progress->number(r, 7);
        if (c.pid > 0 && commandNames().contains(c.command))
            m.commands.append(std::move(c));
    }
    std::sort(m.commands.begin(), m.commands.end(),
              [](const PgMaintenanceCommand &a, const PgMaintenanceCommand &b) {
                  return std::tie(a.pid, a.command) < std::tie(b.pid, b.command);
              });
    const auto horizon = poll.run(u"xmin horizon"_s, horizonQuery());
    if (!horizon || horizon->rows() != 1)
        return;
    m.autovacuumWorkers = int(horizon->number(0, 0));
    m.autovacuumMaxWorkers = int(horizon->number(0, 1));
    const auto age = [&](int column) -> std::optional<double> {
        bool ok = false;
        const double v = horizon->number(0, column, &ok);
        return ok ? std::optional(v) : std::nullopt;
    };
    m.sessionHorizonAge = age(2);
    m.preparedHorizonAge = age(3);
    m.slotHorizonAge = age(4);
    if (!horizon->isNull(0, 5)) {
        PgXminHolder o;
        o.pid = horizon->text(0, 5).toInt();
        o.application = horizon->text(0, 6);
        o.user = horizon->text(0, 7);
        o.state = horizon->text(0, 8);
        o.xactAgeS = horizon->number(0, 9);
        o.query = horizon->text(0, 10);
        m.oldestSession = o;
    }
    publish(m, poll.source(), poll.result.batch);
}

} // namespace Headroom
