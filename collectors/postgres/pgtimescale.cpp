// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgtimescale.h"

#include "pgsqllexer.h"
#include "pgstatements.h"
#include "pgstatementtext.h"

namespace Headroom {

using namespace Qt::StringLiterals;

std::optional<QString> deleteTarget(const QString &sql)
{
    const QList<SqlToken> tokens = lexSql(sql).tokens;
    qsizetype at = 0;
    const auto word = [&](QLatin1StringView w) {
        if (at < tokens.size() && tokens[at].kind == SqlToken::Kind::Name && tokens[at].text == w) {
            ++at;
            return true;
        }
        return false;
    };
    if (!word("delete"_L1) || !word("from"_L1))
        return std::nullopt;
    word("only"_L1);
    if (at >= tokens.size() || !tokens[at].isName())
        return std::nullopt;
    QString name = tokens[at++].text;
    if (at + 1 < tokens.size() && tokens[at].kind == SqlToken::Kind::Symbol
        && tokens[at].text == "."_L1 && tokens[at + 1].isName())
        name += u'.' + tokens[at + 1].text;
    return name;
}

namespace {
// The hypertable a DELETE's target names: "schema.table" exactly, or a bare table name
// as the search path would most likely find it (public first).
const PgHypertable *hypertableNamed(const QList<PgHypertable> &hypertables, const QString &target)
{
    const PgHypertable *found = nullptr;
    for (const PgHypertable &h : hypertables) {
        if (h.name == target)
            return &h;
        if (!target.contains(u'.') && h.name.section(u'.', 1) == target
            && (!found || h.name.startsWith(u"public."_s)))
            found = &h;
    }
    return found;
}
} // namespace

void PgTimescaleActivity::update(const PgTimescale &snapshot, qint64 tsMs, const QString &source,
                                 SampleBatch &batch)
{
    for (const PgHypertable &h : snapshot.hypertables) {
        const Labels labels { { u"hypertable"_s, h.name } };
        const QString resource = u"shardset:"_s + h.name;
        batch.add({ source, u"pg.hypertable.chunks"_s, labels }, u"chunks"_s, resource,
                  UseKind::Info, double(h.chunks));
        batch.add({ source, u"pg.hypertable.bytes"_s, labels }, u"B"_s, resource, UseKind::Info,
                  h.bytes);
        if (h.compressedBefore > 0 && h.compressedAfter > 0)
            batch.add({ source, u"pg.hypertable.compression_ratio"_s, labels }, QString(), resource,
                      UseKind::Info, h.compressedBefore / h.compressedAfter);
    }

    for (const PgRunningDelete &d : snapshot.deletes) {
        const std::optional<QString> target = deleteTarget(d.query);
        const PgHypertable *h = target ? hypertableNamed(snapshot.hypertables, *target) : nullptr;
        if (!h)
            continue;
        const Labels labels { { u"hypertable"_s, h->name },
                              { u"pid"_s, QString::number(d.pid) },
                              { u"user"_s, d.user },
                              { u"query"_s, normalizeStatementText(d.query) } };
        batch.add({ source, u"pg.hypertable.delete_s"_s, labels }, u"s"_s, u"shardset:"_s + h->name,
                  UseKind::Info, d.seconds);
    }

    const QString resource = u"db:"_s + snapshot.database;
    int failing = 0;
    for (const PgTimescaleJob &job : snapshot.jobs) {
        const Labels labels { { u"job"_s, job.name }, { u"hypertable"_s, job.hypertable } };
        const QString key = QString::number(job.id);
        if (const auto runs = m_counters.update(key + u"/runs"_s, job.runs, tsMs))
            batch.add({ source, u"pg.timescale.job.runs.rate"_s, labels }, u"1/s"_s, resource,
                      UseKind::Throughput, *runs);
        if (const auto failures = m_counters.update(key + u"/failures"_s, job.failures, tsMs))
            batch.add({ source, u"pg.timescale.job.failures.rate"_s, labels }, u"1/s"_s, resource,
                      UseKind::Errors, *failures);
        batch.add({ source, u"pg.timescale.job.failing"_s, labels }, u"jobs"_s, resource,
                  UseKind::Errors, job.lastFailed ? 1.0 : 0.0);
        if (job.lastDurationS >= 0)
            batch.add({ source, u"pg.timescale.job.last_duration_s"_s, labels }, u"s"_s, resource,
                      UseKind::Info, job.lastDurationS);
        failing += job.lastFailed ? 1 : 0;
    }
    batch.add({ source, u"pg.timescale.jobs.failing"_s, {} }, u"jobs"_s, resource, UseKind::Errors,
              double(failing));
}

QByteArray PgTimescalePart::hypertablesQuery(const QString &extensionSchema)
{
    const QByteArray schema = PgStatementsPart::quoteIdentifier(extensionSchema).toUtf8();
    // The compression statistics only of hypertables with compression on: a filter on
    // the outer row alone gates the function scan, which then never runs for the rest.
    QByteArray sql
        = "SELECT h.hypertable_schema || '.' || h.hypertable_name, h.num_chunks,"
          " coalesce(%s.hypertable_size(h.rel), 0),"
          " coalesce(c.before, 0), coalesce(c.after, 0)"
          " FROM (SELECT *, format('%I.%I', hypertable_schema, hypertable_name)::regclass"
          "              AS rel FROM timescaledb_information.hypertables) h"
          " LEFT JOIN LATERAL (SELECT sum(before_compression_total_bytes)::float8 AS before,"
          "                      sum(after_compression_total_bytes)::float8 AS after"
          "                    FROM %s.hypertable_compression_stats(h.rel)"
          "                    WHERE h.compression_enabled) c ON true"
          " ORDER BY 1 LIMIT 500";
    return sql.replace("%s.", QByteArray(schema + '.'));
}

QByteArray PgTimescalePart::jobsQuery()
{
    return "SELECT current_database(), j.job_id, j.application_name,"
           " coalesce(j.hypertable_schema || '.' || j.hypertable_name, ''),"
           " coalesce(s.total_runs, 0), coalesce(s.total_failures, 0),"
           " extract(epoch FROM s.last_run_duration)::float8,"
           " coalesce(s.last_run_status, '') = 'Failed'"
           // One row with the database's name even when there is no job.
           " FROM (SELECT 1) one LEFT JOIN (timescaledb_information.jobs j"
           "   LEFT JOIN timescaledb_information.job_stats s ON s.job_id = j.job_id) ON true"
           " ORDER BY j.job_id LIMIT 500";
}

QByteArray PgTimescalePart::deletesQuery()
{
    // The server keeps the candidates few; deleteTarget() reads each one properly.
    return "SELECT pid, coalesce(usename::text, ''),"
           " extract(epoch FROM now() - query_start)::float8, query"
           " FROM pg_stat_activity"
           " WHERE datname = current_database() AND state = 'active'"
           " AND pid <> pg_backend_pid() AND query ~* 'delete[[:space:]]'"
           " ORDER BY query_start LIMIT 50";
}

void PgTimescalePart::collect(PgPoll &poll)
{
    const std::optional<QString> schema = poll.timescaleDbSchema();
    if (!schema)
        return;
    PgTimescale snapshot;
    if (const auto result
        = poll.run(u"timescaledb_information.hypertables"_s, hypertablesQuery(*schema))) {
        for (int r = 0; r < result->rows(); ++r) {
            PgHypertable h;
            h.name = result->text(r, 0);
            h.chunks = int(result->number(r, 1));
            h.bytes = result->number(r, 2);
            h.compressedBefore = result->number(r, 3);
            h.compressedAfter = result->number(r, 4);
            snapshot.hypertables.append(h);
        }
    }
    if (poll.failed())
        return;
    if (const auto result = poll.run(u"timescaledb_information.jobs"_s, jobsQuery())) {
        for (int r = 0; r < result->rows(); ++r) {
            snapshot.database = result->text(r, 0);
            if (result->isNull(r, 1))
                continue;
            PgTimescaleJob job;
            job.id = int(result->number(r, 1));
            job.name = result->text(r, 2);
            job.hypertable = result->text(r, 3);
            job.runs = result->number(r, 4);
            job.failures = result->number(r, 5);
            bool ran = false;
            const double duration = result->number(r, 6, &ran);
            job.lastDurationS = ran ? std::max(0.0, duration) : -1;
            job.lastFailed = result->text(r, 7) == "t"_L1;
            snapshot.jobs.append(job);
        }
    }
    if (poll.failed())
        return;
    if (!snapshot.hypertables.isEmpty()) {
        if (const auto result = poll.run(u"pg_stat_activity"_s, deletesQuery())) {
            for (int r = 0; r < result->rows(); ++r) {
                PgRunningDelete d;
                d.pid = int(result->number(r, 0));
                d.user = result->text(r, 1);
                d.seconds = std::max(0.0, result->number(r, 2));
                d.query = result->text(r, 3);
                snapshot.deletes.append(d);
            }
        }
        if (poll.failed())
            return;
    }
    m_activity.update(snapshot, poll.ts, poll.source(), poll.result.batch);
}

} // namespace Headroom
