#include "postgresoptions.h"

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

// Every failure names the option; parsers return false after setting *error.
class OptionReader
{
public:
    explicit OptionReader(QString *error)
        : m_error(error)
    {
    }

    bool fail(const QString &text)
    {
        if (m_error)
            *m_error = text;
        return false;
    }

    // Options that arrive from dashboard variables may be numeric strings.
    bool readInt(const QJsonObject &options, const QString &path, const QString &name, int min,
                 int max, int *out)
    {
        const QJsonValue value = options.value(name);
        if (value.isUndefined() || value.isNull()
            || (value.isString() && value.toString().trimmed().isEmpty()))
            return true;
        bool ok = value.isDouble();
        const double number = ok ? value.toDouble() : value.toString().trimmed().toDouble(&ok);
        if (!ok || number != std::floor(number) || number < min || number > max)
            return fail(
                u"\"%1\": expected %2 from %3 to %4"_s
                    .arg(path + name,
                         name.endsWith("Ms"_L1) ? u"whole milliseconds"_s : u"a whole number"_s)
                    .arg(min)
                    .arg(max));
        *out = int(number);
        return true;
    }

    // A finite number of at least min; numeric strings too (dashboard variables).
    bool readNumber(const QJsonObject &options, const QString &name, double min, double *out)
    {
        const QJsonValue value = options.value(name);
        if (value.isUndefined() || value.isNull()
            || (value.isString() && value.toString().trimmed().isEmpty()))
            return true;
        bool ok = value.isDouble();
        const double number = ok ? value.toDouble() : value.toString().trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(number) || number < min)
            return fail(u"\"%1\": expected a number of at least %2"_s.arg(name).arg(min));
        *out = number;
        return true;
    }

    bool readBool(const QJsonObject &options, const QString &name, bool *out)
    {
        const QJsonValue value = options.value(name);
        if (value.isUndefined() || value.isNull())
            return true;
        if (value.isBool()) {
            *out = value.toBool();
            return true;
        }
        const QString text = value.toString().trimmed().toLower();
        if (text == "true"_L1 || text == "on"_L1 || text == "1"_L1) {
            *out = true;
            return true;
        }
        if (text == "false"_L1 || text == "off"_L1 || text == "0"_L1) {
            *out = false;
            return true;
        }
        return fail(u"\"%1\": expected true or false"_s.arg(name));
    }

    bool readName(const QJsonValue &value, const QString &path, QString *out)
    {
        static const QRegularExpression pattern(u"^[a-z][a-z0-9_]{0,62}$"_s);
        if (!value.isString() || !pattern.match(value.toString()).hasMatch())
            return fail(u"\"%1\": expected a name of lower-case letters, digits and _"_s.arg(path));
        *out = value.toString();
        return true;
    }

private:
    QString *m_error;
};

// Walks an array option of objects that each have a unique "name" and only the given
// keys; readItem parses the rest of one item (path is e.g. "queries[2]").
template<typename Item, typename ReadItem>
bool readNamedArray(OptionReader &reader, const QJsonValue &value, const QString &option,
                    const QStringList &keys, QList<Item> *out, ReadItem readItem)
{
    if (value.isUndefined() || value.isNull())
        return true;
    if (!value.isArray())
        return reader.fail(u"\"%1\" must be an array of {%2}"_s.arg(option, keys.join(u", "_s)));
    QSet<QString> names;
    const QJsonArray items = value.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QString path = u"%1[%2]"_s.arg(option).arg(i);
        const QJsonObject object = items.at(i).toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!keys.contains(it.key()))
                return reader.fail(u"\"%1\": unknown key \"%2\""_s.arg(path, it.key()));
        }
        Item parsed;
        if (!reader.readName(object.value("name"_L1), path + u".name"_s, &parsed.name))
            return false;
        if (names.contains(parsed.name))
            return reader.fail(u"\"%1.name\": \"%2\" is used twice"_s.arg(path, parsed.name));
        names.insert(parsed.name);
        if (!readItem(object, path, parsed))
            return false;
        out->append(parsed);
    }
    return true;
}

bool readShardSets(OptionReader &reader, const QJsonValue &value, QList<PgShardSetOption> *out)
{
    const auto readSet
        = [&](const QJsonObject &set, const QString &path, PgShardSetOption &parsed) {
              const QJsonArray tables = set.value("tables"_L1).toArray();
              if (tables.isEmpty())
                  return reader.fail(
                      u"\"%1.tables\": expected a non-empty array of table names"_s.arg(path));
              for (const QJsonValue table : tables) {
                  if (!table.isString() || table.toString().trimmed().isEmpty())
                      return reader.fail(u"\"%1.tables\": expected table names"_s.arg(path));
                  parsed.tables << table.toString().trimmed();
              }
              const QJsonValue capacity = set.value("capacity"_L1);
              if (!capacity.isUndefined() && !capacity.isNull()) {
                  bool ok = capacity.isDouble();
                  parsed.capacity = ok ? capacity.toDouble() : capacity.toString().toDouble(&ok);
                  if (!ok || !(parsed.capacity > 0) || !std::isfinite(parsed.capacity))
                      return reader.fail(
                          u"\"%1.capacity\": expected tuples per second above 0"_s.arg(path));
              }
              return true;
          };
    return readNamedArray(reader, value, u"shardSets"_s, { u"name"_s, u"tables"_s, u"capacity"_s },
                          out, readSet);
}

// A dashboard's SQL is screened when the file is opened (pgsqlguard.h): one query that
// calls nothing that could change the server.
bool refuseSessionChanges(OptionReader &reader, const QString &path, const QString &sql)
{
    if (const auto refused = refuseDashboardSql(sql))
        return reader.fail(u"\"%1\": %2"_s.arg(path, *refused));
    return true;
}

bool readProbe(OptionReader &reader, const QJsonValue &value, PgProbeOptions *out)
{
    if (value.isUndefined() || value.isNull())
        return true;
    if (value.isBool()) {
        if (!value.toBool())
            out->count = 0;
        return true;
    }
    if (!value.isObject())
        return reader.fail(u"\"probe\" must be false or {\"sql\": ..., \"count\": N}"_s);
    const QJsonObject probe = value.toObject();
    for (auto it = probe.constBegin(); it != probe.constEnd(); ++it) {
        if (it.key() != "sql"_L1 && it.key() != "count"_L1)
            return reader.fail(u"\"probe\": unknown key \"%1\""_s.arg(it.key()));
    }
    const QJsonValue sql = probe.value("sql"_L1);
    if (!sql.isUndefined()) {
        if (!sql.isString() || sql.toString().trimmed().isEmpty())
            return reader.fail(u"\"probe.sql\": expected a query"_s);
        out->sql = sql.toString().trimmed();
        while (out->sql.endsWith(u';'))
            out->sql = out->sql.chopped(1).trimmed();
        if (!refuseSessionChanges(reader, u"probe.sql"_s, out->sql))
            return false;
    }
    return reader.readInt(probe, u"probe."_s, u"count"_s, 0, 1000, &out->count);
}

bool readQueries(OptionReader &reader, const QJsonValue &value, QList<PgCustomQuery> *out)
{
    const auto readQuery
        = [&](const QJsonObject &query, const QString &path, PgCustomQuery &parsed) {
              const QJsonValue sql = query.value("sql"_L1);
              if (!sql.isString() || sql.toString().trimmed().isEmpty())
                  return reader.fail(u"\"%1.sql\": expected a query"_s.arg(path));
              parsed.sql = sql.toString().trimmed();
              while (parsed.sql.endsWith(u';'))
                  parsed.sql = parsed.sql.chopped(1).trimmed();
              return refuseSessionChanges(reader, path + u".sql"_s, parsed.sql);
          };
    return readNamedArray(reader, value, u"queries"_s, { u"name"_s, u"sql"_s }, out, readQuery);
}

} // namespace

std::optional<PostgresOptions> parsePostgresOptions(const QJsonObject &options, QString *error)
{
    OptionReader reader(error);
    static const QSet<QString> known {
        u"conninfo"_s,      u"connectTimeoutMs"_s, u"statementTimeoutMs"_s,
        u"lockTimeoutMs"_s, u"databases"_s,        u"statements"_s,
        u"topStatements"_s, u"tables"_s,           u"shardSets"_s,
        u"probe"_s,         u"queries"_s,          u"shardOverloadedPercent"_s
    };
    for (auto it = options.constBegin(); it != options.constEnd(); ++it) {
        if (it.key() == "password"_L1) {
            reader.fail(u"\"password\" is not an option: passwords come from ~/.pgpass, a "
                        "service file or PGPASSWORD, so that none is written to a dashboard"_s);
            return std::nullopt;
        }
        if (!known.contains(it.key())) {
            reader.fail(u"unknown option \"%1\""_s.arg(it.key()));
            return std::nullopt;
        }
    }

    PostgresOptions parsed;
    const QJsonValue conninfo = options.value("conninfo"_L1);
    if (!conninfo.isUndefined() && !conninfo.isNull()) {
        if (!conninfo.isString()) {
            reader.fail(u"\"conninfo\" must be a libpq connection string or URI"_s);
            return std::nullopt;
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
            reader.fail(u"\"conninfo\": %1"_s.arg(reason));
            return std::nullopt;
        }
        PQconninfoFree(parsedInfo);
    }

    PgSettings &settings = parsed.settings;
    if (!reader.readInt(options, {}, u"connectTimeoutMs"_s, 100, 600'000,
                        &settings.connectTimeoutMs)
        || !reader.readInt(options, {}, u"statementTimeoutMs"_s, 1, 3'600'000,
                           &settings.statementTimeoutMs)
        || !reader.readInt(options, {}, u"lockTimeoutMs"_s, 1, 3'600'000, &settings.lockTimeoutMs)
        || !reader.readBool(options, u"statements"_s, &parsed.statements)
        || !reader.readInt(options, {}, u"topStatements"_s, 1, 100, &parsed.topStatements)
        || !reader.readBool(options, u"tables"_s, &parsed.tables)
        || !readShardSets(reader, options.value("shardSets"_L1), &parsed.shardSets)
        || !reader.readNumber(options, u"shardOverloadedPercent"_s, 0,
                              &parsed.shardOverloadedPercent)
        || !readProbe(reader, options.value("probe"_L1), &parsed.probe)
        || !readQueries(reader, options.value("queries"_L1), &parsed.queries))
        return std::nullopt;

    const QJsonValue databases = options.value("databases"_L1);
    if (!databases.isUndefined() && !databases.isNull()) {
        if (!databases.isArray()) {
            reader.fail(u"\"databases\" must be an array of database names"_s);
            return std::nullopt;
        }
        for (const QJsonValue name : databases.toArray()) {
            if (!name.isString() || name.toString().isEmpty()) {
                reader.fail(u"\"databases\" must be an array of database names"_s);
                return std::nullopt;
            }
            parsed.databases << name.toString();
        }
    }
    return parsed;
}

} // namespace Headroom
