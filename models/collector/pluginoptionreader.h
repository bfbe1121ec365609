// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// How collector plugins read their options (the "config" object of their JSON
// metadata, variables already substituted): the document reader with the leniency these
// options have always had. Null or absent keeps the default, and a number or a boolean
// may arrive as a string (from a dashboard variable; a blank one keeps the default).
// Paths are below the options object: "probe.count", "queries[2].sql".
#pragma once

#include "core/jsonreader.h"

#include <QRegularExpression>
#include <cmath>
#include <optional>

namespace Headroom {

class PluginOptionReader : public JsonReader
{
public:
    static bool absent(const QJsonValue &value, bool blankStringToo)
    {
        return value.isUndefined() || value.isNull()
            || (blankStringToo && value.isString() && value.toString().trimmed().isEmpty());
    }

    // A number, or a string holding one; nullopt when it is neither.
    static std::optional<double> numberOf(const QJsonValue &value)
    {
        bool ok = value.isDouble();
        const double number = ok ? value.toDouble() : value.toString().trimmed().toDouble(&ok);
        if (!ok)
            return std::nullopt;
        return number;
    }

    bool readLenientInt(const QJsonObject &options, const QString &key, const QString &path,
                        int min, int max, int *out)
    {
        const QJsonValue value = options.value(key);
        if (absent(value, true))
            return true;
        const auto number = numberOf(value);
        if (!number || *number != std::floor(*number) || *number < min || *number > max)
            return failType(joinPath(path, key),
                            QStringLiteral("an integer from %1 to %2").arg(min).arg(max), value);
        *out = int(*number);
        return true;
    }

    // A finite number of at least min.
    bool readLenientNumber(const QJsonObject &options, const QString &key, double min, double *out)
    {
        const QJsonValue value = options.value(key);
        if (absent(value, true))
            return true;
        const auto number = numberOf(value);
        if (!number || !std::isfinite(*number) || *number < min)
            return failType(key, QStringLiteral("a number of at least %1").arg(min), value);
        *out = *number;
        return true;
    }

    // true or false, or one of the strings true/on/1 and false/off/0.
    bool readLenientBool(const QJsonObject &options, const QString &key, bool *out)
    {
        const QJsonValue value = options.value(key);
        if (absent(value, false))
            return true;
        if (value.isBool()) {
            *out = value.toBool();
            return true;
        }
        const QString text = value.toString().trimmed().toLower();
        if (text == QLatin1StringView("true") || text == QLatin1StringView("on")
            || text == QLatin1StringView("1")) {
            *out = true;
            return true;
        }
        if (text == QLatin1StringView("false") || text == QLatin1StringView("off")
            || text == QLatin1StringView("0")) {
            *out = false;
            return true;
        }
        return failType(key, QStringLiteral("true or false"), value);
    }

    bool readName(const QJsonValue &value, const QString &path, QString *out)
    {
        static const QRegularExpression pattern(QStringLiteral("^[a-z][a-z0-9_]{0,62}$"));
        if (value.isUndefined())
            return fail(path, QStringLiteral("is required"));
        if (!value.isString() || !pattern.match(value.toString()).hasMatch())
            return failType(path, QStringLiteral("a name of lower-case letters, digits and _"),
                            value);
        *out = value.toString();
        return true;
    }
};

} // namespace Headroom
