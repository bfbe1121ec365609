// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Long CSV: a row per sample, time, metric, labels, value [, unit, source, panel]: what
// Headroom's --export-csv writes, so that its export comes back as it went out.

#include "engine/import/importformats.h"
#include "engine/import/importvalues.h"

#include <QHash>
#include <cmath>

using namespace Qt::StringLiterals;

namespace Headroom::Import {

namespace {

struct LongColumns
{
    qsizetype time = -1, metric = -1, labels = -1, value = -1, unit = -1, source = -1, panel = -1;
};

// Headroom's --export-csv adds, after a panel's series, rows of the panel type's own view
// (query/csvexport.h): a USE matrix's cells, a stat's figures, a heatmap's buckets, a
// shard table's ranks, compare mode's earlier range. They are figures made from the
// series, not series: imported, they would come out again as series of their own.
bool isViewRow(const QString &metric, const Labels &labels)
{
    return labels.contains(u"compare"_s) || labels.contains(u"reduce"_s)
        || labels.contains(u"rank"_s)
        || (labels.contains(u"use"_s) && labels.contains(u"resource"_s))
        || (labels.contains(u"gt_ms"_s) && labels.contains(u"le_ms"_s))
        || metric == "shard.load.bucket"_L1;
}

LongColumns longColumns(const std::vector<QByteArrayView> &header)
{
    LongColumns c;
    for (size_t i = 0; i < header.size(); ++i) {
        const QByteArrayView name = trimmed(header[i]);
        qsizetype *slot = name == "time" ? &c.time
            : name == "metric"           ? &c.metric
            : name == "labels"           ? &c.labels
            : name == "value"            ? &c.value
            : name == "unit"             ? &c.unit
            : name == "source"           ? &c.source
            : name == "panel"            ? &c.panel
                                         : nullptr;
        if (slot && *slot < 0)
            *slot = qsizetype(i);
    }
    return c;
}

// A cell as csvText wrote it: a leading single quote before =, +, -, @, tab or CR was
// added against spreadsheet formulas and is not part of the text.
QString cellText(QByteArrayView field)
{
    if (field.size() >= 2 && field[0] == '\'') {
        const char c = field[1];
        if (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r')
            field = field.sliced(1);
    }
    return QString::fromUtf8(field);
}

} // namespace

bool isLongCsvHeader(const std::vector<QByteArrayView> &header)
{
    const LongColumns c = longColumns(header);
    return c.time >= 0 && c.metric >= 0 && c.value >= 0;
}

Result readLongCsv(CsvRecords &records, const Options &options, Sink *sink)
{
    Result result;
    result.format = Format::LongCsv;
    result.lines = 1;
    const Limits &limits = options.limits;
    const std::vector<QByteArrayView> header = records.fields();
    const LongColumns c = longColumns(header);
    // Series by their raw cells (source, metric, labels), so a row of a known series
    // costs no text conversion.
    QHash<QByteArray, int> seriesOfCells;
    QHash<SeriesKey, int> seriesOfKey;
    constexpr int ViewRow = -2; // in seriesOfCells: a row of a panel's view, left out
    QByteArray cells;
    auto field = [&](const std::vector<QByteArrayView> &fields, qsizetype column) {
        return column < 0 ? QByteArrayView() : fields[size_t(column)];
    };
    while (records.next()) {
        ++result.lines;
        const std::vector<QByteArrayView> &fields = records.fields();
        result.error = recordError(records, options, result.lines, limits.maxRows, header.size());
        if (!result.error.isEmpty())
            return result;
        qint64 ts = 0;
        const QByteArrayView timeText = trimmed(field(fields, c.time));
        if (!parseTime(timeText, &ts)) {
            result.error = lineError(
                options, records.line(),
                u"the time %1 is not a time (epoch seconds or "
                "milliseconds, or ISO 8601, from 1900 to 2200)"_s.arg(quoted(timeText)));
            return result;
        }
        // An empty value is how the export writes NaN: kept, so it goes out again.
        const QByteArrayView valueText = trimmed(field(fields, c.value));
        double value = qQNaN();
        if (!valueText.isEmpty() && !parseNumber(valueText, &value)) {
            result.error = lineError(options, records.line(),
                                     u"the value %1 is not a number"_s.arg(quoted(valueText)));
            return result;
        }
        cells.clear();
        for (qsizetype column : { c.source, c.metric, c.labels }) {
            cells.append(field(fields, column));
            cells.append('\x1f');
        }
        int series = seriesOfCells.value(cells, -1);
        if (series == ViewRow)
            continue;
        if (series < 0) {
            const QString metric = cellText(field(fields, c.metric));
            if (metric.isEmpty()) {
                result.error = lineError(options, records.line(), u"the metric is empty"_s);
                return result;
            }
            const QString labelText = cellText(field(fields, c.labels));
            bool ok = true;
            const Labels labels = labelText.isEmpty() ? Labels() : labelsFromString(labelText, &ok);
            if (!ok) {
                result.error = lineError(options, records.line(),
                                         u"the labels %1 are not {name=value,...}"_s.arg(
                                             quoted(field(fields, c.labels))));
                return result;
            }
            if (labels.size() > limits.maxLabels) {
                result.error = lineError(options, records.line(),
                                         u"more than %1 labels"_s.arg(limits.maxLabels));
                return result;
            }
            if (result.series >= limits.maxSeries) {
                result.error
                    = lineError(options, records.line(),
                                u"more than %1 series (label sets)"_s.arg(limits.maxSeries));
                return result;
            }
            if (c.panel >= 0 && isViewRow(metric, labels)) {
                seriesOfCells.insert(cells, ViewRow);
                continue;
            }
            const QString source = c.source >= 0 ? cellText(field(fields, c.source)) : QString();
            const auto mapped = options.map ? mapColumn(*options.map, metric) : std::nullopt;
            const SeriesInfo info
                = describeSeries(options, source.isEmpty() ? options.source : source, metric,
                                 labels, cellText(field(fields, c.unit)), mapped);
            // Cells written another way (quoted, labels in another order) are the same series.
            series = seriesOfKey.value(info.key, -1);
            if (series < 0) {
                series = sink->series(info);
                seriesOfKey.insert(info.key, series);
                ++result.series;
            }
            seriesOfCells.insert(cells, series);
        }
        if (++result.samples > limits.maxSamples) {
            result.error = lineError(options, records.line(),
                                     u"more than %1 samples"_s.arg(limits.maxSamples));
            return result;
        }
        sink->sample(series, ts, value);
    }
    if (!records.error().isEmpty()) {
        result.error = lineError(options, records.line(), records.error());
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace Headroom::Import
