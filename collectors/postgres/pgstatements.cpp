// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgstatements.h"

#include "pgactivity.h"
#include "pgstatementtext.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <tuple>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

struct StatementRate
{
    PgStatementsTracker::Counter counter;
    QString metric;
    QString unit;
};

// The per-statement rates; mean_time_ms and the read time are added on their own.
const std::array<StatementRate, 5> &statementRates()
{
    static const std::array<StatementRate, 5> list { {
        { PgStatementsTracker::Calls, u"pg.statements.calls.rate"_s, u"1/s"_s },
        { PgStatementsTracker::ExecTimeMs, u"pg.statements.exec_time.rate"_s, u"ms/s"_s },
        { PgStatementsTracker::Rows, u"pg.statements.rows.rate"_s, u"1/s"_s },
        { PgStatementsTracker::SharedBlksHit, u"pg.statements.shared_blks_hit.rate"_s, u"1/s"_s },
        { PgStatementsTracker::SharedBlksRead, u"pg.statements.shared_blks_read.rate"_s, u"1/s"_s },
    } };
    return list;
}

} // namespace

// ---------------------------------------------------------------- the tracker

void PgStatementsTracker::clear()
{
    m_statements.clear();
    m_primed = false;
    m_statsReset.clear();
    m_dealloc.reset();
    m_hidden = 0;
}

void PgStatementsTracker::account(Statement &statement, const Entry &entry, bool valid,
                                  bool countNew, quint64 now)
{
    if (statement.seen != now) {
        statement.seen = now;
        statement.skip = !valid;
        statement.delta = {};
        statement.topCalls = 0;
        statement.topTimeMs = 0;
    }
    const auto addDelta = [&](const Counters &from) {
        for (int i = 0; i < CounterCount; ++i)
            statement.delta[size_t(i)] += entry.values[size_t(i)] - from[size_t(i)];
        if (entry.toplevel) {
            statement.topCalls += entry.values[Calls] - from[Calls];
            statement.topTimeMs += entry.values[ExecTimeMs] - from[ExecTimeMs];
        }
    };
    const auto state
        = std::find_if(statement.entries.begin(), statement.entries.end(), [&](const auto &e) {
              return e.userid == entry.userid && e.toplevel == entry.toplevel;
          });
    if (state == statement.entries.end()) {
        // Not there at the last poll, so created since: all it counted is new work.
        statement.entries.append(
            { entry.userid, entry.toplevel, entry.values, entry.statsSince, now });
        if (countNew)
            addDelta(Counters {});
        else
            statement.skip = true;
        return;
    }
    if (state->seen == now)
        return; // the same entry twice: pg_stat_statements has no such rows
    // An entry reset or evicted and added again between two polls: stats_sinces differ
    // (1.11), or else a counter is below its baseline. One that climbed past its old
    // values before 1.11 goes unnoticed, which undercounts but never overcounts.
    bool reset = state->statsSince != entry.statsSince;
    for (int i = 0; i < CounterCount && !reset; ++i)
        reset = entry.values[size_t(i)] < state->values[size_t(i)];
    if (reset)
        statement.skip = true;
    else
        addDelta(state->values);
    state->values = entry.values;
    state->statsSince = entry.statsSince;
    state->seen = now;
}

PgStatementsTracker::Interval PgStatementsTracker::update(const Snapshot &snapshot, qint64 tsMs,
                                                          int topStatements)
{
    Interval interval;
    // pg_stat_statements_reset() moves stats_reset; dealloc only falls with it.
    const bool globalReset = m_primed
        && (snapshot.statsReset != m_statsReset
            || (snapshot.dealloc && m_dealloc && *snapshot.dealloc < *m_dealloc));
    interval.valid = m_primed && !globalReset && tsMs > m_lastTsMs;
    interval.seconds = double(tsMs - m_lastTsMs) / 1000.0;
    interval.ioTiming = snapshot.ioTiming;
    interval.blockSize = snapshot.blockSize;
    if (interval.valid && snapshot.dealloc && m_dealloc)
        interval.deallocations = *snapshot.dealloc - *m_dealloc;
    // Fewer hidden entries: some may have become visible (pg_monitor granted) with all
    // their history, so an entry not seen before proves nothing this time.
    const bool countNew = snapshot.hidden >= m_hidden;
    m_primed = true;
    m_lastTsMs = tsMs;
    m_statsReset = snapshot.statsReset;
    m_dealloc = snapshot.dealloc;
    m_hidden = snapshot.hidden;

    const quint64 now = ++m_updates;
    for (const Entry &entry : snapshot.entries)
        account(m_statements[Key { entry.dbid, entry.queryid }], entry, interval.valid, countNew,
                now);

    QList<StatementDelta> candidates;
    for (auto it = m_statements.begin(); it != m_statements.end();) {
        Statement &statement = it.value();
        if (statement.seen != now) {
            it = m_statements.erase(it); // gone from pg_stat_statements, label and all
            continue;
        }
        // Entries evicted since the last snapshot leave; the rest still count.
        statement.entries.removeIf([now](const EntryState &e) { return e.seen != now; });
        // Entries of dropped databases stay until evicted: kept, but not reported.
        const auto datname = snapshot.databases.constFind(it.key().dbid);
        if (interval.valid && !statement.skip && datname != snapshot.databases.cend()) {
            DatabaseTotal &total = interval.totals[*datname];
            total.calls += statement.topCalls;
            total.execTimeMs += statement.topTimeMs;
            if (statement.topCalls > 0)
                total.latency.add(statement.topTimeMs / statement.topCalls,
                                  quint64(std::llround(statement.topCalls)));
            if (const double calls = statement.delta[Calls]; calls > 0) {
                // Floors: a block, 50 us; below them a change is no plan's doing.
                const Counters &d = statement.delta;
                const auto blocksChange = statement.blocksPerCall.add(
                    (d[SharedBlksHit] + d[SharedBlksRead]) / calls, 1);
                const auto timeChange = statement.timePerCall.add(d[ExecTimeMs] / calls, 0.05);
                if (!statement.own)
                    candidates.append(
                        { it.key().dbid, *datname, it.key().queryid, d, blocksChange, timeChange });
            }
        }
        ++it;
    }

    const auto busier = [](const StatementDelta &a, const StatementDelta &b) {
        if (a.delta[ExecTimeMs] != b.delta[ExecTimeMs])
            return a.delta[ExecTimeMs] > b.delta[ExecTimeMs];
        if (a.delta[Calls] != b.delta[Calls])
            return a.delta[Calls] > b.delta[Calls];
        return std::tie(a.datname, a.queryid) < std::tie(b.datname, b.queryid);
    };
    const qsizetype top = std::min<qsizetype>(std::max(topStatements, 0), candidates.size());
    std::partial_sort(candidates.begin(), candidates.begin() + top, candidates.end(), busier);
    const qsizetype reserve = std::min<qsizetype>(OwnReserve, candidates.size() - top);
    std::partial_sort(candidates.begin() + top, candidates.begin() + top + reserve,
                      candidates.end(), busier);
    interval.runnersUp
        = QList<StatementDelta>(candidates.begin() + top, candidates.begin() + top + reserve);
    interval.timeRanked = top;
    // Then the statements that wrote most to temp files, of the rest: a sort spilling to
    // disk shows by its statement even when others took more time.
    const auto spilling
        = std::partition(candidates.begin() + top, candidates.end(),
                         [](const StatementDelta &s) { return s.delta[TempBlksWritten] > 0; });
    const qsizetype temp
        = std::min<qsizetype>(TopTempStatements, qsizetype(spilling - (candidates.begin() + top)));
    std::partial_sort(candidates.begin() + top, candidates.begin() + top + temp, spilling,
                      [&](const StatementDelta &a, const StatementDelta &b) {
                          if (a.delta[TempBlksWritten] != b.delta[TempBlksWritten])
                              return a.delta[TempBlksWritten] > b.delta[TempBlksWritten];
                          return busier(a, b);
                      });
    candidates.resize(top + temp);
    interval.top = std::move(candidates);
    return interval;
}

bool PgStatementsTracker::replaceOwn(Interval *interval) const
{
    const auto own = [&](const StatementDelta &s) {
        const auto it = m_statements.constFind(Key { s.dbid, s.queryid });
        return it != m_statements.cend() && it->own;
    };
    const auto listed = [&](const StatementDelta &s) {
        return std::any_of(interval->top.cbegin(), interval->top.cend(), [&](const auto &t) {
            return t.dbid == s.dbid && t.queryid == s.queryid;
        });
    };
    qsizetype removed = 0;
    for (qsizetype i = 0; i < interval->top.size();) {
        if (!own(interval->top.at(i))) {
            ++i;
            continue;
        }
        if (i < interval->timeRanked) {
            --interval->timeRanked;
            ++removed;
        }
        interval->top.removeAt(i);
    }
    bool added = false;
    while (removed > 0 && !interval->runnersUp.isEmpty()) {
        const StatementDelta next = interval->runnersUp.takeFirst();
        if (own(next) || listed(next))
            continue;
        interval->top.insert(interval->timeRanked++, next);
        --removed;
        added = true;
    }
    return added;
}

std::optional<QString> PgStatementsTracker::label(quint32 dbid, qint64 queryid) const
{
    const auto it = m_statements.constFind(Key { dbid, queryid });
    return it == m_statements.cend() ? std::nullopt : it->label;
}

void PgStatementsTracker::setLabel(quint32 dbid, qint64 queryid, const QString &label, bool own)
{
    const auto it = m_statements.find(Key { dbid, queryid });
    if (it != m_statements.end()) {
        it->label = label;
        it->own = own;
    }
}

QString PgStatementsTracker::queryLabel(const QString &text)
{
    QString label = redactStatementText(text).simplified();
    if (label.size() > QueryLabelLength) {
        qsizetype cut = QueryLabelLength;
        if (label.at(cut - 1).isHighSurrogate())
            --cut;
        label.truncate(cut);
    }
    return label;
}

void PgStatementsTracker::addSeries(const Interval &interval, const QString &source,
                                    SampleBatch &batch) const
{
    if (!interval.valid || !(interval.seconds > 0))
        return;
    const auto add = [&](const QString &metric, const Labels &labels, const QString &unit,
                         const QString &resource, UseKind kind, double value) {
        batch.add({ source, metric, labels }, unit, resource, kind, value);
    };
    for (const StatementDelta &statement : interval.top) {
        const auto it = m_statements.constFind(Key { statement.dbid, statement.queryid });
        if (it == m_statements.cend() || !it->label || it->own)
            continue;
        const QString *text = &*it->label;
        const Labels labels { { u"datname"_s, statement.datname },
                              { u"queryid"_s, QString::number(statement.queryid) },
                              { u"query"_s, *text } };
        const QString resource = u"db:"_s + statement.datname;
        for (const StatementRate &rate : statementRates())
            add(rate.metric, labels, rate.unit, resource, UseKind::Throughput,
                statement.delta[rate.counter] / interval.seconds);
        const double calls = statement.delta[Calls];
        add(u"pg.statements.mean_time_ms"_s, labels, u"ms"_s, resource, UseKind::Latency,
            statement.delta[ExecTimeMs] / calls);
        add(u"pg.statements.blocks_per_call"_s, labels, u"blocks"_s, resource, UseKind::Info,
            (statement.delta[SharedBlksHit] + statement.delta[SharedBlksRead]) / calls);
        add(u"pg.statements.rows_per_call"_s, labels, u"rows"_s, resource, UseKind::Info,
            statement.delta[Rows] / calls);
        if (statement.blocksChange)
            add(u"pg.statements.blocks_per_call_change"_s, labels, u"x"_s, resource, UseKind::Info,
                *statement.blocksChange);
        if (statement.timeChange)
            add(u"pg.statements.time_per_call_change"_s, labels, u"x"_s, resource, UseKind::Info,
                *statement.timeChange);
        if (interval.ioTiming)
            add(u"pg.statements.blk_read_time.rate"_s, labels, u"ms/s"_s, resource,
                UseKind::Saturation, statement.delta[BlkReadTimeMs] / interval.seconds);
        add(u"pg.statements.temp_bytes.rate"_s, labels, u"B/s"_s, resource, UseKind::Saturation,
            statement.delta[TempBlksWritten] * interval.blockSize / interval.seconds);
    }
    for (auto it = interval.totals.cbegin(); it != interval.totals.cend(); ++it) {
        const Labels labels { { u"datname"_s, it.key() } };
        const QString resource = u"db:"_s + it.key();
        add(u"pg.statements.total.calls.rate"_s, labels, u"1/s"_s, resource, UseKind::Throughput,
            it->calls / interval.seconds);
        add(u"pg.statements.total.exec_time.rate"_s, labels, u"ms/s"_s, resource,
            UseKind::Throughput, it->execTimeMs / interval.seconds);
        if (it->latency.isEmpty())
            continue;
        SeriesHistogram histogram;
        histogram.info.key = { source, u"pg.latency.statements"_s, labels };
        histogram.info.unit = u"ms"_s;
        histogram.info.resource = resource;
        histogram.info.kind = UseKind::Latency;
        histogram.info.histogram = true;
        histogram.histogram = it->latency;
        batch.histograms.append(std::move(histogram));
    }
    if (interval.deallocations)
        add(u"pg.statements.deallocations.rate"_s, {}, u"1/s"_s, PgActivitySampler::Resource,
            UseKind::Saturation, *interval.deallocations / interval.seconds);
}

// ---------------------------------------------------------------- the part

PgStatementsPart::PgStatementsPart(int topStatements)
    : m_top(std::max(1, topStatements))
{
}

void PgStatementsPart::resetBaselines()
{
    m_tracker.clear();
    // A new session may be another server or database: look the extension up again.
    m_extension.reset();
    m_checkedAtMs.reset();
    m_unavailable.clear();
}

QString PgStatementsPart::quoteIdentifier(const QString &name)
{
    QString quoted = name;
    quoted.replace(u'"', u"\"\""_s);
    return u'"' + quoted + u'"';
}

QByteArray PgStatementsPart::extensionQuery()
{
    return "SELECT current_database(), e.extversion, n.nspname,"
           " (current_setting('track_io_timing') = 'on')::int,"
           " current_setting('block_size')::int"
           " FROM (VALUES (1)) AS one (x)"
           " LEFT JOIN pg_catalog.pg_extension e ON e.extname = 'pg_stat_statements'"
           " LEFT JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace";
}

QByteArray PgStatementsPart::countersQuery(const QVersionNumber &version, const QString &schema)
{
    if (version < OldestVersion)
        return {};
    const bool v1_9 = version >= QVersionNumber(1, 9);
    const bool v1_11 = version >= QVersionNumber(1, 11);
    // total_exec_time since 1.8 (total_time before); toplevel since 1.9; 1.11 renamed
    // blk_read_time to shared_blk_read_time (local reads got their own column) and
    // added stats_since, which tells a re-created entry from an old one.
    QByteArray sql = "SELECT dbid, userid, queryid, ";
    sql += v1_9 ? "toplevel::int" : "1";
    sql += ", calls, total_exec_time, rows, shared_blks_hit, shared_blks_read, ";
    sql += v1_11 ? "shared_blk_read_time" : "blk_read_time";
    sql += ", temp_blks_written";
    // date_part gives float8, cheaper than extract's numeric, and still resolves µs.
    sql += v1_11 ? ", date_part('epoch', stats_since)" : ", NULL::float8";
    // Other roles' entries stay in (NULL queryid) to be counted: filtering them out and
    // counting them in one scan (a CTE) costs every poll a quarter more, to save only
    // an unprivileged role the rows it is told to get rid of.
    return sql + " FROM " + quoteIdentifier(schema).toUtf8() + ".pg_stat_statements(false)";
}

QByteArray PgStatementsPart::databasesQuery(const QVersionNumber &version, const QString &schema)
{
    // Names once per database here rather than once per entry in the counters.
    if (version < QVersionNumber(1, 9))
        return "SELECT oid, datname, NULL::int8, NULL::text FROM pg_catalog.pg_database";
    return "SELECT d.oid, d.datname, i.dealloc, i.stats_reset::text"
           " FROM pg_catalog.pg_database d CROSS JOIN "
        + quoteIdentifier(schema).toUtf8() + ".pg_stat_statements_info i";
}

QByteArray PgStatementsPart::textsQuery(const QString &schema)
{
    // showtext := true reads the whole query text file, whatever the filter: this runs
    // only when a statement without a known text enters the top N.
    return "SELECT dbid, queryid, left(query, 1000) FROM " + quoteIdentifier(schema).toUtf8()
        + ".pg_stat_statements(true) WHERE queryid = ANY ($1::int8[])"
          // The same statement under several roles: always the same row's text, so its
          // label never changes (toplevel, which also splits rows, is not in 1.8).
          " ORDER BY dbid, queryid, userid";
}

void PgStatementsPart::readDatabases(const PgResult &result,
                                     PgStatementsTracker::Snapshot *snapshot)
{
    for (int r = 0; r < result.rows(); ++r) {
        snapshot->databases.insert(quint32(result.number(r, 0)), result.text(r, 1));
        bool ok = false;
        const double dealloc = result.number(r, 2, &ok);
        if (ok)
            snapshot->dealloc = dealloc;
        snapshot->statsReset = result.text(r, 3);
    }
}

void PgStatementsPart::readCounters(const PgResult &result, PgStatementsTracker::Snapshot *snapshot)
{
    snapshot->entries.reserve(result.rows());
    for (int r = 0; r < result.rows(); ++r) {
        if (result.isNull(r, 2)) {
            ++snapshot->hidden;
            continue;
        }
        PgStatementsTracker::Entry entry;
        entry.dbid = quint32(result.number(r, 0));
        entry.userid = quint32(result.number(r, 1));
        entry.queryid = result.text(r, 2).toLongLong(); // all 64 bits: not through a double
        entry.toplevel = result.number(r, 3) != 0;
        bool complete = true;
        for (int i = 0; i < PgStatementsTracker::CounterCount && complete; ++i)
            entry.values[size_t(i)] = result.number(r, 4 + i, &complete);
        entry.statsSince = result.number(r, 4 + PgStatementsTracker::CounterCount); // 0: NULL
        if (complete)
            snapshot->entries.append(std::move(entry));
    }
}

bool PgStatementsPart::ensureExtension(PgPoll &poll)
{
    // Looked up again once a minute: a later CREATE EXTENSION, ALTER EXTENSION UPDATE or
    // a changed track_io_timing is picked up without a reconnect.
    const bool due
        = !m_checkedAtMs || poll.ts < *m_checkedAtMs || poll.ts - *m_checkedAtMs >= RecheckMs;
    if (due) {
        const auto result = poll.run(u"pg_extension"_s, extensionQuery());
        if (!result)
            return false;
        m_checkedAtMs = poll.ts;
        const QString database = result->text(0, 0);
        const QString versionText = result->text(0, 1);
        const QVersionNumber version = QVersionNumber::fromString(versionText);
        if (result->isNull(0, 1)) {
            m_extension.reset();
            m_unavailable = u"pg_stat_statements: not installed in database \"%1\"; run CREATE "
                            "EXTENSION pg_stat_statements in it (the server also needs "
                            "shared_preload_libraries = 'pg_stat_statements')"_s.arg(database);
        } else if (version < OldestVersion) {
            m_extension.reset();
            m_unavailable = u"pg_stat_statements: version %1 in database \"%2\" is older than "
                            "1.8; run ALTER EXTENSION pg_stat_statements UPDATE in it"_s.arg(
                                versionText, database);
        } else {
            const QString schema = result->text(0, 2);
            if (!m_extension || m_extension->version != version || m_extension->schema != schema)
                m_extension = Extension { version,
                                          schema,
                                          false,
                                          8192,
                                          countersQuery(version, schema),
                                          databasesQuery(version, schema),
                                          textsQuery(schema) };
            m_extension->ioTiming = result->number(0, 3) != 0;
            bool blockSize = false;
            const double size = result->number(0, 4, &blockSize);
            m_extension->blockSize = blockSize && size > 0 ? size : 8192;
            m_unavailable.clear();
        }
    }
    if (!m_extension)
        poll.warn(m_unavailable);
    return m_extension.has_value();
}

void PgStatementsPart::fetchTexts(PgPoll &poll, const PgStatementsTracker::Interval &interval)
{
    QStringList wanted;
    for (const PgStatementsTracker::StatementDelta &statement : interval.top) {
        if (!m_tracker.label(statement.dbid, statement.queryid))
            wanted << QString::number(statement.queryid);
    }
    if (wanted.isEmpty())
        return;
    const QByteArray ids = '{' + wanted.join(u',').toLatin1() + '}';
    const auto result = poll.run(u"pg_stat_statements texts"_s, m_extension->texts, { ids });
    if (!result)
        return;
    // A text the server could not read comes back NULL: an empty label, kept, so the
    // file is not read again for it every poll.
    for (int r = 0; r < result->rows(); ++r) {
        const auto dbid = quint32(result->number(r, 0));
        const qint64 queryid = result->text(r, 1).toLongLong();
        if (!m_tracker.label(dbid, queryid)) {
            const QString text = result->text(r, 2);
            m_tracker.setLabel(dbid, queryid, PgStatementsTracker::queryLabel(text),
                               isOwnStatement(text));
        }
    }
}

void PgStatementsPart::collect(PgPoll &poll)
{
    if (!ensureExtension(poll))
        return;
    PgStatementsTracker::Snapshot snapshot;
    snapshot.ioTiming = m_extension->ioTiming;
    snapshot.blockSize = m_extension->blockSize;
    // Read before the counters: a reset in between shows as counters that went down
    // now and as a changed stats_reset next time, two gaps but never a wrong value.
    const bool hasInfo = m_extension->version >= QVersionNumber(1, 9);
    const auto databases = poll.run(hasInfo ? u"pg_stat_statements_info"_s : u"pg_database"_s,
                                    m_extension->databases);
    if (!databases) {
        m_checkedAtMs.reset();
        return;
    }
    readDatabases(*databases, &snapshot);
    const auto counters = poll.run(u"pg_stat_statements"_s, m_extension->counters);
    if (!counters) {
        // Dropped, updated to other columns, or the library not loaded (the server's
        // message says so): look the extension up again next poll.
        m_checkedAtMs.reset();
        return;
    }
    readCounters(*counters, &snapshot);
    if (snapshot.hidden > 0)
        poll.warn(u"pg_stat_statements: %1 entries of other roles are hidden (insufficient "
                  "privilege) and left out; grant pg_monitor"_s.arg(snapshot.hidden));

    PgStatementsTracker::Interval interval = m_tracker.update(snapshot, poll.ts, m_top);
    if (!interval.valid)
        return;
    fetchTexts(poll, interval);
    // Headroom's own statements just recognised by their texts leave the top to the next
    // ones, whose texts are read too (one more round trip, in the first polls only).
    if (!poll.failed() && m_tracker.replaceOwn(&interval))
        fetchTexts(poll, interval);
    if (!poll.failed())
        m_tracker.addSeries(interval, poll.source(), poll.result.batch);
}

} // namespace Headroom
