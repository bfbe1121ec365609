// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Splits CSV text (RFC 4180: quoted fields, "" inside them, CRLF or LF, a quoted field
// may span lines) into records of fields, over the bytes as they are (a memory-mapped
// file): unquoted fields are views into the text, quoted ones with "" are unescaped into
// a buffer of the record's own. Tells each record's first line for messages.
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <vector>

namespace Headroom::Import {

class CsvRecords
{
public:
    CsvRecords(QByteArrayView text, qint64 maxRecordBytes);

    // The next record into fields(); false at the end or on an error (error() says
    // which, without the line: the caller adds line()). Empty lines are skipped.
    bool next();
    const std::vector<QByteArrayView> &fields() const { return m_fields; }
    qint64 line() const { return m_line; } // 1-based: the record's first line
    const QString &error() const { return m_error; }
    // The offset of the next record (how far the reading came).
    qsizetype position() const { return m_pos; }

private:
    QByteArrayView m_text;
    qint64 m_maxRecordBytes;
    qsizetype m_pos = 0;
    qint64 m_nextLine = 1;
    qint64 m_line = 0;
    std::vector<QByteArrayView> m_fields;
    QByteArray m_unescaped; // fields with "" in them, one after another
    QString m_error;
};

// A field without the spaces around it.
QByteArrayView trimmed(QByteArrayView field);

} // namespace Headroom::Import
