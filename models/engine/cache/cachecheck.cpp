// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cache/cachecheck.h"

#include "engine/cache/cacheschema.h"
#include "engine/cache/sqlitedb.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QTimeZone>
#include <map>
#include <mutex>
#include <sqlite3.h>

namespace Headroom::CacheCheck {

using namespace Qt::StringLiterals;

namespace {

// One column as PRAGMA table_xinfo describes it.
struct Column
{
    QByteArray name, type, defaultValue;
    qint64 notNull = 0, primaryKey = 0, hidden = 0;
    friend bool operator==(const Column &, const Column &) = default;
};
using Columns = QList<Column>;

QString text(const QByteArray &utf8)
{
    return QString::fromUtf8(utf8);
}

// A name from the file as a message shows it: printable, at most 64 characters (a
// control character would reach the terminal the message is printed to).
QString shownName(const QByteArray &utf8)
{
    QString name = QString::fromUtf8(utf8.left(256));
    for (QChar &c : name) {
        if (!c.isPrint())
            c = u'?';
    }
    return name.size() > 64 ? name.left(63) + QChar(0x2026) : name;
}

bool fail(QString *reason, const QString &why)
{
    if (reason)
        *reason = why;
    return false;
}

bool columnsOf(sqlite3 *db, const QByteArray &table, Columns *out, QString *reason)
{
    // The table-valued form takes the name as a bound value: names come from the file.
    Sqlite::Statement st(db,
                         "SELECT name, type, \"notnull\", dflt_value, pk, hidden"
                         " FROM pragma_table_xinfo(?)");
    st.bind(1, text(table));
    out->clear();
    bool done = false;
    while (st.step(&done)) {
        out->append({ st.columnText(0).toUtf8(), st.columnText(1).toUpper().toUtf8(),
                      st.columnText(3).toUtf8(), st.columnInt64(2), st.columnInt64(4),
                      st.columnInt64(5) });
    }
    return done || fail(reason, Sqlite::errorText(db));
}

QString describe(const Columns &columns)
{
    QStringList parts;
    for (const Column &c : columns)
        parts.append(shownName(c.name + ' ' + c.type).trimmed()
                     + (c.hidden == 2 || c.hidden == 3 ? u" (generated)"_s : QString()));
    return u"("_s + parts.join(u", "_s) + u')';
}

// The first word of a table's definition that none of Headroom's tables has: anything
// but its name, its columns, their types and the plain constraints (CHECK, GENERATED,
// AS, REFERENCES, COLLATE, VIRTUAL, a string, an operator or a comment). Empty when
// there is none. Any quoting and spacing of the names is accepted.
QByteArray unexpectedWord(const QByteArray &sql, const QByteArray &table, const Columns &columns)
{
    static const QSet<QByteArray> keywords { "CREATE",  "TABLE",   "IF",      "NOT",
                                             "EXISTS",  "NULL",    "PRIMARY", "KEY",
                                             "UNIQUE",  "DEFAULT", "WITHOUT", "ROWID",
                                             "INTEGER", "TEXT",    "REAL",    "BLOB" };
    QSet<QByteArray> names { table.toLower() };
    for (const Column &c : columns)
        names.insert(c.name.toLower());
    const auto isWordChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
            || c == '_';
    };
    qsizetype i = 0;
    while (i < sql.size()) {
        const char c = sql.at(i);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == ',') {
            ++i;
        } else if (c >= '0' && c <= '9') {
            while (i < sql.size() && sql.at(i) >= '0' && sql.at(i) <= '9')
                ++i;
        } else if (c == '"' || c == '`' || c == '[') {
            const char close = c == '[' ? ']' : c;
            const qsizetype end = sql.indexOf(close, i + 1);
            if (end < 0)
                return sql.mid(i, 16);
            const QByteArray name = sql.mid(i + 1, end - i - 1);
            if (!names.contains(name.toLower()))
                return name;
            i = end + 1;
        } else if (isWordChar(c)) {
            const qsizetype start = i;
            while (i < sql.size() && isWordChar(sql.at(i)))
                ++i;
            const QByteArray word = sql.mid(start, i - start);
            if (!keywords.contains(word.toUpper()) && !names.contains(word.toLower()))
                return word;
        } else {
            return sql.mid(i, 1);
        }
    }
    return {};
}

// The tables of schema `version` as Headroom makes them: the fixed ones by name, and
// the two of every day (built in memory by the migrations themselves).
struct Reference
{
    QHash<QByteArray, Columns> fixed;
    Columns blocks, hist;
};

bool buildReference(qint64 version, Reference *reference, QString *reason)
{
    QString error;
    Sqlite::Db db = Sqlite::open(u":memory:"_s, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &error);
    if (!db || !CacheSchema::createVersion(db.get(), int(version), &error)
        || !Sqlite::exec(db.get(), CacheSchema::createDayTablesSql(0), &error))
        return fail(reason, u"cannot build the reference schema (%1)"_s.arg(error));
    Sqlite::Statement list(db.get(), "SELECT name FROM sqlite_schema WHERE type = 'table'");
    QList<QByteArray> names;
    while (list.step())
        names.append(list.columnText(0).toUtf8());
    for (const QByteArray &name : std::as_const(names)) {
        Columns columns;
        if (!columnsOf(db.get(), name, &columns, reason))
            return false;
        if (name == CacheSchema::blocksTable(0))
            reference->blocks = columns;
        else if (name == CacheSchema::histTable(0))
            reference->hist = columns;
        else
            reference->fixed.insert(name, columns);
    }
    return true;
}

// The reference of a version, built once per process (every open of a file checks it).
bool referenceTables(qint64 version, Reference *reference, QString *reason)
{
    static std::mutex mutex;
    static std::map<qint64, Reference> built;
    std::lock_guard lock(mutex);
    auto it = built.find(version);
    if (it == built.end()) {
        Reference fresh;
        if (!buildReference(version, &fresh, reason))
            return false;
        it = built.emplace(version, std::move(fresh)).first;
    }
    *reference = it->second;
    return true;
}

bool checkIndex(sqlite3 *db, const QByteArray &table, const QByteArray &index, QString *reason)
{
    Sqlite::Statement partial(db, "SELECT partial FROM pragma_index_list(?) WHERE name = ?");
    partial.bind(1, text(table));
    partial.bind(2, text(index));
    if (partial.step() && partial.columnInt64(0) != 0)
        return fail(reason,
                    u"index %1 on %2 is partial: a Headroom cache indexes columns only"_s.arg(
                        shownName(index), shownName(table)));
    // cid -2: an expression, evaluated on every write of the table.
    Sqlite::Statement expression(db, "SELECT 1 FROM pragma_index_xinfo(?) WHERE key AND cid = -2");
    expression.bind(1, text(index));
    if (expression.step())
        return fail(
            reason,
            u"index %1 on %2 is on an expression: a Headroom cache indexes columns only"_s.arg(
                shownName(index), shownName(table)));
    return true;
}

QString timeBounds()
{
    const auto day = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::UTC).toString(u"yyyy-MM-dd"_s);
    };
    return u"%1 to %2"_s.arg(day(EarliestMs), day(LatestMs));
}

// A column of a row as the message shows it: the value, or its type when not a number.
QString shown(const Sqlite::Statement &row, int column)
{
    switch (sqlite3_column_type(row.get(), column)) {
    case SQLITE_INTEGER:
        return QString::number(row.columnInt64(column));
    case SQLITE_FLOAT:
        return QString::number(row.columnDouble(column), 'g', 17);
    case SQLITE_NULL:
        return u"NULL"_s;
    case SQLITE_TEXT:
        return u"a text"_s;
    default:
        return u"a blob"_s;
    }
}

bool isInteger(const Sqlite::Statement &row, int column)
{
    return sqlite3_column_type(row.get(), column) == SQLITE_INTEGER;
}

// The first row of table whose `first` (and `last`, when given) is not an integer in
// [EarliestMs, LatestMs), or whose last is before its first. who names the row ("series",
// "alert event") by the key column.
bool checkTimes(sqlite3 *db, const QByteArray &table, const char *key, const QString &who,
                const QByteArray &first, const QByteArray &last, QString *reason)
{
    const QByteArray inRange = "(typeof(" + first + ") = 'integer' AND " + first + " >= ?1 AND "
        + first + " < ?2"
        + (last.isEmpty() ? QByteArray()
                          : " AND typeof(" + last + ") = 'integer' AND " + last + " >= " + first
                   + " AND " + last + " < ?2")
        + ")";
    Sqlite::Statement st(db,
                         "SELECT " + QByteArray(key) + ", " + first + ", "
                             + (last.isEmpty() ? first : last) + " FROM \"" + table
                             + "\" WHERE NOT " + inRange + " LIMIT 1");
    if (!st.isValid())
        return fail(reason, text(table) + u": "_s + Sqlite::errorText(db));
    st.bind(1, EarliestMs);
    st.bind(2, LatestMs);
    bool done = false;
    if (!st.step(&done))
        return done || fail(reason, text(table) + u": "_s + Sqlite::errorText(db));
    const QString row = u"%1: %2 %3"_s.arg(text(table), who, shown(st, 0));
    const auto outside = [&](const QByteArray &column, int at) {
        return isInteger(st, at) && inTimeRange(st.columnInt64(at))
            ? QString()
            : u"%1 has %2 %3, outside the times a cache holds (%4)"_s.arg(
                  row, text(column), shown(st, at), timeBounds());
    };
    QString why = outside(first, 1);
    if (why.isEmpty() && !last.isEmpty())
        why = outside(last, 2);
    if (why.isEmpty())
        why = u"%1 has %2 %3 before %4 %5"_s.arg(row, text(last), shown(st, 2), text(first),
                                                 shown(st, 1));
    return fail(reason, why);
}

bool checkSeries(sqlite3 *db, QString *reason)
{
    const char *const names[] = { "source", "metric", "unit", "resource", "kind" };
    QByteArray sql = "SELECT id, length(CAST(labels AS BLOB))";
    QByteArray where = " WHERE NOT (typeof(id) = 'integer' AND id BETWEEN 1 AND ?1)"
                       " OR length(CAST(labels AS BLOB)) > ?2";
    for (const char *name : names) {
        sql += QByteArray(", length(CAST(") + name + " AS BLOB))";
        where += QByteArray(" OR length(CAST(") + name + " AS BLOB)) > ?3";
    }
    Sqlite::Statement st(db, sql + " FROM series" + where + " LIMIT 1");
    st.bind(1, MaxSeriesId);
    st.bind(2, MaxLabelsBytes);
    st.bind(3, MaxNameBytes);
    bool done = false;
    if (!st.step(&done))
        return done || fail(reason, u"series: "_s + Sqlite::errorText(db));
    if (!isInteger(st, 0) || st.columnInt64(0) < 1 || st.columnInt64(0) > MaxSeriesId)
        return fail(
            reason,
            u"series: a series has id %1, outside 1 to %2"_s.arg(shown(st, 0)).arg(MaxSeriesId));
    const QString series = u"series: series %1 has "_s.arg(st.columnInt64(0));
    if (st.columnInt64(1) > MaxLabelsBytes)
        return fail(
            reason,
            series
                + u"labels of %1 bytes, more than a cache holds (%2)"_s.arg(st.columnInt64(1))
                      .arg(MaxLabelsBytes));
    for (int i = 0; i < int(std::size(names)); ++i) {
        if (st.columnInt64(2 + i) > MaxNameBytes)
            return fail(reason,
                        series
                            + u"a %1 of %2 bytes, more than a cache holds (%3)"_s
                                  .arg(QLatin1StringView(names[i]))
                                  .arg(st.columnInt64(2 + i))
                                  .arg(MaxNameBytes));
    }
    return true;
}

bool checkBlockCounts(sqlite3 *db, const QByteArray &table, QString *reason)
{
    Sqlite::Statement st(db,
                         "SELECT series_id, count FROM \"" + table
                             + "\" WHERE NOT (typeof(count) = 'integer' AND count BETWEEN 1 AND ?)"
                               " LIMIT 1");
    st.bind(1, MaxBlockSamples);
    bool done = false;
    if (!st.step(&done))
        return done || fail(reason, text(table) + u": "_s + Sqlite::errorText(db));
    return fail(reason,
                u"%1: a block of series %2 claims %3 samples, outside 1 to %4 (one a "
                "millisecond of its day)"_s.arg(text(table), shown(st, 0), shown(st, 1))
                    .arg(MaxBlockSamples));
}

} // namespace

bool storable(const SeriesInfo &info, QString *why)
{
    const std::pair<const char *, const QString *> names[] = {
        { "source", &info.key.source },
        { "metric", &info.key.metric },
        { "unit", &info.unit },
        { "resource", &info.resource },
    };
    for (const auto &[name, value] : names) {
        const qint64 bytes = value->toUtf8().size();
        if (bytes > MaxNameBytes)
            return fail(why,
                        u"a %1 of %2 bytes (at most %3)"_s.arg(QLatin1StringView(name))
                            .arg(bytes)
                            .arg(MaxNameBytes));
    }
    const qint64 labelBytes = labelsToString(info.key.labels).toUtf8().size();
    if (labelBytes > MaxLabelsBytes)
        return fail(why, u"labels of %1 bytes (at most %2)"_s.arg(labelBytes).arg(MaxLabelsBytes));
    return true;
}

bool checkShape(sqlite3 *db, qint64 version, QString *reason)
{
    Reference reference;
    if (!referenceTables(version, &reference, reason))
        return false;
    struct Object
    {
        QByteArray type, name, table, sql;
    };
    QList<Object> objects;
    {
        Sqlite::Statement st(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema");
        bool done = false;
        while (st.step(&done))
            objects.append({ st.columnText(0).toUtf8(), st.columnText(1).toUtf8(),
                             st.columnText(2).toUtf8(), st.columnText(3).toUtf8() });
        if (!done)
            return fail(reason, Sqlite::errorText(db));
    }
    static const QSet<QByteArray> sqliteTables { "sqlite_sequence", "sqlite_stat1",
                                                 "sqlite_stat4" };
    QSet<QByteArray> found;
    for (const Object &object : std::as_const(objects)) {
        const QString name = shownName(object.name);
        if (object.type == "index") {
            if (!checkIndex(db, object.table, object.name, reason))
                return false;
            continue;
        }
        if (object.type != "table")
            return fail(reason,
                        u"%1 is a %2: a Headroom cache holds tables and indexes only"_s.arg(
                            name, shownName(object.type)));
        if (sqliteTables.contains(object.name))
            continue; // SQLite's own, written by ANALYZE: they only guide the planner
        const std::optional<qint64> day = CacheSchema::dayOfTable(object.name);
        const bool blocks = day && object.name == CacheSchema::blocksTable(*day);
        const Columns *expected = blocks ? &reference.blocks : day ? &reference.hist : nullptr;
        if (!day) {
            const auto fixed = reference.fixed.constFind(object.name);
            if (fixed == reference.fixed.constEnd())
                return fail(
                    reason,
                    u"table %1 is not one a cache of schema %2 has"_s.arg(name).arg(version));
            expected = &*fixed;
            found.insert(object.name);
        }
        // A virtual table would be connected to by the very PRAGMA that lists columns.
        if (!object.sql.trimmed().toUpper().startsWith("CREATE TABLE"))
            return fail(reason,
                        u"%1 is not a plain table: a Headroom cache holds tables and indexes "
                        "only"_s.arg(name));
        Columns columns;
        if (!columnsOf(db, object.name, &columns, reason))
            return false;
        // Before schema 2 a day's blocks had no summary columns (min, max, sum).
        const bool unsummarized
            = blocks && version < 2 && columns == expected->mid(0, expected->size() - 3);
        if (columns != *expected && !unsummarized)
            return fail(
                reason,
                u"table %1 has the columns %2, where a cache of schema %3 has %4"_s.arg(
                    name, describe(columns), QString::number(version), describe(*expected)));
        const QByteArray word = unexpectedWord(object.sql, object.name, columns);
        if (!word.isEmpty())
            return fail(reason,
                        u"table %1 is defined with \"%2\", which no Headroom cache has"_s.arg(
                            name, shownName(word)));
    }
    for (auto it = reference.fixed.cbegin(); it != reference.fixed.cend(); ++it) {
        if (!found.contains(it.key()))
            return fail(
                reason,
                u"table %1 of cache schema %2 is missing"_s.arg(text(it.key())).arg(version));
    }
    return true;
}

bool checkClaims(sqlite3 *db, qint64 version, QString *reason)
{
    if (!checkSeries(db, reason))
        return false;
    QList<qint64> days;
    {
        Sqlite::Statement st(db, "SELECT day FROM chunks");
        bool done = false;
        while (st.step(&done)) {
            const qint64 day = st.columnInt64(0);
            if (!isInteger(st, 0) || day < CacheSchema::dayOf(EarliestMs)
                || day > CacheSchema::dayOf(LatestMs - 1))
                return fail(reason,
                            u"chunks: day %1 is outside the times a cache holds (%2)"_s.arg(
                                shown(st, 0), timeBounds()));
            days.append(day);
        }
        if (!done)
            return fail(reason, u"chunks: "_s + Sqlite::errorText(db));
    }
    for (qint64 day : std::as_const(days)) {
        for (const QByteArray &table :
             { CacheSchema::blocksTable(day), CacheSchema::histTable(day) }) {
            Sqlite::Statement exists(
                db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?");
            exists.bind(1, text(table));
            if (!exists.step())
                return fail(
                    reason,
                    u"chunks lists day %1, whose table %2 is missing"_s.arg(day).arg(text(table)));
        }
        const QByteArray blocks = CacheSchema::blocksTable(day);
        if (!checkTimes(db, blocks, "series_id", u"a block of series"_s, "start_ts", "end_ts",
                        reason)
            || !checkBlockCounts(db, blocks, reason)
            || !checkTimes(db, CacheSchema::histTable(day), "series_id", u"a histogram of series"_s,
                           "ts", {}, reason))
            return false;
    }
    if (version < 2) {
        if (!checkTimes(db, "tail", "series_id", u"a sample of series"_s, "ts", {}, reason))
            return false;
    } else if (!checkTimes(db, "tail_chunks", "series_id", u"a chunk of series"_s, "first_ts",
                           "last_ts", reason)) {
        return false;
    }
    if (version >= 3 && !checkTimes(db, "alert_events", "id", u"alert event"_s, "ts", {}, reason))
        return false;
    if (version >= 6) {
        if (!checkTimes(db, "rollup", "series_id", u"a rollup row of series"_s, "start_ts", {},
                        reason)
            || !checkTimes(db, "rollup_hist", "series_id", u"a rollup histogram of series"_s,
                           "start_ts", {}, reason))
            return false;
    }
    return true;
}

} // namespace Headroom::CacheCheck
