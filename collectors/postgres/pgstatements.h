// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// pg_stat_statements each poll: the busiest statements of the interval and workload
// totals per database, reset-safe.
//
// Series (resource "db:<datname>"; rates per second over the poll interval):
//   the top N statements by execution time in the interval, highest first, labels
//   {datname, queryid, query} (query: the text collapsed to single spaces, cut to 80);
//   Headroom's own statements (OwnStatementMarker) are not among them:
//     pg.statements.calls.rate (1/s), pg.statements.exec_time.rate (ms/s),
//     pg.statements.mean_time_ms (ms, delta time / delta calls), pg.statements.rows.rate,
//     pg.statements.shared_blks_hit.rate, pg.statements.shared_blks_read.rate (1/s),
//     pg.statements.blk_read_time.rate (ms/s; only when track_io_timing is on)
//     pg.statements.temp_bytes.rate (B/s, Saturation): temp_blks_written in bytes, what
//       a sort or hash spilling past work_mem writes to temp files; besides the top N
//       by time, the TopTempStatements writing most to temp files in the interval, so
//       that a spilling sort is named by its statement
//     pg.statements.blocks_per_call (shared blocks hit + read per call, unit blocks),
//     pg.statements.rows_per_call (rows)
//     pg.statements.blocks_per_call_change, pg.statements.time_per_call_change (x):
//       this interval's blocks (ms) per call over the statement's usual value, the
//       median of its last 15 intervals that were within 3x of it (PlanBaseline), from
//       its fourth interval on; a plan change reads 10x to 100x, and keeps reading so
//       until it has lasted 300 intervals
//   per database, over every statement we may see, label {datname}:
//     pg.statements.total.calls.rate (1/s), pg.statements.total.exec_time.rate (ms/s)
//     pg.latency.statements: histogram (ms), each statement's calls of the interval in
//       the bucket of its mean time in the interval
//   server-wide, no labels, resource "pg" (extension 1.9+):
//     pg.statements.deallocations.rate (1/s): entries evicted because
//       pg_stat_statements.max is too small, which makes statements come and go
// Per-statement series add up top-level and nested executions (track = all); totals
// and the histogram count top-level executions only, so a function's inner statements
// are not counted twice.
//
// Resets give gaps, never a negative value or a spike:
//  - an entry's counter went down, or its stats_since changed (1.11): it was reset, or
//    evicted and added again, between two polls. Its statement yields nothing this
//    interval, and the totals and the histogram leave it out;
//  - pg_stat_statements_info.stats_reset changed (or dealloc went down): nothing does.
// An entry missing at the last poll counts from zero: the scan holds the extension's
// lock, so it was created since (new, or evicted and added again); unless fewer entries
// are hidden from us than before (pg_monitor granted), when new ones wait a poll.
// Entries are keyed by dbid, not by name: a renamed database is no new workload.
#pragma once

#include "core/sample.h"
#include "pgplanbaseline.h"
#include "pgpoll.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QVarLengthArray>
#include <QVersionNumber>
#include <array>
#include <optional>

namespace Headroom {

// The libpq-free core: pg_stat_statements rows in, deltas and series out.
class PgStatementsTracker
{
public:
    // Counters read per entry, in this order.
    enum Counter
    {
        Calls,
        ExecTimeMs,
        Rows,
        SharedBlksHit,
        SharedBlksRead,
        BlkReadTimeMs,
        TempBlksWritten,
        CounterCount
    };
    using Counters = std::array<double, CounterCount>;

    // One pg_stat_statements entry: per (userid, dbid, queryid, toplevel).
    struct Entry
    {
        quint32 dbid = 0;
        quint32 userid = 0;
        qint64 queryid = 0;
        bool toplevel = true; // before 1.9 every entry counts as top-level
        Counters values {};
        double statsSince = 0; // 1.11: creation of the entry, s since the epoch; else 0
    };

    struct Snapshot
    {
        QList<Entry> entries; // visible entries only
        QHash<quint32, QString> databases; // dbid -> datname; others are not reported
        int hidden = 0; // entries of other roles we may not see
        QString statsReset; // pg_stat_statements_info.stats_reset; empty before 1.9
        std::optional<double> dealloc; // pg_stat_statements_info.dealloc (1.9+)
        bool ioTiming = false; // track_io_timing: whether BlkReadTimeMs means anything
        double blockSize = 8192; // the server's block_size, for temp blocks in bytes
    };

    struct StatementDelta
    {
        quint32 dbid = 0;
        QString datname;
        qint64 queryid = 0;
        Counters delta {}; // over the interval, all levels
        // This interval's blocks and ms per call over the statement's usual (PlanBaseline).
        std::optional<double> blocksChange;
        std::optional<double> timeChange;
    };

    struct DatabaseTotal
    {
        double calls = 0; // top-level
        double execTimeMs = 0;
        LogHistogram latency; // top-level calls at each statement's mean time (ms)
    };

    struct Interval
    {
        bool valid = false; // false: first snapshot, global reset, or time stood still
        double seconds = 0;
        bool ioTiming = false;
        double blockSize = 8192;
        // By exec time in the interval, highest first (the first timeRanked), then those
        // writing most to temp files that are not among them.
        QList<StatementDelta> top;
        qsizetype timeRanked = 0;
        // The next OwnReserve by exec time after the top: stand-ins for Headroom's own
        // statements, known only once their texts are read (replaceOwn).
        QList<StatementDelta> runnersUp;
        QMap<QString, DatabaseTotal> totals; // databases with a statement that counted
        std::optional<double> deallocations; // in the interval
    };

    // Takes the next snapshot (taken at tsMs) and returns what happened since the last.
    Interval update(const Snapshot &snapshot, qint64 tsMs, int topStatements);
    // Statements in the interval's top for their temp files alone, at most.
    static constexpr int TopTempStatements = 5;
    static constexpr int OwnReserve = 20;
    // Takes the statements known to be Headroom's own out of the interval's top and the
    // runners-up that are not in their place: right after connecting, none of its own
    // is known yet, and a dozen of them would crowd the first interval's top. Returns
    // whether any runner-up came in (whose text may be unknown yet).
    bool replaceOwn(Interval *interval) const;
    // Forget every baseline and label (new session, maybe a different server).
    void clear();

    // Query labels, kept while the statement stays in pg_stat_statements.
    std::optional<QString> label(quint32 dbid, qint64 queryid) const;
    // `own`: the statement is one of Headroom's (isOwnStatement of its text). It leaves
    // the top N from the next update on and gets no series; the totals still count it,
    // as the server's work it is.
    void setLabel(quint32 dbid, qint64 queryid, const QString &label, bool own = false);

    // Adds the interval's series to batch; top statements without a label yet are
    // left out (a series' labels must not change once it exists).
    void addSeries(const Interval &interval, const QString &source, SampleBatch &batch) const;

    // The label of a statement text: whitespace collapsed to single spaces, trimmed,
    // then cut to 80 characters (never inside a surrogate pair).
    static QString queryLabel(const QString &text);
    static constexpr int QueryLabelLength = 80;

private:
    struct Key
    {
        quint32 dbid = 0;
        qint64 queryid = 0;
        friend bool operator==(const Key &, const Key &) = default;
        friend size_t qHash(const Key &key, size_t seed = 0) noexcept
        {
            return qHashMulti(seed, key.dbid, key.queryid);
        }
    };
    struct EntryState
    {
        quint32 userid = 0;
        bool toplevel = true;
        Counters values {};
        double statsSince = 0;
        quint64 seen = 0; // the update() that last saw it
    };
    struct Statement
    {
        QVarLengthArray<EntryState, 2> entries;
        std::optional<QString> label;
        bool own = false;
        quint64 seen = 0;
        // Every statement's, not only the top N's: one that enters the top because its
        // plan changed has its history from before.
        PlanBaseline blocksPerCall;
        PlanBaseline timePerCall;
        // Scratch for the current update().
        bool skip = false;
        Counters delta {};
        double topCalls = 0;
        double topTimeMs = 0;
    };
    static void account(Statement &statement, const Entry &entry, bool valid, bool countNew,
                        quint64 now);

    QHash<Key, Statement> m_statements;
    quint64 m_updates = 0;
    bool m_primed = false;
    qint64 m_lastTsMs = 0;
    QString m_statsReset;
    std::optional<double> m_dealloc;
    int m_hidden = 0;
};

class PgStatementsPart : public PgPart
{
public:
    explicit PgStatementsPart(int topStatements);

    void collect(PgPoll &poll) override;
    void resetBaselines() override;

    // The oldest extension version read (PostgreSQL 13); older ones are asked to update.
    static inline const QVersionNumber OldestVersion { 1, 8 };
    // How often the extension is looked up again (installed, updated, track_io_timing).
    static constexpr qint64 RecheckMs = 60'000;

    // Whether the extension is installed in the connected database, its version and
    // schema, track_io_timing and block_size. One row.
    static QByteArray extensionQuery();
    // One row per entry: dbid, userid, queryid, toplevel (1/0), calls, exec time ms,
    // rows, shared_blks_hit, shared_blks_read, read time ms, temp_blks_written, stats_since as
    // seconds since the epoch (NULL before 1.11). Entries of other roles that we may not see have a
    // NULL queryid. Texts are not read: showtext := false skips the text file.
    static QByteArray countersQuery(const QVersionNumber &version, const QString &schema);
    // One row per database: oid, datname, then pg_stat_statements_info's dealloc and
    // stats_reset (text), NULL before 1.9, which has no such view.
    static QByteArray databasesQuery(const QVersionNumber &version, const QString &schema);
    // dbid, queryid, the text's first 1000 characters, for queryids $1 (int8[]).
    static QByteArray textsQuery(const QString &schema);
    static QString quoteIdentifier(const QString &name);
    // Parses the results of databasesQuery and countersQuery into snapshot.
    static void readDatabases(const PgResult &result, PgStatementsTracker::Snapshot *snapshot);
    static void readCounters(const PgResult &result, PgStatementsTracker::Snapshot *snapshot);

private:
    bool ensureExtension(PgPoll &poll);
    void fetchTexts(PgPoll &poll, const PgStatementsTracker::Interval &interval);

    struct Extension
    {
        QVersionNumber version;
        QString schema;
        bool ioTiming = false;
        double blockSize = 8192;
        QByteArray counters;
        QByteArray databases;
        QByteArray texts;
    };

    int m_top;
    PgStatementsTracker m_tracker;
    std::optional<Extension> m_extension;
    std::optional<qint64> m_checkedAtMs; // when the extension was last looked up
    QString m_unavailable; // why not, while it is not usable
};

} // namespace Headroom
