// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "query/openmetrics/openmetricsnames.h"

#include <QStringList>
#include <charconv>
#include <cmath>

namespace Headroom::OpenMetrics {

using namespace Qt::StringLiterals;

namespace {
bool isNameChar(QChar c, bool first)
{
    const char16_t u = c.unicode();
    const bool letter = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_';
    return letter || (!first && u >= '0' && u <= '9');
}

// Every character outside the name alphabet becomes '_'; a leading digit gets a '_'
// before it.
QString sanitized(const QString &text)
{
    QString out;
    out.reserve(text.size() + 1);
    for (const QChar c : text)
        out.append(isNameChar(c, false) ? c : u'_');
    if (out.isEmpty() || !isNameChar(out.front(), true))
        out.prepend(u'_');
    return out;
}

// "ms/s" -> {ms, per, s}, "B/s" -> {bytes, per, s}, "1/s" -> {per, s}; "%", "" -> {}.
QStringList unitSuffix(const QString &unit)
{
    if (unit.isEmpty() || unit == u"%"_s)
        return {};
    QStringList parts;
    const QStringList ratio = unit.split(u'/');
    for (qsizetype i = 0; i < ratio.size(); ++i) {
        QString part = ratio.at(i).trimmed();
        if (part == u"B"_s)
            part = u"bytes"_s;
        else if (part == u"%"_s)
            part = u"percent"_s;
        else if (part == u"1"_s)
            part.clear();
        if (i > 0)
            parts.append(u"per"_s);
        if (!part.isEmpty())
            parts.append(sanitized(part).toLower());
    }
    return parts;
}
} // namespace

QString metricName(const QString &metric, const QString &unit)
{
    QString base = metric;
    if (base.endsWith(u".rate"_s))
        base.chop(5);
    QString name = u"headroom_"_s + sanitized(base).toLower();
    // The unit's words the name does not end with already: nic.rx.bytes in B/s is
    // headroom_nic_rx_bytes_per_s, not ..._bytes_bytes_per_s.
    const QStringList suffix = unitSuffix(unit);
    qsizetype present = suffix.size();
    while (present > 0 && !name.endsWith(u'_' + suffix.first(present).join(u'_')))
        --present;
    for (const auto allWords = suffix.sliced(present); const QString &word : allWords)
        name += u'_' + word;
    return name;
}

QString labelName(const QString &label)
{
    QString name = sanitized(label);
    if (name.startsWith(u"__"_s))
        name.prepend(u"label"_s);
    return name;
}

QString escapeLabelValue(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (c == u'\\')
            out += u"\\\\"_s;
        else if (c == u'"')
            out += u"\\\""_s;
        else if (c == u'\n')
            out += u"\\n"_s;
        else
            out += c;
    }
    return out;
}

QString escapeHelp(const QString &text)
{
    QString out = text;
    out.replace(u'\\', u"\\\\"_s);
    out.replace(u'\n', u"\\n"_s);
    return out;
}

QByteArray formatValue(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QByteArray(buffer, result.ptr - buffer);
}

} // namespace Headroom::OpenMetrics
