// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/series.h"

#include <QHash>

namespace Headroom {

using namespace Qt::StringLiterals;

QString useKindName(UseKind kind)
{
    switch (kind) {
    case UseKind::Utilization:
        return u"utilization"_s;
    case UseKind::Saturation:
        return u"saturation"_s;
    case UseKind::Errors:
        return u"errors"_s;
    case UseKind::Throughput:
        return u"throughput"_s;
    case UseKind::Latency:
        return u"latency"_s;
    case UseKind::Info:
        break;
    }
    return u"info"_s;
}

UseKind useKindFromName(const QString &name, bool *ok)
{
    static const QHash<QString, UseKind> kinds = {
        { u"utilization"_s, UseKind::Utilization }, { u"saturation"_s, UseKind::Saturation },
        { u"errors"_s, UseKind::Errors },           { u"throughput"_s, UseKind::Throughput },
        { u"latency"_s, UseKind::Latency },         { u"info"_s, UseKind::Info },
    };
    auto it = kinds.constFind(name);
    if (ok)
        *ok = it != kinds.constEnd();
    return it == kinds.constEnd() ? UseKind::Info : *it;
}

namespace {
QString escapeLabel(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (QChar c : text) {
        if (c == u'\\' || c == u',' || c == u'=' || c == u'}' || c == u'{')
            out += u'\\';
        out += c;
    }
    return out;
}
} // namespace

bool labelsInclude(const Labels &labels, const Labels &wanted)
{
    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
        if (labels.value(it.key()) != it.value())
            return false;
    }
    return true;
}

QString labelsToString(const Labels &labels)
{
    QString out = u"{"_s;
    bool first = true;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        if (!first)
            out += u',';
        first = false;
        out += escapeLabel(it.key()) + u'=' + escapeLabel(it.value());
    }
    out += u'}';
    return out;
}

Labels labelsFromString(const QString &text, bool *ok)
{
    Labels labels;
    if (ok)
        *ok = false;
    if (text.size() < 2 || text.front() != u'{' || text.back() != u'}')
        return labels;
    QString key, value, *current = &key;
    bool escaped = false;
    auto flush = [&]() -> bool {
        if (current != &value)
            return key.isEmpty();
        labels.insert(key, value);
        key.clear();
        value.clear();
        current = &key;
        return true;
    };
    for (qsizetype i = 1; i < text.size() - 1; ++i) {
        const QChar c = text.at(i);
        if (escaped) {
            *current += c;
            escaped = false;
        } else if (c == u'\\') {
            escaped = true;
        } else if (c == u'=' && current == &key) {
            current = &value;
        } else if (c == u',') {
            if (!flush())
                return {};
        } else {
            *current += c;
        }
    }
    if (escaped || !flush())
        return {};
    if (ok)
        *ok = true;
    return labels;
}

QString SeriesKey::toString() const
{
    return source + u'/' + metric + (labels.isEmpty() ? QString() : labelsToString(labels));
}

size_t qHash(const SeriesKey &key, size_t seed) noexcept
{
    size_t h = ::qHash(key.source, seed) ^ (::qHash(key.metric, seed) * 31);
    for (auto it = key.labels.cbegin(); it != key.labels.cend(); ++it)
        h = h * 131 + ::qHash(it.key(), seed) + 7 * ::qHash(it.value(), seed);
    return h;
}

} // namespace Headroom
