// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "pgsqllexer.h"

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

bool isNameStart(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || c == u'_' || c.unicode() >= 0x80;
}

bool isNameChar(QChar c)
{
    return isNameStart(c) || (c >= u'0' && c <= u'9') || c == u'$';
}

bool isDigit(QChar c)
{
    return c >= u'0' && c <= u'9';
}

// The server folds only ASCII letters in unquoted names (downcase_identifier with a
// multi-byte encoding); QString::toLower would fold others too.
QString foldName(QStringView name)
{
    QString folded = name.toString();
    for (QChar &c : folded) {
        if (c >= u'A' && c <= u'Z')
            c = QChar(c.unicode() + (u'a' - u'A'));
    }
    return folded;
}

// U&"..." with \XXXX, \+XXXXXX and a doubled escape character; a malformed escape is
// kept as written (the server refuses the statement then).
QString decodeUnicodeName(QStringView raw, QChar escape)
{
    QString out;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const QChar c = raw.at(i);
        if (c != escape) {
            out += c;
            continue;
        }
        if (i + 1 < raw.size() && raw.at(i + 1) == escape) {
            out += escape;
            ++i;
            continue;
        }
        const bool plus = i + 1 < raw.size() && raw.at(i + 1) == u'+';
        const qsizetype digits = plus ? 6 : 4;
        const qsizetype start = i + (plus ? 2 : 1);
        bool ok = start + digits <= raw.size();
        const uint code = ok ? raw.mid(start, digits).toUInt(&ok, 16) : 0;
        if (!ok) {
            out += c;
            continue;
        }
        out += QString::fromUcs4(reinterpret_cast<const char32_t *>(&code), 1);
        i = start + digits - 1;
    }
    return out;
}

class Lexer
{
public:
    explicit Lexer(const QString &sql)
        : m_sql(sql)
    {
    }

    SqlLexResult run()
    {
        while (m_pos < m_sql.size() && m_result.error.isEmpty())
            step();
        return std::move(m_result);
    }

private:
    QChar at(qsizetype i) const { return i < m_sql.size() ? m_sql.at(i) : QChar(); }

    void add(SqlToken::Kind kind, qsizetype begin, qsizetype end, QString text)
    {
        m_result.tokens.append({ kind, begin, end, std::move(text) });
    }

    void fail(const QString &what, qsizetype begin)
    {
        m_result.error
            = u"%1 that starts at character %2 is never closed"_s.arg(what).arg(begin + 1);
        m_result.errorAt = begin;
    }

    void step()
    {
        const QChar c = at(m_pos);
        const qsizetype begin = m_pos;
        if (c.isSpace()) {
            ++m_pos;
        } else if (c == u'-' && at(m_pos + 1) == u'-') {
            // The server ends a -- comment at \r as well as \n.
            while (m_pos < m_sql.size() && at(m_pos) != u'\n' && at(m_pos) != u'\r')
                ++m_pos;
        } else if (c == u'/' && at(m_pos + 1) == u'*') {
            blockComment();
        } else if (c == u'\'') {
            quoted(u'\'', false, begin, SqlToken::Kind::String);
        } else if ((c == u'E' || c == u'e') && at(m_pos + 1) == u'\'') {
            ++m_pos;
            quoted(u'\'', true, begin, SqlToken::Kind::String);
        } else if ((c == u'B' || c == u'b' || c == u'X' || c == u'x' || c == u'N' || c == u'n')
                   && at(m_pos + 1) == u'\'') {
            ++m_pos;
            quoted(u'\'', false, begin, SqlToken::Kind::String);
        } else if ((c == u'U' || c == u'u') && at(m_pos + 1) == u'&'
                   && (at(m_pos + 2) == u'\'' || at(m_pos + 2) == u'"')) {
            m_pos += 2;
            if (at(m_pos) == u'\'')
                quoted(u'\'', false, begin, SqlToken::Kind::String);
            else
                unicodeName(begin);
        } else if (c == u'"') {
            quoted(u'"', false, begin, SqlToken::Kind::QuotedName);
        } else if (c == u'$' && isDigit(at(m_pos + 1))) {
            ++m_pos;
            while (isDigit(at(m_pos)))
                ++m_pos;
            add(SqlToken::Kind::Parameter, begin, m_pos, m_sql.mid(begin, m_pos - begin));
        } else if (c == u'$' && dollarQuoted()) {
            // consumed
        } else if (isNameStart(c)) {
            while (m_pos < m_sql.size() && isNameChar(at(m_pos)))
                ++m_pos;
            add(SqlToken::Kind::Name, begin, m_pos,
                foldName(QStringView(m_sql).mid(begin, m_pos - begin)));
        } else if (isDigit(c) || (c == u'.' && isDigit(at(m_pos + 1)))) {
            while (m_pos < m_sql.size()
                   && (isNameChar(at(m_pos)) || at(m_pos) == u'.'
                       || ((at(m_pos) == u'+' || at(m_pos) == u'-')
                           && (at(m_pos - 1) == u'e' || at(m_pos - 1) == u'E'))))
                ++m_pos;
            add(SqlToken::Kind::Number, begin, m_pos, m_sql.mid(begin, m_pos - begin));
        } else {
            ++m_pos;
            add(SqlToken::Kind::Symbol, begin, m_pos, QString(c));
        }
    }

    // Block comments nest in PostgreSQL (unlike the SQL standard's lexers in most tools).
    void blockComment()
    {
        const qsizetype begin = m_pos;
        int depth = 0;
        while (m_pos < m_sql.size()) {
            if (at(m_pos) == u'/' && at(m_pos + 1) == u'*') {
                ++depth;
                m_pos += 2;
            } else if (at(m_pos) == u'*' && at(m_pos + 1) == u'/') {
                m_pos += 2;
                if (--depth == 0)
                    return;
            } else {
                ++m_pos;
            }
        }
        fail(u"a /* comment"_s, begin);
    }

    // m_pos is on the opening quote. A doubled quote is one quote; with backslashes on
    // (E'...'), a backslash escapes the next character.
    void quoted(QChar quote, bool backslashes, qsizetype begin, SqlToken::Kind kind)
    {
        ++m_pos;
        QString content;
        while (m_pos < m_sql.size()) {
            const QChar c = at(m_pos);
            if (backslashes && c == u'\\' && m_pos + 1 < m_sql.size()) {
                content += at(m_pos + 1);
                m_pos += 2;
                continue;
            }
            if (c == quote) {
                if (at(m_pos + 1) == quote) {
                    content += quote;
                    m_pos += 2;
                    continue;
                }
                ++m_pos;
                add(kind, begin, m_pos,
                    kind == SqlToken::Kind::String ? m_sql.mid(begin, m_pos - begin) : content);
                return;
            }
            content += c;
            ++m_pos;
        }
        fail(kind == SqlToken::Kind::String ? u"a string"_s : u"a quoted name"_s, begin);
    }

    void unicodeName(qsizetype begin)
    {
        quoted(u'"', false, begin, SqlToken::Kind::QuotedName);
        if (!m_result.error.isEmpty())
            return;
        // Decode from the raw text (quoted() undoubled the quotes already, which is
        // what the server does before it decodes the escapes).
        SqlToken &token = m_result.tokens.last();
        QChar escape = u'\\';
        // U&"..." UESCAPE '!' names another escape character.
        qsizetype look = m_pos;
        while (at(look).isSpace())
            ++look;
        if (QStringView(m_sql).mid(look, 7).compare(u"uescape"_s, Qt::CaseInsensitive) == 0) {
            qsizetype quote = look + 7;
            while (at(quote).isSpace())
                ++quote;
            if (at(quote) == u'\'' && at(quote + 2) == u'\'') {
                escape = at(quote + 1);
                m_pos = quote + 3;
                token.end = m_pos;
            }
        }
        token.text = decodeUnicodeName(token.text, escape);
    }

    // $tag$...$tag$ (the tag may be empty). False when the $ opens no such string.
    bool dollarQuoted()
    {
        const qsizetype begin = m_pos;
        qsizetype end = m_pos + 1;
        if (isNameStart(at(end))) {
            while (end < m_sql.size() && isNameChar(at(end)) && at(end) != u'$')
                ++end;
        }
        if (at(end) != u'$')
            return false;
        const QString tag = m_sql.mid(begin, end - begin + 1);
        const qsizetype close = m_sql.indexOf(tag, end + 1);
        if (close < 0) {
            fail(u"a dollar-quoted string"_s, begin);
            m_pos = m_sql.size();
            return true;
        }
        m_pos = close + tag.size();
        add(SqlToken::Kind::String, begin, m_pos, m_sql.mid(begin, m_pos - begin));
        return true;
    }

    const QString &m_sql;
    qsizetype m_pos = 0;
    SqlLexResult m_result;
};

} // namespace

SqlLexResult lexSql(const QString &sql)
{
    return Lexer(sql).run();
}

} // namespace Headroom
