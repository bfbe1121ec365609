// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Wide CSV: a time column and a column per series, rows in time order.

#include "engine/import/importformats.h"
#include "engine/import/importvalues.h"
#include "engine/import/seriesname.h"

#include <QHash>
#include <limits>

using namespace Qt::StringLiterals;

namespace Headroom::Import {

QString quoted(QByteArrayView field)
{
    const bool cut = field.size() > 60;
    return u'"' + QString::fromUtf8(field.first(std::min<qsizetype>(field.size(), 60)))
        + (cut ? u"…\""_s : u"\""_s);
}

namespace {

bool isTimeHeader(const QString &name)
{
    const QString n = name.trimmed().toLower();
    return n == "time"_L1 || n == "timestamp"_L1 || n == "ts"_L1 || n == "date"_L1
        || n == "datetime"_L1 || n.startsWith("time "_L1) || n.startsWith("time("_L1)
        || n == "clock"_L1;
}

bool isMissing(QByteArrayView value)
{
    return value.isEmpty() || value == "null" || value == "NULL" || value == "-" || value == "N/A";
}

} // namespace

Result readWideCsv(CsvRecords &records, const Options &options, Sink *sink)
{
    Result result;
    result.format = Format::WideCsv;
    result.lines = 1;
    const std::vector<QByteArrayView> header = records.fields();
    const Limits &limits = options.limits;
    if (qsizetype(header.size()) > limits.maxColumns) {
        result.error
            = lineError(options, records.line(),
                        u"%1 columns, more than the %2 an import may have"_s.arg(header.size())
                            .arg(limits.maxColumns));
        return result;
    }
    if (header.size() < 2) {
        result.error = lineError(options, records.line(),
                                 u"one column: a time and at least one series are needed (or "
                                 "a header time,metric,labels,value)"_s);
        return result;
    }
    QStringList names;
    for (QByteArrayView field : header)
        names.append(QString::fromUtf8(trimmed(field)));
    qsizetype timeColumn = -1;
    if (options.map && !options.map->timeColumn.isEmpty()) {
        timeColumn = names.indexOf(options.map->timeColumn);
        if (timeColumn < 0) {
            result.error = lineError(options, records.line(),
                                     u"no column is named \"%1\" (the map's time column)"_s.arg(
                                         options.map->timeColumn));
            return result;
        }
    } else {
        for (qsizetype i = 0; i < names.size() && timeColumn < 0; ++i)
            if (isTimeHeader(names.at(i)))
                timeColumn = i;
        if (timeColumn < 0)
            timeColumn = 0; // the first column, as spreadsheets and most tools have it
    }
    // Each other column's series, or -1 for one left out (an empty header).
    std::vector<int> seriesOf(header.size(), -1);
    QHash<SeriesKey, qsizetype> columnOfKey;
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (i == timeColumn || names.at(i).isEmpty())
            continue;
        const auto mapped = options.map ? mapColumn(*options.map, names.at(i)) : std::nullopt;
        const SeriesName name = seriesNameOfHeader(trimmed(header[size_t(i)]), limits.maxLabels);
        const SeriesInfo info
            = describeSeries(options, options.source, name.metric, name.labels, {}, mapped);
        if (const auto it = columnOfKey.constFind(info.key); it != columnOfKey.constEnd()) {
            result.error = lineError(
                options, records.line(),
                u"columns %1 and %2 are the same series (%3%4)"_s.arg(*it + 1).arg(i + 1).arg(
                    info.key.metric, labelsToString(info.key.labels)));
            return result;
        }
        if (info.key.labels.size() > limits.maxLabels) {
            result.error
                = lineError(options, records.line(),
                            u"column %1: more than %2 labels"_s.arg(i + 1).arg(limits.maxLabels));
            return result;
        }
        columnOfKey.insert(info.key, i);
        seriesOf[size_t(i)] = sink->series(info);
        ++result.series;
    }
    if (result.series > limits.maxSeries) {
        result.error
            = lineError(options, records.line(),
                        u"%1 series, more than the %2 an import may have"_s.arg(result.series)
                            .arg(limits.maxSeries));
        return result;
    }
    qint64 previousTs = std::numeric_limits<qint64>::min();
    sink->inTimeOrder();
    while (records.next()) {
        ++result.lines;
        const std::vector<QByteArrayView> &fields = records.fields();
        result.error = recordError(records, options, result.lines, limits.maxRows, header.size());
        if (!result.error.isEmpty())
            return result;
        qint64 ts = 0;
        const QByteArrayView timeText = trimmed(fields[size_t(timeColumn)]);
        if (!parseTime(timeText, &ts)) {
            result.error = lineError(
                options, records.line(),
                u"the time %1 is not a time (epoch seconds or "
                "milliseconds, or ISO 8601, from 1900 to 2200)"_s.arg(quoted(timeText)));
            return result;
        }
        if (ts < previousTs) {
            result.error = lineError(options, records.line(),
                                     u"the time %1 is earlier than the row before: rows must be "
                                     "in time order"_s.arg(quoted(timeText)));
            return result;
        }
        previousTs = ts;
        for (size_t i = 0; i < fields.size(); ++i) {
            if (seriesOf[i] < 0)
                continue;
            const QByteArrayView text = trimmed(fields[i]);
            if (isMissing(text))
                continue;
            double value;
            if (!parseNumber(text, &value)) {
                result.error = lineError(options, records.line(),
                                         u"column %1 (%2): %3 is not a number"_s.arg(i + 1).arg(
                                             names.at(qsizetype(i)), quoted(text)));
                return result;
            }
            if (++result.samples > limits.maxSamples) {
                result.error = lineError(options, records.line(),
                                         u"more than %1 samples"_s.arg(limits.maxSamples));
                return result;
            }
            sink->sample(seriesOf[i], ts, value);
        }
    }
    if (!records.error().isEmpty()) {
        result.error = lineError(options, records.line(), records.error());
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace Headroom::Import
