#include "core/series.h"

#include <QHash>

namespace Headroom {

QString useKindName(UseKind kind)
{
    switch (kind) {
    case UseKind::Utilization:
        return QStringLiteral("utilization");
    case UseKind::Saturation:
        return QStringLiteral("saturation");
    case UseKind::Errors:
        return QStringLiteral("errors");
    case UseKind::Throughput:
        return QStringLiteral("throughput");
    case UseKind::Latency:
        return QStringLiteral("latency");
    case UseKind::Info:
        break;
    }
    return QStringLiteral("info");
}

UseKind useKindFromName(const QString &name, bool *ok)
{
    static const QHash<QString, UseKind> kinds = {
        { QStringLiteral("utilization"), UseKind::Utilization },
        { QStringLiteral("saturation"), UseKind::Saturation },
        { QStringLiteral("errors"), UseKind::Errors },
        { QStringLiteral("throughput"), UseKind::Throughput },
        { QStringLiteral("latency"), UseKind::Latency },
        { QStringLiteral("info"), UseKind::Info },
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

QString labelsToString(const Labels &labels)
{
    QString out = QStringLiteral("{");
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
