// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "collector/configschema.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStringList>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QStringList TypeNames
    = { u"string"_s, u"integer"_s, u"number"_s, u"boolean"_s, u"array"_s, u"object"_s, u"null"_s };

const QStringList Keywords = {
    u"type"_s,    u"properties"_s,       u"required"_s,         u"additionalProperties"_s,
    u"items"_s,   u"minItems"_s,         u"maxItems"_s,         u"minimum"_s,
    u"maximum"_s, u"exclusiveMinimum"_s, u"exclusiveMaximum"_s, u"pattern"_s,
    u"enum"_s,    u"description"_s,      u"default"_s,          u"title"_s,
    u"trust"_s,
};

const QStringList NumericBounds
    = { u"minimum"_s, u"maximum"_s, u"exclusiveMinimum"_s, u"exclusiveMaximum"_s };

// ---- The schema itself ------------------------------------------------------------------

bool validateSchema(JsonReader &reader, const QJsonObject &schema, const QString &path);

bool validateSubschema(JsonReader &reader, const QJsonValue &value, const QString &path)
{
    QJsonObject schema;
    return reader.elementObject(value, path, &schema) && validateSchema(reader, schema, path);
}

bool validateType(JsonReader &reader, const QJsonValue &type, const QString &path)
{
    const QString expected
        = u"a type name ("_s + TypeNames.join(u", "_s) + u") or a list of them"_s;
    if (type.isString())
        return TypeNames.contains(type.toString()) || reader.failType(path, expected, type);
    if (!type.isArray() || type.toArray().isEmpty())
        return reader.failType(path, expected, type);
    const QJsonArray names = type.toArray();
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (!names.at(i).isString() || !TypeNames.contains(names.at(i).toString()))
            return reader.failType(JsonReader::indexPath(path, i), expected, names.at(i));
    }
    return true;
}

bool validateSchema(JsonReader &reader, const QJsonObject &schema, const QString &path)
{
    if (!reader.checkKnownKeys(schema, path, Keywords, u"schema keyword"_s))
        return false;
    const auto at = [&](const QString &keyword) { return JsonReader::joinPath(path, keyword); };
    if (schema.contains(u"type"_s) && !validateType(reader, schema.value(u"type"_s), at(u"type"_s)))
        return false;
    QJsonObject properties;
    if (!reader.readObject(schema, u"properties"_s, path, &properties))
        return false;
    for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
        if (!validateSubschema(reader, it.value(),
                               JsonReader::joinPath(at(u"properties"_s), it.key())))
            return false;
    }
    QJsonArray required;
    if (!reader.readArray(schema, u"required"_s, path, false, &required))
        return false;
    for (qsizetype i = 0; i < required.size(); ++i) {
        if (!required.at(i).isString())
            return reader.failType(JsonReader::indexPath(at(u"required"_s), i),
                                   u"a property name"_s, required.at(i));
    }
    const QJsonValue additional = schema.value(u"additionalProperties"_s);
    if (!additional.isUndefined() && !additional.isBool()
        && !validateSubschema(reader, additional, at(u"additionalProperties"_s)))
        return false;
    if (schema.contains(u"items"_s)
        && !validateSubschema(reader, schema.value(u"items"_s), at(u"items"_s)))
        return false;
    for (const QString &bound : NumericBounds) {
        double number = 0;
        if (!reader.readNumber(schema, bound, path, false, &number))
            return false;
    }
    int count = 0;
    if (!reader.readInt(schema, u"minItems"_s, path, 0, 0, &count)
        || !reader.readInt(schema, u"maxItems"_s, path, 0, 0, &count))
        return false;
    QString pattern;
    if (!reader.readString(schema, u"pattern"_s, path, false, &pattern))
        return false;
    if (const QRegularExpression re(pattern); !re.isValid())
        return reader.fail(at(u"pattern"_s),
                           u"is not a valid regular expression: "_s + re.errorString());
    QJsonArray values;
    if (!reader.readArray(schema, u"enum"_s, path, false, &values))
        return false;
    if (schema.contains(u"enum"_s) && values.isEmpty())
        return reader.fail(at(u"enum"_s), u"must not be empty"_s);
    return true;
}

// ---- A value against it -----------------------------------------------------------------

QStringList typesOf(const QJsonObject &schema)
{
    const QJsonValue type = schema.value(u"type"_s);
    if (type.isString())
        return { type.toString() };
    QStringList types;
    for (const auto allNames = type.toArray(); const auto &name : allNames)
        types << name.toString();
    return types; // empty: any type
}

bool hasType(const QJsonValue &value, const QString &type)
{
    if (type == "string"_L1)
        return value.isString();
    if (type == "integer"_L1)
        return value.isDouble() && std::floor(value.toDouble()) == value.toDouble();
    if (type == "number"_L1)
        return value.isDouble();
    if (type == "boolean"_L1)
        return value.isBool();
    if (type == "array"_L1)
        return value.isArray();
    if (type == "object"_L1)
        return value.isObject();
    return value.isNull(); // "null"; validateSchema lets no other name through
}

QString number(const QJsonObject &schema, const QString &keyword)
{
    return QString::number(schema.value(keyword).toDouble());
}

// "an integer from 1 to 100", "a positive number": JsonReader::readInt's words.
QString numberPhrase(const QJsonObject &schema, bool integer)
{
    const QString noun = integer ? u"integer"_s : u"number"_s;
    const bool min = schema.contains(u"minimum"_s), max = schema.contains(u"maximum"_s);
    const bool above = schema.contains(u"exclusiveMinimum"_s);
    const bool below = schema.contains(u"exclusiveMaximum"_s);
    if (min && max && !above && !below)
        return u"a%1 %2 from %3 to %4"_s.arg(integer ? u"n"_s : QString(), noun,
                                             number(schema, u"minimum"_s),
                                             number(schema, u"maximum"_s));
    if (!max && !below && min && !above && schema.value(u"minimum"_s).toDouble() == 0)
        return u"a non-negative "_s + noun;
    if (!max && !below
        && ((min && !above && integer && schema.value(u"minimum"_s).toDouble() == 1)
            || (above && !min && schema.value(u"exclusiveMinimum"_s).toDouble() == 0)))
        return u"a positive "_s + noun;
    QStringList bounds;
    if (min)
        bounds << u"of at least "_s + number(schema, u"minimum"_s);
    if (above)
        bounds << u"above "_s + number(schema, u"exclusiveMinimum"_s);
    if (max)
        bounds << u"of at most "_s + number(schema, u"maximum"_s);
    if (below)
        bounds << u"below "_s + number(schema, u"exclusiveMaximum"_s);
    QString phrase = (integer ? u"an "_s : u"a "_s) + noun;
    if (!bounds.isEmpty())
        phrase += u' ' + bounds.join(u" and "_s);
    return phrase;
}

// "a, b or c".
QString alternatives(const QStringList &parts)
{
    if (parts.size() <= 1)
        return parts.value(0);
    return QString(parts.mid(0, parts.size() - 1).join(u", "_s) + u" or "_s + parts.last());
}

// What the schema's type list accepts, in words: "an integer from 1 to 100 or a string".
QString typePhrase(const QJsonObject &schema)
{
    const QStringList types = typesOf(schema);
    QStringList parts;
    for (const QString &type : types) {
        if (type == "string"_L1)
            parts << u"a string"_s;
        else if (type == "integer"_L1 || type == "number"_L1)
            parts << numberPhrase(schema, type == "integer"_L1);
        else if (type == "boolean"_L1)
            parts << u"true"_s << u"false"_s;
        else if (type == "array"_L1)
            parts << u"an array"_s;
        else if (type == "object"_L1)
            parts << u"an object"_s;
        else
            parts << u"null"_s;
    }
    return alternatives(parts);
}

bool describesObject(const QJsonObject &schema)
{
    return typesOf(schema).contains(u"object"_s) || schema.contains(u"properties"_s)
        || schema.contains(u"additionalProperties"_s) || schema.contains(u"required"_s);
}

bool checkValue(JsonReader &reader, const QJsonValue &value, const QJsonObject &schema,
                const QString &path, const QString &keyKind);

bool checkNumber(JsonReader &reader, const QJsonValue &value, const QJsonObject &schema,
                 const QString &path)
{
    const double x = value.toDouble();
    const auto bound = [&](const QString &keyword) { return schema.value(keyword).toDouble(); };
    const bool inRange = (!schema.contains(u"minimum"_s) || x >= bound(u"minimum"_s))
        && (!schema.contains(u"maximum"_s) || x <= bound(u"maximum"_s))
        && (!schema.contains(u"exclusiveMinimum"_s) || x > bound(u"exclusiveMinimum"_s))
        && (!schema.contains(u"exclusiveMaximum"_s) || x < bound(u"exclusiveMaximum"_s));
    if (inRange)
        return true;
    const QStringList types = typesOf(schema);
    const bool integer = types.contains(u"integer"_s) && !types.contains(u"number"_s);
    return reader.failType(path, numberPhrase(schema, integer), value);
}

bool checkArray(JsonReader &reader, const QJsonArray &array, const QJsonObject &schema,
                const QString &path)
{
    const qsizetype minItems = schema.value(u"minItems"_s).toInteger(0);
    if (array.size() < minItems)
        return reader.fail(
            path,
            minItems == 1
                ? u"must not be empty"_s
                : u"must list at least %1 items, got %2"_s.arg(minItems).arg(array.size()));
    if (schema.contains(u"maxItems"_s)
        && !reader.checkCount(array.size(), schema.value(u"maxItems"_s).toInteger(), path,
                              u"items"_s))
        return false;
    const QJsonValue items = schema.value(u"items"_s);
    if (!items.isObject())
        return true;
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!checkValue(reader, array.at(i), items.toObject(), JsonReader::indexPath(path, i),
                        u"field"_s))
            return false;
    }
    return true;
}

bool checkObject(JsonReader &reader, const QJsonObject &object, const QJsonObject &schema,
                 const QString &path, const QString &keyKind)
{
    const QJsonObject properties = schema.value(u"properties"_s).toObject();
    const QJsonValue additional = schema.value(u"additionalProperties"_s);
    // Members first: a misspelt required option is named as unknown, the clearer hint.
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (it.value().isNull())
            continue; // counts as absent, as the plugins read it
        const QString field = JsonReader::joinPath(path, it.key());
        if (properties.contains(it.key())) {
            if (!checkValue(reader, it.value(), properties.value(it.key()).toObject(), field,
                            u"field"_s))
                return false;
        } else if (additional.isObject()) {
            if (!checkValue(reader, it.value(), additional.toObject(), field, u"field"_s))
                return false;
        } else if (!additional.toBool(false)) {
            if (properties.isEmpty())
                return reader.fail(field, u"unknown "_s + keyKind + u" (none are allowed here)"_s);
            // The reader's own words for an unknown key, with the keys the schema lists.
            return reader.checkKnownKeys(QJsonObject { { it.key(), it.value() } }, path,
                                         properties.keys(), keyKind);
        }
    }
    for (const auto allKeys = schema.value(u"required"_s).toArray(); const auto &key : allKeys) {
        const QJsonValue member = object.value(key.toString());
        if (member.isUndefined() || member.isNull())
            return reader.fail(JsonReader::joinPath(path, key.toString()), u"is required"_s);
    }
    return true;
}

bool checkValue(JsonReader &reader, const QJsonValue &value, const QJsonObject &schema,
                const QString &path, const QString &keyKind)
{
    const QStringList types = typesOf(schema);
    if (!types.isEmpty() && std::none_of(types.cbegin(), types.cend(), [&](const QString &type) {
            return hasType(value, type);
        }))
        return reader.failType(path, typePhrase(schema), value);
    if (schema.contains(u"enum"_s)) {
        const QJsonArray allowed = schema.value(u"enum"_s).toArray();
        if (!allowed.contains(value)) {
            QStringList names;
            for (const auto &name : allowed)
                names << JsonReader::describe(name);
            return reader.failType(path, u"one of "_s + alternatives(names), value);
        }
    }
    if (value.isDouble())
        return checkNumber(reader, value, schema, path);
    if (value.isString() && schema.contains(u"pattern"_s)) {
        const QString pattern = schema.value(u"pattern"_s).toString();
        // The schema's own pattern, known only here: no static object can hold it.
        const QRegularExpression expression(pattern);
        // clazy:exclude-next-line=use-static-qregularexpression
        if (!expression.match(value.toString()).hasMatch())
            return reader.failType(path, u"a text matching "_s + pattern, value);
        return true;
    }
    if (value.isArray())
        return checkArray(reader, value.toArray(), schema, path);
    if (value.isObject() && describesObject(schema))
        return checkObject(reader, value.toObject(), schema, path, keyKind);
    return true;
}

} // namespace

ConfigSchema::ConfigSchema(QJsonObject schema)
    : m_schema(std::move(schema))
{
}

std::optional<ConfigSchema> ConfigSchema::fromJson(const QJsonObject &schema, const QString &path,
                                                   JsonReadError *error)
{
    JsonReader reader;
    if (!validateSchema(reader, schema, path)) {
        if (error)
            *error = reader.error();
        return std::nullopt;
    }
    return ConfigSchema(schema);
}

std::optional<JsonReadError> ConfigSchema::check(const QJsonValue &value, const QString &path) const
{
    if (m_schema.isEmpty())
        return std::nullopt;
    JsonReader reader;
    if (checkValue(reader, value, m_schema, path, u"option"_s))
        return std::nullopt;
    return reader.error();
}

} // namespace Headroom
