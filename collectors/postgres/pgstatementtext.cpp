// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgstatementtext.h"

#include "pgsqllexer.h"

#include <QSet>
#include <algorithm>

namespace Headroom {

bool isOwnStatement(const QString &text)
{
    return text.startsWith(QLatin1StringView(OwnStatementMarker));
}

using namespace Qt::StringLiterals;

namespace {

bool isUtility(const QList<SqlToken> &tokens)
{
    static const QSet<QString> plain { u"select"_s, u"insert"_s, u"update"_s, u"delete"_s,
                                       u"merge"_s,  u"with"_s,   u"values"_s, u"table"_s };
    for (const SqlToken &token : tokens) {
        if (token.kind == SqlToken::Kind::Symbol && token.text == "("_L1)
            continue; // (SELECT ...) UNION ...
        return !(token.kind == SqlToken::Kind::Name && plain.contains(token.text));
    }
    return false;
}

// What lies between two tokens: white space, kept, and comments, each read as one space
// (as the server reads them). A comment holds whatever its author wrote, API tokens and
// passwords included, and labels go to the cache, CSV files and scrapes.
QString withoutComments(QStringView gap)
{
    for (const QChar c : gap) {
        if (!c.isSpace())
            return u" "_s;
    }
    return gap.toString();
}

} // namespace

QString redactStatementText(const QString &text)
{
    const SqlLexResult lexed = lexSql(text);
    const bool utility = isUtility(lexed.tokens);
    const QString mask = u"'***'"_s;
    QString out;
    qsizetype copied = 0;
    bool afterPassword = false;
    for (const SqlToken &token : lexed.tokens) {
        out += withoutComments(QStringView(text).mid(copied, token.begin - copied));
        const bool masked = token.kind == SqlToken::Kind::String
            && (utility || afterPassword
                || token.text.contains("password"_L1, Qt::CaseInsensitive));
        out += masked ? QStringView(mask)
                      : QStringView(text).mid(token.begin, token.end - token.begin);
        copied = token.end;
        // "PASSWORD 'x'", "password = 'x'", "OPTIONS (password 'x')".
        if (token.isName())
            afterPassword = token.text.compare("password"_L1, Qt::CaseInsensitive) == 0;
        else if (!(token.kind == SqlToken::Kind::Symbol && token.text == "="_L1))
            afterPassword = false;
    }
    const qsizetype end = lexed.errorAt >= 0 ? lexed.errorAt : text.size();
    out += withoutComments(QStringView(text).mid(copied, end - copied));
    if (lexed.errorAt >= 0) // a text cut inside a literal or comment: hide the rest
        out += u"***"_s;
    return out;
}

QString normalizeStatementText(const QString &text, qsizetype maxChars)
{
    const SqlLexResult lexed = lexSql(text);
    int next = 1;
    for (const SqlToken &token : lexed.tokens) {
        if (token.kind == SqlToken::Kind::Parameter)
            next = std::max(next, QStringView(token.text).mid(1).toInt() + 1);
    }
    QString out;
    qsizetype copied = 0;
    for (const SqlToken &token : lexed.tokens) {
        out += withoutComments(QStringView(text).mid(copied, token.begin - copied));
        if (token.kind == SqlToken::Kind::String || token.kind == SqlToken::Kind::Number)
            out += u'$' + QString::number(next++);
        else
            out += QStringView(text).mid(token.begin, token.end - token.begin);
        copied = token.end;
    }
    const qsizetype end = lexed.errorAt >= 0 ? lexed.errorAt : text.size();
    out += withoutComments(QStringView(text).mid(copied, end - copied));
    out = out.simplified();
    const QChar ellipsis(0x2026);
    if (lexed.errorAt >= 0)
        out += ellipsis;
    if (out.size() > maxChars)
        out = out.left(std::max<qsizetype>(0, maxChars - 1)) + ellipsis;
    return out;
}

} // namespace Headroom
