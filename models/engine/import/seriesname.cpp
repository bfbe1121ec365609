// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/import/seriesname.h"

using namespace Qt::StringLiterals;

namespace Headroom::Import {

namespace {

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9') || c == '.';
}

void skipSpaces(QByteArrayView text, qsizetype *at)
{
    while (*at < text.size() && (text[*at] == ' ' || text[*at] == '\t'))
        ++*at;
}

} // namespace

bool readSeriesName(QByteArrayView text, int maxLabels, SeriesName *out, qsizetype *end,
                    QString *error)
{
    qsizetype at = 0;
    while (at < text.size() && isNameChar(text[at]))
        ++at;
    out->metric = QString::fromUtf8(text.first(at));
    out->labels.clear();
    if (at >= text.size() || text[at] != '{') {
        *end = at;
        return true;
    }
    ++at;
    for (;;) {
        skipSpaces(text, &at);
        if (at < text.size() && text[at] == '}') {
            ++at;
            break;
        }
        const qsizetype nameBegin = at;
        if (at >= text.size() || !isNameStart(text[at])) {
            *error = u"a label name is missing or malformed"_s;
            return false;
        }
        while (at < text.size() && isNameChar(text[at]))
            ++at;
        const QString name = QString::fromUtf8(text.sliced(nameBegin, at - nameBegin));
        skipSpaces(text, &at);
        if (at >= text.size() || text[at] != '=') {
            *error = u"label %1 has no '='"_s.arg(name);
            return false;
        }
        ++at;
        skipSpaces(text, &at);
        if (at >= text.size() || text[at] != '"') {
            *error = u"label %1: its value must be quoted"_s.arg(name);
            return false;
        }
        ++at;
        QByteArray value;
        for (;;) {
            if (at >= text.size()) {
                *error = u"label %1: its value is not closed"_s.arg(name);
                return false;
            }
            const char c = text[at];
            if (c == '"')
                break;
            if (c == '\\') {
                if (at + 1 >= text.size()) {
                    *error = u"label %1: its value is not closed"_s.arg(name);
                    return false;
                }
                const char e = text[at + 1];
                value.append(e == 'n' ? '\n' : e);
                at += 2;
                continue;
            }
            value.append(c);
            ++at;
        }
        ++at; // the closing quote
        if (out->labels.contains(name)) {
            *error = u"label %1 is given twice"_s.arg(name);
            return false;
        }
        if (out->labels.size() >= maxLabels) {
            *error = u"more than %1 labels"_s.arg(maxLabels);
            return false;
        }
        out->labels.insert(name, QString::fromUtf8(value));
        skipSpaces(text, &at);
        if (at < text.size() && text[at] == ',') {
            ++at;
            continue;
        }
        if (at < text.size() && text[at] == '}') {
            ++at;
            break;
        }
        *error = u"expected ',' or '}' after label %1"_s.arg(name);
        return false;
    }
    // Grafana writes the name as a label when a series has no display name.
    if (out->metric.isEmpty())
        out->metric = out->labels.take(u"__name__"_s);
    *end = at;
    return true;
}

SeriesName seriesNameOfHeader(QByteArrayView header, int maxLabels)
{
    SeriesName name;
    qsizetype end = 0;
    QString error;
    if (readSeriesName(header, maxLabels, &name, &end, &error) && end == header.size()
        && !name.metric.isEmpty())
        return name;
    return { QString::fromUtf8(header), {} };
}

} // namespace Headroom::Import
