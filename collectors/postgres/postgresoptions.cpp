// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "postgresoptions.h"

#include "collector/pluginoptionreader.h"
#include "pgsqlguard.h"

#include <QJsonArray>
#include <QJsonValue>
#include <QRegularExpression>
#include <QSet>
#include <cmath>
#include <libpq-fe.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// The plugins' lenient option reader, plus the screen for a dashboard's SQL.
class OptionReader : public PluginOptionReader
{
public:
    // A query: a non-blank string, trimmed, without trailing semicolons, screened.
    bool readSql(const QJsonValue &value, const QString &path, QString *out);
};

// Walks an array option of objects that each have a unique "name" and only the given
// keys; readItem parses the rest of one item (path is e.g. "queries[2]").
template<typename Item, typename ReadItem>
bool readNamedArray(OptionReader &reader, const QJsonValue &value, const QString &option,
                    const QStringList &keys, QList<Item> *out, ReadItem readItem)
{
    if (OptionReader::absent(value, false))
        return true;
    if (!value.isArray())
        return reader.failType(option, u"an array of {%1}"_s.arg(keys.join(u", "_s)), value);
    QSet<QString> names;
    const QJsonArray items = value.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QString path = JsonReader::indexPath(option, i);
        QJsonObject object;
        if (!reader.elementObject(items.at(i), path, &object)
            || !reader.checkKnownKeys(object, path, keys))
            return false;
        Item parsed;
        if (!reader.readName(object.value("name"_L1), path + u".name"_s, &parsed.name))
            return false;
        if (names.contains(parsed.name))
            return reader.fail(path + u".name"_s, u"\"%1\" is used twice"_s.arg(parsed.name));
        names.insert(parsed.name);
        if (!readItem(object, path, parsed))
            return false;
        out->append(parsed);
    }
    return true;
}

bool readShardSets(OptionReader &reader, const QJsonValue &value, QList<PgShardSetOption> *out)
{
    const auto readSet = [&](const QJsonObject &set, const QString &path,
                             PgShardSetOption &parsed) {
        const QString tablesPath = JsonReader::joinPath(path, u"tables"_s);
        const QJsonValue tablesValue = set.value("tables"_L1);
        const QJsonArray tables = tablesValue.toArray();
        if (tablesValue.isUndefined())
            return reader.fail(tablesPath, u"is required"_s);
        if (tables.isEmpty())
            return reader.failType(tablesPath, u"a non-empty array of table names"_s, tablesValue);
        for (qsizetype i = 0; i < tables.size(); ++i) {
            const QJsonValue table = tables.at(i);
            if (!table.isString() || table.toString().trimmed().isEmpty())
                return reader.failType(JsonReader::indexPath(tablesPath, i), u"a table name"_s,
                                       table);
            parsed.tables << table.toString().trimmed();
        }
        const QJsonValue capacity = set.value("capacity"_L1);
        if (!OptionReader::absent(capacity, false)) {
            bool ok = capacity.isDouble();
            parsed.capacity = ok ? capacity.toDouble() : capacity.toString().toDouble(&ok);
            if (!ok || !(parsed.capacity > 0) || !std::isfinite(parsed.capacity))
                return reader.failType(JsonReader::joinPath(path, u"capacity"_s),
                                       u"a number of tuples per second above 0"_s, capacity);
        }
        return true;
    };
    return readNamedArray(reader, value, u"shardSets"_s, { u"name"_s, u"tables"_s, u"capacity"_s },
                          out, readSet);
}

// A dashboard's SQL is screened when the file is opened (pgsqlguard.h): one query that
// calls nothing that could change the server.
bool OptionReader::readSql(const QJsonValue &value, const QString &path, QString *out)
{
    if (value.isUndefined())
        return fail(path, u"is required"_s);
    if (!value.isString() || value.toString().trimmed().isEmpty())
        return failType(path, u"a query"_s, value);
    *out = value.toString().trimmed();
    while (out->endsWith(u';'))
        *out = out->chopped(1).trimmed();
    if (const auto refused = refuseDashboardSql(*out))
        return fail(path, *refused);
    return true;
}

bool readProbe(OptionReader &reader, const QJsonValue &value, PgProbeOptions *out)
{
    if (OptionReader::absent(value, false))
        return true;
    if (value.isBool()) {
        if (!value.toBool())
            out->count = 0;
        return true;
    }
    const QString path = u"probe"_s;
    QJsonObject probe;
    if (!value.isObject())
        return reader.failType(path, u"false or {\"sql\": ..., \"count\": N}"_s, value);
    probe = value.toObject();
    if (!reader.checkKnownKeys(probe, path, { u"sql"_s, u"count"_s }))
        return false;
    const QJsonValue sql = probe.value("sql"_L1);
    if (!sql.isUndefined() && !reader.readSql(sql, u"probe.sql"_s, &out->sql))
        return false;
    return reader.readLenientInt(probe, u"count"_s, path, 0, 1000, &out->count);
}

bool readQueries(OptionReader &reader, const QJsonValue &value, QList<PgCustomQuery> *out)
{
    const auto readQuery
        = [&](const QJsonObject &query, const QString &path, PgCustomQuery &parsed) {
              return reader.readSql(query.value("sql"_L1), path + u".sql"_s, &parsed.sql);
          };
    return readNamedArray(reader, value, u"queries"_s, { u"name"_s, u"sql"_s }, out, readQuery);
}

} // namespace

std::optional<PostgresOptions> parsePostgresOptions(const QJsonObject &options, QString *error)
{
    OptionReader reader;
    const auto refuse = [&]() -> std::optional<PostgresOptions> {
        if (error)
            *error = reader.error().toString();
        return std::nullopt;
    };
    if (options.contains("password"_L1)) {
        reader.fail(u"password"_s,
                    u"is not an option: passwords come from ~/.pgpass, a service file or "
                    "PGPASSWORD, so that none is written to a dashboard"_s);
        return refuse();
    }
    if (!reader.checkKnownKeys(
            options, {},
            { u"conninfo"_s, u"connectTimeoutMs"_s, u"statementTimeoutMs"_s, u"lockTimeoutMs"_s,
              u"databases"_s, u"statements"_s, u"topStatements"_s, u"waitSamplesPerSecond"_s,
              u"tables"_s, u"shardSets"_s, u"shardOverloadedPercent"_s, u"probe"_s, u"queries"_s },
            u"option"_s))
        return refuse();

    PostgresOptions parsed;
    const QJsonValue conninfo = options.value("conninfo"_L1);
    if (!OptionReader::absent(conninfo, false)) {
        // Not a string, so describing it repeats no password.
        if (!conninfo.isString()) {
            reader.failType(u"conninfo"_s, u"a libpq connection string or URI"_s, conninfo);
            return refuse();
        }
        parsed.settings.conninfo = conninfo.toString().trimmed();
    }
    if (!parsed.settings.conninfo.isEmpty()) {
        // Catch typos now rather than at every connect; libpq's message names the
        // offending keyword, never the value.
        char *parseError = nullptr;
        PQconninfoOption *parsedInfo
            = PQconninfoParse(parsed.settings.conninfo.toUtf8().constData(), &parseError);
        if (!parsedInfo) {
            // libpq quotes the offending piece, which may be (part of) a password:
            // only "invalid connection option" is known to name a keyword alone.
            static const QRegularExpression keywordOnly(
                u"^invalid connection option \"[A-Za-z_]+\"$"_s);
            const QString libpqReason
                = parseError ? QString::fromUtf8(parseError).simplified() : QString();
            PQfreemem(parseError);
            const QString reason = keywordOnly.match(libpqReason).hasMatch()
                ? libpqReason
                : u"libpq cannot parse it (check the key=value pairs, their quoting and the "
                  "URI's %-escapes; its text is not repeated here as it may hold a password)"_s;
            reader.fail(u"conninfo"_s, reason);
            return refuse();
        }
        PQconninfoFree(parsedInfo);
    }

    PgSettings &settings = parsed.settings;
    if (!reader.readLenientInt(options, u"connectTimeoutMs"_s, {}, 100, 600'000,
                               &settings.connectTimeoutMs)
        || !reader.readLenientInt(options, u"statementTimeoutMs"_s, {}, 1, 3'600'000,
                                  &settings.statementTimeoutMs)
        || !reader.readLenientInt(options, u"lockTimeoutMs"_s, {}, 1, 3'600'000,
                                  &settings.lockTimeoutMs)
        || !reader.readLenientBool(options, u"statements"_s, &parsed.statements)
        || !reader.readLenientInt(options, u"topStatements"_s, {}, 1, 100, &parsed.topStatements)
        || !reader.readLenientInt(options, u"waitSamplesPerSecond"_s, {}, 0, 100,
                                  &parsed.waitSamplesPerSecond)
        || !reader.readLenientBool(options, u"tables"_s, &parsed.tables)
        || !readShardSets(reader, options.value("shardSets"_L1), &parsed.shardSets)
        || !reader.readLenientNumber(options, u"shardOverloadedPercent"_s, 0,
                                     &parsed.shardOverloadedPercent)
        || !readProbe(reader, options.value("probe"_L1), &parsed.probe)
        || !readQueries(reader, options.value("queries"_L1), &parsed.queries))
        return refuse();

    const QJsonValue databases = options.value("databases"_L1);
    if (!OptionReader::absent(databases, false)) {
        if (!databases.isArray()) {
            reader.failType(u"databases"_s, u"an array of database names"_s, databases);
            return refuse();
        }
        const QJsonArray names = databases.toArray();
        for (qsizetype i = 0; i < names.size(); ++i) {
            const QJsonValue name = names.at(i);
            if (!name.isString() || name.toString().isEmpty()) {
                reader.failType(JsonReader::indexPath(u"databases"_s, i), u"a database name"_s,
                                name);
                return refuse();
            }
            parsed.databases << name.toString();
        }
    }
    return parsed;
}

} // namespace Headroom
