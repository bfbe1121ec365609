// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/conninfo.h"

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QUrl>
#include <algorithm>
#include <ranges>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QString Mask = u"***"_s;

// A password value [begin, end), and the text [removeBegin, removeEnd) that goes with it
// when the password is dropped rather than masked (its whole key=value pair).
struct Span
{
    qsizetype begin = 0;
    qsizetype end = 0;
    qsizetype removeBegin = 0;
    qsizetype removeEnd = 0;
};

// password, sslpassword, and any spelling libpq may add.
bool isSecretKey(const QString &key)
{
    return key.contains("password"_L1, Qt::CaseInsensitive);
}

bool isUri(const QString &conninfo)
{
    return conninfo.startsWith("postgresql://"_L1, Qt::CaseInsensitive)
        || conninfo.startsWith("postgres://"_L1, Qt::CaseInsensitive);
}

// The spans of password values in a URI. The user info is taken up to the last '@'
// before the query, not the first '@' or '/' as libpq does: a password with an
// unescaped '/' or '@' is a broken URI for libpq, but it must still not be printed.
QList<Span> uriPasswordSpans(const QString &uri)
{
    QList<Span> spans;
    const qsizetype start = uri.indexOf("://"_L1) + 3;
    qsizetype queryStart = uri.indexOf(u'?', start);
    const qsizetype authorityEnd = queryStart < 0 ? uri.size() : queryStart;
    const qsizetype at = uri.lastIndexOf(u'@', authorityEnd - 1);
    if (at >= start) {
        const qsizetype colon = uri.indexOf(u':', start);
        if (colon >= 0 && colon < at)
            spans.append({ colon + 1, at, colon, at });
    }
    if (queryStart < 0)
        return spans;
    qsizetype pos = queryStart + 1;
    while (pos <= uri.size()) {
        qsizetype amp = uri.indexOf(u'&', pos);
        if (amp < 0)
            amp = uri.size();
        const qsizetype eq = uri.indexOf(u'=', pos);
        if (eq >= 0 && eq < amp) {
            const QString key = QUrl::fromPercentEncoding(uri.mid(pos, eq - pos).toUtf8());
            // The parameter goes with one separator: the '&' after it, or for the last
            // one the '&' (or '?') before it.
            if (isSecretKey(key))
                spans.append({ eq + 1, amp, amp < uri.size() ? pos : pos - 1,
                               amp < uri.size() ? amp + 1 : amp });
        }
        pos = amp + 1;
    }
    return spans;
}

bool isSpace(QChar c)
{
    return c.isSpace();
}

// One key=value pair of a keyword/value string, as libpq's conninfo_parse reads it:
// positions into the text, the value without its quotes.
struct KeywordPair
{
    qsizetype keyStart = 0, keyEnd = 0;
    qsizetype valueStart = 0, valueEnd = 0;
    qsizetype end = 0; // after the value (and its closing quote)
    bool quoted = false;
    bool closed = true; // a quoted value's closing quote was found
};

enum class Scan
{
    Pair,
    End,
    Malformed // a key without '=': pair->keyStart says where
};

// The next pair from *pos on (blanks skipped); *pos moves past it.
Scan scanPair(const QString &text, qsizetype *pos, KeywordPair *pair)
{
    const qsizetype n = text.size();
    qsizetype p = *pos;
    while (p < n && isSpace(text.at(p)))
        ++p;
    if (p >= n)
        return Scan::End;
    *pair = {};
    pair->keyStart = p;
    while (p < n && text.at(p) != u'=' && !isSpace(text.at(p)))
        ++p;
    pair->keyEnd = p;
    while (p < n && isSpace(text.at(p)))
        ++p;
    if (p >= n || text.at(p) != u'=')
        return Scan::Malformed;
    ++p;
    while (p < n && isSpace(text.at(p)))
        ++p;
    pair->valueStart = pair->valueEnd = p;
    if (p < n && text.at(p) == u'\'') {
        pair->quoted = true;
        pair->closed = false;
        pair->valueStart = ++p;
        while (p < n) {
            if (text.at(p) == u'\\' && p + 1 < n) {
                p += 2;
                continue;
            }
            if (text.at(p) == u'\'') {
                pair->closed = true;
                break;
            }
            ++p;
        }
        pair->valueEnd = p;
        if (pair->closed)
            ++p;
    } else {
        while (p < n && !isSpace(text.at(p)))
            p += (text.at(p) == u'\\' && p + 1 < n) ? 2 : 1;
        pair->valueEnd = p;
    }
    pair->end = *pos = p;
    return Scan::Pair;
}

// The spans of password values in a keyword/value string. When the text stops
// parsing from a key that could be a password on, the rest is masked: libpq will
// refuse the string, but the error path must not print it.
QList<Span> keywordPasswordSpans(const QString &text)
{
    QList<Span> spans;
    const qsizetype n = text.size();
    qsizetype pos = 0;
    KeywordPair pair;
    for (Scan scan; (scan = scanPair(text, &pos, &pair)) != Scan::End;) {
        if (scan == Scan::Malformed) {
            // Malformed: mask from this key on when anything after it may be secret.
            if (isSecretKey(text.mid(pair.keyStart)))
                spans.append({ pair.keyStart, n, pair.keyStart, n });
            break;
        }
        if (isSecretKey(text.mid(pair.keyStart, pair.keyEnd - pair.keyStart))) {
            // The pair and the blanks after it, so the next key takes its place.
            qsizetype removeEnd = pair.end;
            while (removeEnd < n && isSpace(text.at(removeEnd)))
                ++removeEnd;
            spans.append({ pair.valueStart, pair.valueEnd, pair.keyStart, removeEnd });
        }
    }
    return spans;
}

QList<Span> passwordSpans(const QString &conninfo)
{
    return isUri(conninfo) ? uriPasswordSpans(conninfo) : keywordPasswordSpans(conninfo);
}

} // namespace

std::optional<QList<std::pair<QString, QString>>> conninfoKeywords(const QString &conninfo)
{
    if (isUri(conninfo))
        return std::nullopt;
    static const QRegularExpression escape(u"\\\\(.)"_s);
    QList<std::pair<QString, QString>> pairs;
    qsizetype pos = 0;
    KeywordPair pair;
    for (Scan scan; (scan = scanPair(conninfo, &pos, &pair)) != Scan::End;) {
        if (scan == Scan::Malformed || !pair.closed || pair.keyEnd == pair.keyStart)
            return std::nullopt;
        QString value = conninfo.mid(pair.valueStart, pair.valueEnd - pair.valueStart);
        value.replace(escape, u"\\1"_s);
        pairs.append({ conninfo.mid(pair.keyStart, pair.keyEnd - pair.keyStart), value });
    }
    return pairs;
}

QString conninfoPair(const QString &key, const QString &value)
{
    static const QRegularExpression plain(u"^[^\\s'\\\\]+$"_s);
    if (plain.match(value).hasMatch())
        return key + u'=' + value;
    QString escaped = value;
    escaped.replace(u"\\"_s, u"\\\\"_s).replace(u"'"_s, u"\\'"_s);
    return key + u"='"_s + escaped + u'\'';
}

QString redactConninfo(const QString &conninfo)
{
    QString redacted = conninfo;
    const QList<Span> spans = passwordSpans(conninfo);
    // Back to front, so earlier offsets stay valid.
    for (const Span &span : std::ranges::reverse_view(spans))
        redacted.replace(span.begin, span.end - span.begin, Mask);
    return redacted;
}

bool conninfoHasPassword(const QString &conninfo)
{
    const QList<Span> spans = passwordSpans(conninfo);
    return std::any_of(spans.cbegin(), spans.cend(),
                       [](const Span &span) { return span.end > span.begin; });
}

QString conninfoWithoutPassword(const QString &conninfo)
{
    if (!conninfoHasPassword(conninfo))
        return conninfo;
    // Characters to drop; removal ranges of neighbouring query parameters may share
    // a separator, so they are merged rather than cut one after the other.
    QList<bool> dropped(conninfo.size(), false);
    for (const auto allSpans = passwordSpans(conninfo); const Span &span : allSpans) {
        for (qsizetype i = span.removeBegin; i < span.removeEnd; ++i)
            dropped[i] = true;
    }
    QString out;
    out.reserve(conninfo.size());
    for (qsizetype i = 0; i < conninfo.size(); ++i) {
        if (!dropped.at(i))
            out.append(conninfo.at(i));
    }
    // A URI whose every parameter went keeps no '?' or '&' dangling at its end, and a
    // keyword string whose last pair went keeps no trailing blank.
    if (isUri(conninfo)) {
        while (out.endsWith(u'&') || out.endsWith(u'?'))
            out.chop(1);
        return out;
    }
    return out.trimmed();
}

} // namespace Headroom
