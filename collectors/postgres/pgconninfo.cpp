#include "pgconninfo.h"

#include <QByteArray>
#include <QDir>
#include <QFileInfo>
#include <QList>
#include <QUrl>
#include <algorithm>
#include <libpq-fe.h>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

const QString Mask = u"***"_s;

struct Span
{
    qsizetype begin = 0;
    qsizetype end = 0;
};

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
            spans.append({ colon + 1, at });
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
            if (key.contains("password"_L1, Qt::CaseInsensitive)) // also sslpassword
                spans.append({ eq + 1, amp });
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
        const bool secret = key.contains("password"_L1, Qt::CaseInsensitive);
        while (pos < n && isSpace(text.at(pos)))
            ++pos;
        if (pos >= n || text.at(pos) != u'=') {
            // Malformed: mask from this key on when anything after it may be secret.
            if (text.mid(keyStart).contains("password"_L1, Qt::CaseInsensitive))
                spans.append({ keyStart, n });
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
        if (secret)
            spans.append({ valueStart, valueEnd });
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

namespace {

// Inside ~/.postgresql once links and ".." are resolved (a file that does not exist
// yet is judged by its folder).
bool underUsersPostgresDir(const QString &path)
{
    const QString home = QDir(QDir::homePath() + "/.postgresql"_L1).canonicalPath();
    if (home.isEmpty())
        return false;
    QFileInfo info(path);
    QString resolved = info.canonicalFilePath();
    if (resolved.isEmpty())
        resolved = QFileInfo(info.absolutePath()).canonicalFilePath() + u'/' + info.fileName();
    return resolved.startsWith(home + u'/');
}

} // namespace

std::optional<QString> refuseDashboardConninfo(const QString &conninfo)
{
    if (conninfo.trimmed().isEmpty())
        return std::nullopt;
    char *parseError = nullptr;
    PQconninfoOption *options = PQconninfoParse(conninfo.toUtf8().constData(), &parseError);
    PQfreemem(parseError);
    if (!options)
        return std::nullopt; // parsePostgresOptions reports it, without the text
    const QString advice = u"; put it in a service file (~/.pg_service.conf) or give the "
                           "connection string yourself with --var"_s;
    std::optional<QString> refused;
    for (PQconninfoOption *option = options; option->keyword && !refused; ++option) {
        if (!option->val || !*option->val)
            continue;
        const QString keyword = QString::fromUtf8(option->keyword);
        const QString value = QString::fromUtf8(option->val);
        if (keyword == "hostaddr"_L1) {
            refused = u"hostaddr is not taken from a dashboard file: it connects somewhere "
                      "other than the host named, which would get that host's password"_s;
        } else if (keyword == "passfile"_L1) {
            refused = u"passfile is not taken from a dashboard file"_s;
        } else if (keyword == "sslkeylogfile"_L1) {
            refused = u"sslkeylogfile is not taken from a dashboard file: it writes the "
                      "session's keys to a file"_s;
        } else if (keyword == "gssdelegation"_L1 && value != "0"_L1) {
            refused = u"gssdelegation is not taken from a dashboard file: it hands your "
                      "Kerberos credentials to the server"_s;
        } else if ((keyword == "sslkey"_L1 || keyword == "sslcert"_L1 || keyword == "sslrootcert"_L1
                    || keyword == "sslcrl"_L1 || keyword == "sslcrldir"_L1)
                   && value != "system"_L1 && !underUsersPostgresDir(value)) {
            refused = u"%1 from a dashboard file must be a file in ~/.postgresql"_s.arg(keyword);
        }
    }
    PQconninfoFree(options);
    if (refused)
        *refused += advice;
    return refused;
}

} // namespace Headroom
