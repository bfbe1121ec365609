// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/legendtemplate.h"

#include "core/statementname.h"

#include <utility>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
bool isNameChar(QChar c, bool first)
{
    // Label names as collectors and Prometheus spell them; dots for "{metric}"-like
    // names of exporters that use them.
    return c == u'_' || (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z')
        || (!first && ((c >= u'0' && c <= u'9') || c == u'.' || c == u'-'));
}
} // namespace

std::optional<LegendTemplate> LegendTemplate::parse(const QString &text, QString *error)
{
    LegendTemplate result;
    QString literal;
    auto fail = [&](const QString &message) -> std::optional<LegendTemplate> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'}') {
            if (i + 1 < text.size() && text.at(i + 1) == u'}') {
                literal += c;
                ++i;
                continue;
            }
            return fail(u"'}' at character %1 has no '{' (write '}}' for a brace)"_s.arg(i + 1));
        }
        if (c != u'{') {
            literal += c;
            continue;
        }
        if (i + 1 < text.size() && text.at(i + 1) == u'{') {
            literal += c;
            ++i;
            continue;
        }
        const qsizetype close = text.indexOf(u'}', i + 1);
        if (close < 0)
            return fail(u"'{' at character %1 is not closed"_s.arg(i + 1));
        const QString name = text.mid(i + 1, close - i - 1);
        if (name.isEmpty())
            return fail(u"'{}' at character %1 names no label"_s.arg(i + 1));
        for (qsizetype k = 0; k < name.size(); ++k) {
            if (!isNameChar(name.at(k), k == 0))
                return fail(u"'{%1}' at character %2 is not a label name"_s.arg(name).arg(i + 1));
        }
        if (!literal.isEmpty())
            result.m_parts.append({ std::exchange(literal, {}), false });
        result.m_parts.append({ name, true });
        i = close;
    }
    if (!literal.isEmpty())
        result.m_parts.append({ literal, false });
    return result;
}

QString LegendTemplate::expand(const SeriesInfo &info) const
{
    QString out;
    for (const Part &part : m_parts) {
        if (!part.placeholder) {
            out += part.text;
            continue;
        }
        const auto label = info.key.labels.constFind(part.text);
        if (label != info.key.labels.cend())
            out += label.value();
        else if (part.text == "metric"_L1)
            out += metricWithoutFamily(info.key.metric);
        else if (part.text == "source"_L1)
            out += info.key.source;
        else if (part.text == "unit"_L1)
            out += info.unit;
        else if (part.text == "statement"_L1)
            out += statementShortName(info.key.labels);
    }
    // A missing label leaves a double or an edge space behind: "{db} {table}" of a
    // series without db is "orders", not " orders".
    return out.simplified();
}

QStringList LegendTemplate::placeholders() const
{
    QStringList names;
    for (const Part &part : m_parts) {
        if (part.placeholder)
            names << part.text;
    }
    return names;
}

QString metricWithoutFamily(const QString &metric)
{
    const qsizetype dot = metric.indexOf(u'.');
    return dot > 0 && dot + 1 < metric.size() ? metric.mid(dot + 1) : metric;
}

} // namespace Headroom
