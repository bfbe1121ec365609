// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "engine/import/csvrecords.h"

#include <cstring>

using namespace Qt::StringLiterals;

namespace Headroom::Import {

CsvRecords::CsvRecords(QByteArrayView text, qint64 maxRecordBytes)
    : m_text(text)
    , m_maxRecordBytes(maxRecordBytes)
{
    // A UTF-8 byte order mark (spreadsheets write one) is not part of the first header.
    if (m_text.startsWith("\xEF\xBB\xBF"))
        m_pos = 3;
}

QByteArrayView trimmed(QByteArrayView field)
{
    qsizetype begin = 0, end = field.size();
    while (begin < end && (field[begin] == ' ' || field[begin] == '\t'))
        ++begin;
    while (end > begin && (field[end - 1] == ' ' || field[end - 1] == '\t'))
        --end;
    return field.sliced(begin, end - begin);
}

bool CsvRecords::next()
{
    m_fields.clear();
    m_unescaped.clear();
    const char *data = m_text.data();
    const qsizetype size = m_text.size();
    // Skip empty lines.
    while (m_pos < size && (data[m_pos] == '\n' || data[m_pos] == '\r')) {
        if (data[m_pos] == '\n')
            ++m_nextLine;
        ++m_pos;
    }
    if (m_pos >= size)
        return false;
    m_line = m_nextLine;
    const qsizetype start = m_pos;
    // Fields with "" are unescaped into m_unescaped; their views are made at the end
    // (the buffer may move while it grows), so remember offsets first.
    struct Span
    {
        qsizetype begin, length;
        bool unescaped;
    };
    std::vector<Span> spans;
    qsizetype pos = m_pos;
    for (;;) {
        if (pos - start > m_maxRecordBytes) {
            m_error = u"longer than %1 bytes"_s.arg(m_maxRecordBytes);
            return false;
        }
        if (pos < size && data[pos] == '"') {
            ++pos;
            const qsizetype begin = pos;
            bool escaped = false;
            qsizetype unescapedBegin = m_unescaped.size();
            for (;;) {
                if (pos >= size) {
                    m_error = u"a quoted field is not closed"_s;
                    return false;
                }
                if (pos - start > m_maxRecordBytes) {
                    m_error = u"longer than %1 bytes"_s.arg(m_maxRecordBytes);
                    return false;
                }
                const char c = data[pos];
                if (c == '"') {
                    if (pos + 1 < size && data[pos + 1] == '"') {
                        if (!escaped) {
                            escaped = true;
                            m_unescaped.append(data + begin, pos - begin);
                        }
                        m_unescaped.append('"');
                        pos += 2;
                        continue;
                    }
                    break;
                }
                if (c == '\n')
                    ++m_nextLine;
                if (escaped)
                    m_unescaped.append(c);
                ++pos;
            }
            if (escaped)
                spans.push_back({ unescapedBegin, m_unescaped.size() - unescapedBegin, true });
            else
                spans.push_back({ begin, pos - begin, false });
            ++pos; // the closing quote
            // Spaces may follow; anything else before the separator is malformed.
            while (pos < size && (data[pos] == ' ' || data[pos] == '\t'))
                ++pos;
            if (pos < size && data[pos] != ',' && data[pos] != '\n' && data[pos] != '\r') {
                m_error = u"text after a closing quote"_s;
                return false;
            }
        } else {
            const qsizetype begin = pos;
            while (pos < size && data[pos] != ',' && data[pos] != '\n' && data[pos] != '\r') {
                if (data[pos] == '"') {
                    m_error = u"a quote inside an unquoted field"_s;
                    return false;
                }
                ++pos;
            }
            spans.push_back({ begin, pos - begin, false });
        }
        if (pos - start > m_maxRecordBytes) {
            m_error = u"longer than %1 bytes"_s.arg(m_maxRecordBytes);
            return false;
        }
        if (pos < size && data[pos] == ',') {
            ++pos;
            continue;
        }
        break; // end of line or of the text
    }
    if (pos < size && data[pos] == '\r')
        ++pos;
    if (pos < size && data[pos] == '\n') {
        ++pos;
        ++m_nextLine;
    }
    m_pos = pos;
    m_fields.reserve(spans.size());
    for (const Span &s : spans)
        m_fields.push_back(s.unescaped ? QByteArrayView(m_unescaped).sliced(s.begin, s.length)
                                       : m_text.sliced(s.begin, s.length));
    return true;
}

} // namespace Headroom::Import
