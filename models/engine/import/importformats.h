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

// A field quoted for a message, cut at 60 bytes.
QString quoted(QByteArrayView field);

} // namespace Headroom::Import
