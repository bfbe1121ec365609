// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A collector plugin's config schema (the "config" object of collectors/*/*.json),
// enforced: the registry checks every source's options against it before the plugin
// sees them, so every plugin refuses a misspelt or mistyped option in the same words
// as the dashboard reader:
//   sources[2].config.topStatements: must be an integer from 1 to 100, got 500
// The subset of JSON Schema the shipped schemas use: type (a name or a list of names:
// string, integer, number, boolean, array, object, null), properties, required,
// additionalProperties (false unless the schema says otherwise: a typo must not pass),
// items, minItems, maxItems, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
// pattern and enum; description, default, title and trust (dashboardtrust.h) are
// notes. Two choices of Headroom's own: a member that is null counts as absent, as
// every plugin reads it; and a schema using any other keyword is itself refused, so
// that no part of a schema is silently not enforced.
#pragma once

#include "core/jsonreader.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <optional>

namespace Headroom {

class ConfigSchema
{
public:
    // No schema: any config passes (an in-process factory that declares none).
    ConfigSchema() = default;

    // nullopt and *error, naming the keyword by its path below `path` (e.g.
    // config.properties.probe.format), when the schema cannot be enforced as written.
    static std::optional<ConfigSchema> fromJson(const QJsonObject &schema, const QString &path,
                                                JsonReadError *error);

    // nullopt when `value` conforms; else the first problem, its field a path below `path`
    // (which names `value` itself, e.g. sources[2].config).
    std::optional<JsonReadError> check(const QJsonValue &value, const QString &path) const;

    const QJsonObject &json() const { return m_schema; }

private:
    explicit ConfigSchema(QJsonObject schema);
    QJsonObject m_schema;
};

} // namespace Headroom
