// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The readers of each format behind readImport (importreader.h), one file each.
#pragma once

#include "engine/import/csvrecords.h"
#include "engine/import/importreader.h"

namespace Headroom::Import {

// A header naming time, metric and value columns (labels, unit, source, panel may be there).
bool isLongCsvHeader(const std::vector<QByteArrayView> &header);
// Both with the header record read.
Result readWideCsv(CsvRecords &records, const Options &options, Sink *sink);
Result readLongCsv(CsvRecords &records, const Options &options, Sink *sink);
Result readOpenMetrics(QByteArrayView data, const Options &options, Sink *sink);

// "FILE: line N: why".
inline QString lineError(const Options &options, qint64 line, const QString &why)
{
    return options.fileName + u": line " + QString::number(line) + u": " + why;
}

// Why the record `records` is on is refused, or "" when it is not: the rowsSoFar-th
// record (counting it) past maxRows, or a record whose number of fields is not the
// header's.
inline QString recordError(CsvRecords &records, const Options &options, qint64 rowsSoFar,
                           qint64 maxRows, size_t headerFields)
{
    if (rowsSoFar > maxRows)
        return lineError(options, records.line(), QStringLiteral("more than %1 rows").arg(maxRows));
    if (records.fields().size() != headerFields)
        return lineError(options, records.line(),
                         QStringLiteral("%1 fields where the header has %2")
                             .arg(records.fields().size())
                             .arg(headerFields));
    return {};
}

// A field quoted for a message, cut at 60 bytes.
QString quoted(QByteArrayView field);

} // namespace Headroom::Import
