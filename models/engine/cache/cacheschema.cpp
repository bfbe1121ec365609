// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/cache/cacheschema.h"

#include "cachelogging.h"
#include "core/bytecoding.h"
#include "engine/cache/blockcodec.h"
#include "engine/cache/cachecheck.h"
#include "engine/cache/sqlitedb.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <algorithm>
#include <sqlite3.h>

using namespace Qt::StringLiterals;

namespace Headroom::CacheSchema {

namespace {

// One step per schema version: applying steps[k] turns version k into version k + 1.
// Version 1 is the first, so its step creates everything from an empty database.
// A future change appends a step (and may rewrite day tables listed in chunks).
struct Migration
{
    int toVersion;
    bool (*apply)(sqlite3 *db, QString *error);
};

bool failWith(sqlite3 *db, QString *error)
{
    if (error)
        *error = Sqlite::errorText(db);
    return false;
}

bool createVersion1(sqlite3 *db, QString *error)
{
    return Sqlite::exec(db,
                        "CREATE TABLE series("
                        " id INTEGER PRIMARY KEY,"
                        " source TEXT NOT NULL, metric TEXT NOT NULL, labels TEXT NOT NULL,"
                        " unit TEXT NOT NULL, resource TEXT NOT NULL, kind TEXT NOT NULL,"
                        " histogram INTEGER NOT NULL);"
                        "CREATE TABLE chunks(day INTEGER PRIMARY KEY);"
                        // bits: the value's IEEE bit pattern as an integer. A REAL column
                        // would turn NaN into NULL and may store -0.0 as integer 0.
                        "CREATE TABLE tail("
                        " series_id INTEGER NOT NULL, ts INTEGER NOT NULL, bits INTEGER NOT NULL,"
                        " PRIMARY KEY(series_id, ts)) WITHOUT ROWID;",
                        error);
}

// Version 2: the tail becomes one compressed chunk per series per commit (a row per
// sample made every sample cost a row insert and a row delete: 12 times the block
// path's work at high ingest rates); block rows get min, max and sum, min and max also
// in the series index, so long ranges are reduced from the index alone (rollups).
bool createVersion2(sqlite3 *db, QString *error)
{
    if (!Sqlite::exec(db,
                      "CREATE TABLE tail_chunks("
                      " series_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
                      " first_ts INTEGER NOT NULL, last_ts INTEGER NOT NULL,"
                      " count INTEGER NOT NULL, data BLOB NOT NULL,"
                      " PRIMARY KEY(series_id, seq)) WITHOUT ROWID;",
                      error))
        return false;
    {
        // The old tail rows, one chunk per series, in time order.
        Sqlite::Statement rows(db, "SELECT series_id, ts, bits FROM tail ORDER BY series_id, ts");
        Sqlite::Statement insert(db, "INSERT INTO tail_chunks VALUES(?, 0, ?, ?, ?, ?)");
        std::vector<Sample> samples;
        qint64 series = -1;
        const auto writeChunk = [&] {
            if (samples.empty())
                return true;
            insert.bind(1, series);
            insert.bind(2, samples.front().tsMs);
            insert.bind(3, samples.back().tsMs);
            insert.bind(4, qint64(samples.size()));
            insert.bind(5, BlockCodec::encode(samples));
            samples.clear();
            return insert.run();
        };
        bool done = false;
        while (rows.step(&done)) {
            if (rows.columnInt64(0) != series && !writeChunk())
                return failWith(db, error);
            series = rows.columnInt64(0);
            samples.push_back(
                { rows.columnInt64(1), ByteCoding::bitsDouble(quint64(rows.columnInt64(2))) });
        }
        if (!done || !writeChunk())
            return failWith(db, error);
    }
    if (!Sqlite::exec(db, "DROP TABLE tail", error))
        return false;
    QList<qint64> days;
    {
        Sqlite::Statement st(db, "SELECT day FROM chunks");
        bool done = false;
        while (st.step(&done))
            days.append(st.columnInt64(0));
        if (!done)
            return failWith(db, error);
    }
    for (qint64 day : std::as_const(days)) {
        // Blocks written before have no summary (NULL): reads decode those.
        const QByteArray blocks = blocksTable(day);
        const QByteArray sql = "ALTER TABLE " + blocks + " ADD COLUMN min REAL;" + "ALTER TABLE "
            + blocks + " ADD COLUMN max REAL;" + "ALTER TABLE " + blocks + " ADD COLUMN sum REAL;"
            + "DROP INDEX IF EXISTS " + blocks + "_series;" + blocksIndexSql(day);
        if (!Sqlite::exec(db, sql, error))
            return false;
    }
    return true;
}

// Version 3: alert events (alerts/alertevent.h), kept across restarts. Small and
// append-mostly: one row per state change; retention deletes rows with the day chunks.
bool createVersion3(sqlite3 *db, QString *error)
{
    return Sqlite::exec(db,
                        "CREATE TABLE alert_events("
                        " id INTEGER PRIMARY KEY, ts INTEGER NOT NULL,"
                        " rule_id TEXT NOT NULL, rule_name TEXT NOT NULL,"
                        " source TEXT NOT NULL, metric TEXT NOT NULL, labels TEXT NOT NULL,"
                        " state TEXT NOT NULL, value REAL, severity TEXT NOT NULL,"
                        " message TEXT NOT NULL, hint TEXT NOT NULL,"
                        " acked INTEGER NOT NULL DEFAULT 0,"
                        " UNIQUE(rule_id, source, metric, labels, ts, state));"
                        "CREATE INDEX alert_events_ts ON alert_events(ts);",
                        error);
}

// Version 4: the dashboards a saved recording was made with (recordingsaver.h), so it
// opens elsewhere with the same panels. Empty in a cache that collects.
bool createVersion4(sqlite3 *db, QString *error)
{
    return Sqlite::exec(db, "CREATE TABLE dashboards(name TEXT PRIMARY KEY, json BLOB NOT NULL);",
                        error);
}

// Version 5: blocks may be in the packed format (blockcodec.h), which older Headroom
// versions cannot decode; the bytewise blocks already stored stay as they are.
bool createVersion5(sqlite3 *, QString *)
{
    return true;
}

// Version 6: the rollup tiers (rollup.h), one table for both: a row per series and
// hour (minute tier) or day (hour tier), expired by its own retention; histogram series
// get a merged histogram per minute and per hour in rollup_hist. Older days are
// not rolled up; ranges over them read their blocks as before.
bool createVersion6(sqlite3 *db, QString *error)
{
    return Sqlite::exec(db,
                        "CREATE TABLE rollup("
                        " tier INTEGER NOT NULL, series_id INTEGER NOT NULL,"
                        " start_ts INTEGER NOT NULL, first_slot INTEGER NOT NULL,"
                        " slots INTEGER NOT NULL, data BLOB NOT NULL,"
                        " PRIMARY KEY(tier, series_id, start_ts)) WITHOUT ROWID;"
                        // A histogram series' merged histogram per finished slot.
                        "CREATE TABLE rollup_hist("
                        " tier INTEGER NOT NULL, series_id INTEGER NOT NULL,"
                        " start_ts INTEGER NOT NULL, data BLOB NOT NULL,"
                        " PRIMARY KEY(tier, series_id, start_ts)) WITHOUT ROWID;",
                        error);
}

const Migration migrations[] = {
    { 1, createVersion1 }, { 2, createVersion2 }, { 3, createVersion3 },
    { 4, createVersion4 }, { 5, createVersion5 }, { 6, createVersion6 },
};
static_assert(std::size(migrations) == Version, "one migration step per schema version");

QString displayPath(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

bool refuse(QString *error, const QString &path, const QString &reason)
{
    if (error)
        *error = displayPath(path) + QLatin1StringView(": ") + reason;
    return false;
}

bool pragmaInt(sqlite3 *db, const char *sql, qint64 *value)
{
    Sqlite::Statement st(db, sql);
    if (!st.step())
        return false;
    *value = st.columnInt64(0);
    return true;
}

} // namespace

qint64 dayOf(qint64 tsMs)
{
    qint64 day = tsMs / DayMs;
    if (tsMs % DayMs < 0)
        --day;
    return day;
}

static QByteArray dayName(const char *prefix, qint64 day)
{
    // A minus sign is not valid in an unquoted identifier: days before 1970 get "m".
    const QByteArray number
        = day < 0 ? QByteArray("m") + QByteArray::number(-day) : QByteArray::number(day);
    return QByteArray(prefix) + number;
}

QByteArray blocksTable(qint64 day)
{
    return dayName("blocks_", day);
}

QByteArray histTable(qint64 day)
{
    return dayName("hist_", day);
}

std::optional<qint64> dayOfTable(const QByteArray &name)
{
    QByteArray number;
    if (name.startsWith("blocks_"))
        number = name.mid(7);
    else if (name.startsWith("hist_"))
        number = name.mid(5);
    else
        return std::nullopt;
    const bool negative = number.startsWith('m');
    if (negative)
        number = number.mid(1);
    // Only the exact spelling dayName() writes: digits, no sign, no leading zero.
    if (number.isEmpty() || (number.startsWith('0') && (negative || number.size() > 1))
        || !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    bool ok = false;
    const qint64 day = number.toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    return negative ? -day : day;
}

QByteArray blocksIndexSql(qint64 day)
{
    // end_ts in the index: the overlap filter of a read needs no table lookups; min and
    // max: a long range is reduced from the index alone, never reading the blocks.
    const QByteArray blocks = blocksTable(day);
    return "CREATE INDEX IF NOT EXISTS " + blocks + "_series ON " + blocks
        + "(series_id, start_ts, end_ts, min, max);";
}

QByteArray createDayTablesSql(qint64 day)
{
    // Rowid tables with a separate index, not WITHOUT ROWID keyed by series: rows arrive
    // in time order interleaved across series, so a series-keyed b-tree splits pages in
    // the middle and leaves them about a third full (measured: 16 bytes per sample for
    // 5 of payload). Rowid order is arrival order: leaf pages fill completely, and only
    // the small index entries pay for the interleaving.
    const QByteArray blocks = blocksTable(day);
    const QByteArray hist = histTable(day);
    return "CREATE TABLE IF NOT EXISTS " + blocks
        + "(id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL, start_ts INTEGER NOT NULL,"
          " end_ts INTEGER NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL,"
          " min REAL, max REAL, sum REAL);"
        + blocksIndexSql(day) + "CREATE TABLE IF NOT EXISTS " + hist
        + "(id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL, ts INTEGER NOT NULL,"
          " data BLOB NOT NULL);"
          "CREATE UNIQUE INDEX IF NOT EXISTS "
        + hist + "_series ON " + hist
        + "(series_id, ts);"
          "INSERT OR IGNORE INTO chunks(day) VALUES("
        + QByteArray::number(day) + ");";
}

bool inspect(const QString &path, QString *error, qint64 *fileVersion)
{
    if (fileVersion)
        *fileVersion = 0;
    const QFileInfo info(path);
    if (!info.exists())
        return true;
    if (!info.isFile())
        return refuse(error, path, u"not a regular file"_s);
    if (info.size() == 0)
        return true; // SQLite treats an empty file as an empty database

    // Check the magic ourselves first: SQLite would happily "open" any file and only
    // fail on the first read, and we want a clear message for a mistyped path.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(error, path, u"cannot read (%1)"_s.arg(file.errorString()));
    static const QByteArray magic("SQLite format 3\0", 16);
    if (file.read(16) != magic)
        return refuse(error, path, u"not a Headroom cache (not an SQLite database)"_s);
    file.close();

    // Without a WAL beside it the file is the whole database, and immutable=1 reads it
    // without creating the -wal/-shm files that even a read-only WAL reader would.
    // With a WAL (a crashed or running writer) its last commits live there: read both.
    const bool walPresent = QFileInfo::exists(path + QLatin1StringView("-wal"));
    const QString uri = QUrl::fromLocalFile(info.absoluteFilePath()).toString(QUrl::FullyEncoded)
        + (walPresent ? QLatin1StringView("?mode=ro") : QLatin1StringView("?mode=ro&immutable=1"));
    QString sqliteError;
    Sqlite::Db db = Sqlite::open(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, &sqliteError);
    auto corrupt = [&](const QString &reason) {
        return refuse(error, path, u"unreadable or corrupt cache (%1); not modified"_s.arg(reason));
    };
    if (!db)
        return corrupt(sqliteError);
    sqlite3_busy_timeout(db.get(), Sqlite::BusyTimeoutMs);

    qint64 applicationId = 0, userVersion = 0, objects = 0;
    if (!pragmaInt(db.get(), "PRAGMA application_id", &applicationId)
        || !pragmaInt(db.get(), "PRAGMA user_version", &userVersion)
        || !pragmaInt(db.get(), "SELECT count(*) FROM sqlite_schema", &objects))
        return corrupt(Sqlite::errorText(db.get()));

    const bool emptyDatabase = applicationId == 0 && userVersion == 0 && objects == 0;
    if (emptyDatabase)
        return true;
    if (quint32(applicationId) != ApplicationId)
        return refuse(error, path,
                      u"not a Headroom cache (application id 0x%1, expected 0x%2)"_s
                          .arg(quint32(applicationId), 8, 16, QLatin1Char('0'))
                          .arg(ApplicationId, 8, 16, QLatin1Char('0')));
    if (userVersion > Version)
        return refuse(error, path,
                      u"written by a newer Headroom (cache schema %1, this build "
                      "reads up to %2); not modified"_s.arg(userVersion)
                          .arg(Version));
    if (userVersion < 1)
        return corrupt(u"schema version %1"_s.arg(userVersion));
    if (fileVersion)
        *fileVersion = userVersion;

    // quick_check reads every page (O(file size)) but not the index/table agreement;
    // it finds truncated files and overwritten pages before we append to them.
    Sqlite::Statement check(db.get(), "PRAGMA quick_check(3)");
    if (!check.isValid())
        return corrupt(Sqlite::errorText(db.get()));
    QStringList problems;
    bool done = false;
    while (check.step(&done))
        problems.append(check.columnText(0));
    if (!done)
        return corrupt(Sqlite::errorText(db.get()));
    if (problems != QStringList { u"ok"_s })
        return corrupt(problems.join(QLatin1StringView("; ")));

    // Tables as Headroom makes them and rows within what a cache holds (cachecheck.h):
    // before any reader runs a query of the file's making or loops over its claims.
    QString reason;
    if (!CacheCheck::checkShape(db.get(), userVersion, &reason)
        || !CacheCheck::checkClaims(db.get(), userVersion, &reason))
        return refuse(error, path,
                      u"not a cache Headroom can read: %1; not modified"_s.arg(reason));
    return true;
}

bool createVersion(sqlite3 *db, int version, QString *error)
{
    for (const Migration &step : migrations) {
        if (step.toVersion <= version && !step.apply(db, error))
            return false;
    }
    return true;
}

bool createOrMigrate(sqlite3 *db, QString *error)
{
    // IMMEDIATE: take the write lock before reading the version, so that two processes
    // opening a new file cannot both create the schema.
    if (!Sqlite::exec(db, "BEGIN IMMEDIATE", error))
        return false;
    auto rollback = [db] { Sqlite::exec(db, "ROLLBACK"); };

    qint64 version = 0;
    if (!pragmaInt(db, "PRAGMA user_version", &version)) {
        if (error)
            *error = Sqlite::errorText(db);
        rollback();
        return false;
    }
    if (version > Version) {
        if (error)
            *error = u"written by a newer Headroom (cache schema %1)"_s.arg(version);
        rollback();
        return false;
    }
    for (const Migration &step : migrations) {
        if (step.toVersion <= version)
            continue;
        qCInfo(lcCache) << "migrating cache schema to version" << step.toVersion;
        if (!step.apply(db, error)) {
            rollback();
            return false;
        }
    }
    const QByteArray stamp = "PRAGMA application_id = " + QByteArray::number(ApplicationId)
        + "; PRAGMA user_version = " + QByteArray::number(Version) + ";";
    if (!Sqlite::exec(db, stamp, error) || !Sqlite::exec(db, "COMMIT", error)) {
        rollback();
        return false;
    }
    return true;
}

} // namespace Headroom::CacheSchema
