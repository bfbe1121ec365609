#include "core/conninfo.h"

#include <QByteArray>
#include <QList>
#include <QUrl>
#include <algorithm>

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

// The spans of password values in a keyword/value string, parsed the way libpq's
// conninfo_parse does (quoted values with backslash escapes). When the text stops
// parsing from a key that could be a password on, the rest is masked: libpq will
// refuse the string, but the error path must not print it.
QList<Span> keywordPasswordSpans(const QString &text)
{
    QList<Span> spans;
    qsizetype pos = 0;
    const qsizetype n = text.size();
    while (true) {
        while (pos < n && isSpace(text.at(pos)))
            ++pos;
        if (pos >= n)
            break;
        const qsizetype keyStart = pos;
        while (pos < n && text.at(pos) != u'=' && !isSpace(text.at(pos)))
            ++pos;
        const QString key = text.mid(keyStart, pos - keyStart);
        const bool secret = isSecretKey(key);
        while (pos < n && isSpace(text.at(pos)))
            ++pos;
        if (pos >= n || text.at(pos) != u'=') {
            // Malformed: mask from this key on when anything after it may be secret.
            if (isSecretKey(text.mid(keyStart)))
                spans.append({ keyStart, n, keyStart, n });
            break;
        }
        ++pos;
        while (pos < n && isSpace(text.at(pos)))
            ++pos;
        qsizetype valueStart = pos;
        qsizetype valueEnd = pos;
        if (pos < n && text.at(pos) == u'\'') {
            ++pos;
            valueStart = pos;
            bool closed = false;
            while (pos < n) {
                if (text.at(pos) == u'\\' && pos + 1 < n) {
                    pos += 2;
                    continue;
                }
                if (text.at(pos) == u'\'') {
                    closed = true;
                    break;
                }
                ++pos;
            }
            valueEnd = pos;
            if (closed)
                ++pos;
        } else {
            while (pos < n && !isSpace(text.at(pos))) {
                pos += (text.at(pos) == u'\\' && pos + 1 < n) ? 2 : 1;
            }
            valueEnd = pos;
        }
        if (secret) {
            // The pair and the blanks after it, so the next key takes its place.
            qsizetype removeEnd = pos;
            while (removeEnd < n && isSpace(text.at(removeEnd)))
                ++removeEnd;
            spans.append({ valueStart, valueEnd, keyStart, removeEnd });
        }
    }
    return spans;
}

QList<Span> passwordSpans(const QString &conninfo)
{
    return isUri(conninfo) ? uriPasswordSpans(conninfo) : keywordPasswordSpans(conninfo);
}

} // namespace

QString redactConninfo(const QString &conninfo)
{
    QString redacted = conninfo;
    const QList<Span> spans = passwordSpans(conninfo);
    // Back to front, so earlier offsets stay valid.
    for (auto it = spans.crbegin(); it != spans.crend(); ++it)
        redacted.replace(it->begin, it->end - it->begin, Mask);
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
    for (const Span &span : passwordSpans(conninfo)) {
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
