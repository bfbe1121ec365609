// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Tokenising helpers shared by the collectors' /proc parsers. /proc files are
// whitespace-separated ASCII; anything else (a truncated read, a kernel format change)
// must be reported line by line, never trusted and never crash.
#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>
#include <cmath>
#include <optional>

namespace Headroom::ProcParse {

inline QList<QByteArrayView> splitFields(QByteArrayView line)
{
    QList<QByteArrayView> fields;
    qsizetype start = -1;
    for (qsizetype i = 0; i <= line.size(); ++i) {
        const bool space = i == line.size() || line[i] == ' ' || line[i] == '\t' || line[i] == '\r';
        if (space && start >= 0) {
            fields.append(line.sliced(start, i - start));
            start = -1;
        } else if (!space && start < 0) {
            start = i;
        }
    }
    return fields;
}

// Calls fn(lineNumber, line) for each line; numbers start at 1 so warnings match an editor.
template<typename Fn> void forEachLine(QByteArrayView content, Fn fn)
{
    int number = 0;
    while (!content.isEmpty()) {
        const qsizetype end = content.indexOf('\n');
        const QByteArrayView line = end < 0 ? content : content.first(end);
        content = end < 0 ? QByteArrayView() : content.sliced(end + 1);
        fn(++number, line);
    }
}

// Unsigned decimal only: toULongLong alone would accept a leading '+' or spaces.
inline std::optional<quint64> toU64(QByteArrayView field, int base = 10)
{
    if (field.isEmpty() || field.front() == '-' || field.front() == '+')
        return std::nullopt;
    bool ok = false;
    const quint64 value = field.toULongLong(&ok, base);
    return ok ? std::optional<quint64>(value) : std::nullopt;
}

inline std::optional<double> toDouble(QByteArrayView field)
{
    bool ok = false;
    const double value = field.toDouble(&ok);
    return ok && std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

inline void addProblem(QStringList *problems, int line, const QString &what)
{
    if (problems)
        problems->append(QStringLiteral("line %1: %2").arg(line).arg(what));
}

inline QString quoted(QByteArrayView field)
{
    return u'"' + QString::fromLatin1(field.left(32)) + u'"';
}

} // namespace Headroom::ProcParse
