// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// A lexer for PostgreSQL's SQL, just enough to see a statement as the server will:
// nested /* */ comments, -- comments, every string form ('', E'', U&'', B'', X'',
// N'', $tag$ $tag$), quoted identifiers ("", U&"") and unquoted names folded to lower
// case. The guard for dashboard queries (pgsqlguard.h) and the redaction of statement
// texts (pgstatementtext.h) read its tokens; a regular expression over the raw text is
// fooled by a comment inside a comment or a quote inside a dollar-quoted string.
#pragma once

#include <QList>
#include <QString>
#include <optional>

namespace Headroom {

struct SqlToken
{
    enum class Kind
    {
        Name, // unquoted identifier or key word; text folded to lower case
        QuotedName, // "..." or U&"..."; text as the server sees it
        String, // any string literal; text is its raw source, quotes and all
        Number,
        Parameter, // $1
        Symbol // operators and punctuation, one token per character run
    };
    Kind kind = Kind::Symbol;
    qsizetype begin = 0; // offsets into the lexed text, [begin, end)
    qsizetype end = 0;
    QString text;

    bool isName() const { return kind == Kind::Name || kind == Kind::QuotedName; }
};

struct SqlLexResult
{
    QList<SqlToken> tokens;
    // Set when the text ends inside a comment, string or quoted identifier: the server
    // would refuse it, and what follows the opening cannot be judged.
    QString error;
    qsizetype errorAt = -1; // where that unclosed comment, string or name starts
};

SqlLexResult lexSql(const QString &sql);

} // namespace Headroom
