// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "timebounds.h"

#include "core/duration.h"

#include <QDateTime>

namespace Headroom {

using namespace Qt::StringLiterals;

std::optional<qint64> parseTimeBound(const QString &spec, qint64 endMs, QString *error)
{
    const QString text = spec.trimmed();
    if (text == u"end"_s)
        return endMs;
    if (text.startsWith(u'-')) {
        if (const auto ms = parseDuration(text.mid(1)))
            return endMs - *ms;
    } else if (const QDateTime at = QDateTime::fromString(text, Qt::ISODateWithMs); at.isValid()) {
        return at.toMSecsSinceEpoch();
    }
    *error = u"\"%1\": expected an ISO 8601 date and time (2026-11-12T09:30:00Z), a duration "
             "before the end such as -2h, or \"end\""_s.arg(spec);
    return std::nullopt;
}

std::optional<std::pair<qint64, qint64>> resolveTimeBounds(const QString &fromSpec,
                                                           const QString &toSpec, qint64 endMs,
                                                           qint64 rangeMs, qint64 defaultFromMs,
                                                           QString *error)
{
    qint64 to = endMs;
    if (!toSpec.isEmpty()) {
        const auto bound = parseTimeBound(toSpec, endMs, error);
        if (!bound) {
            *error = u"--to "_s + *error;
            return std::nullopt;
        }
        to = *bound;
    }
    qint64 from = rangeMs > 0 ? to - rangeMs : defaultFromMs;
    if (!fromSpec.isEmpty()) {
        const auto bound = parseTimeBound(fromSpec, endMs, error);
        if (!bound) {
            *error = u"--from "_s + *error;
            return std::nullopt;
        }
        from = *bound;
    }
    if (from >= to) {
        *error = u"--from %1 is not before --to %2"_s.arg(
            QDateTime::fromMSecsSinceEpoch(from).toString(Qt::ISODate),
            QDateTime::fromMSecsSinceEpoch(to).toString(Qt::ISODate));
        return std::nullopt;
    }
    return std::pair { from, to };
}

} // namespace Headroom
